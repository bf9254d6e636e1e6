"""Dependency resolutions known to break a rollout at run time, as data.

Each entry was reproduced with the SDK's own `osmosis eval run` (bench/locks.py drift); doctor's
DEP003 reports a lock that pins one, and the templates keep them out with a `[tool.uv]`
`constraint-dependencies` entry whose comment says why.
"""

from __future__ import annotations

from dataclasses import dataclass


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
