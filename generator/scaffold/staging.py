"""Stage a render in a private folder beside its target, then place it all or nothing (and take it back on failure)."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import UserError
from generator.core.paths import is_inside
from generator.scaffold import folders


@dataclass
class Placement:
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    made_dirs: list[str] = field(default_factory=list)  # folders `place` created inside an existing target
    whole_target: bool = False  # the target did not exist: the staging folder was renamed to it


def make_staging(parent: Path, prefix: str) -> Path:
    """A staging folder beside where the files go (same filesystem, so moving them in is a rename).
    A folder the user may not write to is their situation to fix, not a bug in osmosis."""
    from generator.core import lock

    lock.sweep(parent, prefix)  # what a killed run (kill -9) left; a live run's folder is locked
    try:
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        lock.claim(staging)
        return staging
    except OSError as err:
        raise UserError(f"cannot write in {parent}: {err.strerror or err}",
                        hint="check the folder's permissions, or choose another folder") from None


def check_target(target: Path, force: bool) -> None:
    if target.exists() and not target.is_dir():
        raise UserError(f"{target} exists and is not a folder")
    if (target / ".copier-answers.yml").is_file():
        # --force would keep every root file, so a second rollout would be left out of the uv members,
        # .env.example and the pristine base that `osmosis update` merges from
        raise UserError(f"{target} is already an Osmosis workspace (or another copier project): it has .copier-answers.yml",
                        hint="add a rollout with `osmosis rollout new NAME --template T`; "
                             "take newer templates with `osmosis update`")
    folders.missing_parents(target.parent)  # missing parents are made; a file in the way is refused
    if target.is_dir() and any(target.iterdir()) and not force:
        raise UserError(f"{target} is not empty",
                        hint="use --force to add the workspace to it; existing files are kept, never overwritten")


def place(staging: Path, target: Path) -> Placement:
    """Move the staged tree into ``target``. A missing target is one rename; otherwise each file is
    moved only where nothing exists yet, and a failure takes back everything moved so far."""
    placement = Placement()
    if not target.exists():
        os.rename(staging, target)
        os.chmod(target, folders.default_dir_mode())  # mkdtemp made it 0700
        placement.whole_target = True
        placement.created = files_in(target, target)
        return placement
    moved: list[Path] = []
    made_dirs: list[Path] = []
    try:
        for src_dir, dirnames, filenames in os.walk(staging):
            rel_dir = Path(src_dir).relative_to(staging)
            dest_dir = target / rel_dir
            for d in list(dirnames):
                src, dest = Path(src_dir) / d, dest_dir / d
                if src.is_symlink():  # a link to a folder (.claude/skills/<n>) is placed like a file
                    dirnames.remove(d)
                    filenames.append(d)
                elif dest.is_symlink() or (dest.exists() and not dest.is_dir()) or not is_inside(target, dest):
                    dirnames.remove(d)  # never write through a link, nor replace a file by a folder
                    placement.skipped.extend(files_in(src, staging))
                elif not dest.exists():
                    dest.mkdir()
                    made_dirs.append(dest)
            for f in sorted(filenames):
                src, dest = Path(src_dir) / f, dest_dir / f
                rel = (rel_dir / f).as_posix()
                if os.path.lexists(dest) or not is_inside(target, dest.parent):
                    placement.skipped.append(rel)
                    continue
                os.replace(src, dest)
                moved.append(dest)
                placement.created.append(rel)
    except BaseException:
        for dest in reversed(moved):
            dest.unlink(missing_ok=True)
        for folder in reversed(made_dirs):
            shutil.rmtree(folder, ignore_errors=True)
        raise
    placement.skipped.sort()
    placement.made_dirs = [d.relative_to(target).as_posix() for d in made_dirs]
    return placement


def take_back(target: Path, placement: Placement, *, remove_git: bool) -> None:
    """Undo `place` (and a repository init made): the user's own files in ``target`` stay as they were."""
    if placement.whole_target:
        shutil.rmtree(target, ignore_errors=True)
        return
    if remove_git:
        shutil.rmtree(target / ".git", ignore_errors=True)
    for rel in reversed(placement.created):
        (target / rel).unlink(missing_ok=True)
    for rel in reversed(placement.made_dirs):  # deepest first; a folder the user filled meanwhile stays
        try:
            (target / rel).rmdir()
        except OSError:
            pass


def files_in(folder: Path, base: Path) -> list[str]:
    """The files and links under ``folder`` (a link to a folder counts as one file), relative to ``base``, sorted."""
    return sorted(p.relative_to(base).as_posix() for p in folder.rglob("*") if p.is_symlink() or not p.is_dir())
