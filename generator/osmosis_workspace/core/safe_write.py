"""The one way osmosis writes a file into a workspace (or an `init` target): never through a link,
never outside the root, never half-written.

A cloned repository can hold symlinks and hard links of any name, so a writer may trust neither the
final name nor a fixed temporary name beside it. Each write:

- resolves the folder and checks it stays inside the root and outside any `.git`;
- refuses a final name that is a symlink, not a regular file, or a file with other hard links
  (replacing it would leave the other name stale; writing through it would change a file elsewhere);
- creates its temporary file exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, a random name) in that folder,
  opened relative to the folder's descriptor so a link swapped in meanwhile is not followed;
- fsyncs, then renames over the final name (readers never see a half-written file).

Refusals are `UnsafeWrite` (exit 2, one line); a folder the user may not write to is a UserError too.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from osmosis_workspace.core.errors import UserError

_DIR_FD = {os.open, os.replace, os.stat, os.unlink} <= os.supports_dir_fd
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
READ_CAP = 64 << 20  # files osmosis rewrites (pyproject, .env.example, answers, configs) are small


class UnsafeWrite(UserError):
    """A write that would leave the root, follow a link, or go into a `.git` folder."""


def _shown(root: Path, path: Path) -> str:
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return str(path)


def _folder(root: Path, path: Path) -> Path:
    """The real folder ``path`` goes into, checked to be inside ``root`` and outside `.git`."""
    from osmosis_workspace.core.template_guard import has_git_segment

    shown = _shown(root, path)
    real_root = Path(os.path.realpath(root))
    folder = Path(os.path.realpath(path.parent))
    try:
        rel = folder.relative_to(real_root)
    except ValueError:
        raise UnsafeWrite(f"refusing to write {shown}: its folder leads out of {root} through a link") from None
    if has_git_segment((rel / path.name).as_posix()):
        raise UnsafeWrite(f"refusing to write {shown}: it is inside a .git folder")
    return folder


def _refuse_existing(info: os.stat_result | None, shown: str) -> None:
    if info is None:
        return
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeWrite(f"refusing to write {shown}: it is a symbolic link",
                          hint="replace the link with a regular file (or remove it), then run the command again")
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeWrite(f"refusing to write {shown}: it is not a regular file")
    if info.st_nlink > 1:
        raise UnsafeWrite(f"refusing to write {shown}: it has {info.st_nlink} hard links, so another name shares it",
                          hint="make it a file of its own (copy it, delete the original, rename the copy), then run again")


def _lstat(name: str, folder: Path, dfd: int | None) -> os.stat_result | None:
    try:
        if dfd is not None:
            return os.stat(name, dir_fd=dfd, follow_symlinks=False)
        return os.lstat(folder / name)
    except FileNotFoundError:
        return None


def write_bytes(root: Path, path: Path, data: bytes, mode: int | None = None, durable: bool = True) -> None:
    """Write ``data`` to ``path`` (inside ``root``) atomically; see the module for what is refused.

    ``mode``: the new file's permission bits (before the umask-free fchmod); default: the old file's,
    or 0o666 less the umask for a new one. ``durable=False``: no fsync (a scratch folder that is
    thrown away after the command; the link and containment checks stay)."""
    shown = _shown(root, path)
    try:
        _write(root, path, data, shown, mode, durable)
    except UserError:
        raise
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.EMLINK):  # a link appeared where O_NOFOLLOW opened
            raise UnsafeWrite(f"refusing to write {shown}: it is a symbolic link") from None
        raise UserError(f"cannot write {shown}: {err.strerror or err}",
                        hint="check that the folder is writable and the disk is not full") from None


def write_text(root: Path, path: Path, text: str) -> None:
    write_bytes(root, path, text.encode("utf-8"))


def _write(root: Path, path: Path, data: bytes, shown: str, mode: int | None = None, durable: bool = True) -> None:
    folder = _folder(root, path)
    name = path.name
    dfd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC) if _DIR_FD else None
    tmp = f".{name[:64]}.{secrets.token_hex(8)}.osmosis-tmp"
    created = False
    try:
        before = _lstat(name, folder, dfd)
        _refuse_existing(before, shown)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o666, dir_fd=dfd) if dfd is not None else os.open(folder / tmp, flags, 0o666)
        created = True
        try:
            if hasattr(os, "fchmod") and (mode is not None or before is not None):
                os.fchmod(fd, mode if mode is not None else stat.S_IMODE(before.st_mode))  # type: ignore[union-attr]
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        after = _lstat(name, folder, dfd)  # the name must still be what was checked
        _refuse_existing(after, shown)
        if (before is None) != (after is None) or (before and after and before.st_ino != after.st_ino):
            raise UnsafeWrite(f"refusing to write {shown}: it changed while being written")
        if dfd is not None:
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            created = False
            try:
                if durable:
                    os.fsync(dfd)
            except OSError:  # some file systems cannot fsync a folder; the rename is done
                pass
        else:
            os.replace(folder / tmp, folder / name)
            created = False
    finally:
        if created:
            try:
                os.unlink(tmp, dir_fd=dfd) if dfd is not None else os.unlink(folder / tmp)
            except OSError:
                pass
        if dfd is not None:
            os.close(dfd)


def read_bytes(root: Path, path: Path, cap: int = READ_CAP) -> bytes | None:
    """A file's bytes for rewriting it, read without following a link; None when it does not exist.

    Refuses what `write_bytes` would refuse, and a file larger than ``cap``."""
    shown = _shown(root, path)
    _folder(root, path)
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise UnsafeWrite(f"refusing to write {shown}: it is a symbolic link") from None
        raise UserError(f"cannot read {shown}: {err.strerror or err}") from None
    try:
        _refuse_existing(os.fstat(fd), shown)
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > cap:
                raise UserError(f"refusing to rewrite {shown}: it is larger than {cap >> 20} MB")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def make_folders(root: Path, folder: Path) -> None:
    """Create ``folder`` (inside ``root``) and the folders above it, one at a time; a link or a file
    where a folder goes is refused, so nothing below it is ever created somewhere else."""
    shown = _shown(root, folder)
    try:
        rel = Path(os.path.abspath(folder)).relative_to(os.path.abspath(root))
    except ValueError:
        raise UnsafeWrite(f"refusing to create {shown}: it is outside {root}") from None
    current = Path(root)
    for part in rel.parts:
        current = current / part
        try:
            os.mkdir(current)
            continue
        except FileExistsError:
            pass
        except OSError as err:
            raise UserError(f"cannot create {shown}: {err.strerror or err}") from None
        info = os.lstat(current)
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeWrite(f"refusing to create {shown}: {_shown(root, current)} is a symbolic link")
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafeWrite(f"refusing to create {shown}: {_shown(root, current)} is not a folder")


def make_link(root: Path, path: Path, target: str) -> None:
    """Create the symbolic link ``path`` -> ``target`` (inside ``root``); an existing name is refused.

    Only the link is made: what it points to is never opened, so its target may be anything."""
    shown = _shown(root, path)
    folder = _folder(root, path)
    if "\0" in target:
        raise UnsafeWrite(f"refusing to create the link {shown}: its target holds a NUL byte")
    try:
        os.symlink(target, folder / path.name)
    except FileExistsError:
        raise UnsafeWrite(f"refusing to create the link {shown}: the name exists already") from None
    except OSError as err:
        raise UserError(f"cannot create the link {shown}: {err.strerror or err}") from None


def copy_tree(source: Path, root: Path, durable: bool = True) -> None:
    """Copy the files and links under ``source`` into ``root``, each through this module's writers
    (`shutil.copytree` into an existing folder follows a link it finds there)."""
    from osmosis_workspace.core.paths import walk

    for current, dirnames, filenames in walk(source):
        rel_dir = Path(os.path.relpath(current, source))
        make_folders(root, root / rel_dir)
        for name in [*dirnames]:
            if os.path.islink(os.path.join(current, name)):
                dirnames.remove(name)
                filenames.append(name)
        for name in filenames:
            src, dest = Path(current) / name, root / rel_dir / name
            if src.is_symlink():
                make_link(root, dest, os.readlink(src))
            elif src.is_file():
                info = src.stat()
                write_bytes(root, dest, src.read_bytes(), mode=stat.S_IMODE(info.st_mode), durable=durable)


def append_bytes(root: Path, path: Path, addition: bytes) -> None:
    """Add ``addition`` at the end of ``path`` (created when missing), as one atomic replacement."""
    write_bytes(root, path, (read_bytes(root, path) or b"") + addition)
