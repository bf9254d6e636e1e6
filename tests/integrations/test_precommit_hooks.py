"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit in a real workspace.

`pre-commit try-repo` installs the hook repository into its own virtualenv with pip, the way a
user's `repo: https://github.com/osmosis-ai/osmosis-workspace` entry would. The hook repository is
a snapshot of this checkout's working tree committed to a temporary git repo, so uncommitted work
is what gets tested. The first install needs PyPI (hatchling, the runtime dependencies) and takes a
minute; PRE_COMMIT_HOME is shared by the whole module so it happens once.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from integration_helpers import GIT_IDENTITY, REPO, break_eval_config, checkout_env, doctor_codes, osmosis

HOOKS = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=checkout_env(), check=True, capture_output=True, text=True).stdout


# ---------------------------------------------------------------------------------- the hook file


def test_hooks_declared():
    doctor, validate = HOOKS["osmosis-doctor"], HOOKS["osmosis-validate"]
    assert doctor["entry"] == "osmosis doctor" and doctor["language"] == "python"
    assert doctor["pass_filenames"] is False and doctor["always_run"] is True
    assert validate["entry"] == "osmosis validate" and validate["language"] == "python"
    assert validate.get("pass_filenames", True) is True


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("configs/eval/multiply.toml", True),
        ("configs/training/multiply-openai.toml", True),
        ("sub/ws/configs/eval/multiply.toml", True),  # a workspace below the repository root
        ("data/multiply.jsonl", True),
        ("data/nested/rows.parquet", True),
        ("data/rows.csv", True),
        ("data/rows.json", True),
        (".agents/skills/plan-training/SKILL.md", True),
        ("configs/AGENTS.md", False),
        ("configs/eval/notes.md", False),
        ("configs/other/x.toml", False),
        ("data/readme.txt", False),
        ("rollouts/multiply/pyproject.toml", False),
        (".agents/skills/plan-training/references/guide.md", False),
        (".claude/skills/plan-training/SKILL.md", False),  # a symlink to the .agents copy: checked once
        ("mydata/rows.jsonl", False),
    ],
)
def test_validate_hook_files_regex(path, matches):
    # pre-commit applies `files` with re.search to repository-relative POSIX paths
    assert bool(re.search(HOOKS["osmosis-validate"]["files"], path)) is matches


# ------------------------------------------------------------------------ real pre-commit, slow


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This checkout's working tree (tracked and untracked, minus ignored files) committed to a temp repo."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True).stdout.decode().split("\0")
    dst = tmp_path_factory.mktemp("hook-repo")
    for rel in filter(None, listed):
        src = REPO / rel
        if not src.is_file() or "__pycache__" in rel or rel.startswith((".ci-venv/", "bench/.work/")):
            continue
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)
    git("init", "-q", cwd=dst)
    git("add", "-A", cwd=dst)
    git("commit", "-qm", "snapshot of the working tree", cwd=dst)
    return dst


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def hook_env(home: Path) -> dict[str, str]:
    env = checkout_env()
    env.pop("PYTHONPATH")  # the hook must run the copy pre-commit installed, not this checkout
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", **GIT_IDENTITY)
    return env


def pre_commit(home: Path, ws: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args],
                          cwd=ws, env=hook_env(home), capture_output=True, text=True, timeout=900)


@pytest.fixture
def workspace(make_workspace, hook_repo) -> Path:
    """A fresh workspace whose committed .pre-commit-config.yaml uses both hooks from ``hook_repo``,
    pinned to its commit as a user would pin a tag."""
    ws = make_workspace()
    assert (ws / ".git").exists()
    rev = git("rev-parse", "HEAD", cwd=hook_repo).strip()
    config = {"repos": [{"repo": str(hook_repo), "rev": rev,
                         "hooks": [{"id": "osmosis-doctor"}, {"id": "osmosis-validate"}]}]}
    (ws / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    git("add", ".pre-commit-config.yaml", cwd=ws)
    git("commit", "-qm", "use the osmosis hooks", cwd=ws)
    return ws


# `pre-commit try-repo` keeps its hook environment in a throw-away store (it ignores
# PRE_COMMIT_HOME), so every call reinstalls the tool from PyPI: one test uses it, as the issue
# asks; the others go through a .pre-commit-config.yaml, the way users run the hooks, whose
# environment PRE_COMMIT_HOME keeps for the whole module.


@pytest.mark.slow
def test_try_repo_doctor_fails_with_the_code_on_a_broken_config(hook_repo, pre_commit_home, workspace):
    config = break_eval_config(workspace)
    # pre-commit stashes unstaged edits before running hooks: stage the breakage so the hook sees it
    git("add", str(config), cwd=workspace)
    expected = {c for c in doctor_codes(workspace) if c.startswith("CFG")}
    assert expected, "osmosis doctor itself should flag the unknown key"
    proc = pre_commit(pre_commit_home, workspace, "try-repo", str(hook_repo), "osmosis-doctor", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"osmosis doctor\.+Failed", proc.stdout), proc.stdout
    for code in expected:
        assert code in proc.stdout
    assert config.relative_to(workspace).as_posix() in proc.stdout


@pytest.mark.slow
def test_doctor_hook_passes_on_a_clean_workspace_then_fails_on_a_broken_config(pre_commit_home, workspace):
    proc = pre_commit(pre_commit_home, workspace, "run", "osmosis-doctor", "--all-files")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"osmosis doctor\.+Passed", proc.stdout), proc.stdout

    config = break_eval_config(workspace)
    git("add", str(config), cwd=workspace)
    expected = {c for c in doctor_codes(workspace) if c.startswith("CFG")}
    proc = pre_commit(pre_commit_home, workspace, "run", "osmosis-doctor", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"osmosis doctor\.+Failed", proc.stdout), proc.stdout
    assert expected and all(code in proc.stdout for code in expected), proc.stdout

    # installed as a git hook, it blocks the commit
    assert pre_commit(pre_commit_home, workspace, "install").returncode == 0
    commit = subprocess.run(["git", "commit", "-qm", "break the config"], cwd=workspace,
                            env=hook_env(pre_commit_home), capture_output=True, text=True, timeout=900)
    assert commit.returncode != 0, commit.stdout + commit.stderr
    assert all(code in commit.stdout + commit.stderr for code in expected)


@pytest.mark.slow
def test_validate_hook_checks_changed_config_and_skill(pre_commit_home, workspace):
    config = break_eval_config(workspace)
    skill_md = workspace / ".agents" / "skills" / "plan-training" / "SKILL.md"
    text = skill_md.read_text(encoding="utf-8")
    assert "name: plan-training" in text
    skill_md.write_text(text.replace("name: plan-training", "name: plan-trainingx", 1), encoding="utf-8")
    git("add", "-A", cwd=workspace)
    rel_config = config.relative_to(workspace).as_posix()
    rel_skill = skill_md.relative_to(workspace).as_posix()

    direct = osmosis("validate", rel_config, rel_skill, "--format", "json", cwd=workspace)
    assert direct.returncode == 1, direct.stdout + direct.stderr

    proc = pre_commit(pre_commit_home, workspace, "run", "osmosis-validate", "--files", rel_config, rel_skill)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"osmosis validate\.+Failed", proc.stdout), proc.stdout
    assert re.search(r"CFG\d{3}", proc.stdout) and re.search(r"SKL\d{3}", proc.stdout), proc.stdout


@pytest.mark.slow
def test_validate_hook_passes_on_clean_files_and_skips_others(pre_commit_home, workspace):
    proc = pre_commit(pre_commit_home, workspace, "run", "osmosis-validate", "--all-files")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"osmosis validate\.+Passed", proc.stdout), proc.stdout
    proc = pre_commit(pre_commit_home, workspace, "run", "osmosis-validate", "--files", "AGENTS.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(no files to check)Skipped" in proc.stdout.replace(".", ""), proc.stdout


@pytest.mark.slow
def test_strict_doctor_hook_judges_what_is_staged(pre_commit_home, workspace):
    # issue 12, point 4: with `strict = true`, GIT001 used to flag the very files being committed,
    # so the shipped hook blocked every commit that touched a rollout or a config.
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n[tool.osmosis]\nstrict = true\n", encoding="utf-8")
    git("commit", "-qam", "strict doctor", cwd=workspace)
    assert pre_commit(pre_commit_home, workspace, "install").returncode == 0
    assert osmosis("rollout", "new", "second", "--defaults", cwd=workspace).returncode == 0

    def commit(message: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "commit", "-qm", message], cwd=workspace, env=hook_env(pre_commit_home),
                              capture_output=True, text=True, timeout=900)

    # half of the change staged: the commit would lack the dataset the configs use; say which
    git("add", "rollouts", "configs", "pyproject.toml", cwd=workspace)
    blocked = commit("add rollout second, without its data")
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    said = blocked.stdout + blocked.stderr  # git shows a hook's output on stderr
    assert "GIT001" in said and "git add data/second.jsonl" in said, said

    git("add", "data/second.jsonl", cwd=workspace)
    done = commit("add rollout second")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"osmosis doctor\.+Passed", done.stdout + done.stderr), done.stdout + done.stderr
    assert git("status", "--porcelain", cwd=workspace) == ""
