"""AGENTS.md is the one file every coding agent reads: it must describe every kind of rollout the
bundled templates render (any of them can join a workspace later through `osmosis rollout new`)."""

from __future__ import annotations

import pytest

from osmosis_workspace.scaffold import catalog

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROLLOUT_TEMPLATES = [t.name for t in catalog.rollout_templates()]


@pytest.fixture(scope="module")
def agents_md(tmp_path_factory):
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    ws = tmp_path_factory.mktemp("agents") / "ws"
    result = CliRunner().invoke(app, ["init", str(ws), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    return ws, (ws / "AGENTS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("template", ROLLOUT_TEMPLATES)
def test_agents_md_names_the_entrypoint_and_scoring_module_of_every_template(agents_md, template, tmp_path):
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    _, text = agents_md
    ws = tmp_path / "ws"
    assert CliRunner().invoke(app, ["init", str(ws), "--template", template, "--defaults", "--no-git"]).exit_code == 0
    # default.toml is the commented reference with placeholders, not the rollout's config
    config = tomllib.loads(next(p for p in (ws / "configs" / "eval").glob("*.toml") if p.name != "default.toml").read_text())["experiment"]
    assert f"rollouts/<rollout>/{config['entrypoint']}" in text, config["entrypoint"]
    rollout_dir = ws / "rollouts" / config["rollout"]
    # beside main.py, or in the rollout's package (`<rollout>_rollout/`)
    modules = [*rollout_dir.glob("*.py"), *rollout_dir.glob("*_rollout/*.py")]
    scoring = [p.name for p in modules if p.name in {"grading.py", "judge.py", "rewards.py"}]
    assert scoring, sorted(p.name for p in rollout_dir.iterdir())
    for name in scoring:
        assert name in text, name


def test_agents_md_describes_the_custom_loop_and_what_became_of_the_remote_server(agents_md):
    # 0.3 has no remote rollout server: its place is a custom loop over the rollout context's endpoint,
    # and an agent meeting an old server.py must learn that it is 0.2 code to port.
    _, text = agents_md
    for needle in ("get_rollout_context().chat_completions_url", "api_key", "RolloutAgentLoop", "create_app(agent_loop)",
                   "0.2.7-0.2.17"):
        assert needle in text, needle
    assert "osmosis serve" not in text


def test_agent_files_fit_codex_project_doc_limit(agents_md):
    # Codex reads AGENTS.md files from the repository root down to the working folder and stops at
    # 32 KiB in all (project_doc_max_bytes); an agent working in configs/ reads both.
    ws, text = agents_md
    both = len(text.encode("utf-8")) + len((ws / "configs" / "AGENTS.md").read_bytes())
    assert both < 32 * 1024, both


def test_agent_files_state_the_automation_conventions(agents_md):
    ws, text = agents_md
    for needle in ("--json", "--format json", "INTERACTIVE_REQUIRED", "Exit 0", "--yes", "explicit yes",
                   "osmosis secret set", "configs/benchmark/", "model deploy", ".osmosis/template.json", ".osmosis/template-ignore"):
        assert needle in text, needle
    gate = text[text.index("## The loop"):text.index("## Entrypoint rules")]
    assert "only after a managed evaluation" in gate
    claude = (ws / "CLAUDE.md").read_text(encoding="utf-8")
    assert "@AGENTS.md" in claude and "explicit yes" in claude
    configs = (ws / "configs" / "AGENTS.md").read_text(encoding="utf-8")
    for table in ("[experiment]", "[evaluation]", "[training]", "[sampling]", "[checkpoints]", "[[agents]]",
                  "[execution]", "[verifier]", "default.toml"):
        assert table in configs, table


def test_agents_md_warns_that_both_clis_are_called_osmosis(agents_md):
    _, text = agents_md
    assert "osmosis-workspace doctor" in text


def test_workspace_readme_warns_before_installing_the_platform_cli(agents_md):
    ws, _ = agents_md
    readme = (ws / "README.md").read_text(encoding="utf-8")
    install = readme.index("`osmosis-ai` with its `eval` extra")
    around = readme[install - 600: install + 800]
    assert "osmosis-workspace doctor" in around and "`uv sync` does not install the checker" in around


def test_workspace_readme_quick_start_installs_what_its_commands_run(agents_md):
    ws, _ = agents_md
    readme = (ws / "README.md").read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start"):readme.index("Two packages, two places")]
    # `osmosis doctor`, installed as the generated CI installs it (checker_source, default: this version from PyPI)
    from osmosis_workspace import __version__

    assert f'pip install "osmosis-workspace=={__version__}"' in quick_start
    # the tests run in the rollout's own locked environment (its dev group brings pytest; `--with`
    # brings it where a third party's rollout has none): the one form every page writes
    assert "uv run --project rollouts/<rollout> --with pytest pytest rollouts/<rollout>" in quick_start
    import tomllib

    for pyproject in ws.glob("rollouts/*/pyproject.toml"):
        dev = tomllib.loads(pyproject.read_text(encoding="utf-8"))["dependency-groups"]["dev"]
        assert any(item.startswith("pytest") for item in dev), (pyproject, dev)
