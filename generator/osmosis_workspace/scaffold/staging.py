"""Stage a render in a private folder beside its target, then place it all or nothing (osmosis_workspace.core.journal)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from osmosis_workspace.core import journal
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.journal import RefMove
from osmosis_workspace.core.paths import is_inside
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.scaffold import folders


@dataclass
class Placement:
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    whole_target: bool = False  # the target did not exist: the staging folder was renamed to it


def make_staging(parent: Path, prefix: str) -> Path:
    """A staging folder beside where the files go (same filesystem, so moving them in is a rename).
    A folder the user may not write to is their situation to fix, not a bug in osmosis."""
    from osmosis_workspace.core import lock

    lock.sweep(parent, prefix)  # what a killed run (kill -9) left; a live run's folder is locked
    try:
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        lock.claim(staging)
        return staging
    except OSError as err:
        raise UserError(f"cannot write in {parent}: {err.strerror or err}",
                        hint="check the folder's permissions, or choose another folder") from None


# the writers' scratch folders in the temporary folder (lock.temp_folder, claimed while in use)
SCRATCH_PREFIXES = ("osmosis-update-", "osmosis-pristine-", "osmosis-merge-", "osmosis-index-", "osmosis-adopt-",
                    "osmosis-template-")


def take_back_interrupted(root: Path) -> None:
    """Undo what a killed osmosis writer left half-done in ``root`` (the caller holds its lock), saying so."""
    import typer

    from osmosis_workspace.core import journal, lock

    for line in journal.recover(root):
        typer.echo(f"note: {line}", err=True)
    scratch = Path(tempfile.gettempdir())
    for prefix in SCRATCH_PREFIXES:  # a killed run's scratch folders, whichever step it was in
        lock.sweep(scratch, prefix)


def check_target(target: Path, force: bool) -> None:
    if target.exists() and not target.is_dir():
        raise UserError(f"{target} exists and is not a folder")
    if (target / ".copier-answers.yml").is_file():
        # --force would keep every root file, so a second rollout would be left out of
        # .env.example and the pristine base that `osmosis update` merges from
        raise UserError(f"{target} is already an Osmosis workspace (or another copier project): it has .copier-answers.yml",
                        hint="add a rollout with `osmosis rollout new NAME --template T`; "
                             "take newer templates with `osmosis update`")
    folders.missing_parents(target.parent)  # missing parents are made; a file in the way is refused
    if target.is_dir() and any(target.iterdir()) and not force:
        raise UserError(f"{target} is not empty",
                        hint="use --force to add the workspace to it; existing files are kept, never overwritten")


def free_places(staging: Path, target: Path) -> tuple[list[str], list[str]]:
    """(staged files that can go into ``target``, files left out because something is in the way).

    Nothing existing is overwritten, no file is replaced by a folder, and nothing goes through a link."""
    if not os.access(target, os.W_OK | os.X_OK):
        raise UserError(f"{target}: Permission denied; check its permissions", hint="nothing was written")
    moves, skipped = [], []
    for rel in files_in(staging, staging):
        dest = target / rel
        for parent in Path(rel).parents[:-1]:
            folder = target / parent
            if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):  # it cannot be looked into or added to
                raise UserError(f"{folder}: Permission denied; check its permissions", hint="nothing was written")
        in_the_way = os.path.lexists(dest) or not is_inside(target, dest.parent) or any(
            os.path.lexists(target / parent) and ((target / parent).is_symlink() or not (target / parent).is_dir())
            for parent in Path(rel).parents[:-1])
        (skipped if in_the_way else moves).append(rel)
    return moves, skipped


def place(staging: Path, target: Path, *, what: str, refs: list[RefMove] | None = None) -> Placement:
    """Move the staged tree into ``target``, with ``refs`` moved too, all or nothing.

    A missing target is one rename (the refs move first: a kill between leaves an unused commit, never
    a workspace without its pristine ref). Into an existing folder each file goes only where nothing
    exists yet, through the journal, so a failure or a kill part-way is taken back."""
    placement = Placement()
    if not target.exists():
        for move in refs or []:
            journal.move_ref(move)
        os.rename(staging, target)
        os.chmod(target, folders.default_dir_mode())  # mkdtemp made it 0700
        placement.whole_target = True
        placement.created = files_in(target, target)
        return placement
    moves, placement.skipped = free_places(staging, target)
    journal.apply(target, what, [journal.Change(rel, source=staging / rel) for rel in moves], refs or [])
    placement.created = moves
    return placement


def files_in(folder: Path, base: Path) -> list[str]:
    """The files and links under ``folder`` (a link to a folder counts as one file), relative to ``base``, sorted."""
    return sorted(p.relative_to(base).as_posix() for p in folder.rglob("*") if p.is_symlink() or not p.is_dir())
