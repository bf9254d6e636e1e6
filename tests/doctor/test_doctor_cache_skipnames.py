"""The cache key against the checks (issue 28, point 1): the key used to skip every entry named
`venv`, `.venv`, `node_modules`, `__pycache__`... at any depth, so a rollout whose package had such a
name could be broken and a cached doctor still said clean. Now the key skips only what no check reads
(generator/core/tool_folders.py, the one definition both use): for every name the key ever skipped,
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
