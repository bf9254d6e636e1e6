"""The bundled skills' content: each stage names its commands, and its code and config examples parse."""

from __future__ import annotations

import ast
import re
import sys
import textwrap

import pytest

from osmosis_workspace.core.resources import SKILL_NAMES, skills_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# What an agent at each stage must be told (contract sections 2-6, SDK 0.3).
MUST_MENTION = {
    "plan-training": ["osmosis dataset validate", "osmosis template list", "osmosis --json model list --type base",
                      "user_prompt", "ground_truth", "create-rollouts", "plan-eval", "submit-training"],
    "plan-eval": ["configs/eval/default.toml", "osmosis validate", "limit", "pass_threshold", "submit-eval",
                  "osmosis dataset upload"],
    "create-rollouts": ["osmosis rollout new", "--template", "--with pytest pytest rollouts/", "osmosis doctor",
                        "ctx.sample", "ctx.set_reward", "_OSMOSIS_ROLLOUT_PORT", "configs/eval/default.toml",
                        "configs/training/default.toml", "evaluate-rollouts"],
    "evaluate-rollouts": ["osmosis --json eval run", "--dataset-file", "--rows", "osmosis validate",
                          "osmosis eval upload", "submit-eval"],
    "debug-rollouts": ["osmosis doctor", "osmosis validate", "--fix", "--format json", "osmosis --json eval run",
                       "`LAY`", "`CFG`", "`SEC`", "`ENT`", "`DAT`", "`SKL`", "`GIT`"],
    "submit-eval": ["osmosis --json eval submit", "--yes", "INTERACTIVE_REQUIRED", "osmosis --json eval info",
                    "git push", "Git Sync", "osmosis --json secret list", "WORKSPACE_REQUIRED"],
    "submit-training": ["osmosis --json train submit", "--yes", "osmosis --json eval info", "osmosis validate",
                        "git push", "configs/training/default.toml", "INTERACTIVE_REQUIRED"],
    "submit-benchmarks": ["osmosis --json benchmark submit", "osmosis --json benchmark list",
                          "configs/benchmark/default.toml", "osmosis --json benchmark runs info", "--yes"],
    "deploy-models": ["osmosis --json model deploy", "osmosis --json model undeploy",
                      "osmosis --json model list --type lora", "osmosis --json model info"],
}

# Paid actions (contract section 6; the platform CLI's confirmation prompts): every skill that runs one
# says the user decides first.
PAID = {"submit-eval": "eval submit", "submit-training": "train submit", "submit-benchmarks": "benchmark submit",
        "deploy-models": "model deploy"}

# The four failure buckets the debugging material covers, each by a phrase only that bucket needs.
FAILURE_BUCKETS = {"Harbor migration": "tasks_dir=", "SDK version mismatch": "UPGRADE_REQUIRED",
                   "local upload": "osmosis eval upload", "workspace scope": "--workspace <name>"}


def _skill_text(name: str) -> str:
    return (skills_dir() / name / "SKILL.md").read_text(encoding="utf-8")


def _all_files(name: str) -> list:
    return sorted(p for p in (skills_dir() / name).rglob("*.md"))


@pytest.mark.parametrize("name", SKILL_NAMES)
def test_description_says_what_and_when(name):
    description = re.search(r"^description: (.+)$", _skill_text(name), re.M).group(1)
    assert re.search(r"\bUse (when|at|once|after)\b", description), "say when to use the skill"
    assert len(description) <= 1024


@pytest.mark.parametrize("name", SKILL_NAMES)
def test_skill_names_its_stage_commands(name):
    text = _skill_text(name)
    missing = [phrase for phrase in MUST_MENTION[name] if phrase not in text]
    assert not missing, f"{name}/SKILL.md does not mention {missing}"
    assert "## Done when" in text and "## Common problems" in text


@pytest.mark.parametrize("name", SKILL_NAMES)
def test_body_stays_short_and_links_a_reference(name):
    text = _skill_text(name)
    assert len(text.split("---", 2)[2].strip().splitlines()) < 500
    assert re.search(r"\]\(references/[\w.-]+\.md\)", text)


@pytest.mark.parametrize("name", SKILL_NAMES)
def test_code_and_config_examples_parse(name):
    for path in _all_files(name):
        text = path.read_text(encoding="utf-8")
        for lang, block in re.findall(r"```(\w*)\n(.*?)```", text, re.S):
            block = textwrap.dedent(block)  # a fence inside a list item is indented with the item
            if lang == "python":
                ast.parse(block, filename=str(path))
            elif lang == "toml":
                tomllib.loads(block)


def test_entrypoint_patterns_use_the_sdk_0_3_names():
    text = (skills_dir() / "create-rollouts" / "references" / "entrypoint-patterns.md").read_text(encoding="utf-8")
    for phrase in [
        "async def run(self, ctx: AgentWorkflowContext)",
        "async def grade(self, ctx: GraderContext)",
        "from osmosis_ai.rollout.integrations.agents.strands import OsmosisRolloutModel, OsmosisStrandsAgent",
        "from osmosis_ai.rollout.server import create_rollout_server",
        "model=OsmosisRolloutModel(params=",
        "messages=ctx.prompt",
        "await agent.invoke_async()",
        "from osmosis_ai.rollout.integrations.agents.openai_agents import",
        "session = OsmosisMemorySession()",
        "ctx.set_reward(",
        "ctx.sample",
        "get_rollout_context()",
        "chat_completions_url",
        "from osmosis_ai.rollout.backend.harbor import HarborBackend",
        "orchestrator=TrialQueue(n_concurrent=",
        "tasks_dir=",
        "code_dir=",
        "lifespan=backend.prewarm_lifespan()",
        "LocalBackend(",
        "app = create_rollout_server(backend=backend)",
        "_OSMOSIS_ROLLOUT_PORT",
        "ROLLOUT_PORT",
        "AgentWorkflowOutput(messages=",
        'type == "output_text"',
    ]:
        assert phrase in text, phrase


def test_no_skill_teaches_the_0_2_api_except_as_the_thing_to_replace():
    # 0.2 names may appear only in the migration material, where they sit beside their 0.3 replacement.
    stale = re.compile(r"set_sample_reward|ctx\.samples\b|OsmosisMemorySession\(name=|--limit\b|\bROLLOUT_PORT\b")
    for path in sorted(skills_dir().rglob("*.md")):
        if path.name == "failure-buckets.md":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if stale.search(line) and not re.search(r"0\.2|0\.3|No such option", line):
                raise AssertionError(f"{path}:{number}: 0.2 API taught as current: {line.strip()}")


@pytest.mark.parametrize("name, command", sorted(PAID.items()))
def test_paid_actions_wait_for_the_users_yes(name, command):
    text = _skill_text(name)
    assert f"osmosis --json {command}" in text
    assert re.search(r"explicit yes", text), f"{name} must say the user's explicit yes comes first"
    # the command line with --yes appears only after the sentence that asks
    first_yes_flag = min((m.start() for m in re.finditer(rf"{command}[^\n`]*--yes", text)), default=None)
    if first_yes_flag is not None:
        assert text.index("explicit yes") < first_yes_flag


def test_training_is_gated_on_a_passed_managed_evaluation():
    text = _skill_text("submit-training")
    gates = text[text.index("## Gates"):text.index("## Steps")]
    assert "managed evaluation" in gates and "osmosis eval submit" in gates and "every row" in gates


@pytest.mark.parametrize("bucket, phrase", sorted(FAILURE_BUCKETS.items()))
def test_debugging_material_covers_the_failure_buckets(bucket, phrase):
    text = (skills_dir() / "debug-rollouts" / "references" / "failure-buckets.md").read_text(encoding="utf-8")
    assert phrase in text, bucket


@pytest.mark.parametrize(
    "kind, reference",
    [("eval", "evaluate-rollouts/references/eval-config.md"), ("training", "submit-training/references/training-config.md")],
)
def test_config_examples_pass_our_config_check(tmp_path, kind, reference):
    # The skills teach agents what a config looks like: the example must be one `osmosis validate` accepts.
    from osmosis_workspace.check.families.configs import check_config_file

    example = re.search(r"```toml\n(.*?)```", (skills_dir() / reference).read_text(encoding="utf-8"), re.S).group(1)
    path = tmp_path / f"{kind}.toml"
    path.write_text(example, encoding="utf-8")
    assert check_config_file(path, kind, None, path.name) == []
