"""`osmosis update`: bring a workspace and its rollouts up to the installed templates and skills.

A real three-way merge per file, offline: base = the pristine render recorded at the last init /
rollout new / update (``refs/osmosis/pristine``, see generator.pristine), ours = the working tree,
theirs = what the installed templates render now for the same answers. Which files may change, and
how, is the workspace's ownership policy (generator.ownership): a managed file only the template
changed is replaced, one both changed is merged with `git merge-file`, and what cannot be merged is
left as conflict markers (``--conflict inline``) or as the user's file plus a ``<file>.rej`` patch
(``--conflict rej``); the user's own files are only added. Exit 1 when conflicts remain.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import tempfile
from pathlib import Path

import typer

from generator import lock, pristine
from generator.errors import EXIT_FINDINGS, UserError
from generator.workspace import NotAWorkspace, find_root

CONFLICT_MODES = ("inline", "rej")


def update_command(*, path: Path, check: bool, conflict: str, trust: bool = False, dry_run: bool = False,
                   adopt: bool = False) -> int:
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
    if adopt:
        from generator.adopt import adopt_command

        return adopt_command(root, conflict=conflict, dry_run=dry_run)
    return update(root, conflict=conflict, trust=trust, dry_run=dry_run)


# -- --check -----------------------------------------------------------------------------------


def behind(root: Path) -> list[tuple[str, str, str | None, str]]:
    """(answers file, template, recorded version, installed version) for every part that is behind.

    Only the content hash counts: a new package version that leaves a template as it was is current.
    """
    from generator import catalog

    stale = []
    entries = pristine.recorded(root)
    if not entries or not entries[0].is_workspace:
        raise pristine.not_made_by_init(root)
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
    unfinished = _unfinished(root)
    if not stale and not unfinished:
        typer.echo("up to date: the workspace and every rollout match the installed templates")
        return 0
    if stale:
        typer.echo(f"behind the installed templates ({len(stale)}):")
        for rel, template, old, new in stale:
            typer.echo(f"  {Path(rel).parent.as_posix() if '/' in rel else '(workspace)'}: {template} {old or 'unrecorded'} -> {new}")
        typer.echo("run `osmosis update` to merge the changes (your edits are kept)")
    if unfinished:
        typer.echo(f"{'templates current, but ' if not stale else ''}an update is not finished: "
                   f"{len(unfinished)} conflict(s) to resolve by hand:")
        for line in unfinished:
            typer.echo(f"  {line}")
        typer.echo("resolve the conflict markers (or apply and delete the .rej files), then commit")
    return EXIT_FINDINGS


def _unfinished(root: Path) -> list[str]:
    """Conflicts a previous `osmosis update` left (markers, .rej files), as `path[:line]  what`."""
    from generator.checks.leftovers import unresolved_findings
    from generator.workspace import Workspace

    return [f"{d.path}{f':{d.line}' if d.line else ''}  {d.code} {d.message}" for d in unresolved_findings(Workspace(root))]


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


def update(root: Path, *, conflict: str, trust: bool, dry_run: bool = False) -> int:
    from generator import ownership

    repo = pristine.git_root(root)
    if repo is None:
        raise UserError(f"{root} is not inside a git repository; `osmosis update` merges with git",
                        hint="run `git init` and commit; `osmosis update` then records its base")
    if not dry_run:  # a dry run writes nothing, so it may look at a dirty tree
        _require_clean(repo, root)
    ref = pristine.ref_name(repo, root)
    if pristine.resolve_ref(repo, ref) is None:
        if dry_run:
            behind(root)  # says so when the workspace was not made by `osmosis init`
            typer.echo(f"dry run: no {ref} yet; `osmosis update` would record the current templates' render as the base")
            return 0
        return _adopt(repo, root, ref, trust=trust)
    with lock.temp_folder("osmosis-update-") as tmp:
        base_dir, new_dir = Path(tmp) / "base", Path(tmp) / "new"
        base_dir.mkdir()
        new_dir.mkdir()
        pristine.extract(repo, pristine.base_commit(repo, root, ref) or ref, base_dir)
        pristine.render_pristine(root, new_dir, trust=trust)
        plan = ownership.apply(root, base_dir, new_dir, ownership.load(root), conflict=conflict, dry_run=dry_run)
        if not dry_run:
            pristine.record(repo, root, new_dir, "osmosis: pristine render at update")
    ownership.report(plan, dry_run=dry_run, echo=typer.echo)
    return EXIT_FINDINGS if plan.conflicts else 0


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
