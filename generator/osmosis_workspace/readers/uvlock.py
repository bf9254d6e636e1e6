"""Reading a ``uv.lock``: the header (requires-python, the manifest's constraints), one project's
recorded requirements, and a named package's pins with their lines.

A lock holds a hundred or more packages and every wheel's hash (600 KB for a Strands rollout, 1.1 MB
for vLLM's own); a full TOML parse of that takes about a second here, more than the rest of a doctor
run. So a lock in the form uv writes is read by substring search for the ``[[package]]`` block a
question needs, and only that block reaches the TOML parser. Whether the text is in that form is
decided first, line by line (``_canonical``): bare keys, one-line values, `"` strings without escapes,
plain table headers, each ``[[package]]`` opening with its ``name`` (and ``version`` next, when it
has one), no multi-line strings. In that form the blocks the search finds are exactly the tables TOML
reads. Anything else that is valid TOML (`name = 'litellm'`, `name="litellm"`, ``version`` before
``name``, escapes, comments on a header) is parsed whole, bounded: the same answer, slower.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from osmosis_workspace.core.bounded import Unreadable, read_capped, toml_loads
from osmosis_workspace.core.pep440 import normalise_name
from osmosis_workspace.core.records import dataclass, field

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Real locks: 0.5-1.2 MB for RL stacks with torch and vLLM (prime-rl 0.60, SkyRL 0.47, open-instruct
# 0.74, open-r1 0.73, vLLM's own 1.15), 3.3 MB for Airflow's monorepo. 16 MB is a lock no project has.
MAX_LOCK_BYTES = 16 << 20

_PACKAGE = "[[package]]\n"
_VERSION = re.compile(r'version = "([^"\n]*)"\n')
_STRING = r'"[^"\\\n]*"'  # no escapes: a name spelt with one is read by the full parse
_KEY = r"(?!package )[A-Za-z0-9_-]+"  # `package = [...]` would be the packages, other than by [[package]]
_ONE_LINE = rf"{_KEY} = (?:{_STRING}|-?[0-9]+|true|false|\{{[^\n]*\}}|\[[^\n]*\])(?: #[^\n]*)?"
_ITEM = rf"    (?:{_STRING}|\{{[^\n]*\}}),?\n"
_HEADER = r"(?!\[package\]\n)\[\[?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\]\]?"
_LINE = rf"(?:#[^\n]*|{_HEADER}|{_ONE_LINE}|{_KEY} = \[\n(?:{_ITEM})*\]|{_KEY} = \[\[\n(?:{_ITEM})*\]\])?\n"
_FORM = re.compile(rf"(?:{_LINE})*")  # the lines uv writes; one C-speed match, under a millisecond for 600 KB
_NAME_VERSION = re.compile(r'\n\[\[package\]\]\nname = "[^"\\\n]*"\nversion = "')  # a literal start: a fast search
# uv writes names normalised and normalises any it reads (`LiteLLM` is litellm), so only a lock whose
# names are all normal can be searched by the normal name
_NORMAL_NAME = re.compile(r'\n\[\[package\]\]\nname = "[a-z0-9]+(?:-[a-z0-9]+)*"\n')


def _canonical(text: str) -> bool:
    """Whether ``text`` is in the form uv writes, where the substring search equals TOML (see above)."""
    if '"""' in text or "'''" in text or _FORM.fullmatch(text) is None:
        return False
    # every [[package]] opens with its name; every package-level version is the one right after it
    text = "\n" + text
    first = text.find("\n" + _PACKAGE)
    heads = text.count("\n" + _PACKAGE)
    starts = _all(text, f'\n{_PACKAGE}name = "')
    versions = 0 if first < 0 else text.count('\nversion = "', first)
    return (len(starts) == heads == _found(_NORMAL_NAME, text, starts)
            and versions == _found(_NAME_VERSION, text, starts))


def _all(text: str, literal: str) -> list[int]:
    """Where ``literal`` (which cannot overlap itself) starts in ``text``: its ``text.count``, placed."""
    starts, at = [], text.find(literal)
    while at >= 0:
        starts.append(at)
        at = text.find(literal, at + len(literal))
    return starts


def _found(pattern, text: str, starts: list[int]) -> int:
    """``len(pattern.findall(text))`` for a pattern whose every match opens with the literal found at
    ``starts``: tried there alone (non-overlapping, left to right, as findall), not at each of 600 KB's
    offsets (two such searches were a third of a 600 KB lock's form test: issue 40)."""
    count = end = 0
    for at in starts:
        if at >= end and (match := pattern.match(text, at)) is not None:
            count, end = count + 1, match.end()
    return count


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    line: int | None  # 1-based line of the package's `version = ...`


@dataclass
class UvLock:
    text: str
    requires_python: str | None
    constraints: list[dict]  # the manifest's, as uv wrote them
    packages: list[dict] | None = field(default=None)  # the whole parse, for a lock not in uv's own form

    def _block(self, name: str) -> tuple[int, int] | None:
        start = self.text.find(f'\n{_PACKAGE}name = "{name}"\n')
        if start < 0:
            return None
        end = self.text.find(f"\n{_PACKAGE}", start + 1)
        return start + 1, len(self.text) if end < 0 else end + 1

    def _parsed(self, name: str) -> list[dict]:
        return [p for p in self.packages or [] if isinstance(p.get("name"), str) and normalise_name(p["name"]) == name]

    def pin(self, name: str) -> Pin | None:
        """The first version the lock records for package ``name`` (normalised), with its line."""
        if self.packages is not None:
            version = next((p.get("version") for p in self._parsed(name) if isinstance(p.get("version"), str)), None)
            return None if version is None else Pin(name, version, self._line_of(version))
        span = self._block(name)
        if span is None:
            return None
        at = span[0] + len(_PACKAGE) + len(f'name = "{name}"\n')
        version = _VERSION.match(self.text, at)
        if version is None:
            return None
        return Pin(name, version.group(1), self.text.count("\n", 0, at) + 1)

    def _line_of(self, version: str) -> int | None:
        found = re.search(rf"""version\s*=\s*["']{re.escape(version)}["']""", self.text)
        return None if found is None else self.text.count("\n", 0, found.start()) + 1

    def versions(self, name: str) -> list[str]:
        """Every version the lock records for package ``name`` (a forked resolution pins several)."""
        if self.packages is not None:
            return [p["version"] for p in self._parsed(name) if isinstance(p.get("version"), str)]
        found, at = [], 0
        head = f'\n{_PACKAGE}name = "{name}"\n'
        while (start := self.text.find(head, at)) >= 0:
            at = start + len(head)
            if (version := _VERSION.match(self.text, at)) is not None:
                found.append(version.group(1))
        return found

    def project(self, name: str) -> dict | None:
        """The ``[package.metadata]`` uv recorded for project ``name`` (what it was locked for):
        ``requires-dist`` and ``requires-dev``; None when the lock has no such package."""
        if self.packages is not None:
            packages = self._parsed(name)
        else:
            span = self._block(name)
            if span is None:
                return None
            try:
                block = toml_loads(self.text[span[0]:span[1]])
            except tomllib.TOMLDecodeError:
                return None
            packages = block.get("package")
        if not packages:
            return None
        package = packages[0] if isinstance(packages, list) and isinstance(packages[0], dict) else {}
        metadata = package.get("metadata")
        return metadata if isinstance(metadata, dict) else {}


def loose(text: str) -> UvLock:
    """A text without uv's header, searched by ``[[package]]`` block as it is (no parse)."""
    return UvLock("\n" + text, None, [])


def parse(text: str) -> UvLock | None:
    """The lock; None when it is not a uv lock (no integer ``version``, or not TOML). Each call parses:
    a run shares one parse of a workspace's lock through :func:`lock_in`."""
    canonical = _canonical(text)
    first = text.find(f"\n{_PACKAGE}")
    try:
        data = toml_loads(text if first < 0 or not canonical else text[:first + 1])
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(data.get("version"), int):
        return None
    python = data.get("requires-python")
    manifest = data.get("manifest")
    constraints = manifest.get("constraints") if isinstance(manifest, dict) else None
    packages = None
    if not canonical:
        listed = data.get("package")
        packages = [p for p in listed if isinstance(p, dict)] if isinstance(listed, list) else []
    return UvLock(text, python if isinstance(python, str) else None,
                  [c for c in constraints if isinstance(c, dict)] if isinstance(constraints, list) else [], packages)


def read(path: Path) -> str | None:
    """A lock's text (CRLF read as LF), up to MAX_LOCK_BYTES; None when it is missing, bigger, not a
    regular file or not UTF-8. Locks outgrow the 2 MB other settings files are held to."""
    try:
        return read_capped(path, MAX_LOCK_BYTES).decode("utf-8").replace("\r\n", "\n")
    except (Unreadable, UnicodeDecodeError):
        return None


def read_in(ws, path: Path) -> str | None:
    """:func:`read` for a workspace's lock: never through a link out, an editor's buffer when one is open,
    and counted as read (``ws``: a core.workspace.Workspace)."""
    if path in ws.overlays or ws.outside(path):
        return ws.read_text(path)  # the buffer; None for a link out
    text = read(path)
    if text is not None:
        ws.count_read([path])
    return text


def lock_in(ws, path: Path) -> tuple[str | None, UvLock | None]:
    """A workspace's lock at ``path``: its text (:func:`read_in`) and :func:`parse` of it, made once per
    snapshot (``ws.memo``). A rollout's lock is read for its SDK pin (check/sdk_target.py) and for the lock
    checks (check/families/locks.py); 4 ms a parse at 600 KB (issue 40). Every call counts the file as
    read, as a read of its own would, so each check's record of what it read is what it was."""
    made = []

    def compute() -> tuple[str | None, UvLock | None]:
        made.append(True)
        text = read_in(ws, path)
        return text, (None if text is None else parse(text))

    text, lock = ws.memo(f"uv-lock:{path}", compute)
    if not made and text is not None and path not in ws.overlays and not ws.outside(path):
        ws.count_read([path])
    return text, lock
