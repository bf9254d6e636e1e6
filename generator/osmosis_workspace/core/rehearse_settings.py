"""`[tool.osmosis.rehearse]`: what a workspace declares about its rewards, read by `osmosis rehearse`
and checked by doctor (SET002 for a malformed value). Shapes only; the probe names are the rehearse
wing's to know.

    [tool.osmosis.rehearse]
    reward-range = [0, 10]                 # the reward's scale; a reward outside it fails rehearse
    stochastic = ["judge"]                 # graders random on purpose: true (all rollouts) or rollout names
    accept = { "judge/length" = "the rubric pays for detail" }   # probe, or rollout/probe -> the reason
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

DEFAULT_RANGE = (0.0, 1.0)   # the scale of the bundled templates and of pass_threshold
KEYS = ("reward-range", "stochastic", "accept")


@dataclass(frozen=True)
class RehearseSettings:
    reward_range: tuple[float, float] = DEFAULT_RANGE
    range_declared: bool = False
    stochastic: bool | tuple[str, ...] = False
    accept: dict[str, str] = field(default_factory=dict)

    def is_stochastic(self, rollout: str) -> bool:
        return self.stochastic is True or (isinstance(self.stochastic, tuple) and rollout in self.stochastic)

    def accepted(self, rollout: str, probe: str) -> str | None:
        """The reason a probe's failure is accepted for ``rollout``, if it is."""
        return self.accept.get(f"{rollout}/{probe}") or self.accept.get(probe)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse(table: Any) -> tuple[RehearseSettings, list[tuple[str, str]]]:
    """The settings in ``table`` (the parsed `[tool.osmosis.rehearse]`) and its problems as (key, message);
    a bad value is left out, so the rest still applies."""
    if table is None:
        return RehearseSettings(), []
    if not isinstance(table, dict):
        return RehearseSettings(), [("rehearse", "`rehearse` must be a table ([tool.osmosis.rehearse])")]
    problems: list[tuple[str, str]] = []
    values: dict[str, Any] = {}
    for key in table:
        if key not in KEYS:
            problems.append((key, f"unknown key `{key}` in [tool.osmosis.rehearse] (known: {', '.join(KEYS)})"))
    span = table.get("reward-range")
    if span is not None:
        if isinstance(span, list) and len(span) == 2 and all(_finite(v) for v in span) and span[0] < span[1]:
            values.update(reward_range=(float(span[0]), float(span[1])), range_declared=True)
        else:
            problems.append(("reward-range", f"`reward-range` must be [LOW, HIGH], two finite numbers with LOW < HIGH, not {span!r}"))
    stochastic = table.get("stochastic")
    if isinstance(stochastic, bool):
        values["stochastic"] = stochastic
    elif isinstance(stochastic, list) and all(isinstance(s, str) for s in stochastic):
        values["stochastic"] = tuple(stochastic)
    elif stochastic is not None:
        problems.append(("stochastic", f"`stochastic` must be true, false or a list of rollout names, not {stochastic!r}"))
    accept = table.get("accept")
    if isinstance(accept, dict):
        good = {k: v.strip() for k, v in accept.items() if isinstance(v, str) and v.strip()}
        for key in accept:
            if key not in good:
                problems.append(("accept", f"`accept.{key}` needs a reason: a non-empty string saying why the probe may fail"))
        values["accept"] = good
    elif accept is not None:
        problems.append(("accept", "`accept` must be a table of probe (or rollout/probe) = \"reason\""))
    return RehearseSettings(**values), problems
