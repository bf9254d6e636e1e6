"""One writer at a time per workspace (or `init` target), and staging folders a killed run left behind.

`hold(path, what)` takes an exclusive, non-blocking `flock` on a lock file named after the real path,
in a folder of the user's own (``lock_folder``: ``$XDG_RUNTIME_DIR/osmosis-workspace``, else
``~/.cache/osmosis-workspace/locks``; mode 0700, owned by the user, never a link), so nothing appears in
the user's tree or `git status`, and no other local user can create the lock first and hold it (the
shared temporary folder, with its predictable names, allowed exactly that); a second
writer on the same workspace is refused with exit 2 and the first one's command. The kernel drops a
flock when its process dies, `kill -9` included, so a lock never goes stale. On Windows the same
lock file carries an `msvcrt.locking` byte lock, which the system also drops with the process (that
path has not been run on Windows by our tests: none of our machines has it).

Staging folders carry the same kind of lock, on the folder itself (`claim`; no file is added that
could be moved into place): a later run removes those whose owner is gone (`sweep`), and leaves
alone the ones a live run is using.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from osmosis_workspace.core.errors import UserError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: msvcrt's byte-range lock below
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:
    msvcrt = None  # type: ignore[assignment]

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_HELD: dict[str, int] = {}  # staging folder -> descriptor holding its lock, for this process's life
_HOLDING: set[str] = set()  # the lock files `hold` holds now (Windows: it stands in for folder locks)


def _key(path: Path) -> str:
    return hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def lock_folder() -> Path:
    """Where this user's lock files live: the runtime folder the system gives the user, else the cache."""
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(runtime) and _private(runtime):
        return Path(runtime) / "osmosis-workspace"
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "osmosis-workspace" / "locks"


def lock_file(path: Path) -> Path:
    return lock_folder() / f"lock-{_key(path)}"


def _private(folder: str | Path) -> bool:
    """Whether ``folder`` is a real folder (not a link) of this user's that nobody else may write."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    own = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and own and not info.st_mode & 0o022


def _open_lock(lock_path: Path) -> int | None:
    """The lock file opened for writing: made in a private folder, created exclusively when absent, never
    through a link, and a regular file of this user's when it exists; None when that cannot be had."""
    folder = lock_path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    if not _private(folder):
        return None
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        dir_fd = os.open(folder, _DIR_FLAGS) if _DIR_FLAGS & getattr(os, "O_DIRECTORY", 0) else None
    except OSError:
        return None
    try:
        try:
            fd = os.open(lock_path.name, flags | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=dir_fd) if dir_fd is not None \
                else os.open(lock_path, flags | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            fd = os.open(lock_path.name, flags, dir_fd=dir_fd) if dir_fd is not None else os.open(lock_path, flags)
    except OSError:  # a link planted at the name (ELOOP), a folder there
        return None
    finally:
        if dir_fd is not None:
            os.close(dir_fd)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        os.close(fd)
        return None
    return fd


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on the open lock file; False when another process holds it. The system
    drops it when the process dies, kill -9 included, so a lock never goes stale."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows: lock byte 0; the holder's name is written after it
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # BlockingIOError, or Windows' PermissionError for a locked region
        return False
    return True


def _holder(fd: int) -> str:
    os.lseek(fd, 1, os.SEEK_SET)
    return os.read(fd, 200).decode("utf-8", "replace").strip() or "another osmosis command"


@contextmanager
def hold(path: Path, what: str) -> Iterator[None]:
    """Run the body as the only osmosis writer on ``path``; refuse (exit 2) when another holds it."""
    if fcntl is None and msvcrt is None:  # pragma: no cover - neither lock exists: run unserialised
        yield
        return
    lock_path = lock_file(path)
    fd = _open_lock(lock_path)
    if fd is None:  # a read-only home, a folder that is not ours: run unserialised rather than not at all
        yield
        return
    try:
        if not _try_lock(fd):
            raise UserError(f"{path} is being changed by another osmosis command ({_holder(fd)}); nothing was done",
                            hint="wait for it to finish, then run this again")
        os.ftruncate(fd, 1)
        os.lseek(fd, 1, os.SEEK_SET)
        os.write(fd, f"osmosis {what}, pid {os.getpid()}".encode())
        _HOLDING.add(str(lock_path))
        yield
    finally:
        _HOLDING.discard(str(lock_path))
        os.close(fd)  # releases the lock


def workspace(path: Path | None, what: str):
    """`hold` on the workspace holding ``path`` (its root, however the user spelled it), else on ``path``."""
    from osmosis_workspace.core.workspace import NotAWorkspace, find_root

    target = Path(os.path.abspath(path if path is not None else Path.cwd()))
    try:
        target = find_root(target) if target.exists() else target
    except (NotAWorkspace, OSError):
        pass
    return hold(target, what)


def claim(folder: Path) -> None:
    """Mark ``folder`` (a fresh staging folder) as in use by this process until it exits or `release`."""
    if fcntl is None:
        return
    fd = os.open(folder, _DIR_FLAGS)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _HELD[str(folder)] = fd


def claim_abandoned(folder: Path) -> bool:
    """Claim ``folder`` (until `release`) when the run that made it is gone; False while it lives."""
    if fcntl is None:  # pragma: no cover - Windows has no folder locks: while this process holds the
        # workspace's lock no other osmosis writer runs there, so a folder not ours is a dead run's
        return bool(_HOLDING) and str(folder) not in _HELD
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    _HELD[str(folder)] = fd
    return True


def release(folder: Path) -> None:
    fd = _HELD.pop(str(folder), None)
    if fd is not None:
        os.close(fd)


def sweep(parent: Path, prefix: str) -> list[Path]:
    """Remove ``parent/<prefix>*`` staging folders whose owner died (kill -9, power loss). Returns them."""
    if fcntl is None:
        return []
    removed = []
    try:
        candidates = [p for p in parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return []
    for folder in candidates:
        if folder.is_symlink() or not folder.is_dir() or str(folder) in _HELD or not claim_abandoned(folder):
            continue  # a live run's
        shutil.rmtree(folder, ignore_errors=True)
        release(folder)
        removed.append(folder)
    return removed


@contextmanager
def temp_folder(prefix: str) -> Iterator[str]:
    """`tempfile.TemporaryDirectory` for a writer's scratch work, claimed while in use, so the next
    run removes what a killed one left in the temporary folder (and never a live run's)."""
    base = Path(tempfile.gettempdir())
    sweep(base, prefix)
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        claim(folder)
        yield str(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        release(folder)
