"""Issue 21, point 3: what the bundled guidance (skills, AGENTS.md, configs/AGENTS.md, the templates)
says agrees with itself and with the tools. The SDK side of the same claims (the error codes the real
CLI answers with) is tested in tests/sdk_real/test_guidance_codes.py."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEXT = (".md", ".jinja", ".toml", ".yml", ".py")


def bundled_text() -> dict[str, str]:
    files = [p for root in (REPO / "skills", REPO / "templates") for p in root.rglob("*")
             if p.is_file() and p.name.endswith(TEXT) and "uv.lock" not in p.name and "__pycache__" not in p.parts]
    assert len(files) > 50
    return {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in files}


def test_one_model_example_per_role():
    """One policy model to train and one evaluation model everywhere: an agent copying an example
    from one page must not meet another model on the next (the judge of llm-judge is its own role)."""
    texts = bundled_text().values()
    training = {m for text in texts for m in re.findall(r"Qwen/[\w.-]+", text)}
    evaluation = {m for text in texts for m in re.findall(r"openai/gpt-[\w.-]+", text)}
    # the platform's list of the models it trains (issue 29: carried over from its training default)
    # names a second one; every example to copy names the first
    assert training == {"Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.5-122B-A10B"}, training
    examples = {m for text in texts for m in re.findall(r"model_path\s*=\s*\"(Qwen/[^\"]+)\"", text)}
    assert examples == {"Qwen/Qwen3.6-35B-A3B"}, examples
    assert evaluation == {"openai/gpt-5-mini"}, evaluation


def test_agents_md_counts_eval_run_among_the_paid_actions_and_scopes_the_static_rule():
    text = (REPO / "templates/workspace/template/AGENTS.md.jinja").read_text(encoding="utf-8")
    money = text.split("- **Money.**", 1)[1].split("\n- ", 1)[0]
    assert "`eval run` spends the user's own provider key" in " ".join(money.split())
    assert "Never import or run user code" not in text  # doctor's rule, not the agent's: the agent runs pytest
    assert "that is their rule, not yours" in " ".join(text.split())


def test_what_to_commit_agrees_with_the_gitignore():
    agents = " ".join((REPO / "templates/workspace/template/AGENTS.md.jinja").read_text(encoding="utf-8").split())
    ignore = (REPO / "templates/workspace/template/.gitignore").read_text(encoding="utf-8").splitlines()
    assert "Commit every `uv.lock`" in agents and "Do not commit `.osmosis/evals/`" in agents
    assert ".osmosis/evals/" in ignore and not any(line.strip() in ("uv.lock", "*.lock") for line in ignore)


def test_workspace_required_is_never_said_to_mean_a_missing_folder():
    """The SDK answers WORKSPACE_REQUIRED only outside any git work tree; a missing folder or `origin`
    is VALIDATION (osmosis_ai/platform/cli/workspace_directory_contract.py)."""
    for rel, text in bundled_text().items():
        for line in text.splitlines():
            if "WORKSPACE_REQUIRED" in line and "VALIDATION" not in line:
                assert not re.search(r"folder (is )?missing|missing folder|required folder", line), f"{rel}: {line}"


def test_the_skills_say_to_run_ruff_and_how_to_test_a_grader():
    create = (REPO / "skills/create-rollouts/SKILL.md").read_text(encoding="utf-8")
    # `--with`: the platform template's root and rollouts do not list ruff or pytest (issue 29)
    assert "uv run --with ruff ruff format rollouts/" in create and "uv run --with ruff ruff check rollouts/" in create
    assert "GraderContext(label=" in create and "RolloutSample(messages=" in create
    assert (REPO / "templates/multiply/template/rollouts/{{ rollout_name }}/tests/test_grader.py.jinja").is_file()
