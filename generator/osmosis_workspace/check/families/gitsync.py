"""Checks: Git Sync. The platform runs what is committed on the default branch, so uncommitted
edits to what runs use (rollouts, eval and training configs, the root pyproject, the datasets configs name), and
configs pinning commits or branches this clone lacks, are findings. Under pre-commit the staged
state is what gets committed, so staged changes count as committed there.

Every git call goes through `core/safe_git.py`: the workspace's `.git` is as hostile as its files
(fsmonitor, hooks and filters never run, `.git/index` is never rewritten, a git that hangs is stopped
and reported as GIT004). Git's discovery stops at the workspace's repository (GIT_CEILING_DIRECTORIES):
a broken `.git` is reported, never swapped for a repository further up.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.families.leftovers import is_update_leftover
from osmosis_workspace.check.families.gitsync_early import (
    BRANCH_ARGS, ORIGIN_ARGS, blocks_git, left_out, pathspecs, runner_env, start_status, under_pre_commit, watched,
)
from osmosis_workspace.check.config_refs import ConfigRef, workspace_configs
from osmosis_workspace.core import safe_git
from osmosis_workspace.core.diagnostics import Diagnostic, printable, quoted
from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.check.registry import rule
from osmosis_workspace.check.units import view
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.workspace import Workspace, permission_hint

FAMILY = "git"
# What a run uses: the rollouts' code (the platform syncs it from the branch), the eval and training
# configs submit reads, the root pyproject. Not configs/AGENTS.md nor a reference default.toml (no run
# reads them; submit refuses a config named default), nor benchmark configs (a benchmark runs no code of ours).
SHOWN_FILES = 5  # how many changed files a finding names before "and N more"
HINT_PATHS = 8  # how many paths `git add ...` in the hint names before it names whole folders
_SHA = lazy_compile(r"^[0-9a-fA-F]{7,40}$")

UNCOMMITTED = rule(
    "GIT001", "uncommitted-changes", FAMILY, "warning",
    summary="Files a run uses (rollouts/, the eval and training configs, the root pyproject.toml, the datasets configs name) have uncommitted or untracked changes.",
    why="The platform runs what is committed on the default branch; local edits are not what a submitted run uses.",
    fix="Commit and push them (`git add PATHS && git commit && git push`; the finding names the paths) before submitting a run.",
    example="rollouts/multiply/main.py modified, data/multiply.jsonl untracked",
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
    summary="Local commits touching what runs use (rollouts/, the eval and training configs, the root pyproject.toml, used datasets) are not pushed to the branch's upstream.",
    why="The platform syncs from the remote repository; commits that exist only in this clone are not what a run uses.",
    fix="Push them (`git push`) before submitting a run.",
    example="rollouts/multiply/main.py committed locally, `git status` says 'ahead of origin/main by 1 commit'",
    source="osmosis_ai/platform/cli/workspace_repo.py",
)
NOT_ON_ORIGIN = rule(
    "GIT008", "head-not-on-origin", FAMILY, "warning",
    summary="The repository has an `origin`, the branch no upstream, and commits changing what runs use (rollouts/, configs/, the root pyproject.toml, used datasets) are on no branch of origin this clone knows (never pushed, or pushed without them).",
    why="The platform runs what the connected repository holds, so a run submitted now would use older code than the files here, or none at all. "
        "Read from this clone's refs (refs/remotes/origin/*), as of its last fetch or push: doctor does not ask the network. "
        "Where the branch has an upstream, GIT005 counts the commits not pushed to it instead.",
    fix="Push the branch (`git push -u origin HEAD`), then submit.",
    example="git remote add origin https://github.com/me/demo.git   # and no git push since",
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
    dotgit = ws.git_root / ".git"
    if dotgit in ws.unreadable:
        return [GIT_UNREADABLE.at(ws.rel(dotgit), f"the repository's .git cannot be read: {ws.unreadable[dotgit][0]}",
                                  hint=permission_hint(is_folder=dotgit.is_dir()))]
    if (blocking := blocks_git(ws)) is not None:
        return [GIT_UNREADABLE.at(ws.rel(blocking), f"{blocking.name} is not a regular file (a FIFO or a device): "
                                  "git reads it on every `git status` and would wait forever, so git was not asked",
                                  hint=f"replace {ws.rel(blocking)} with a regular file (or delete it)")]
    git = _runner(ws.git_root)
    try:
        prefix = PurePosixPath(ws.repo_prefix or ".")
        paths = view(ws, "git-watched", watched)  # an editor's edit run compares these values (check/units.view)
        unknown = {ws.rel(p) for p in ws.unreadable}  # git cannot hash them: LAY011 and its kin say why
        tools = left_out(ws)
        # From a pre-commit hook, the push state says nothing: a commit is always made before it is
        # pushed, and a hook that wanted the push first would block every second commit.
        pre_commit = under_pre_commit()

        def state() -> list[Diagnostic]:
            status = start_status(git, prefix, paths, tools)  # started now, read after the push state: both at once
            try:
                pushing = [] if pre_commit else (_unpushed(git, prefix, paths) or _not_on_origin(git, prefix, paths))
            except BaseException:
                status[1].stop()
                raise
            return _uncommitted(status, prefix, unknown) + pushing

        # git reads the files, never an editor's buffer: typing in one keeps this answer (check/live.py)
        extra = json.dumps([str(prefix), paths, sorted(unknown), tools, pre_commit])
        found = ws.remember("git-state", [ws.root, ws.git_root / ".git"], extra, state, buffers=False)
        for config in view(ws, "git-pins", _pinned):
            found += _pins(git, ws, config)
        return found
    except safe_git.GitError as err:
        return [_unreadable(err)]


Git = Callable[..., subprocess.CompletedProcess]  # git(*args, check=True) in the repository


def _runner(git_root: Path) -> Git:
    env = runner_env(git_root)

    def git(*args: str, check: bool = True):
        return safe_git.run(git_root, *args, env=env, check=check, keep_index=True)

    git.start = lambda *args: safe_git.start(git_root, *args, env=env, keep_index=True)  # type: ignore[attr-defined]
    return git


def _text(done) -> str:
    return done.stdout.decode("utf-8", "surrogateescape")


def _unreadable(err: safe_git.GitError) -> Diagnostic:
    if isinstance(err, safe_git.GitTimeout):
        return GIT_UNREADABLE.at(None, f"{err}; what is uncommitted or unpushed was not checked",
                                 hint="find what makes git slow here (`time git status`: a pathological .gitignore "
                                      "pattern, a huge untracked folder); OSMOSIS_GIT_TIMEOUT=SECONDS allows more time")
    return GIT_UNREADABLE.at(None, _one_line(err))


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text[:200] or type(err).__name__


def _uncommitted(pending: tuple[Callable, safe_git.Started], prefix: PurePosixPath, unknown: set[str]) -> list[Diagnostic]:
    wanted, started = pending
    staged_counts = under_pre_commit()
    out = _text(started.result())
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
        if staged_counts and status[1] == " ":
            continue  # staged, and nothing else changed since: it is in the commit being made
        if _is_noise(path) or is_update_leftover(path):
            continue  # a .rej is its own finding (LAY110), never something to commit
        rel = _relative(path, prefix)
        if rel in unknown or any(rel.startswith(f"{u}/") for u in unknown) or not wanted(rel):
            continue
        changed.append(rel)
    if not changed:
        return []
    changed.sort()
    shown = ", ".join(changed[:SHOWN_FILES])
    more = f" and {len(changed) - SHOWN_FILES} more" if len(changed) > SHOWN_FILES else ""
    count = f"{len(changed)} file{'s' if len(changed) != 1 else ''}"
    import shlex  # only when something is uncommitted

    add = " ".join(shlex.quote(p) for p in _add_paths(changed))
    if staged_counts:
        hint = f"Stage them too (`git add {add}`), so that this commit holds everything the runs use."
        state = "not staged for this commit"
    else:
        hint = f"Commit and push them before submitting a run: `git add {add} && git commit && git push`."
        state = "not committed"
    verb = "is" if len(changed) == 1 else "are"
    return [UNCOMMITTED.at(
        changed[0],  # a location every reporter shows alike (SARIF needs one); the message lists the rest
        f"{count} that runs use {verb} {state}: {shown}{more}; the platform runs what is committed on the default branch",
        hint=hint,
    )]


def _add_paths(changed: list[str]) -> list[str]:
    """What `git add` needs for ``changed``: a rollout's folder for its files, other files as they are;
    whole rollouts/ and configs/ folders when that list gets long."""
    units = list(dict.fromkeys(
        "/".join(p.split("/")[:2]) if p.startswith("rollouts/") and p.count("/") >= 2 else p for p in changed
    ))
    if len(units) > HINT_PATHS:
        units = list(dict.fromkeys(p.split("/")[0] if p.startswith(("rollouts/", "configs/")) else p for p in units))
    return units


def _branch(git: Git) -> tuple[str, str, str] | None:
    """(the checked-out branch's ref, its upstream's ref or "" when it has none or it is gone, the
    upstream's short name), from one `git for-each-ref`; None when HEAD is on no branch that has a
    commit (detached, or a branch with no commit yet). Asked once a run: the two push-state checks share it."""
    memo = getattr(git, "branch", False)
    if memo is not False:
        return memo
    out = _text(git(*BRANCH_ARGS))
    found = None
    for line in out.splitlines():
        head, _, rest = line.partition("\0")
        if head == "*":
            ref, upstream, short, track = (rest.split("\0") + ["", "", ""])[:4]
            found = (ref, "" if track == "[gone]" else upstream, short)
            break
    git.branch = found  # type: ignore[attr-defined]
    return found


def _not_on_origin(git: Git, prefix: PurePosixPath, paths: list[str]) -> list[Diagnostic]:
    """GIT008: `origin` is set, the branch has no upstream (GIT005's case when it has one), and commits
    reachable from HEAD that change what runs use are on no remote-tracking branch of origin. Refs only
    (`rev-list HEAD --not --remotes=origin`): what this clone last fetched or pushed, no network."""
    if git(*ORIGIN_ARGS, check=False).returncode != 0:
        return []  # no origin: GIT006 says so
    branch = _branch(git)
    if branch is None and git("rev-parse", "--verify", "-q", "HEAD^{commit}", check=False).returncode != 0:
        return []  # no commit yet (a detached HEAD has one, and no branch)
    if branch is not None and branch[1]:
        return []  # an upstream: GIT005 counts what is not pushed to it
    counted = _text(git("rev-list", "--count", "HEAD", "--not", "--remotes=origin", "--",
                        *pathspecs(prefix, paths))).strip() or "0"
    if not counted.isdigit():  # not what git prints: a broken or impostor `git` on PATH
        raise safe_git.GitError(f"`git rev-list --count` printed {printable(counted[:40])!r}, not a number")
    if not int(counted):
        return []
    pushed = _text(git("for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes/origin/")).strip()
    commits = f"{counted} commit{'s' if counted != '1' else ''} touching what runs use"
    where = "on no branch of origin" if pushed else "not pushed: origin has no branch yet"
    return [NOT_ON_ORIGIN.at(None, f"{commits} {'are' if counted != '1' else 'is'} {where}; the platform would run older "
                                   "code than this clone's, or none")]


def _unpushed(git: Git, prefix: PurePosixPath, paths: list[str]) -> list[Diagnostic]:
    """Commits on the current branch, not on its upstream, that change what the platform runs.
    Without an upstream (a local-only repository) there is nothing to compare with: no finding."""
    branch = _branch(git)
    if branch is None or not branch[1]:
        return []  # detached, no commit yet, or no upstream (or one that is gone)
    ref, upstream, short = branch
    counted = _text(git("rev-list", "--count", f"{upstream}..HEAD", "--", *pathspecs(prefix, paths))).strip() or "0"
    if not counted.isdigit():  # not what git prints: a broken or impostor `git` on PATH
        raise safe_git.GitError(f"`git rev-list --count` printed {printable(counted[:40])!r}, not a number")
    count = int(counted)
    if not count:
        return []
    plural = "s" if count != 1 else ""
    branch = ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else ref
    return [UNPUSHED.at(
        None,
        f"{count} commit{plural} on {branch} touching what runs use not pushed to {short}",
    )]


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


def _pinned(ws: Workspace) -> list[ConfigRef]:
    """The configs that pin a commit or a branch, with nothing but the pins: what `_pins` reads."""
    keys = ("commit_sha", "branch")
    return [ConfigRef(c.path, c.kind, {k: c.experiment[k] for k in keys if k in c.experiment},
                      {k: c.positions[k] for k in keys if k in c.positions}, None)
            for c in workspace_configs(ws) if any(k in c.experiment for k in keys)]


def _pins(git: Git, ws: Workspace, config: ConfigRef) -> list[Diagnostic]:
    found = []
    shown = ws.rel(config.path)  # configs are listed from the root: the path under it
    sha = config.experiment_str("commit_sha")
    if sha is not None and _SHA.match(sha) and not _has_commit(git, sha):
        line, column = config.value_position("commit_sha")
        found.append(UNKNOWN_COMMIT.at(
            shown, f"commit_sha {quoted(sha)} is not a commit in the local repository", line=line, column=column,
        ))
    branch = config.experiment_str("branch")
    if branch and not _has_branch(git, branch):
        line, column = config.value_position("branch")
        found.append(UNKNOWN_BRANCH.at(
            shown, f"branch {quoted(branch)} does not exist locally (neither a local nor a remote-tracking branch)"
            + _branch_guess(git, branch),
            line=line, column=column,
        ))
    return found


def _branch_guess(git: Git, branch: str) -> str:
    """"; did you mean 'main'?" from the local and remote-tracking branch names."""
    import difflib

    names = set()
    for ref in _text(git("for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")).splitlines():
        if ref.startswith("refs/heads/"):
            names.add(ref[len("refs/heads/"):])
        elif ref.count("/") >= 3 and not ref.endswith("/HEAD"):
            names.add(ref.split("/", 3)[3])  # refs/remotes/<remote>/<branch>
    guess = difflib.get_close_matches(branch, sorted(names), n=1)
    return f"; did you mean {guess[0]!r}?" if guess else ""


def _has_commit(git: Git, sha: str) -> bool:
    return git("rev-parse", "--verify", "--quiet", f"{sha}^{{commit}}", check=False).returncode == 0


def _has_branch(git: Git, branch: str) -> bool:
    remotes = _text(git("remote")).split()
    refs = [f"refs/heads/{branch}"] + [f"refs/remotes/{remote}/{branch}" for remote in remotes]
    return any(git("rev-parse", "--verify", "--quiet", ref, check=False).returncode == 0 for ref in refs)


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
        return _pins(_runner(ws.git_root), ws, ConfigRef.from_doc(path, kind, doc))
    except safe_git.GitError as err:  # as in check_git_sync: report, never crash
        return [_unreadable(err)]
