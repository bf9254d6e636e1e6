"""What the git family asks git (the paths it watches, its `git status`), and its calls started before
the other families run: `git status` and the branch and origin queries then work on the second core
while the Python checks do, instead of being waited for one after another at the end (issue 40). On
a cold run and on a warm one (units reused from doctor's cache) alike: Git Sync's answer is never
kept in the cache (its key is the whole run's key), so a run that checks at all asks git again.

:func:`start` asks exactly what ``gitsync.check_git_sync`` will ask, under the same guards (no git
when it would ask none: no repository, an unreadable .git, a FIFO git would block on), through
``safe_git.start_early``: the check's own calls take these processes however late they ask (the
timeout counts from then: a git that finished while the checks before it ran is never asked twice),
and any it does not ask for is ended with the run. The findings are the check's, read from the same
commands' output."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from functools import partial
from pathlib import Path, PurePosixPath

from osmosis_workspace.check.config_refs import by_config
from osmosis_workspace.core import safe_git
from osmosis_workspace.core.workspace import Workspace

# `_branch`'s one query, and `_not_on_origin`'s test for an origin (its answer only, check=False)
BRANCH_ARGS = ("for-each-ref", "--format=%(HEAD)%00%(refname)%00%(upstream)%00%(upstream:short)%00%(upstream:track)",
               "refs/heads/")
ORIGIN_ARGS = ("config", "--get", "remote.origin.url")
WATCHED = ("rollouts", "configs/eval", "configs/training", "pyproject.toml")
NOT_RUN = ("configs/eval/default.toml", "configs/training/default.toml")


runner_env = safe_git.ceiling_env


def left_out(ws: Workspace) -> list[str]:
    """A tool's folder (core/tool_folders.py) is never looked into, by git either: a file of it git
    tracks may change without doctor's cache key changing."""
    return [ws.rel(ws.root / os.path.relpath(p, ws.root)) for p in ws.tool_folders()]


# Files git itself opens on every status: one that is a FIFO would block git until the timeout; saying
# which file at once is the better finding.
_GIT_READS = (".gitignore", ".gitattributes", ".git/info/exclude", ".git/info/attributes")


def blocks_git(ws: Workspace) -> Path | None:
    import stat

    for base in dict.fromkeys((ws.git_root, ws.root)):
        for rel in _GIT_READS:
            try:
                mode = os.lstat(base / rel).st_mode
            except OSError:
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode)):
                return base / rel
    return None


def watched(ws: Workspace) -> list[str]:
    """Workspace-relative paths a run depends on: rollouts/, configs/, the root pyproject.toml, and
    the data/ files the configs and rollouts use (git needs no more than these pathspecs)."""
    return [*WATCHED, *used_datasets(ws)]


def used_datasets(ws: Workspace) -> list[str]:
    """data/ files a config names (a local path, or a platform dataset name that is the stem of a
    file under data/, as `osmosis dataset upload` names it) or named after a rollout. An editor's edit
    run makes again only the edited configs' part (check/config_refs.by_config)."""
    return by_config(ws, "used-datasets", _used_by, _used)


def _used_by(ws: Workspace, config) -> tuple[bool, str] | None:
    """(True, the data/ path) a config names, (False, the dataset name) it names, or None."""
    from osmosis_workspace.check.families.config_crossrefs import local_dataset

    value = config.experiment_str("dataset")
    if not value:
        return None
    text = posixpath.normpath(value.replace("\\", "/"))
    if local_dataset(value) and not text.startswith(("/", "..")):
        return True, text if "/" in text else f"data/{text}"
    return False, value


def _used(ws: Workspace, entries: list) -> list[str]:
    names = {p.name for p in ws.rollout_dirs}
    used: set[str] = set()
    for entry in entries:
        if entry is not None:
            (used if entry[0] else names).add(entry[1])
    for path in ws.data_files:
        rel = ws.rel(path)
        if path.stem in names and not rel.startswith("../"):
            used.add(rel)
    return sorted(p for p in used if p.startswith("data/"))


def under_pre_commit() -> bool:
    # pre-commit sets PRE_COMMIT=1 for its hooks, and git exports GIT_INDEX_FILE to a plain
    # .git/hooks/pre-commit script: either way, what is staged is what the commit will hold.
    return bool(os.environ.get("PRE_COMMIT") or os.environ.get("GIT_INDEX_FILE"))


def start_status(git, prefix: PurePosixPath, paths: list[str], left_out: list[str]) -> tuple[Callable, safe_git.Started]:
    """`git status` of ``paths`` minus ``left_out``, started: (which paths count, the running git)."""
    paths, wanted = _folded(paths)
    specs = pathspecs(prefix, paths) + [s.replace(":(literal)", ":(exclude,literal)", 1) for s in pathspecs(prefix, left_out)]
    # -z: paths verbatim (no quoting); untracked files listed one by one; ignored files excluded.
    # --ignore-submodules=dirty: a submodule's own work tree is not inspected (its config is not ours to
    # vet), a submodule moved to another commit still is.
    return wanted, git.start("status", "--porcelain", "-z", "--untracked-files=all", "--ignore-submodules=dirty", "--", *specs)


FOLD_DATA = 16  # past this many data/ files, `git status` is asked about data/ and the answer filtered


def _folded(paths: list[str]) -> tuple[list[str], Callable[[str], bool]]:
    """``paths`` with many data/ files asked as data/ itself, and which of git's answers are among
    them: git matches every path against every pathspec, and 2,000 datasets' pathspecs made one
    `git status` take 1.4 s instead of 0.1 s."""
    data = [p for p in paths if p.startswith("data/")]
    if len(data) <= FOLD_DATA:
        return paths, lambda rel: True
    named = frozenset(data)

    def wanted(rel: str) -> bool:
        return not rel.startswith("data/") or rel in named or any(rel.startswith(f"{p}/") for p in named)

    return [p for p in paths if not p.startswith("data/")] + ["data"], wanted


def pathspecs(prefix: PurePosixPath, paths: list[str]) -> list[str]:
    # ":(literal)": a data file named `x[1].jsonl` is a path, not a glob
    at = (lambda p: p) if str(prefix) == "." else (lambda p: prefix / p)
    return [f":(literal){at(p)}" for p in paths] + [f":(literal,exclude){at(p)}" for p in NOT_RUN]


class _Early:
    def __init__(self, git_root: Path) -> None:
        self.start = partial(safe_git.start_early, git_root, env=runner_env(git_root), keep_index=True)


def start(ws: Workspace) -> None:
    """Start the git family's calls (see the module's text); anything that goes wrong here is left for
    the check itself to meet and report."""
    if ws.git_root is None or ws.git_root / ".git" in ws.unreadable:
        return
    try:
        if blocks_git(ws) is not None:
            return
        early = _Early(ws.git_root)
        pushing = not under_pre_commit()
        if pushing:  # first: answered by the config probe the status call needs anyway (safe_git.PROBED)
            early.start(*ORIGIN_ARGS, check=False)
        start_status(early, PurePosixPath(ws.repo_prefix or "."), watched(ws), left_out(ws))
        if pushing:
            early.start(*BRANCH_ARGS)
    except Exception:  # noqa: BLE001 - the check asks again and meets it itself
        return
