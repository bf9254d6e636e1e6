"""Which rollouts a change touches (`osmosis rehearse --changed REF`), and why, read from git and the configs.

A CI matrix rehearses only these, so the rule errs on the side of rehearsing: a file under a rollout
picks it; a config picks the rollout it runs (or, when it no longer parses, the rollout named like
it); a dataset picks every rollout a config points at it, and the rollout whose default rows it is;
a file every rollout shares (the root `pyproject.toml` with the SDK and `[tool.osmosis]`, `uv.lock`,
the Python pin, the root `conftest.py`) picks them all. Everything else (docs, skills, CI files)
picks none. Git runs through `core.safe_git`: the repository is not trusted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from osmosis_workspace.core import safe_git
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_dir, is_file
from osmosis_workspace.core.workspace import DATASET_SUFFIXES
from osmosis_workspace.rehearse.plan import config_experiment, dataset_files, default_files, workspace_rollouts

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


def changed_files(root: Path, ref: str) -> list[str]:
    """Paths (relative to the git root, POSIX) that differ between REF's merge base with HEAD and the
    work tree, untracked files included: what a pull request from this tree would change."""
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
        merge_base = safe_git.out(root, "merge-base", base, "HEAD").strip() or base
    except safe_git.GitFailed:
        merge_base = base  # unrelated histories (or no HEAD yet): compare with REF itself
    except safe_git.GitError as err:
        raise UserError(f"--changed {ref}: {err}") from None
    tracked = _git_lines(root, "diff", "--name-only", "--no-renames", "-z", merge_base, "--", ".")
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


def affected(root: Path, rollouts: list[str], changed: list[str]) -> list[Affected]:
    """The rollouts (of ``rollouts``, the workspace's) that ``changed`` paths touch, each with its reasons."""
    picked: dict[str, Affected] = {}

    def pick(rollout: str | None, reason: str) -> None:
        if rollout in rollouts:
            entry = picked.setdefault(rollout, Affected(rollout))
            if reason not in entry.reasons:
                entry.reasons.append(reason)

    readers = None
    for rel in changed:
        if rel in SHARED:
            for name in rollouts:
                pick(name, f"{rel} (shared by every rollout)")
        elif rel.startswith("rollouts/"):
            pick(rel.split("/")[1], f"{rel} (under the rollout)")
        elif rel.startswith(CONFIG_FOLDERS) and rel.endswith(".toml"):
            runs, _ = config_experiment(root / rel) if is_file(root / rel) else (None, None)
            stem = rel.rsplit("/", 1)[1][: -len(".toml")]
            pick(runs or stem, f"{rel} (a config that runs it)")
        elif rel.startswith("data/"):
            readers = _readers(root, rollouts) if readers is None else readers
            for runs, why in readers.get(rel.lower(), ()):
                pick(runs, f"{rel} ({why})")
    return [picked[name] for name in rollouts if name in picked]


def affected_by(root: Path, git_root: Path, ref: str) -> list[Affected]:
    """:func:`affected` for the change from REF to the work tree, paths taken relative to the workspace."""
    prefix = root.resolve().relative_to(git_root.resolve()).as_posix()
    inside = []
    for rel in changed_files(git_root, ref):
        if prefix == ".":
            inside.append(rel)
        elif rel.startswith(prefix + "/"):
            inside.append(rel[len(prefix) + 1:])
    return affected(root, workspace_rollouts(root), inside)

