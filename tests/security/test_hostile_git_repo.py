"""Issue 18, points 1, 6, 13, 14: a workspace's `.git` is as hostile as its files.

Each case plants, in a real repository made by `osmosis init`, a program git would start on its own
(fsmonitor, a hook, a filter; reached directly, through `include`, a gitdir file, `core.worktree` or a
submodule). The program writes a marker file: doctor, validate, `rollout new` and `update` must never
create it, and doctor must leave `.git/index` byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hostile import cli, git, make_workspace, script

REPO = Path(__file__).resolve().parents[2]


def _program(tmp_path: Path, marker: Path, name: str = "evil.sh") -> Path:
    program = tmp_path / name
    program.write_text(script(marker) + "cat\n")  # a filter must pass its input through
    program.chmod(0o755)
    return program


def _append(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        handle.write(text)


def _touch_tracked(ws: Path) -> None:
    """Make git hash a tracked file again (same content, new mtime): where a clean filter runs."""
    main = ws / "rollouts" / "my-rollout" / "main.py"
    later = time.time() + 5
    os.utime(main, (later, later))


def _plain(ws, program, tmp_path):
    _append(ws / ".git" / "config", f"[core]\n\tfsmonitor = {program}\n")


def _include(ws, program, tmp_path):
    (ws / ".git" / "evil.cfg").write_text(f"[core]\n\tfsmonitor = {program}\n")
    _append(ws / ".git" / "config", "[include]\n\tpath = evil.cfg\n")


def _include_if(ws, program, tmp_path):
    (ws / ".git" / "evil.cfg").write_text(f"[core]\n\tfsmonitor = {program}\n")
    _append(ws / ".git" / "config", "[includeIf \"gitdir:**\"]\n\tpath = evil.cfg\n")


def _gitdir_file(ws, program, tmp_path):
    store = tmp_path / "store.git"
    shutil.move(ws / ".git", store)
    (ws / ".git").write_text(f"gitdir: {store}\n")
    _append(store / "config", f"[core]\n\tfsmonitor = {program}\n")


def _core_worktree(ws, program, tmp_path):
    store = tmp_path / "store.git"
    shutil.move(ws / ".git", store)
    (ws / ".git").write_text("gitdir: ../store.git\n")
    _append(store / "config", f"[core]\n\tworktree = {ws}\n\tfsmonitor = {program}\n")


def _hook(ws, program, tmp_path):
    for hook in ("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc"):
        shutil.copy(program, ws / ".git" / "hooks" / hook)


def _hooks_path(ws, program, tmp_path):
    hooks = ws / "evil-hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction"):
        shutil.copy(program, hooks / hook)
    _append(ws / ".git" / "config", "[core]\n\thooksPath = evil-hooks\n")


def _clean_filter(ws, program, tmp_path):
    _append(ws / ".git" / "info" / "attributes", "*.py filter=evil\n")
    _append(ws / ".git" / "config", f"[filter \"evil\"]\n\tclean = {program}\n\tsmudge = {program}\n\trequired = true\n")
    _touch_tracked(ws)


def _process_filter(ws, program, tmp_path):
    (ws / ".gitattributes").write_text("*.py filter=odd.name\n")
    git(ws, "add", ".gitattributes")
    git(ws, "commit", "-qm", "attributes")
    (ws / ".git" / "evil.cfg").write_text(f"[filter \"odd.name\"]\n\tprocess = {program}\n")
    _append(ws / ".git" / "config", "[include]\n\tpath = evil.cfg\n")
    _touch_tracked(ws)


def _submodule(ws, program, tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    (sub / "x.py").write_text("X = 1\n")
    git(sub, "add", "x.py")
    git(sub, "commit", "-qm", "sub")
    git(ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "rollouts/my-rollout/vendored")
    git(ws, "commit", "-qm", "submodule")
    _append(ws / ".git" / "modules" / "rollouts" / "my-rollout" / "vendored" / "config",
            f"[core]\n\tfsmonitor = {program}\n[filter \"s\"]\n\tclean = {program}\n")
    (ws / "rollouts/my-rollout/vendored/.gitattributes").write_text("* filter=s\n")
    later = time.time() + 5
    os.utime(ws / "rollouts/my-rollout/vendored/x.py", (later, later))


PLANTS = {"fsmonitor": _plain, "fsmonitor-include": _include, "fsmonitor-includeif": _include_if,
          "fsmonitor-gitdir-file": _gitdir_file, "fsmonitor-core-worktree": _core_worktree, "hooks": _hook,
          "hooks-path": _hooks_path, "clean-filter": _clean_filter, "process-filter-via-include": _process_filter,
          "submodule": _submodule}


def _index(ws: Path) -> Path:
    dotgit = ws / ".git"
    if dotgit.is_file():
        gitdir = Path(dotgit.read_text().split(":", 1)[1].strip())
        return (gitdir if gitdir.is_absolute() else ws / gitdir) / "index"
    return dotgit / "index"


@pytest.fixture
def hostile(tmp_path, request):
    ws = make_workspace(tmp_path / "ws")
    marker = tmp_path / "CODE_RAN"
    program = _program(tmp_path, marker)
    PLANTS[request.param](ws, program, tmp_path)
    return ws, marker


@pytest.mark.parametrize("hostile", list(PLANTS), indirect=True)
def test_doctor_runs_nothing_a_dot_git_names_and_leaves_the_index_alone(hostile):
    ws, marker = hostile
    index = _index(ws)
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    result = cli("doctor", ws, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    assert not marker.exists(), marker.read_text()
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before
    codes = [d["code"] for d in json.loads(result.stdout)["diagnostics"]]
    assert "GIT004" not in codes, result.output  # git still answered: it ran, just nothing it was told to


@pytest.mark.parametrize("hostile", ["fsmonitor-include", "hooks", "clean-filter"], indirect=True)
def test_validate_of_a_config_with_a_commit_pin_runs_nothing(hostile):
    ws, marker = hostile
    config = ws / "configs" / "eval" / "my-rollout.toml"
    config.write_text(config.read_text().replace("[experiment]\n", "[experiment]\ncommit_sha = \"deadbee\"\n", 1))
    result = cli("validate", config)
    assert "GIT002" in result.output, result.output
    assert not marker.exists()


@pytest.mark.parametrize("hostile", ["fsmonitor-gitdir-file", "hooks", "hooks-path", "clean-filter"], indirect=True)
def test_rollout_new_and_update_run_nothing_a_dot_git_names(hostile):
    ws, marker = hostile
    before = git(ws, "rev-parse", "refs/osmosis/pristine")
    if (ws / "evil-hooks").exists():  # an untracked folder would make the tree dirty for `update`
        _append(ws / ".git" / "info" / "exclude", "evil-hooks/\n")
    new = cli("rollout", "new", "second", "--template", "multiply", "--workspace", ws, "--defaults")
    assert new.exit_code == 0, new.output
    assert git(ws, "rev-parse", "refs/osmosis/pristine") != before  # the ref moved: the hook had its chance
    git_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_CONFIG")}
    safe = ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "filter.evil.clean=",
            "-c", "filter.evil.required=false"]
    subprocess.run([*safe, "add", "-A"], cwd=ws, check=True, env=git_env, capture_output=True)
    subprocess.run([*safe, "commit", "-qm", "second"], cwd=ws, check=True, env=git_env, capture_output=True)
    update = cli("update", ws)
    assert update.exit_code in (0, 1), update.output
    assert not marker.exists(), marker.read_text()


def test_a_git_that_hangs_is_stopped_and_reported(tmp_path, monkeypatch):
    """Point 6: `**/` twelve times then a name makes git's own matcher backtrack on a deep path."""
    ws = make_workspace(tmp_path / "ws")
    (ws / ".gitignore").write_text("**/" * 12 + "x\n")
    deep = ws / "rollouts" / "my-rollout" / Path(*["d"] * 30)
    deep.mkdir(parents=True)
    (deep / "f").write_text("")
    monkeypatch.setenv("OSMOSIS_GIT_TIMEOUT", "2")
    started = time.monotonic()
    result = cli("doctor", ws, "--format", "json", "--select", "GIT004")
    assert time.monotonic() - started < 30
    assert result.exit_code == 0, result.output  # GIT004 is a warning
    [finding] = json.loads(result.stdout)["diagnostics"]
    assert finding["code"] == "GIT004" and "did not finish within 2 s" in finding["message"], finding
    assert "OSMOSIS_GIT_TIMEOUT" in finding["hint"]


def test_rollout_new_under_another_repositorys_git_dir_works_on_the_workspace(tmp_path, monkeypatch):
    """Point 13: inside another repository's hook GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE name that repository."""
    ws = make_workspace(tmp_path / "ws")
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    (other / "a.txt").write_text("a\n")
    git(other, "add", "a.txt")
    git(other, "commit", "-qm", "other")
    other_refs = git(other, "for-each-ref")
    other_index = (other / ".git" / "index").read_bytes()
    before = git(ws, "rev-parse", "refs/osmosis/pristine")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    result = cli("rollout", "new", "second", "--template", "multiply", "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)  # the command dropped them from its process
    assert git(other, "for-each-ref") == other_refs
    assert (other / ".git" / "index").read_bytes() == other_index
    assert not (other / "rollouts").exists() and not (other / ".git" / "refs" / "osmosis").exists()
    assert git(ws, "rev-parse", "refs/osmosis/pristine") != before
    assert "rollouts/second/main.py" in git(ws, "ls-tree", "-r", "--name-only", "refs/osmosis/pristine")


def test_init_under_another_repositorys_git_dir_makes_its_own_repository(tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    result = cli("init", tmp_path / "ws", "--template", "blank", "--defaults")
    monkeypatch.delenv("GIT_DIR", raising=False)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ws" / ".git").is_dir()
    assert git(tmp_path / "ws", "log", "--oneline").strip()
    assert subprocess.run(["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=other).returncode != 0


def test_a_template_url_that_is_a_git_option_never_reaches_git_as_one(tmp_path):
    """Point 14: `--template "--upload-pack=..."` is a URL (that does not exist), not `git clone --upload-pack`."""
    marker = tmp_path / "CODE_RAN"
    program = _program(tmp_path, marker, "pack.sh")
    for spec in (f"--upload-pack={program}:x.git", f"-u{program} file:///nowhere.git"):
        result = cli("init", tmp_path / "ws", "--template", spec, "--defaults")
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        # git's own words about the repository (or protocol) it was given quote the spec: a URL, not an option
        assert f"'{spec.split(':')[0]}" in result.output, result.output
        assert not marker.exists()
        assert not (tmp_path / "ws").exists()


def test_safe_git_is_the_only_way_generator_runs_git():
    """One helper for every git call: a new `subprocess.run(["git", ...])` would bypass the hardening."""
    import re

    spawn = re.compile(r"""\[\s*["']git["']|^\s*(import git|from git import)\b""", re.MULTILINE)
    offenders = [path.relative_to(REPO).as_posix() for path in (REPO / "generator" / "osmosis_workspace").rglob("*.py")
                 if path.name != "safe_git.py" and spawn.search(path.read_text())]
    assert offenders == []


def test_doctor_in_a_subprocess_with_a_hostile_fsmonitor_leaves_no_trace(tmp_path):
    """The same end to end through `python -m osmosis_workspace`, as CI and pre-commit run it."""
    ws = make_workspace(tmp_path / "ws")
    marker = tmp_path / "CODE_RAN"
    _include(ws, _program(tmp_path, marker), tmp_path)
    _hook(ws, _program(tmp_path, marker), tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "doctor", str(ws)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert not marker.exists()
