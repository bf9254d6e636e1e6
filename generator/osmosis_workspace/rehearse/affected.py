"""Which rollouts a change touches (`osmosis rehearse --changed REF`), and why, read from git and the configs.

A CI matrix rehearses only these, so the rule errs on the side of rehearsing: a file under a rollout
picks it, and so does a file it reads from elsewhere (a link's target, a local package uv installs for
it: reads.py; a link or source out of the workspace is a warning, and picks the rollout on any change);
a config picks the rollout it runs (or, when it no longer parses, the rollout named like it); a dataset
picks every rollout a config points at it, and the rollout whose default rows it is; a file every
rollout shares (the root `pyproject.toml` with the SDK and `[tool.osmosis]`, `uv.lock`, the Python
pin, the root `conftest.py`) picks them all. Everything else (docs, skills, CI files) picks none. A
rollout folder the change removed or renamed is named, with why it has no verdict. Git runs through
`core.safe_git`: the repository is not trusted.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.core import safe_git
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_dir, is_file
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.workspace import DATASET_SUFFIXES
from osmosis_workspace.rehearse.plan import config_experiment, dataset_files, default_files, workspace_rollouts
from osmosis_workspace.rehearse.reads import rollout_reads

# Files at the root that every rollout's rehearsal reads (the SDK's environment and settings).
SHARED = ("pyproject.toml", "uv.lock", ".python-version", "conftest.py")
CONFIG_FOLDERS = ("configs/eval/", "configs/training/")
MAX_LISTING = 16 << 20      # bytes of `git diff --name-only` a change may print


@dataclass
class Affected:
    rollout: str
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"rollout": self.rollout, "reasons": self.reasons}


def _git_lines(root: Path, *args: str) -> list[str]:
    try:
        raw = safe_git.run_capped(root, *args, limit=MAX_LISTING)
    except safe_git.GitError as err:
        raise UserError(f"cannot list what changed: {err}") from None
    return [p for p in raw.decode("utf-8", "surrogateescape").split("\0") if p]


def merge_base(root: Path, ref: str) -> str:
    """The commit a pull request from HEAD to REF is compared with: their merge base (REF when none)."""
    if not ref or ref.startswith("-"):
        raise UserError(f"--changed {ref!r}: expected a git revision (a branch, tag or commit)")
    try:
        base = safe_git.out(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}").strip()
    except safe_git.GitFailed:
        raise UserError(f"--changed {ref}: no such revision in this repository",
                        hint="fetch it first (in CI: actions/checkout with fetch-depth: 0), or name another") from None
    except safe_git.GitError as err:
        raise UserError(f"--changed {ref}: {err}") from None
    try:
        found = safe_git.out(root, "merge-base", base, "HEAD").strip() or base
    except safe_git.GitFailed:
        found = base  # unrelated histories (or no HEAD yet): compare with REF itself
    except safe_git.GitError as err:
        raise UserError(f"--changed {ref}: {err}") from None
    return found


def changed_files(root: Path, base: str) -> list[str]:
    """Paths (relative to the git root, POSIX) that differ between ``base`` (:func:`merge_base`) and the
    work tree, untracked files included: what a pull request from this tree would change."""
    tracked = _git_lines(root, "diff", "--name-only", "--no-renames", "-z", base, "--", ".")
    untracked = _git_lines(root, "ls-files", "-z", "--others", "--exclude-standard", "--full-name", "--", ".")
    return sorted(set(tracked) | set(untracked))


def _readers(root: Path, rollouts: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Each file under data/ (lower-cased) -> the rollouts whose rehearsal may read rows from it, and why.

    The files are plan.py's (the one reading of what a config's dataset names), widened on purpose:
    a named dataset is looked up under every suffix doctor knows (rehearse reads only its .jsonl, .csv
    or .parquet), and case is ignored (a case-insensitive file system reads data/x.JSONL for "x").
    Erring on the side of rehearsing: a pick too many costs one rehearsal, a miss lets a change through."""
    readers: dict[str, list[tuple[str, str]]] = {}
    for folder in CONFIG_FOLDERS:
        base = root / folder
        if not is_dir(base):
            continue
        for path in sorted(base.glob("*.toml")):
            runs, dataset = config_experiment(path)
            for rel in dataset_files(dataset.strip(), DATASET_SUFFIXES) if runs and dataset else ():
                readers.setdefault(rel.lower(), []).append((runs, f"the dataset {folder}{path.name} names"))
    for name in rollouts:
        for rel in default_files(name):
            readers.setdefault(rel.lower(), []).append((name, "its default rows"))
    return readers


@dataclass
class Change:
    """What a change touches: the rollouts to rehearse (each with why), what could not be followed
    (a link or a local source out of the workspace), and the rollouts it removed or renamed."""
    picks: list[Affected] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    vanished: list[dict] = field(default_factory=list)   # {"rollout", "why"}


def affected(root: Path, rollouts: list[str], changed: list[str], renamed: dict[str, str] | None = None) -> Change:
    """The rollouts (of ``rollouts``, the workspace's) that ``changed`` paths touch, each with its reasons.

    ``renamed`` maps a rollout folder the change renamed to its new name (from git's rename detection)."""
    picked: dict[str, Affected] = {}
    change = Change()

    def pick(rollout: str | None, reason: str) -> None:
        if rollout in rollouts:
            entry = picked.setdefault(rollout, Affected(rollout))
            if reason not in entry.reasons:
                entry.reasons.append(reason)

    readers = None
    reads = {name: rollout_reads(root, name) for name in rollouts} if changed else {}
    for name, read in reads.items():
        for outside in read.outside:
            change.warnings.append(outside)
            pick(name, f"{outside}: a change there is not in the diff, so it is rehearsed on any change")
    gone: list[str] = []
    for rel in changed:
        if rel in SHARED:
            for name in rollouts:
                pick(name, f"{rel} (shared by every rollout)")
        elif rel.startswith("rollouts/") and rel.count("/") >= 2:
            name = rel.split("/")[1]
            pick(name, f"{rel} (under the rollout)")
            if name not in rollouts and name not in gone and not name.startswith((".", "_")) and not is_dir(root / "rollouts" / name):
                gone.append(name)
        elif rel.startswith(CONFIG_FOLDERS) and rel.endswith(".toml"):
            runs, _ = config_experiment(root / rel) if is_file(root / rel) else (None, None)
            stem = rel.rsplit("/", 1)[1][: -len(".toml")]
            pick(runs or stem, f"{rel} (a config that runs it)")
        elif rel.startswith("data/"):
            readers = _readers(root, rollouts) if readers is None else readers
            for runs, why in readers.get(rel.lower(), ()):
                pick(runs, f"{rel} ({why})")
        for name, read in reads.items():
            for why in read.covers(rel):
                pick(name, f"{rel} ({why})")
    for name in gone:
        new = (renamed or {}).get(name)
        why = (f"renamed to {new} on this branch (rehearsed under its new name)" if new in rollouts else
               f"renamed to {new} on this branch" if new else "deleted on this branch")
        change.vanished.append({"rollout": name, "why": why})
    change.picks = [picked[name] for name in rollouts if name in picked]
    return change


def _renamed_rollouts(git_root: Path, base: str, prefix: str) -> dict[str, str]:
    """Rollout folders git sees renamed between ``base`` and the work tree: old name -> new name."""
    where = "rollouts" if prefix == "." else f"{prefix}/rollouts"
    fields = _git_lines(git_root, "diff", "--name-status", "-M", "-z", base, "--", where)
    renamed: dict[str, str] = {}
    at = 0
    while at < len(fields):
        status = fields[at]
        if status.startswith(("R", "C")) and at + 2 < len(fields):
            old, new = (f[len(where) + 1:].split("/", 1)[0] for f in fields[at + 1: at + 3])
            if status.startswith("R") and old != new:
                renamed.setdefault(old, new)
            at += 3
        else:
            at += 2
    return renamed


def affected_by(root: Path, git_root: Path, ref: str) -> Change:
    """:func:`affected` for the change from REF to the work tree, paths taken relative to the workspace."""
    prefix = root.resolve().relative_to(git_root.resolve()).as_posix()
    base = merge_base(git_root, ref)
    inside = []
    for rel in changed_files(git_root, base):
        if prefix == ".":
            inside.append(rel)
        elif rel.startswith(prefix + "/"):
            inside.append(rel[len(prefix) + 1:])
    return affected(root, workspace_rollouts(root), inside, _renamed_rollouts(git_root, base, prefix))
