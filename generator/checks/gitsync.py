"""Checks: Git Sync. The platform runs what is committed on the default branch, so uncommitted
rollout or config edits, and configs pinning commits or branches this clone lacks, are findings.

gitpython is imported only inside the check, and only when the workspace is in a git work tree
(the layout family reports a workspace outside git), so `doctor` stays fast elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from generator.checks import workspace_check
from generator.config_refs import ConfigRef, workspace_configs
from generator.diagnostics import Diagnostic
from generator.registry import rule
from generator.toml_locate import TomlDoc
from generator.workspace import Workspace

FAMILY = "git"
WATCHED = ("rollouts", "configs")  # what the platform runs from the synced branch
SHOWN_FILES = 5  # how many changed files a finding names before "and N more"
_SHA = re.compile(r"^[0-9a-fA-F]{7,40}$")

UNCOMMITTED = rule(
    "GIT001", "uncommitted-changes", FAMILY, "warning",
    summary="Files under rollouts/ or configs/ have uncommitted or untracked changes.",
    why="The platform runs what is committed on the default branch; local edits are not what a submitted run uses.",
    fix="Commit and push them (`git add rollouts configs && git commit && git push`) before submitting a run.",
    example="rollouts/multiply/main.py modified but not committed",
    source="osmosis_ai/platform/cli/workspace_repo.py",
)
UNKNOWN_COMMIT = rule(
    "GIT002", "unknown-commit", FAMILY, "error",
    summary="A config's `commit_sha` is not a commit in the local repository.",
    why="The platform checks out exactly this commit; a typo or an unpushed/unfetched commit makes the run fail.",
    fix="Use a commit that exists (`git log --oneline`), or `git fetch` if it was made elsewhere; or drop commit_sha to use the branch head.",
    example='commit_sha = "deadbee"',
    source="osmosis_ai/platform/cli/workspace_repo.py",
)
UNKNOWN_BRANCH = rule(
    "GIT003", "unknown-branch", FAMILY, "warning",
    summary="A config's `branch` does not exist in the local repository.",
    why="The platform syncs this branch; if it does not exist (a typo, or never pushed) the run cannot start.",
    fix="Check the name against `git branch -a`, or create and push the branch.",
    example='branch = "mian"',
    source="contract §6",
)
UNPUSHED = rule(
    "GIT005", "unpushed-commits", FAMILY, "warning",
    summary="Local commits touching rollouts/ or configs/ are not pushed to the branch's upstream.",
    why="The platform syncs from the remote repository; commits that exist only in this clone are not what a run uses.",
    fix="Push them (`git push`) before submitting a run.",
    example="rollouts/multiply/main.py committed locally, `git status` says 'ahead of origin/main by 1 commit'",
    source="osmosis_ai/platform/cli/workspace_repo.py",
)
GIT_UNREADABLE = rule(
    "GIT004", "git-unreadable", FAMILY, "warning",
    summary="The git repository holding the workspace could not be inspected.",
    why="Without reading git, doctor cannot tell whether what the platform will run matches the files here.",
    fix="Check that `git status` works in the workspace (git installed, repository not corrupt).",
    example="a damaged .git folder, or no git executable on PATH",
    source="ours",
)


@workspace_check(FAMILY)
def check_git_sync(ws: Workspace) -> list[Diagnostic]:
    if ws.git_root is None:
        return []  # LAY007 reports it
    try:
        import git  # gitpython: lazily, it spawns `git` and is slow to import
    except Exception as err:  # noqa: BLE001  ImportError, or gitpython refusing a missing git binary
        return [GIT_UNREADABLE.at(None, f"cannot load gitpython/git: {_one_line(err)}")]
    try:
        repo = git.Repo(ws.git_root)
    except Exception as err:  # noqa: BLE001  InvalidGitRepositoryError, NoSuchPathError, OSError
        return [GIT_UNREADABLE.at(None, f"cannot open the git repository at {ws.git_root} ({type(err).__name__})")]
    try:
        with repo:
            prefix = PurePosixPath(ws.repo_prefix or ".")
            found = _uncommitted(repo, prefix) + _unpushed(repo, prefix)
            for config in workspace_configs(ws):
                found += _pins(repo, ws, config)
            return found
    except Exception as err:  # noqa: BLE001  a git command failed: report it instead of crashing doctor
        return [GIT_UNREADABLE.at(None, f"git failed: {_one_line(err)}")]


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text[:200] or type(err).__name__


def _uncommitted(repo, prefix: PurePosixPath) -> list[Diagnostic]:
    specs = _pathspecs(prefix)
    # -z: paths verbatim (no quoting); untracked files listed one by one; ignored files excluded.
    out = repo.git.status("--porcelain", "-z", "--untracked-files=all", "--", *specs)
    changed = []
    entries = out.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        if "R" in status or "C" in status:
            i += 1  # the next entry is the rename/copy source
        if _is_noise(path):
            continue
        changed.append(_relative(path, prefix))
    if not changed:
        return []
    changed.sort()
    shown = ", ".join(changed[:SHOWN_FILES])
    more = f" and {len(changed) - SHOWN_FILES} more" if len(changed) > SHOWN_FILES else ""
    count = f"{len(changed)} file{'s' if len(changed) != 1 else ''}"
    return [UNCOMMITTED.at(
        None,
        f"{count} under rollouts/ or configs/ not committed: {shown}{more}; "
        "the platform runs what is committed on the default branch",
    )]


def _unpushed(repo, prefix: PurePosixPath) -> list[Diagnostic]:
    """Commits on the current branch, not on its upstream, that change what the platform runs.
    Without an upstream (a local-only repository) there is nothing to compare with: no finding."""
    if not repo.head.is_valid() or repo.head.is_detached:
        return []
    branch = repo.active_branch
    upstream = branch.tracking_branch()
    if upstream is None or not upstream.is_valid():
        return []
    count = int(repo.git.rev_list("--count", f"{upstream.path}..HEAD", "--", *_pathspecs(prefix)) or 0)
    if not count:
        return []
    plural = "s" if count != 1 else ""
    return [UNPUSHED.at(
        None,
        f"{count} commit{plural} on {branch.name} touching rollouts/ or configs/ not pushed to {upstream.name}",
    )]


def _pathspecs(prefix: PurePosixPath) -> list[str]:
    return [area if str(prefix) == "." else str(prefix / area) for area in WATCHED]


def _is_noise(path: str) -> bool:
    # Byte-code caches are never what the platform runs; a workspace without a .gitignore for them
    # should not drown the real changes.
    parts = PurePosixPath(path).parts
    return "__pycache__" in parts or path.endswith((".pyc", ".pyo"))


def _relative(path: str, prefix: PurePosixPath) -> str:
    if str(prefix) == ".":
        return path
    try:
        return PurePosixPath(path).relative_to(prefix).as_posix()
    except ValueError:
        return path


def _pins(repo, ws: Workspace, config: ConfigRef) -> list[Diagnostic]:
    found = []
    shown = config.path.relative_to(ws.root).as_posix()  # configs are listed from the root
    sha = config.experiment_str("commit_sha")
    if sha is not None and _SHA.match(sha) and not _has_commit(repo, sha):
        line, column = config.value_position("commit_sha")
        found.append(UNKNOWN_COMMIT.at(
            shown, f"commit_sha {sha!r} is not a commit in the local repository", line=line, column=column,
        ))
    branch = config.experiment_str("branch")
    if branch and not _has_branch(repo, branch):
        line, column = config.value_position("branch")
        found.append(UNKNOWN_BRANCH.at(
            shown, f"branch {branch!r} does not exist locally (neither a local nor a remote-tracking branch)",
            line=line, column=column,
        ))
    return found


def _has_commit(repo, sha: str) -> bool:
    import git

    try:
        repo.git.rev_parse("--verify", "--quiet", f"{sha}^{{commit}}")
    except git.GitCommandError:
        return False
    return True


def _has_branch(repo, branch: str) -> bool:
    import git

    refs = [f"refs/heads/{branch}"] + [f"refs/remotes/{remote.name}/{branch}" for remote in repo.remotes]
    for ref in refs:
        try:
            repo.git.rev_parse("--verify", "--quiet", ref)
            return True
        except git.GitCommandError:
            continue
    return False


def check_config_pins(ws: Workspace, path: Path, kind: str) -> list[Diagnostic]:
    """`osmosis validate` on one config: its commit_sha and branch against the workspace's
    repository, as doctor checks them (nothing outside a git work tree)."""
    if ws.git_root is None:
        return []
    text = ws.read_text(path)
    doc = TomlDoc.parse(text) if text is not None else None
    if doc is None or doc.data is None:
        return []  # the config checks report why
    try:
        import git

        with git.Repo(ws.git_root) as repo:
            return _pins(repo, ws, ConfigRef(path, kind, doc))
    except Exception as err:  # noqa: BLE001  as in check_git_sync: report, never crash
        return [GIT_UNREADABLE.at(None, f"git failed: {_one_line(err)}")]
