"""The datasets family's data checks: rules DAT026-DAT030, on what the rows hold rather than their format.

DAT026-DAT028 and DAT030 come from one file's rows, observed as the readers stream them
(osmosis_workspace.readers.datasets.profile says how, and where each threshold lies); DAT029 compares the
datasets an eval and a training config of one rollout name (osmosis_workspace.check.families.dataset_overlap).
"""

from __future__ import annotations

from osmosis_workspace.check.registry import Rule, family_rules
from osmosis_workspace.readers.datasets import profile

_rule = family_rules("datasets")

DUPLICATE_ROWS = _rule(
    "DAT026", "dataset-duplicate-rows", "warning",
    summary="Rows of one dataset repeat an earlier row's prompt (system prompt, user prompt and, in metadata mode, metadata), "
            "the prompts compared ignoring case, runs of whitespace and prose punctuation (. , ; : ! ? quotes), so near-duplicates "
            "count; the count and the first lines are given.",
    why="A repeated prompt is trained on more often than the others, and one prompt with two different answers rewards "
        "both; in an eval set a repeat counts the same question twice.",
    fix="Keep one row per prompt (for JSON lines: `sort -u` keeps whole distinct lines; repeats with different answers need a choice).",
    example='{"user_prompt": "2 * 3", "ground_truth": "6"}\n{"user_prompt": "2 * 3", "ground_truth": "6"}',
    source="ours",
)  # fmt: skip
DOMINANT_LABEL = _rule(
    "DAT027", "dataset-dominant-label", "warning",
    summary=f"One label (`ground_truth`) covers at least {profile.DOMINANT_SHARE:.0%} of a dataset's rows (of "
            f"{profile.DOMINANT_MIN_ROWS} labelled rows or more); the finding says what a constant answer would earn.",
    why="Reinforcement learning finds the answer that pays most often: a model that always answers the common label earns "
        "that share of an exact-match reward without solving the task, and the run looks like it learns.",
    fix="Balance the labels (add rows of the others or sample the common one down), or grade so that a constant answer cannot score.",
    example='90 rows {"user_prompt": "...", "ground_truth": "yes"} and 10 with "no"',
    source="ours",
)  # fmt: skip
LABEL_IN_SYSTEM_PROMPT = _rule(
    "DAT028", "dataset-label-in-system-prompt", "warning",
    summary=f"Rows whose label stands verbatim in their own system prompt (as a whole token) or user prompt (in any case, "
            f"as a whole phrase); labels of {profile.LEAK_MIN_CHARS} characters or more, at least {profile.LEAK_MIN_ROWS} "
            f"rows and {profile.LEAK_SHARE:.0%} of the dataset, one finding for system prompts and one for user prompts. "
            "A label the prompt lists among choices (\"A) Paris B) Lyon\", \"options: cat, dog\", or a system prompt holding the "
            "labels of rows with different answers) does not count.",
    why="The model can copy the answer from its prompt instead of working it out; the reward then measures copying. "
        f"Short labels (fewer than {profile.LEAK_MIN_CHARS} characters once case, spacing and punctuation are set aside: "
        "\"A\", \"7\", \"no\") turn up in any text by chance, so a match says nothing and is not counted; nor is a class "
        f"label in a user prompt (one that {profile.CLASS_MIN_ROWS} rows and {profile.CLASS_SHARE:.0%} of the labelled rows "
        "share, such as \"positive\"): a question may name a class without giving the answer away.",
    fix="Take the answer out of the prompt; keep the instructions and the answer's format in the system prompt.",
    example='{"system_prompt": "Multiply. The answer is 391.", "user_prompt": "17 * 23", "ground_truth": "391"}\n'
            '{"user_prompt": "What is the capital of France? (Paris)", "ground_truth": "Paris"}',
    source="ours",
)  # fmt: skip
EVAL_IN_TRAINING = _rule(
    "DAT029", "dataset-eval-rows-in-training", "warning",
    summary="Rows of the dataset a rollout's eval config names also appear (same prompt, compared as DAT026 compares them: "
            "case, whitespace and prose punctuation aside) in the dataset its training config names, both local files under data/; the count and the first eval lines are given. Configs naming the same "
            "dataset are not compared.",
    why="An eval row the model trained on measures memory, not skill: the eval score rises with the leak, not with the policy.",
    fix="Remove the shared prompts from one of the two datasets (usually from the training set).",
    example='configs/eval/x.toml: dataset = "x-eval"; configs/training/x.toml: dataset = "x-train" (both holding "2 * 3")',
    source="ours",
)  # fmt: skip

LABEL_OFF_OPTIONS = _rule(
    "DAT030", "dataset-label-off-options", "warning",
    summary="Rows whose label, or an item of a list label (a JSON list in `ground_truth`), is not among the options their "
            "system prompt clearly lists as a closed set (\"Choose from: a, b, c\", \"one of: ...\", \"Tags: [a, b]\", "
            "\"Options: A) .. B) ..\", a bulleted or numbered list after such a lead-in); free-form prompts are not judged.",
    why="A model that keeps to the options it was given can never earn such a row's reward, and one that learns to step "
        "outside them is rewarded for ignoring its instructions.",
    fix="Add the label to the list the prompt offers, or fix the label.",
    example='{"system_prompt": "Tag the item. Choose from: pets, food, travel.", "user_prompt": "A sofa", "ground_truth": "furniture"}',
    source="ours",
)  # fmt: skip

# The finding kinds the readers' profile records, for osmosis_workspace.check.families.datasets.
KINDS: dict[str, Rule] = {
    "duplicate-rows": DUPLICATE_ROWS,
    "dominant-label": DOMINANT_LABEL,
    "label-in-system-prompt": LABEL_IN_SYSTEM_PROMPT,
    "label-in-user-prompt": LABEL_IN_SYSTEM_PROMPT,
    "label-off-options": LABEL_OFF_OPTIONS,
}
