"""The bundled skills' content: each stage names its commands, and its code and config examples parse."""

from __future__ import annotations

import ast
import re
import sys

import pytest

from generator.resources import SKILL_NAMES, skills_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# What an agent at each stage must be told (contract sections 2-6).
MUST_MENTION = {
    "plan-training": ["osmosis dataset validate", "osmosis template list", "user_prompt", "ground_truth", "create-rollouts"],
    "create-rollouts": ["osmosis rollout new", "--template", "cd rollouts/", "python -m pytest", "osmosis doctor",
                        "set_sample_reward", "evaluate-rollouts"],
    "evaluate-rollouts": ["osmosis validate", "osmosis eval run", "--limit", "osmosis eval submit", "osmosis eval info",
                          "osmosis auth login", "git push"],
    "debug-rollouts": ["osmosis doctor", "osmosis validate", "--fix", "osmosis eval run",
                       "`LAY`", "`CFG`", "`SEC`", "`ENT`", "`DAT`", "`SKL`", "`GIT`"],
    "submit-training": ["osmosis train submit", "osmosis validate", "git push", "osmosis auth login", "Git Sync"],
}


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
            if lang == "python":
                ast.parse(block, filename=str(path))
            elif lang == "toml":
                tomllib.loads(block)


def test_entrypoint_patterns_use_the_documented_sdk_names():
    text = (skills_dir() / "create-rollouts" / "references" / "entrypoint-patterns.md").read_text(encoding="utf-8")
    for phrase in [
        "async def run(self, ctx: AgentWorkflowContext)",
        "async def grade(self, ctx: GraderContext)",
        "OsmosisStrandsAgent(",
        "model=OsmosisRolloutModel(params=",
        "messages=ctx.prompt",
        "await agent.invoke_async()",
        "from osmosis_ai.rollout.integrations.agents.openai_agents import",
        "session=OsmosisMemorySession(name=",
        "from osmosis_ai.rollout.backend.harbor import HarborBackend",
        "orchestrator=TrialQueue(n_concurrent=",
        "LocalBackend(",
        "app = create_rollout_server(backend=backend)",
        "ROLLOUT_PORT",
        # calculator-remote: a custom loop over the rollout's endpoint (0.3), not a 0.2 remote server
        "get_rollout_context().chat_completions_url",
        "class CalculatorWorkflow(AgentWorkflow)",
        "AgentWorkflowOutput(messages=",
        'type == "output_text"',
    ]:
        assert phrase in text, phrase


@pytest.mark.parametrize(
    "kind, reference",
    [("eval", "evaluate-rollouts/references/eval-config.md"), ("training", "submit-training/references/training-config.md")],
)
def test_config_examples_pass_our_config_check(tmp_path, kind, reference):
    # The skills teach agents what a config looks like: the example must be one `osmosis validate` accepts.
    from generator.checks.configs import check_config_file

    example = re.search(r"```toml\n(.*?)```", (skills_dir() / reference).read_text(encoding="utf-8"), re.S).group(1)
    path = tmp_path / f"{kind}.toml"
    path.write_text(example, encoding="utf-8")
    assert check_config_file(path, kind, None, path.name) == []
