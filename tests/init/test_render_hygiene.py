"""What a render must not carry into a workspace, and how it ends when the user interrupts it.

pip byte-compiles every .py file it installs, including the bundled templates' own rollout code, so an
installed template folder holds `__pycache__/*.pyc`. copier drops those only for templates without a
`_subdirectory`, and ours all use one: the render itself has to leave them out.
"""

from __future__ import annotations

import subprocess

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import osmosis_workspace.scaffold.init_workspace
from osmosis_workspace.scaffold import catalog
from osmosis_workspace.core import resources
from osmosis_workspace.cli import app
from osmosis_workspace.scaffold.render import render

RUNNER = CliRunner()


def compiled_files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.name == "__pycache__" or p.suffix in {".pyc", ".pyo"})


def with_bytecode(template: Path) -> Path:
    """Plant what `pip install` leaves beside the template's Python files."""
    for py in list(template.rglob("*.py")):
        cache = py.parent / "__pycache__"
        cache.mkdir(exist_ok=True)
        (cache / f"{py.stem}.cpython-311.pyc").write_bytes(b"\x00stale bytecode")
    return template


@pytest.fixture
def installed_like_templates(tmp_path, monkeypatch):
    """The bundled templates as pip leaves them (with bytecode), used by init / rollout new."""
    copy = tmp_path / "site" / "templates"
    shutil.copytree(resources.templates_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    for template in copy.iterdir():
        with_bytecode(template)
    assert compiled_files(copy / "llm-judge") and compiled_files(copy / "calculator-remote")
    monkeypatch.setattr(resources, "templates_dir", lambda: copy)
    catalog.bundled_templates.cache_clear()
    yield copy
    catalog.bundled_templates.cache_clear()


def test_render_leaves_out_bytecode_of_the_template(tmp_path):
    template = with_bytecode(shutil.copytree(resources.templates_dir() / "multiply", tmp_path / "tpl",
                                             ignore=shutil.ignore_patterns("__pycache__")))
    out = tmp_path / "out"
    assert compiled_files(template)
    render(template, out, data={"rollout_name": "mul"}, defaults=True)
    assert (out / "rollouts/mul/mul_rollout/scoring.py").is_file()
    assert compiled_files(out) == []


def test_init_and_rollout_new_from_installed_templates_write_no_bytecode(tmp_path, installed_like_templates):
    ws = tmp_path / "ws"
    result = RUNNER.invoke(app, ["init", str(ws), "--template", "llm-judge", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    result = RUNNER.invoke(app, ["rollout", "new", "calc", "--template", "calculator-remote", "--defaults",
                                "--workspace", str(ws)])
    assert result.exit_code == 0, result.output
    assert (ws / "rollouts/calc/calc_rollout/tools.py").is_file()
    assert "__pycache__" not in result.output  # the list of created files names none either
    assert compiled_files(ws) == []


def test_ctrl_c_during_the_first_commit_leaves_nothing(tmp_path, monkeypatch):
    def interrupted(target, **kwargs):
        subprocess.run(["git", "init", "-q", str(target)], check=True)
        subprocess.run(["git", "add", "-A"], cwd=target, check=True)  # `git init` and `git add` done, the commit not yet
        raise KeyboardInterrupt

    monkeypatch.setattr(osmosis_workspace.scaffold.init_workspace, "make_first_commit", interrupted)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        osmosis_workspace.scaffold.init_workspace.init_command(path=Path("ws"), template="multiply", defaults=True, data=[],
                                              here=False, force=False, no_git=False, trust=False)
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_during_the_first_commit_keeps_only_the_users_files(tmp_path, monkeypatch):
    target = tmp_path / "mine"
    (target / "notes").mkdir(parents=True)
    (target / "notes" / "plan.md").write_text("my plan\n")
    (target / "README.md").write_text("my readme\n")

    def interrupted(folder, **kwargs):
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(osmosis_workspace.scaffold.init_workspace, "make_first_commit", interrupted)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        osmosis_workspace.scaffold.init_workspace.init_command(path=Path("mine"), template="multiply", defaults=True, data=[],
                                              here=False, force=True, no_git=False, trust=False)
    left = sorted(p.relative_to(target).as_posix() for p in target.rglob("*"))
    assert left == ["README.md", "notes", "notes/plan.md"]
    assert (target / "README.md").read_text() == "my readme\n"


def test_next_steps_quote_a_path_with_spaces(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "with space").mkdir()
    result = RUNNER.invoke(app, ["init", "with space/ws 1", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    assert "  cd 'with space/ws 1'\n" in result.output
    assert (tmp_path / "with space" / "ws 1" / "AGENTS.md").is_file()


def test_ctrl_c_at_a_question_prints_no_internals_and_leaves_nothing(tmp_path):
    from test_init_interactive import ENTER, converse

    code, screen = converse(["init", "--no-git"], tmp_path, [("Workspace name", ENTER), ("One line", "\x03")])
    assert code == 130, screen
    assert "AnswersMap" not in screen and "Traceback" not in screen and "error:" not in screen
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_a_user_error_not_a_bug(tmp_path, monkeypatch):
    import tempfile

    real_mkdtemp = tempfile.mkdtemp
    locked = tmp_path / "locked"
    locked.mkdir()

    def denied(*args, **kwargs):
        where = kwargs.get("dir", args[2] if len(args) > 2 else None)
        if where is not None and Path(where) == locked:
            raise PermissionError(1, "Operation not permitted", str(Path(where) / ".osmosis-x"))
        return real_mkdtemp(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkdtemp", denied)
    result = RUNNER.invoke(app, ["init", str(locked / "ws"), "--defaults", "--no-git"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: cannot write in {locked}: Operation not permitted")
    assert "internal error" not in result.output
    assert list(locked.iterdir()) == []

    ws = tmp_path / "ws"
    result = RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    locked = ws
    result = RUNNER.invoke(app, ["rollout", "new", "adder", "--defaults", "--workspace", str(ws)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: cannot write in {ws}: Operation not permitted")
    assert not (ws / "rollouts" / "adder").exists()
