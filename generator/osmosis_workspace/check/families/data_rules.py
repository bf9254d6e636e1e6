"""The datasets family's data checks: rules DAT026-DAT029, on what the rows hold rather than their format.

DAT026-DAT028 come from one file's rows, observed as the readers stream them
(osmosis_workspace.readers.datasets.profile says how, and where each threshold lies); DAT029 compares the
datasets an eval and a training config of one rollout name (osmosis_workspace.check.families.dataset_overlap).
"""

from __future__ import annotations

from osmosis_workspace.check.registry import Rule, family_rules
from osmosis_workspace.readers.datasets import profile

_rule = family_rules("datasets")

DUPLICATE_ROWS = _rule(
    "DAT026", "dataset-duplicate-rows", "warning",
    summary="Rows of one dataset repeat an earlier row's prompt (system prompt, user prompt and, in metadata mode, metadata); "
            "the count and the first lines are given.",
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
    summary=f"Rows whose label stands verbatim in their own system prompt (labels of {profile.LEAK_MIN_CHARS} characters or "
            f"more, as a whole token; at least {profile.LEAK_MIN_ROWS} rows and {profile.LEAK_SHARE:.0%} of the dataset). "
            "A system prompt listing the labels of rows with different answers (a list of choices) does not count.",
    why="The model can copy the answer from its instructions instead of working it out; the reward then measures copying.",
    fix="Take the answer out of the system prompt; keep the instructions and the answer's format there.",
    example='{"system_prompt": "Multiply. The answer is 391.", "user_prompt": "17 * 23", "ground_truth": "391"}',
    source="ours",
)  # fmt: skip
EVAL_IN_TRAINING = _rule(
    "DAT029", "dataset-eval-rows-in-training", "warning",
    summary="Rows of the dataset a rollout's eval config names also appear (same prompt) in the dataset its training config "
            "names, both local files under data/; the count and the first eval lines are given. Configs naming the same "
            "dataset are not compared.",
    why="An eval row the model trained on measures memory, not skill: the eval score rises with the leak, not with the policy.",
    fix="Remove the shared prompts from one of the two datasets (usually from the training set).",
    example='configs/eval/x.toml: dataset = "x-eval"; configs/training/x.toml: dataset = "x-train" (both holding "2 * 3")',
    source="ours",
)  # fmt: skip

# The finding kinds the readers' profile records, for osmosis_workspace.check.families.datasets.
KINDS: dict[str, Rule] = {
    "duplicate-rows": DUPLICATE_ROWS,
    "dominant-label": DOMINANT_LABEL,
    "label-in-system-prompt": LABEL_IN_SYSTEM_PROMPT,
}
