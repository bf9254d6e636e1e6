"""The git family's git calls on a cold run, started before the other families run: `git status` and
the branch and origin queries then work on the second core while the Python checks do, instead of
being waited for one after another at the end (issue 40: a sixth of a fresh workspace's doctor).

:func:`start` asks exactly what ``gitsync.check_git_sync`` will ask, under the same guards (no git
when it would ask none: no repository, an unreadable .git, a FIFO git would block on), through
``safe_git.start_early``: the check's own calls take these processes, and any it does not ask for is
ended with the run. The findings are the check's, read from the same commands' output."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path, PurePosixPath

from osmosis_workspace.core import safe_git
from osmosis_workspace.core.workspace import Workspace

# `_branch`'s one query, and `_not_on_origin`'s test for an origin (its answer only, check=False)
BRANCH_ARGS = ("for-each-ref", "--format=%(HEAD)%00%(refname)%00%(upstream)%00%(upstream:short)%00%(upstream:track)",
               "refs/heads/")
ORIGIN_ARGS = ("config", "--get", "remote.origin.url")


def runner_env(git_root: Path) -> dict[str, str]:
    return {"GIT_CEILING_DIRECTORIES": str(git_root.parent)}


def left_out(ws: Workspace) -> list[str]:
    """A tool's folder (core/tool_folders.py) is never looked into, by git either: a file of it git
    tracks may change without doctor's cache key changing."""
    return [ws.rel(ws.root / os.path.relpath(p, ws.root)) for p in ws.tool_folders()]


class _Early:
    def __init__(self, git_root: Path) -> None:
        self.start = partial(safe_git.start_early, git_root, env=runner_env(git_root), keep_index=True)


def start(ws: Workspace) -> None:
    """Start the git family's calls (see the module's text); anything that goes wrong here is left for
    the check itself to meet and report."""
    from osmosis_workspace.check.families import gitsync

    if ws.git_root is None or ws.git_root / ".git" in ws.unreadable:
        return
    try:
        if gitsync._blocks_git(ws) is not None:
            return
        early = _Early(ws.git_root)
        gitsync._status(early, PurePosixPath(ws.repo_prefix or "."), gitsync.watched(ws), left_out(ws))
        if not gitsync._under_pre_commit():
            early.start(*BRANCH_ARGS)
            early.start(*ORIGIN_ARGS, check=False)
    except Exception:  # noqa: BLE001 - the check asks again and meets it itself
        return
