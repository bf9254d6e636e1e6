"""What in a template (or its output) git would execute, and links that lead out of the output.

A template with no `_tasks` can still run code: git runs `.git/hooks/*`, `core.fsmonitor` and
filter / diff / merge drivers the moment it touches a repository, and a rendered `.git/config`,
`.gitattributes` or `.gitmodules` lands in the user's repository. So the trust gate looks at the
RENDERED paths (a name can be `{{ dotgit }}`, `.GIT`, `.git ` or `git~1`), at the content of the
files git reads for drivers, and at the template's own repository, which copier runs git in.
Everything here is pure reading: no git, no copier.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

# Code points HFS+ ignores in names, so `.g\u200cit` is `.git` to git on macOS (git's is_hfs_dotgit).
_IGNORABLE = dict.fromkeys([0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF])
# Long name -> NTFS 8.3 short name git also refuses (is_ntfs_dotgit and friends).
_GIT_NAMES = {".git": "git~1", ".gitattributes": "gitatt~1", ".gitmodules": "gitmod~1"}
# A .gitattributes line assigning a driver git runs (configured elsewhere, or by a later .git/config).
_DRIVER = re.compile(r"(?:^|\s)[!-]?(filter|diff|merge)=(\S+)")
# Repository configuration a cloned or freshly initialised repository holds; anything else
# (core.fsmonitor, core.hooksPath, filter.*, include.path, ...) may name a program.
_SAFE_CONFIG = {
    "core": {"repositoryformatversion", "filemode", "bare", "logallrefupdates", "ignorecase",
             "precomposeunicode", "symlinks"},
    "remote": {"url", "fetch", "push", "tagopt", "prune", "mirror"},
    "branch": {"remote", "merge", "rebase"},
    "user": {"name", "email"},
    "init": {"defaultbranch"},
}
INSPECT_CAP = 1 << 20  # a .gitattributes or git config bigger than this is not read, and refused


def plain_name(part: str) -> str:
    """A path segment as case-insensitive, Windows and HFS+ file systems see it."""
    name = part.translate(_IGNORABLE).split(":", 1)[0]  # NTFS `name::$DATA` streams
    return name.rstrip(" .").casefold()


def _is(part: str, long_name: str) -> bool:
    name = plain_name(part)
    return name == long_name or name == _GIT_NAMES[long_name]


def segments(rel: str | os.PathLike[str]) -> list[str]:
    return [s for s in re.split(r"[/\\]", os.fspath(rel)) if s not in ("", ".")]


def has_git_segment(rel: str | os.PathLike[str]) -> bool:
    """Whether a relative path passes through (or is) a `.git` in any spelling a file system accepts."""
    return any(_is(part, ".git") for part in segments(rel))


def _read_capped(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(INSPECT_CAP + 1)
    except OSError:
        return None
    return None if len(data) > INSPECT_CAP else data.decode("utf-8", errors="replace")


def gitattributes_drivers(text: str) -> list[str]:
    """`filter=`, `diff=`, `merge=` assignments in a .gitattributes text (`line N: filter=x`)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        found += [f"line {number}: {m.group(1)}={m.group(2)}" for m in _DRIVER.finditer(line)]
    return found


def output_problems(dst: Path, rendered: Iterable[str]) -> list[str]:
    """What among ``rendered`` (paths relative to ``dst``) git would execute or reads drivers from,
    and symlinks leading out of ``dst`` or into a `.git`. One line each."""
    found = []
    for rel in sorted(set(rendered)):
        parts = [p for p in rel.split("/") if p not in ("", ".")]  # as the file system names them
        if not parts:
            continue
        path = dst.joinpath(*parts)
        if has_git_segment(rel):
            found.append(f"{rel} (inside a git folder: hooks and config there run programs)")
            continue
        if path.is_symlink():
            problem = _link_problem(parts, os.readlink(path))
            if problem:
                found.append(f"{rel} -> {os.readlink(path)} ({problem})")
            continue
        if _is(parts[-1], ".gitmodules") and path.is_file():
            found.append(f"{rel} (submodules: git fetches and checks out what it names)")
        elif _is(parts[-1], ".gitattributes") and path.is_file():
            text = _read_capped(path)
            if text is None:
                found.append(f"{rel} (too large to inspect)")
            elif drivers := gitattributes_drivers(text):
                found.append(f"{rel} (names git drivers, which run programs: {', '.join(drivers[:5])})")
    return found


def _link_problem(parts: list[str], target: str) -> str | None:
    if os.path.isabs(target) or re.match(r"^[A-Za-z]:", target) or target.startswith("\\"):
        return "a link to an absolute path"
    joined = posixpath.normpath(posixpath.join(*parts[:-1], target.replace("\\", "/")) if parts[:-1] else target.replace("\\", "/"))
    if joined == ".." or joined.startswith("../"):
        return "a link out of the rendered folder"
    if has_git_segment(joined):
        return "a link into a git folder"
    return None


def repository_problems(template: Path) -> list[str]:
    """What in the template's own repository would run when copier runs git in it (a local folder
    from an archive can carry any `.git/config` and hooks; a clone never does)."""
    dotgit = template / ".git"
    if not os.path.lexists(dotgit):
        return []
    if dotgit.is_symlink() or not dotgit.is_dir():
        return [".git of the template is not a folder (it points git at another repository)"]
    found = []
    config = dotgit / "config"
    if config.is_file():
        text = _read_capped(config)
        if text is None:
            found.append(".git/config of the template (too large to inspect)")
        else:
            found += [f".git/config of the template sets {key}" for key in unsafe_config_keys(text)]
    hooks = dotgit / "hooks"
    if hooks.is_dir():
        found += [f".git/hooks/{p.name} of the template" for p in sorted(hooks.iterdir()) if not p.name.endswith(".sample")]
    for extra in ("config.worktree", "commondir"):
        if os.path.lexists(dotgit / extra):
            found.append(f".git/{extra} of the template")
    return found


_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]')
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=|$|[;#])")


def unsafe_config_keys(text: str) -> list[str]:
    """Keys of a git config text outside the few a plain clone has (``section.key``, lower case)."""
    found: list[str] = []
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("["):
            match = _SECTION.match(stripped)
            if match is None:
                found.append(f"an unreadable section {stripped[:40]!r}")
                section = "?"
                continue
            section = match.group(1).split(".", 1)[0].lower()
            rest = stripped[match.end():].strip()
            if not rest or rest[0] in "#;":
                continue
            stripped = rest  # `[core] fsmonitor = x` on one line
        key = _KEY.match(stripped)
        name = key.group(1).lower() if key else stripped[:40]
        if name not in _SAFE_CONFIG.get(section, ()):
            entry = f"{section}.{name}"
            if entry not in found:
                found.append(entry)
    return found


def describe(found: list[str], limit: int = 8) -> str:
    shown = "; ".join(found[:limit])
    return shown + (f"; and {len(found) - limit} more" if len(found) > limit else "")
