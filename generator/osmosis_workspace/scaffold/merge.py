"""The three-way merge `osmosis update` applies file by file: read, merge (inline markers or .rej), write safely."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from osmosis_workspace.core import lock, safe_git
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.scaffold import pristine


def _require_clean(repo: Path, root: Path) -> None:
    status = pristine.git(repo, "status", "--porcelain", "--untracked-files=all", "--ignore-submodules=dirty",
                          "--", str(root)).decode()
    dirty = [line[3:] for line in status.splitlines() if line.strip()]
    unreadable = [rel for rel in dirty if (repo / rel).exists() and not os.access(repo / rel, os.R_OK)]
    if unreadable:  # git calls a file it cannot read "changed": the fix is its permissions, not a commit
        raise UserError(f"{unreadable[0]}: Permission denied; check its permissions (`osmosis update` reads every file it may merge)")
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
    from osmosis_workspace.core.template_guard import has_git_segment

    # a render's `.git/*` (a trusted template may hold one) is never merged into the repository
    found = (p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_symlink() or p.is_file())
    return {rel for rel in found if not has_git_segment(rel)}


def _write(root: Path, rel: str, content: bytes | str | None) -> None:
    from osmosis_workspace.core.paths import is_inside

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
        from osmosis_workspace.core import safe_write

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
    with lock.temp_folder("osmosis-merge-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        try:  # in the temporary folder: no repository's config is read
            done = safe_git.run(tmp, "merge-file", "-p", "-L", f"{rel} (yours)", "-L", f"{rel} (last template render)",
                                "-L", f"{rel} (installed template)", "--", *paths, check=False)
        except safe_git.GitError as err:
            raise UserError(f"git merge-file could not merge {rel}: {err}") from None
    if done.returncode < 0 or done.returncode > 127:
        raise UserError(f"git merge-file failed on {rel}: {done.stderr.decode(errors='replace').strip()}", exit_code=3)
    return done.stdout, done.returncode > 0


def _rej(rel: str, base: bytes | None, theirs: bytes | None) -> bytes:
    """The template's change to ``rel`` as a unified diff (what could not be applied)."""
    old = (base or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    new = (theirs or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    diff = difflib.unified_diff(old, new, fromfile=f"a/{rel} (last template render)", tofile=f"b/{rel} (installed template)")
    return "".join(diff).encode("utf-8")
