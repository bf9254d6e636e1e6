"""Reading a ``uv.lock`` without parsing all of it: the header (requires-python, the manifest's
constraints), one project's recorded requirements, and a named package's pin with its line.

A lock holds a hundred or more packages and every wheel's hash (600 KB for a Strands rollout); a
full TOML parse of that costs more than the rest of a doctor run. Each question is a substring
search for the ``[[package]]`` block it needs; only the header and that one block reach the TOML
parser.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from generator.core.bounded import toml_loads

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_PACKAGE = "[[package]]\n"
_VERSION = re.compile(r'version = "([^"\n]*)"\n')


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    line: int  # 1-based line of the package's `version = ...`


@dataclass
class UvLock:
    text: str
    requires_python: str | None
    constraints: list[dict]  # the manifest's, as uv wrote them

    def _block(self, name: str) -> tuple[int, int] | None:
        start = self.text.find(f'\n{_PACKAGE}name = "{name}"\n')
        if start < 0:
            return None
        end = self.text.find(f"\n{_PACKAGE}", start + 1)
        return start + 1, len(self.text) if end < 0 else end + 1

    def pin(self, name: str) -> Pin | None:
        """The first version the lock records for package ``name`` (normalised), with its line."""
        span = self._block(name)
        if span is None:
            return None
        at = span[0] + len(_PACKAGE) + len(f'name = "{name}"\n')
        version = _VERSION.match(self.text, at)
        if version is None:
            return None
        return Pin(name, version.group(1), self.text.count("\n", 0, at) + 1)

    def versions(self, name: str) -> list[str]:
        """Every version the lock records for package ``name`` (a forked resolution pins several)."""
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
        span = self._block(name)
        if span is None:
            return None
        try:
            block = toml_loads(self.text[span[0]:span[1]])
        except tomllib.TOMLDecodeError:
            return None
        packages = block.get("package")
        package = packages[0] if isinstance(packages, list) and packages and isinstance(packages[0], dict) else {}
        metadata = package.get("metadata")
        return metadata if isinstance(metadata, dict) else {}


def parse(text: str) -> UvLock | None:
    """The lock's header; None when it is not a uv lock (no integer ``version``, or a header that is
    not TOML)."""
    first = text.find(f"\n{_PACKAGE}")
    try:
        header = toml_loads(text if first < 0 else text[:first + 1])
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(header.get("version"), int):
        return None
    python = header.get("requires-python")
    manifest = header.get("manifest")
    constraints = manifest.get("constraints") if isinstance(manifest, dict) else None
    return UvLock(text, python if isinstance(python, str) else None,
                  [c for c in constraints if isinstance(c, dict)] if isinstance(constraints, list) else [])
