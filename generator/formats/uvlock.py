"""Reading a ``uv.lock`` without parsing all of it: the header (requires-python, the manifest's
constraints), one project's recorded requirements, and every pinned package with its line.

A lock holds a hundred or more packages and every wheel's hash (600 KB for a Strands rollout); a
full TOML parse of that costs more than the rest of a doctor run. One linear pass splits it at its
``[[package]]`` lines; only the header and the one project block are handed to the TOML parser.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from generator.core.bounded import toml_loads

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_PACKAGE = "[[package]]\n"
_NAME = re.compile(r'name = "([^"\n]*)"\n')
_VERSION = re.compile(r'version = "([^"\n]*)"\n')


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    line: int  # 1-based line of the package's `version = ...`


@dataclass
class UvLock:
    requires_python: str | None = None
    constraints: list[dict] = field(default_factory=list)  # the manifest's, as uv wrote them
    pins: dict[str, Pin] = field(default_factory=dict)     # name -> the first pin of that name
    _blocks: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)  # name -> (start, end)
    _text: str = field(default="", repr=False)

    def project(self, name: str) -> dict | None:
        """The ``[package.metadata]`` uv recorded for project ``name`` (what it was locked for):
        ``requires-dist`` and ``requires-dev``; None when the lock has no such package."""
        span = self._blocks.get(name)
        if span is None:
            return None
        try:
            block = toml_loads(self._text[span[0]:span[1]])
        except tomllib.TOMLDecodeError:
            return None
        packages = block.get("package")
        package = packages[0] if isinstance(packages, list) and packages and isinstance(packages[0], dict) else {}
        metadata = package.get("metadata")
        return metadata if isinstance(metadata, dict) else {}


def parse(text: str) -> UvLock | None:
    """The lock's header and index; None when it is not a uv lock (no ``version`` header, or a header
    that is not TOML)."""
    first = text.find(_PACKAGE) if text.startswith(_PACKAGE) else text.find("\n" + _PACKAGE)
    header_end = len(text) if first < 0 else first + (0 if text.startswith(_PACKAGE) else 1)
    try:
        header = toml_loads(text[:header_end])
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(header.get("version"), int):
        return None
    lock = UvLock(_text=text)
    python = header.get("requires-python")
    lock.requires_python = python if isinstance(python, str) else None
    manifest = header.get("manifest")
    constraints = manifest.get("constraints") if isinstance(manifest, dict) else None
    lock.constraints = [c for c in constraints if isinstance(c, dict)] if isinstance(constraints, list) else []
    line = text.count("\n", 0, header_end) + 1
    start = header_end
    while start < len(text):
        nxt = text.find("\n" + _PACKAGE, start)
        end = len(text) if nxt < 0 else nxt + 1
        name = _NAME.match(text, start + len(_PACKAGE))
        if name is not None:
            version = _VERSION.match(text, name.end())
            lock._blocks.setdefault(name.group(1), (start, end))
            if version is not None and name.group(1) not in lock.pins:
                lock.pins[name.group(1)] = Pin(name.group(1), version.group(1), line + 2)
        line += text.count("\n", start, end)
        start = end
    return lock
