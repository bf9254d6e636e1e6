"""The cache key against the checks (issue 28, point 1): the key used to skip every entry named
`venv`, `.venv`, `node_modules`, `__pycache__`... at any depth, so a rollout whose package had such a
name could be broken and a cached doctor still said clean. Now the key skips only what no check reads
(generator/osmosis_workspace/core/tool_folders.py, the one definition both use): for every name the key ever skipped,
a workspace whose checked code lives under that name gets the same answer cached and uncached, also
after a commit (when the per-rollout units are what is reused)."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

# Every name the key skipped by name before (ACCESS_SKIPPED), the git folder's name included.
OLD_SKIPPED = (".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache")
PACKAGE = "multiply_rollout"


def answer(run, ws, *extra: str) -> tuple[int, list[tuple]]:
    result = run("doctor", ws, "-f", "json", "--select", "ENT", *extra)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, sorted((d["code"], d["path"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def git(ws, *args: str) -> None:
    subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.invalid", "PATH": "/usr/bin:/bin", "HOME": str(ws.parent)})


def move_package(ws, name: str):
    """The rollout's package renamed to ``name`` (its imports too); returns the workflow module."""
    rollout = ws / "rollouts" / "multiply"
    (rollout / PACKAGE).rename(rollout / name)
    for py in [*rollout.glob("*.py"), *(rollout / name).glob("*.py"), *(rollout / "tests").glob("*.py")]:
        py.write_text(py.read_text(encoding="utf-8").replace(PACKAGE, name), encoding="utf-8")
    return rollout / name / "workflow.py"


def break_run(workflow) -> None:
    text = workflow.read_text(encoding="utf-8")
    assert "async def run" in text
    workflow.write_text(text.replace("async def run", "def run", 1), encoding="utf-8")


@pytest.mark.parametrize("name", OLD_SKIPPED)
def test_checked_code_under_a_once_skipped_name_is_in_the_key(make_workspace, run, name):
    ws = make_workspace()
    workflow = move_package(ws, name)
    clean = answer(run, ws)  # cached from here on
    git(ws, "add", "-A")
    git(ws, "commit", "--allow-empty", "-qm", "package renamed")
    assert answer(run, ws) == answer(run, ws, "--no-cache")
    break_run(workflow)
    cached = answer(run, ws)
    assert cached == answer(run, ws, "--no-cache")
    if name.isidentifier():  # a package the entrypoint imports; a dotted name is code no import reaches
        assert cached != clean and any(code == "ENT006" for code, _, _ in cached[1]), cached
    git(ws, "add", "-A")
    git(ws, "commit", "--allow-empty", "-qm", "broken")  # the workspace's own commit: the tree key misses, the units are asked
    assert answer(run, ws, "-v") == answer(run, ws, "--no-cache") == cached


def uv_venv(folder):
    """A `.venv` as uv leaves it: pyvenv.cfg, CACHEDIR.TAG, a `*` .gitignore (what core/tool_folders.py recognises)."""
    venv = folder / ".venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\nuv = 0.13.9\n", encoding="utf-8")
    (venv / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n", encoding="utf-8")
    (venv / ".gitignore").write_text("*", encoding="utf-8")
    return venv


def hit(run, ws) -> bool:
    """Whether the whole run was answered from the cache (a run with the same options came before)."""
    result = run("doctor", ws, "-v")
    assert result.exit_code in (0, 1), result.output
    return "answered from the cache" in result.output


def test_a_uv_venv_is_left_out_of_the_key_and_unread(make_workspace, run):
    ws = make_workspace()
    rollout = ws / "rollouts" / "multiply"
    venv = uv_venv(rollout)
    (venv / "lib" / "helper.py").write_text("x = 1\n", encoding="utf-8")
    first = answer(run, ws)
    run("doctor", ws)
    assert hit(run, ws)
    (venv / "lib" / "helper.py").write_text("def run(:\n", encoding="utf-8")  # what a venv's owner does to it: nothing a check reads
    (venv / "lib" / "new.py").write_text("x = 2\n", encoding="utf-8")
    assert hit(run, ws)
    assert answer(run, ws) == answer(run, ws, "--no-cache") == first


def test_a_link_or_a_config_into_a_uv_venv_reads_nothing_there(make_workspace, run):
    ws = make_workspace()
    rollout = ws / "rollouts" / "multiply"
    venv = uv_venv(rollout)
    workflow = rollout / PACKAGE / "workflow.py"
    (venv / "workflow.py").write_text(workflow.read_text(encoding="utf-8"), encoding="utf-8")
    workflow.unlink()
    workflow.symlink_to(venv / "workflow.py")
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('entrypoint = "main.py"', 'entrypoint = ".venv/workflow.py"'),
                      encoding="utf-8")
    before = answer(run, ws, "--select", "CFG")
    assert any("tool's folder" in message for _, _, message in before[1]), before
    break_run(venv / "workflow.py")
    after = answer(run, ws, "--select", "CFG")
    assert after == answer(run, ws, "--select", "CFG", "--no-cache") == before


def test_tracked_files_in_a_uv_venv_are_not_uncommitted_changes(make_workspace, run):
    ws = make_workspace()
    venv = uv_venv(ws / "rollouts" / "multiply")
    (venv / "lib" / "tracked.py").write_text("x = 1\n", encoding="utf-8")
    git(ws, "add", "-f", "rollouts/multiply/.venv/lib/tracked.py")
    git(ws, "commit", "-qm", "a venv file committed by mistake")
    first = answer(run, ws, "--select", "GIT")
    (venv / "lib" / "tracked.py").write_text("x = 2\n", encoding="utf-8")
    assert answer(run, ws, "--select", "GIT") == answer(run, ws, "--select", "GIT", "--no-cache") == first


@pytest.mark.parametrize("spoil", ["no marker", "no gitignore", "gitignore not all", "a link", "deeper"])
def test_a_folder_that_only_looks_like_a_venv_is_in_the_key(make_workspace, run, spoil):
    ws = make_workspace()
    rollout = ws / "rollouts" / "multiply"
    place = rollout / "sub" if spoil == "deeper" else rollout
    place.mkdir(exist_ok=True)
    venv = uv_venv(place)
    if spoil == "no marker":
        (venv / "pyvenv.cfg").unlink()
    elif spoil == "no gitignore":
        (venv / ".gitignore").unlink()
    elif spoil == "gitignore not all":
        (venv / ".gitignore").write_text("*.pyc\n", encoding="utf-8")
    elif spoil == "a link":
        real = ws.parent / "elsewhere"
        venv.rename(real)
        venv.symlink_to(real)
    from osmosis_workspace.core.tool_folders import tool_folders

    assert tool_folders(ws) == frozenset()
    run("doctor", ws)
    if spoil != "a link":  # a link's target is never walked: that it changes is not for the key to see
        (venv / "lib" / "x.py").write_text("x = 1\n", encoding="utf-8")
        assert not hit(run, ws)
