"""Which `osmosis-ai` a rollout gets: its requirement, the generations that admits, and the release
an install picks today.

A rollout's requirement is read from its own ``pyproject.toml`` (``[project].dependencies`` and
every ``[dependency-groups]`` list, which ``uv sync`` installs together), else from the workspace
root's. The release is the rollout's ``uv.lock`` pin when it satisfies the requirement (``eval run``
runs ``uv sync`` on the rollout), else the newest release on the index the requirement admits.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from osmosis_workspace.core.pep440 import Requirement, Specifier, Version
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.sdk_generations import (
    GENERATIONS,
    KNOWN_RELEASES,
    ON_INDEX,
    SDK_DISTRIBUTION,
    Generation,
    generation_of,
)
from osmosis_workspace.readers.toml_locate import TomlDoc

if TYPE_CHECKING:
    from osmosis_workspace.readers.uvlock import UvLock

# Versions past the newest we know: a requirement admitting them is open to an API this table
# does not describe yet.
_BEYOND = (Version.parse("0.4.0"), Version.parse("1.0.0"))


@dataclass(frozen=True)
class Declared:
    """One ``osmosis-ai`` requirement string and where it is written."""

    requirement: Requirement
    pyproject: Path
    line: int | None
    column: int | None


@dataclass(frozen=True)
class Target:
    """What the checks judge a rollout's code against."""

    declared: tuple[Declared, ...]  # empty: no requirement found (unpinned is assumed)
    specifier: Specifier
    admitted: tuple[Version, ...]  # known releases the requirement admits
    release: Version | None  # what installs today; None when nothing on the index fits
    locked: bool
    generation: Generation | None  # the generation checked; None when not knowable (a URL)
    url: str | None = None

    @property
    def admitted_generations(self) -> tuple[Generation, ...]:
        keys = {g.key for v in self.admitted if (g := generation_of(v))}
        return tuple(g for g in GENERATIONS if g.key in keys)

    @property
    def unbounded(self) -> bool:
        return any(self.specifier.contains(v) for v in _BEYOND)  # type: ignore[arg-type]

    @property
    def requirement_text(self) -> str:
        if not self.declared:
            return SDK_DISTRIBUTION
        return ", ".join(f"`{d.requirement.text}`" for d in self.declared)

    def describe(self) -> str:
        """``osmosis-ai 0.3.x (`osmosis-ai>=0.2` resolves to 0.3.8 today)``, for messages."""
        if self.generation is None:
            return "this osmosis-ai"
        if self.release is None:
            return f"{self.generation.label} (what {self.requirement_text} admits; no such release is on the index)"
        how = "is locked to" if self.locked else "resolves to"
        what = "no osmosis-ai requirement" if not self.declared else self.requirement_text
        if not self.declared:
            return f"{self.generation.label} ({what}: `pip install osmosis-ai` gives {self.release} today)"
        return f"{self.generation.label} ({what} {how} {self.release} today)"


def read_target(pyprojects: list[tuple[Path, str | None]], lock: str | UvLock | None = None) -> Target:
    """The target for a rollout whose candidate pyproject texts are ``pyprojects`` (the rollout's
    first, then the root's; None for a missing or unreadable file); ``lock`` is its uv.lock: the text, or the lock a run already parsed."""
    declared: list[Declared] = []
    for path, text in pyprojects:
        declared = sdk_requirements(path, text)
        if declared:
            break
    return target_for(declared, lock)


def target_for(declared: list[Declared], lock: str | UvLock | None = None) -> Target:
    url = next((d.requirement.url for d in declared if d.requirement.url), None)
    clauses = tuple(c for d in declared for c in d.requirement.specifier.clauses)
    spec = Specifier(clauses)
    if url is not None:
        return Target(tuple(declared), spec, (), None, False, None, url)
    admitted = tuple(spec.filter(list(KNOWN_RELEASES)))
    release, locked = _locked(lock, spec), True
    if release is None:
        locked = False
        installable = [v for v in admitted if v in ON_INDEX]
        release = max(installable) if installable else None
    if release is not None:
        generation = generation_of(release)
    else:
        generation = generation_of(max(admitted)) if admitted else None
    return Target(tuple(declared), spec, admitted, release, locked, generation)


def sdk_requirements(path: Path, text: str | None) -> list[Declared]:
    """The ``osmosis-ai`` requirements of one pyproject text (none when it does not parse)."""
    if text is None:
        return []
    doc = TomlDoc.parse(text)
    if doc.data is None:
        return []
    found: list[Declared] = []
    lists: list[tuple[tuple, object]] = []
    project = doc.data.get("project")
    if isinstance(project, dict):
        lists.append((("project", "dependencies"), project.get("dependencies")))
    groups = doc.data.get("dependency-groups")
    if isinstance(groups, dict):
        lists += [(("dependency-groups", name), items) for name, items in groups.items()]
    for key, items in lists:
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if not isinstance(item, str):
                continue  # {include-group = "..."} tables
            req = Requirement.parse(item)
            if req is None or req.name != SDK_DISTRIBUTION:
                continue
            line, column = doc.locator.value((*key, index)) or (None, None)
            found.append(Declared(req, path, line, column))
    return found


def _locked(lock: str | UvLock | None, spec: Specifier) -> Version | None:
    # The SDK's blocks only (readers/uvlock.py): a full parse of a lock costs more than the rest of a run.
    if not lock:
        return None
    if isinstance(lock, str):
        from osmosis_workspace.readers import uvlock

        # a text without uv's header still answers by block search, as it always did
        lock = uvlock.parse(lock) or uvlock.loose(lock)
    for text in lock.versions(SDK_DISTRIBUTION):
        version = Version.parse(text)
        if version is not None and spec.contains(version):
            return version
    return None


def python_floor_breach(requires_python: str, floor: tuple[int, int]) -> str | None:
    """The newest Python below ``floor`` that ``requires_python`` admits (e.g. "3.11"), or None."""
    spec = Specifier.parse(requires_python)
    if spec is None:
        return None
    major, minor = floor
    for below in range(minor - 1, -1, -1):
        for patch in (99, 0):  # `>=3.11.4` admits 3.11.99 but not 3.11.0
            probe = Version.parse(f"{major}.{below}.{patch}")
            if probe is not None and spec.contains(probe):
                return f"{major}.{below}"
    return None
