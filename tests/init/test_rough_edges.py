"""Issue 31's rough edges from a new user's trial, one test each (README tree: tests/init/test_readme_tree.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.cli import app

REPO = Path(__file__).resolve().parents[2]
RUNNER = CliRunner()
PLATFORM_COMMAND = re.compile(r"(?<![\w-])(?<!run )osmosis (eval|train|dataset|auth) ")


def test_generated_config_comments_call_the_platform_cli_through_uv_run():
    # inside a workspace a bare `osmosis eval ...` reaches this checker (exit 2); the next steps say `uv run osmosis`
    offenders = [f"{path.relative_to(REPO)}:{n}: {line.strip()}"
                 for path in sorted(REPO.glob("templates/*/template/configs/**/*")) if path.is_file()
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if PLATFORM_COMMAND.search(line)]
    assert offenders == [], "\n".join(offenders)


def test_a_local_template_without_a_rollout_name_names_its_rollout_folder(tmp_path):
    template = tmp_path / "tpl"
    (template / "template/rollouts/thing").mkdir(parents=True)
    (template / "copier.yml").write_text("_subdirectory: template\ngreeting:\n  type: str\n  default: hi\n")
    (template / "template/rollouts/thing/main.py").write_text("print('{{ greeting }}')\n")
    (template / "template/rollouts/thing/pyproject.toml").write_text('[project]\nname = "thing"\nversion = "0.0.1"\n')
    result = RUNNER.invoke(app, ["init", str(tmp_path / "ws"), "--template", str(template), "--defaults", "--trust",
                                 "--no-git"])
    assert result.exit_code == 0, result.output
    assert "rollout thing)." in result.output
    assert str(template) not in result.output.split("Next steps:", 1)[1] and "rollouts//" not in result.output
    assert "uv run --project rollouts/thing --with pytest pytest rollouts/thing" in result.output


def test_the_rehearse_usage_line_reads_plainly():
    usage = RUNNER.invoke(app, ["rehearse", "--help"], terminal_width=200).output.splitlines()[0]
    assert usage.strip() == "Usage: osmosis rehearse [OPTIONS] [ROLLOUT...]"


def test_update_help_shows_its_default_once_and_the_conflict_choices():
    text = " ".join(RUNNER.invoke(app, ["update", "--help"], terminal_width=200).output.split())
    assert text.count("current folder") == 1 and "[default: (current folder)]" in text
    assert "--conflict [inline|rej]" in text


def test_a_misspelt_choice_in_data_gets_a_suggestion_at_once(tmp_path):
    started = time.perf_counter()
    result = RUNNER.invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git", "--data", "integration=strand"])
    took = time.perf_counter() - started
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == ("error: --data integration=strand: template multiply offers strands, "
                                             "openai-agents, harbor for integration; did you mean 'strands'?")
    assert "Traceback" not in result.output and not (tmp_path / "ws").exists()
    assert took < 5, took  # refused before any rendering


def test_the_blank_template_does_not_name_its_package_rollout_twice(make_workspace):
    ws = make_workspace(template="blank", name="blankws", git=False)
    [rollout] = [p for p in (ws / "rollouts").iterdir() if p.is_dir()]
    packages = sorted(p.parent.name for p in rollout.glob("*/__init__.py"))
    assert rollout.name == "my-rollout" and packages == ["my_rollout"], packages


def _completions(words: str) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    env = {"_OSMOSIS_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    result = RUNNER.invoke(app, [], prog_name="osmosis", env=env)
    assert result.exit_code == 0, result.output
    return result.output.split()


def test_shell_completion_offers_format_and_template_values():
    from osmosis_workspace.report import REPORTERS

    for command in ("doctor", "validate x", "dataset validate x"):
        assert _completions(f"osmosis {command} --format ") == list(REPORTERS), command
    assert _completions("osmosis doctor --format s") == ["sarif"]
    templates = _completions("osmosis init ws --template ")
    assert {"multiply", "llm-judge", "calculator-remote", "blank", "code", "multiply-openai"} <= set(templates)
    assert "workspace" not in templates  # the workspace template is not a --template choice
    assert all(t.startswith("multiply") for t in _completions("osmosis rollout new x --template mul"))
