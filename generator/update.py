"""`osmosis update`: bring a workspace and its rollouts up to the installed templates and skills.

A real three-way merge per file, offline: base = the pristine render recorded at the last init /
rollout new / update (``refs/osmosis/pristine``, see generator.pristine), ours = the working tree,
theirs = what the installed templates render now for the same answers. A file only the template
changed is replaced; a file only the user changed is kept; a file both changed is merged with
`git merge-file`, and what cannot be merged is left as conflict markers (``--conflict inline``) or
as the user's file plus a ``<file>.rej`` patch (``--conflict rej``). Exit 1 when any remain.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import typer

from generator import lock, pristine
from generator.errors import EXIT_FINDINGS, UserError
from generator.workspace import NotAWorkspace, find_root

CONFLICT_MODES = ("inline", "rej")


@dataclass
class Outcome:
    updated: list[str] = field(default_factory=list)  # template change applied (user had not touched it)
    merged: list[str] = field(default_factory=list)  # both changed, merged cleanly
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # the user's version kept (deleted or changed a removed file)
    conflicts: list[str] = field(default_factory=list)  # files with markers, or <file>.rej written

    @property
    def changed(self) -> bool:
        return bool(self.updated or self.merged or self.added or self.removed or self.conflicts)


def update_command(*, path: Path, check: bool, conflict: str, trust: bool = False) -> int:
    if conflict not in CONFLICT_MODES:
        raise UserError(f"--conflict must be one of {', '.join(CONFLICT_MODES)}, not {conflict!r}")
    if not path.exists():
        raise UserError(f"{path} does not exist")
    try:
        root = find_root(path)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None
    if check:
        return check_command(root)
    return update(root, conflict=conflict, trust=trust)


# -- --check -----------------------------------------------------------------------------------


def behind(root: Path) -> list[tuple[str, str, str | None, str]]:
    """(answers file, template, recorded version, installed version) for every part that is behind.

    Only the content hash counts: a new package version that leaves a template as it was is current.
    """
    from generator import catalog

    stale = []
    entries = pristine.recorded(root)
    if not entries or not entries[0].is_workspace:
        raise UserError(f"{root} has no {pristine.ANSWERS_FILE}: it was not created by `osmosis init`")
    for entry in entries:
        if entry.is_workspace:
            installed = pristine.fingerprint(catalog.workspace_template().path, workspace=True)
        else:
            with pristine.open_recorded(entry) as source:
                installed = pristine.fingerprint(source.path)
        if pristine.content_hash(entry.version) != pristine.content_hash(installed):
            stale.append((entry.path, entry.template, entry.version, installed))
    return stale


def check_command(root: Path) -> int:
    stale = behind(root)
    if not stale:
        typer.echo("up to date: the workspace and every rollout match the installed templates")
        return 0
    typer.echo(f"behind the installed templates ({len(stale)}):")
    for rel, template, old, new in stale:
        typer.echo(f"  {Path(rel).parent.as_posix() if '/' in rel else '(workspace)'}: {template} {old or 'unrecorded'} -> {new}")
    typer.echo("run `osmosis update` to merge the changes (your edits are kept)")
    return EXIT_FINDINGS


# -- the merge ---------------------------------------------------------------------------------


def _require_clean(repo: Path, root: Path) -> None:
    status = pristine.git(repo, "status", "--porcelain", "--untracked-files=all", "--", str(root)).decode()
    dirty = [line[3:] for line in status.splitlines() if line.strip()]
    if dirty:
        listed = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise UserError(f"the git tree has uncommitted changes ({listed}); `osmosis update` needs a clean tree",
                        hint="commit or stash them first, so the update can be reviewed and undone with git")


def _read(path: Path) -> bytes | str | None:
    """A file's bytes, a symlink's target (as str), or None when absent."""
    if path.is_symlink():
        return os.readlink(path)
    if path.is_file():
        return path.read_bytes()
    return None


def _files(base: Path) -> set[str]:
    from generator.template_guard import has_git_segment

    # a render's `.git/*` (a trusted template may hold one) is never merged into the repository
    found = (p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_symlink() or p.is_file())
    return {rel for rel in found if not has_git_segment(rel)}


def _write(root: Path, rel: str, content: bytes | str | None) -> None:
    from generator.paths import is_inside

    dest = root / rel
    if not is_inside(root, dest.parent):
        raise UserError(f"refusing to write {rel}: it leads out of the workspace through a symlink")
    if content is None:
        if dest.is_symlink() or dest.is_file():
            dest.unlink()
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.is_symlink() or dest.is_file():
        dest.unlink()
    if isinstance(content, str):
        os.symlink(content, dest)
    else:
        from generator import safe_write

        safe_write.write_bytes(root, dest, content)


def _is_text(*contents: bytes | str | None) -> bool:
    for content in contents:
        if isinstance(content, str):
            return False  # symlinks are not merged line by line
        if content is not None:
            if b"\0" in content:
                return False
            try:
                content.decode("utf-8")
            except UnicodeDecodeError:
                return False
    return True


def merge_file(ours: bytes, base: bytes, theirs: bytes, rel: str) -> tuple[bytes, bool]:
    """`git merge-file` of the three versions: (result, had_conflicts)."""
    with tempfile.TemporaryDirectory(prefix="osmosis-merge-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        done = subprocess.run(
            ["git", "merge-file", "-p", "-L", f"{rel} (yours)", "-L", f"{rel} (last template render)",
             "-L", f"{rel} (installed template)", *paths],
            capture_output=True, check=False,
        )
    if done.returncode < 0 or done.returncode > 127:
        raise UserError(f"git merge-file failed on {rel}: {done.stderr.decode(errors='replace').strip()}", exit_code=3)
    return done.stdout, done.returncode > 0


def _rej(rel: str, base: bytes | None, theirs: bytes | None) -> bytes:
    """The template's change to ``rel`` as a unified diff (what could not be applied)."""
    old = (base or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    new = (theirs or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    diff = difflib.unified_diff(old, new, fromfile=f"a/{rel} (last template render)", tofile=f"b/{rel} (installed template)")
    return "".join(diff).encode("utf-8")


def merge_trees(root: Path, base_dir: Path, new_dir: Path, *, conflict: str) -> Outcome:
    """Apply the change from ``base_dir`` to ``new_dir`` onto the workspace at ``root``."""
    out = Outcome()
    for rel in sorted(_files(base_dir) | _files(new_dir)):
        base, theirs = _read(base_dir / rel), _read(new_dir / rel)
        if base == theirs:
            continue  # the template did not change it
        target = root / rel
        blocked = any(p.is_file() or (p.is_symlink() and not p.is_dir()) for p in target.parents if root in p.parents)
        if blocked or (target.is_dir() and not target.is_symlink()):
            out.conflicts.append(f"{rel} (something of yours is in the way; the template's version was not written)")
            continue
        ours = _read(target)
        if ours == theirs:
            continue  # the user already has the new version
        if ours == base:  # untouched by the user: take the template's version
            _write(root, rel, theirs)
            (out.removed if theirs is None else out.added if base is None else out.updated).append(rel)
            continue
        if ours is None:
            if base is None:  # pragma: no cover - ours == base covers it
                continue
            out.kept.append(f"{rel} (you deleted it; the template changed it)")
            continue
        if theirs is None:
            out.kept.append(f"{rel} (you changed it; the template no longer has it)")
            continue
        if _is_text(ours, base, theirs):
            merged, conflicted = merge_file(ours, base or b"", theirs, rel)  # type: ignore[arg-type]
            if not conflicted:
                _write(root, rel, merged)
                out.merged.append(rel)
                continue
            if conflict == "inline":
                _write(root, rel, merged)
                out.conflicts.append(rel)
                continue
        # --conflict rej, or nothing line-based to merge: keep the user's file, write the template's change beside it.
        _write(root, f"{rel}.rej", _rej(rel, base if isinstance(base, bytes) else None, theirs if isinstance(theirs, bytes) else None))
        out.conflicts.append(f"{rel}.rej")
    return out


def update(root: Path, *, conflict: str, trust: bool) -> int:
    repo = pristine.git_root(root)
    if repo is None:
        raise UserError(f"{root} is not inside a git repository; `osmosis update` merges with git",
                        hint="run `git init` and commit; `osmosis update` then records its base")
    _require_clean(repo, root)
    ref = pristine.ref_name(repo, root)
    if pristine.resolve_ref(repo, ref) is None:
        return _adopt(repo, root, ref, trust=trust)
    with lock.temp_folder("osmosis-update-") as tmp:
        base_dir, new_dir = Path(tmp) / "base", Path(tmp) / "new"
        base_dir.mkdir()
        new_dir.mkdir()
        pristine.extract(repo, pristine.base_commit(repo, root, ref) or ref, base_dir)
        pristine.render_pristine(root, new_dir, trust=trust)
        outcome = merge_trees(root, base_dir, new_dir, conflict=conflict)
        pristine.record(repo, root, new_dir, "osmosis: pristine render at update")
    _report(outcome)
    return EXIT_FINDINGS if outcome.conflicts else 0


def _adopt(repo: Path, root: Path, ref: str, *, trust: bool) -> int:
    """No pristine ref (made with --no-git, or a clone). When the installed templates are the ones
    that made the workspace, their render is the right base: record it. Otherwise there is no base."""
    stale = behind(root)
    if stale:
        raise UserError(
            f"this repository has no {ref}, the record of the last template render that updates merge from, "
            "and the installed templates are newer than the ones that made the workspace",
            hint=f"in a clone, fetch it: `git fetch origin '{ref}:{ref}'` after `git push origin '{ref}'` from the "
                 "original; see docs/update.md",
        )
    with lock.temp_folder("osmosis-update-") as tmp:
        new_dir = Path(tmp) / "new"
        new_dir.mkdir()
        pristine.render_pristine(root, new_dir, trust=trust)
        pristine.record(repo, root, new_dir, "osmosis: pristine render recorded by update")
    typer.echo(f"recorded the current templates' render as {ref}; nothing to merge (future updates merge from it)")
    return 0


def _report(out: Outcome) -> None:
    if not out.changed and not out.kept:
        typer.echo("already up to date: nothing to merge")
        return
    for label, items in (("updated", out.updated), ("merged", out.merged), ("added", out.added),
                         ("removed", out.removed), ("kept yours", out.kept)):
        for item in items:
            typer.echo(f"  {label:10} {item}")
    if out.conflicts:
        typer.echo(f"{len(out.conflicts)} conflict(s) to resolve by hand:")
        for item in out.conflicts:
            typer.echo(f"  conflict   {item}")
        typer.echo("resolve the conflict markers (or apply and delete the .rej files), then review with `git diff` and commit")
    else:
        typer.echo("review with `git diff`, run `osmosis doctor`, then commit")
