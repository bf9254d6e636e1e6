"""Dependency resolutions known to break a rollout at run time, as data.

Each entry was reproduced with the SDK's own `osmosis eval run` (bench/locks.py drift); doctor's
DEP003 reports a lock that pins one, and the templates keep them out with a `[tool.uv]`
`constraint-dependencies` entry whose comment says why.
"""

from __future__ import annotations

from collections.abc import Mapping

from osmosis_workspace.core.pep440 import Specifier, Version
from osmosis_workspace.core.records import dataclass


@dataclass(frozen=True)
class KnownBad:
    pins: dict[str, str]  # package -> the specifier its pinned version falls in for the break
    effect: str           # what the user sees, one sentence
    constraint: str       # the constraint that keeps it out of a resolution
    seen: str             # when and how it was reproduced


KNOWN_BAD: tuple[KnownBad, ...] = (
    KnownBad(
        pins={"litellm": ">=1.106", "mcp": "<2.3"},
        effect="litellm imports mcp 2.3 names (mcp.types.CacheableResult) on every tool call, so each row of "
               "`osmosis eval run` ends in agent_error",
        constraint="litellm<1.106",
        seen="2026-11-25: litellm 1.106.12 with mcp 1.30.0 (strands-agents holds mcp below 2.2)",
    ),
)


def breaks(versions: Mapping[str, str]) -> list[tuple[KnownBad, dict[str, str]]]:
    """Each entry whose every package ``versions`` (normalised name -> version) holds at a version in
    its range, with the versions that matched: the one reading of this table, for doctor's DEP003
    (a lock's pins) and rehearse (a lock, and the packages a synced environment holds)."""
    found = []
    for bad in KNOWN_BAD:
        held = {name: versions[name] for name in bad.pins if name in versions}
        if len(held) == len(bad.pins) and all(_within(held[name], spec) for name, spec in bad.pins.items()):
            found.append((bad, held))
    return found


def describe(held: Mapping[str, str]) -> str:
    """``litellm 1.106.12 with mcp 1.30.0``."""
    return " with ".join(f"{name} {version}" for name, version in held.items())


def _within(version: str, specifier: str) -> bool:
    v, spec = Version.parse(version), Specifier.parse(specifier)
    return v is not None and spec is not None and spec.contains(v)
