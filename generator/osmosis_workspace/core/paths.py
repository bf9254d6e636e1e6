"""Path containment, the one test behind "never follow a path out of the workspace"."""

from __future__ import annotations

from pathlib import Path


def real_path(path: Path) -> Path:
    """``path`` resolved, or made absolute when it cannot be (a symlink loop raises on Python < 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


MAX_NAME_BYTES = 255  # one path segment, on every common file system
MAX_PATH_BYTES = 4096


def unusable_path(value: str) -> str | None:
    """Why no file system can hold a path spelled ``value`` (a NUL byte, a name too long), or None.

    Asked before a configured path reaches os calls, which raise on these instead of saying "missing"."""
    if "\0" in value:
        return "contains a NUL byte"
    encoded = value.encode("utf-8", errors="surrogatepass")
    if len(encoded) > MAX_PATH_BYTES:
        return f"is longer than {MAX_PATH_BYTES} bytes"
    if any(len(part) > MAX_NAME_BYTES for part in encoded.replace(b"\\", b"/").split(b"/")):
        return f"has a name longer than {MAX_NAME_BYTES} bytes"
    return None


def is_file(path: Path) -> bool:
    """Path.is_file, but False where it raises: below a folder that cannot be entered (PermissionError)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    """Path.is_dir, but False below a folder that cannot be entered."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def is_inside(root: Path, path: Path) -> bool:
    """Whether ``path``, following any symlinks on the way, stays inside ``root``.

    A path that cannot be resolved (a symlink loop) is not inside: nothing may be read or written
    through it.
    """
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


MAX_WALK_DEPTH = 256  # folders below the walk's top; real trees stay under 20


def walk(top: Path | str, onerror=None, max_depth: int = MAX_WALK_DEPTH):
    """`os.walk` (top-down, ``dirs`` prunable, links to folders listed but not entered) without
    recursion: os.walk before Python 3.12 recursed per level, so a tree 1,000 folders deep raised
    RecursionError. Folders more than ``max_depth`` below ``top`` are listed but not entered."""
    import os

    stack = [(os.fspath(top), 0)]
    while stack:
        here, depth = stack.pop()
        try:
            with os.scandir(here) as entries:
                listed = list(entries)
        except OSError as err:
            if onerror is not None:
                onerror(err)
            continue
        dirs, files, links = [], [], set()
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
            if is_dir and entry.is_symlink():
                links.add(entry.name)
        yield here, dirs, files
        if depth < max_depth:
            stack.extend((os.path.join(here, name), depth + 1) for name in reversed(dirs) if name not in links)


def own_python_files(top: Path, limit: int, skip: frozenset[str] = frozenset()) -> list[Path]:
    """The ``.py`` files under ``top`` a person wrote: hidden folders (a ``.venv``), ``__pycache__`` and
    ``skip`` are not entered, the walk does not recurse, and it stops at ``limit`` files."""
    found: list[Path] = []
    for here, dirs, names in walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__" and d not in skip)
        found += [Path(here) / n for n in sorted(names) if n.endswith(".py")]
        if len(found) >= limit:
            break
    return found[:limit]


def rglob_files(base: Path, max_depth: int = MAX_WALK_DEPTH) -> list[Path]:
    """Every file and link under ``base`` (``Path.rglob("*")`` filtered, but not recursive)."""
    found = []
    for here, dirs, files in walk(base, max_depth=max_depth):
        found += [Path(here) / name for name in files]
        found += [Path(here) / name for name in dirs if (Path(here) / name).is_symlink()]
    return found


# Where the kernel makes files up on reading: a "regular" /proc/self/environ holds the reading
# process's own environment (a CI job's secrets). Devices and FIFOs there are not regular files, which
# every check already refuses to read; these look like plain files, so they need their own rule.
SYSTEM_ROOTS = ("/proc", "/sys")


def system_file(path: Path) -> str | None:
    """Where ``path`` leads when that is a regular-looking file the kernel generates (under /proc or /sys)."""
    import os
    import stat

    real = os.path.realpath(path)
    if not any(real == root or real.startswith(root + "/") for root in SYSTEM_ROOTS):
        return None
    try:
        return real if stat.S_ISREG(os.stat(real).st_mode) else None
    except OSError:
        return None
