"""`osmosis init` end to end through the CLI (typer's runner), plus one real subprocess run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from typer.testing import CliRunner

from osmosis_workspace.cli import app

REPO = Path(__file__).resolve().parents[2]
RUNNER = CliRunner()

ROOT_FILES = ["AGENTS.md", "CLAUDE.md", "README.md", "pyproject.toml", ".gitignore", ".env.example",
              ".copier-answers.yml", ".github/workflows/osmosis.yml", "configs/AGENTS.md",
              ".osmosis/schemas/eval.schema.json", ".osmosis/schemas/training.schema.json",
              ".osmosis/schemas/dataset.schema.json"]


def rollout_files(r: str) -> list[str]:
    package = f"rollouts/{r}/{r.replace('-', '_')}_rollout"
    return [f"rollouts/{r}/main.py", f"{package}/workflow.py", f"{package}/grader.py", f"{package}/scoring.py",
            f"rollouts/{r}/pyproject.toml", f"rollouts/{r}/README.md", f"rollouts/{r}/tests/test_scoring.py",
            f"rollouts/{r}/.copier-answers.yml",
            f"configs/eval/{r}.toml", f"configs/training/{r}.toml", f"data/{r}.jsonl"]


def init(*args: str):
    return RUNNER.invoke(app, ["init", *args])


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_defaults_render_the_whole_workspace_and_commit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = init("--defaults")
    assert result.exit_code == 0, result.output
    ws = tmp_path / "my-workspace"  # no PATH: a new folder named after the (default) workspace name
    for rel in ROOT_FILES + rollout_files("multiply"):
        assert (ws / rel).is_file(), rel
    assert "@AGENTS.md" in (ws / "CLAUDE.md").read_text().splitlines()
    pyproject = tomllib.loads((ws / "pyproject.toml").read_text())
    # Rollouts are uv projects of their own, each with the lock the tests ran: no root membership.
    assert "workspace" not in pyproject["tool"]["uv"]
    assert (ws / "uv.lock").is_file() and (ws / "rollouts/multiply/uv.lock").is_file()
    assert 'name = "multiply"\n' in (ws / "rollouts/multiply/uv.lock").read_text()
    assert 'name = "my-workspace"\n' in (ws / "uv.lock").read_text()
    assert pyproject["project"]["name"] == "my-workspace"
    assert "# [tool.osmosis]" in (ws / "pyproject.toml").read_text()
    assert git(ws, "status", "--porcelain") == ""
    assert git(ws, "log", "--format=%s").strip() == "Create Osmosis workspace with osmosis init"
    assert "osmosis doctor" in result.output and "osmosis --json eval run configs/eval/multiply.toml --dataset-file data/multiply.jsonl --rows 0-4" in result.output
    assert "osmosis --json train submit configs/training/multiply.toml" in result.output
    # the staging folder is gone and nothing else was written beside the workspace
    assert [p.name for p in tmp_path.iterdir()] == ["my-workspace"]


def test_answers_files_record_the_answers(tmp_path):
    target = tmp_path / "ws"
    result = init(str(target), "--defaults", "--no-git", "--data", "rollout_name=times", "--data", "model_path=openai/gpt-4.1")
    assert result.exit_code == 0, result.output
    import yaml

    ws_answers = yaml.safe_load((target / ".copier-answers.yml").read_text())
    ro_answers = yaml.safe_load((target / "rollouts/times/.copier-answers.yml").read_text())
    assert ws_answers["workspace_name"] == "ws"  # PATH's name, since it is a valid name
    assert ro_answers["rollout_name"] == "times" and ro_answers["model_path"] == "openai/gpt-4.1"
    for rel in rollout_files("times"):
        assert (target / rel).is_file(), rel
    eval_cfg = tomllib.loads((target / "configs/eval/times.toml").read_text())
    assert eval_cfg["experiment"] == {"rollout": "times", "entrypoint": "main.py", "model_path": "openai/gpt-4.1",
                                      "dataset": "times"}  # a platform dataset name, never a path
    assert not (target / ".git").exists()  # --no-git


def test_data_names_the_workspace(tmp_path):
    result = init(str(tmp_path / "folder"), "--defaults", "--no-git", "--data", "workspace_name=calc-lab",
                  "--data", "description=Teach a model to multiply")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "folder/AGENTS.md").read_text()
    assert text.startswith("# calc-lab") and "Teach a model to multiply" in text
    assert tomllib.loads((tmp_path / "folder/pyproject.toml").read_text())["project"]["description"] == "Teach a model to multiply"


def test_here_renders_into_the_current_folder(tmp_path, monkeypatch):
    here = tmp_path / "agent-lab"
    here.mkdir()
    monkeypatch.chdir(here)
    result = init("--here", "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    assert (here / "AGENTS.md").is_file() and (here / "rollouts/multiply/main.py").is_file()
    assert tomllib.loads((here / "pyproject.toml").read_text())["project"]["name"] == "agent-lab"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent-lab"]  # no staging left beside it


def test_non_empty_target_is_refused_and_untouched(tmp_path):
    target = tmp_path / "busy"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    result = init(str(target), "--defaults")
    assert result.exit_code == 2
    assert "not empty" in result.output and "--force" in result.output
    assert listing(target) == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy"]


def test_force_keeps_existing_files_and_lists_them(tmp_path):
    target = tmp_path / "busy"
    (target / "rollouts/multiply").mkdir(parents=True)
    (target / "README.md").write_text("my readme\n")
    (target / "rollouts/multiply/main.py").write_text("# my own entrypoint\n")
    result = init(str(target), "--defaults", "--force", "--no-git")
    assert result.exit_code == 0, result.output
    assert (target / "README.md").read_text() == "my readme\n"
    assert (target / "rollouts/multiply/main.py").read_text() == "# my own entrypoint\n"
    assert "Kept 2 existing file(s)" in result.output
    assert "  README.md" in result.output and "  rollouts/multiply/main.py" in result.output
    assert (target / "AGENTS.md").is_file() and (target / "rollouts/multiply/multiply_rollout/grader.py").is_file()


def test_force_never_writes_through_a_link_out_of_the_target(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = tmp_path / "ws"
    target.mkdir()
    (target / "data").symlink_to(outside, target_is_directory=True)
    result = init(str(target), "--defaults", "--force", "--no-git")
    assert result.exit_code == 0, result.output
    assert list(outside.iterdir()) == []
    assert "data/multiply.jsonl" in result.output


@pytest.mark.parametrize(
    ("data", "message"),
    [("workspace_name=Bad_Name", "must start with a lowercase letter"),
     ("workspace_name=two--hyphens", "must not contain '--'"),
     ("rollout_name=default", "reserved"),
     ("rollout_name=ends-", "must not end with a hyphen")],
)
def test_bad_names_exit_2_and_write_nothing(tmp_path, data, message):
    result = init(str(tmp_path / "ws"), "--defaults", "--data", data)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_unknown_template_lists_the_bundled_ones(tmp_path):
    result = init(str(tmp_path / "ws"), "--defaults", "--template", "nope")
    assert result.exit_code == 2
    assert "unknown template 'nope'" in result.output and "multiply" in result.output
    assert list(tmp_path.iterdir()) == []
    # the workspace template is not a rollout template
    assert init(str(tmp_path / "ws"), "--defaults", "--template", "workspace").exit_code == 2


def test_usage_errors(tmp_path):
    assert init(str(tmp_path / "a"), "--here").exit_code == 2
    bad = init(str(tmp_path / "a"), "--defaults", "--data", "novalue")
    assert bad.exit_code == 2 and "KEY=VALUE" in bad.output
    unknown = init(str(tmp_path / "a"), "--defaults", "--data", "colour=blue")
    assert unknown.exit_code == 2 and "unknown question 'colour'" in unknown.output
    (tmp_path / "file").write_text("x")
    assert init(str(tmp_path / "file"), "--defaults", "--force").exit_code == 2
    file_in_the_way = init(str(tmp_path / "file/sub/ws"), "--defaults")
    assert file_in_the_way.exit_code == 2 and f"{tmp_path / 'file'} exists and is not a folder" in file_in_the_way.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_local_template_path_is_accepted(tmp_path):
    result = init(str(tmp_path / "ws"), "--defaults", "--no-git", "--template", str(REPO / "templates/multiply"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ws/rollouts/multiply/main.py").is_file()
    git_url = init(str(tmp_path / "ws2"), "--defaults", "--template", "https://example.invalid/t.git")
    assert git_url.exit_code == 2 and "could not clone template" in git_url.output


def no_identity_env(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "empty-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL",
                "GIT_CONFIG_GLOBAL"):
        monkeypatch.delenv(var, raising=False)


def test_no_git_identity_still_commits_and_says_so(tmp_path, monkeypatch):
    no_identity_env(tmp_path, monkeypatch)
    target = tmp_path / "ws"
    result = init(str(target), "--defaults")
    assert result.exit_code == 0, result.output
    assert "no git identity is configured" in result.output
    assert "Osmosis Workspace <workspace@osmosis.invalid>" in result.output
    assert git(target, "log", "--format=%an <%ae>|%cn <%ce>").strip() == (
        "Osmosis Workspace <workspace@osmosis.invalid>|Osmosis Workspace <workspace@osmosis.invalid>")
    assert git(target, "status", "--porcelain") == ""
    # the identity was used for that commit only, never written into the repository's config
    assert "osmosis.invalid" not in (target / ".git/config").read_text()
    assert git(target, "branch", "--show-current").strip() == "main"


def test_configured_identity_is_used(tmp_path, monkeypatch):
    no_identity_env(tmp_path, monkeypatch)
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Ada Lovelace")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "ada@example.com")
    target = tmp_path / "ws"
    result = init(str(target), "--defaults")
    assert result.exit_code == 0, result.output
    assert "no git identity" not in result.output
    assert git(target, "log", "--format=%an <%ae>").strip() == "Ada Lovelace <ada@example.com>"


def test_inside_an_existing_repository_no_nested_repo(tmp_path, monkeypatch):
    no_identity_env(tmp_path, monkeypatch)
    subprocess.run(["git", "init", "-q", str(tmp_path / "mono")], check=True)
    result = init(str(tmp_path / "mono/ws"), "--defaults")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "mono/ws/.git").exists()
    assert "already inside the repository" in result.output


def test_subprocess_entry_point(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "osmosis_workspace", "init", "sub", "--defaults", "--no-git"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "sub/rollouts/multiply/main.py").is_file()
    bad = subprocess.run([sys.executable, "-m", "osmosis_workspace", "init", "sub2", "--data", "rollout_name=Nope"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error: the rollout name 'Nope'")
    assert not (tmp_path / "sub2").exists()


def test_template_list(tmp_path):
    text = RUNNER.invoke(app, ["template", "list"])
    assert text.exit_code == 0
    lines = {line.split()[0]: line for line in text.output.splitlines()}
    assert "multiply" in lines and "workspace" not in lines
    assert "Strands" in lines["multiply"]
    data = json.loads(RUNNER.invoke(app, ["template", "list", "--json"]).output)
    names = [t["name"] for t in data]
    assert "multiply" in names and "workspace" not in names
    assert all(t["kind"] == "rollout" and t["description"] for t in data)
    assert names == sorted(names)


def test_template_list_does_not_import_copier():
    code = ("import sys; from osmosis_workspace.cli import main; sys.argv=['osmosis','template','list'];\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "assert 'copier' not in sys.modules, 'copier imported'")
    proc = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "multiply" in proc.stdout


def test_dot_dot_in_path_is_normalised(tmp_path):
    (tmp_path / "x").mkdir()
    result = init(str(tmp_path / "x" / ".." / "calc-ws"), "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    assert tomllib.loads((tmp_path / "calc-ws/pyproject.toml").read_text())["project"]["name"] == "calc-ws"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calc-ws", "x"]


@pytest.mark.parametrize(
    "template, present, absent",
    [
        ("multiply", ["rollouts/multiply/main.py", "rollouts/multiply/multiply_rollout/"], ["server.py"]),
        ("calculator-remote", ["rollouts/calculator-remote/main.py", "rollouts/calculator-remote/calculator_remote_rollout/"],
         ["server.py"]),
    ],
)
def test_next_steps_name_the_files_the_template_rendered(tmp_path, template, present, absent):
    result = init(str(tmp_path / "ws"), "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    edit_line = next(line for line in result.output.splitlines() if "; edit " in line)
    for name in present:
        assert name in edit_line
    for name in absent:
        assert name not in edit_line


def test_an_answer_to_a_question_the_template_skips_is_refused(tmp_path):
    """n_concurrent exists only for the Harbor integration: with strands it would be silently dropped."""
    result = init(str(tmp_path / "ws"), "--defaults", "--data", "n_concurrent=4")
    assert result.exit_code == 2, result.output
    assert "does not ask this question" in result.output and "integration == 'harbor'" in result.output
    assert not (tmp_path / "ws").exists()
    result = init(str(tmp_path / "h"), "--defaults", "--no-git", "--data", "integration=harbor", "--data", "n_concurrent=4")
    assert result.exit_code == 0, result.output
    assert "N_CONCURRENT = 4\n" in (tmp_path / "h" / "rollouts" / "multiply" / "main.py").read_text()


def test_rendered_files_follow_the_users_umask(tmp_path):
    """copier copies the template's modes; a user with umask 077 gets private files and folders."""
    done = subprocess.run(f"umask 077 && {sys.executable} -m osmosis_workspace init ws --defaults --no-git",
                          shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ws = tmp_path / "ws"
    modes = {p.relative_to(ws).as_posix(): p.stat().st_mode & 0o777 for p in ws.rglob("*") if not p.is_symlink()}
    assert modes["AGENTS.md"] == 0o600 and modes["rollouts/multiply/main.py"] == 0o600 and modes["rollouts"] == 0o700
    assert all(mode & 0o077 == 0 for mode in modes.values()), {k: oct(v) for k, v in modes.items() if v & 0o077}


def test_a_stray_dot_git_folder_above_is_not_a_repository(tmp_path):
    # An empty .git folder (left by a tool in a shared /tmp, say) is not a repository to git; init
    # must still make the workspace's own (before: "already inside the repository", no commit).
    (tmp_path / ".git" / ".git").mkdir(parents=True)
    target = tmp_path / "ws"
    result = init(str(target), "--defaults")
    assert result.exit_code == 0, result.output
    assert "already inside the repository" not in result.output
    assert git(target, "log", "--format=%s").strip() == "Create Osmosis workspace with osmosis init"
