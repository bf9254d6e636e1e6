"""`[tool.osmosis.rehearse]`: what a workspace declares about its rewards, read by `osmosis rehearse`
(`load`) and checked by doctor (SET002 for a malformed value). Shapes only; the probe names are the
rehearse wing's to know.

    [tool.osmosis.rehearse]
    reward-range = [0, 10]                 # the reward's scale; a reward outside it fails rehearse
    stochastic = ["judge"]                 # graders random on purpose: true (all rollouts) or rollout names
    accept = { "judge/length" = "the rubric pays for detail" }   # probe, or rollout/probe -> the reason
    gold-column = "reference"              # the rows' gold answer, when the label is not one (test cases)
    partial-column = "partial"             # a partly right answer, where the data has one

    [tool.osmosis.rehearse.answers]        # what the grader is meant to forgive: near misses are judged
    absolute-tolerance = 0.01              # numbers this close to the label earn the gold's reward
    relative-tolerance = 0.05              # ... or this close, relatively
    ignores = ["case", "whitespace", "order", "repeats"]   # variants that must earn the gold's reward

    [tool.osmosis.rehearse.rollout.tasks]  # one rollout's own gold-column, partial-column, answers
    gold-column = "reference_solution"
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

from osmosis_workspace.core.records import dataclass, field

DEFAULT_RANGE = (0.0, 1.0)   # the scale of the bundled templates and of pass_threshold
PER_ROLLOUT_KEYS = ("gold-column", "partial-column", "answers")
KEYS = ("reward-range", "stochastic", "accept", *PER_ROLLOUT_KEYS, "rollout")
ANSWER_KEYS = ("absolute-tolerance", "relative-tolerance", "ignores")
INVARIANCES = ("case", "whitespace", "order", "repeats")
PYPROJECT_CAP = 1 << 20


@dataclass(frozen=True)
class AnswerRules:
    """What a grader declares it forgives. Undeclared (None / empty), near misses are only reported."""
    absolute: float | None = None
    relative: float | None = None
    ignores: tuple[str, ...] = ()

    @property
    def tolerance_declared(self) -> bool:
        return self.absolute is not None or self.relative is not None

    def within(self, value: float, label: float) -> bool:
        """Whether ``value`` is close enough to ``label`` to be the same answer, as declared."""
        gap = abs(value - label)
        return ((self.absolute is not None and gap <= self.absolute + 1e-9)
                or (self.relative is not None and gap <= self.relative * abs(label) + 1e-9))


@dataclass(frozen=True)
class RolloutRules:
    gold_column: str | None = None
    partial_column: str | None = None
    answers: AnswerRules = AnswerRules()


@dataclass(frozen=True)
class RehearseSettings:
    reward_range: tuple[float, float] = DEFAULT_RANGE
    range_declared: bool = False
    stochastic: bool | tuple[str, ...] = False
    accept: dict[str, str] = field(default_factory=dict)
    rules: RolloutRules = RolloutRules()
    per_rollout: dict[str, RolloutRules] = field(default_factory=dict)

    def is_stochastic(self, rollout: str) -> bool:
        return self.stochastic is True or (isinstance(self.stochastic, tuple) and rollout in self.stochastic)

    def accepted(self, rollout: str, probe: str) -> str | None:
        """The reason a probe's failure is accepted for ``rollout``, if it is."""
        return self.accept.get(f"{rollout}/{probe}") or self.accept.get(probe)

    def for_rollout(self, rollout: str) -> RolloutRules:
        """The workspace's gold-column, partial-column and answers, with ``rollout``'s own table over them."""
        own = self.per_rollout.get(rollout)
        if own is None:
            return self.rules
        return RolloutRules(own.gold_column or self.rules.gold_column, own.partial_column or self.rules.partial_column,
                            own.answers if own.answers != AnswerRules() else self.rules.answers)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _column(table: dict, key: str, where: str, problems: list[tuple[str, str]]) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value.strip() and len(value) <= 200 and value not in ("user_prompt", "system_prompt"):
        return value
    problems.append((key, f"`{where}{key}` must name a dataset column (a non-empty string, not a prompt column), not {value!r}"))
    return None


def _answers(value: Any, where: str, problems: list[tuple[str, str]]) -> AnswerRules:
    if value is None:
        return AnswerRules()
    if not isinstance(value, dict):
        problems.append(("answers", f"`{where}answers` must be a table ({', '.join(ANSWER_KEYS)})"))
        return AnswerRules()
    found: dict[str, Any] = {}
    for key in value:
        if key not in ANSWER_KEYS:
            problems.append(("answers", f"unknown key `{where}answers.{key}` (known: {', '.join(ANSWER_KEYS)})"))
    for key, name in (("absolute-tolerance", "absolute"), ("relative-tolerance", "relative")):
        if key in value:
            if _finite(value[key]) and value[key] >= 0:
                found[name] = float(value[key])
            else:
                problems.append(("answers", f"`{where}answers.{key}` must be a finite number >= 0, not {value[key]!r}"))
    ignores = value.get("ignores")
    if ignores is not None:
        if isinstance(ignores, list) and all(i in INVARIANCES for i in ignores):
            found["ignores"] = tuple(dict.fromkeys(ignores))
        else:
            problems.append(("answers", f"`{where}answers.ignores` must list some of {', '.join(INVARIANCES)}, not {ignores!r}"))
    return AnswerRules(**found)


def _rules(table: dict, where: str, problems: list[tuple[str, str]]) -> RolloutRules:
    return RolloutRules(_column(table, "gold-column", where, problems), _column(table, "partial-column", where, problems),
                        _answers(table.get("answers"), where, problems))


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
    values["rules"] = _rules(table, "", problems)
    per_rollout = table.get("rollout")
    if isinstance(per_rollout, dict):
        own: dict[str, RolloutRules] = {}
        for name, sub in per_rollout.items():
            if not isinstance(sub, dict):
                problems.append(("rollout", f"`rollout.{name}` must be a table ({', '.join(PER_ROLLOUT_KEYS)})"))
                continue
            for key in sub:
                if key not in PER_ROLLOUT_KEYS:
                    problems.append(("rollout", f"unknown key `rollout.{name}.{key}` (known: {', '.join(PER_ROLLOUT_KEYS)})"))
            own[name] = _rules(sub, f"rollout.{name}.", problems)
        values["per_rollout"] = own
    elif per_rollout is not None:
        problems.append(("rollout", "`rollout` must be a table of rollout name = { gold-column, partial-column, answers }"))
    return RehearseSettings(**values), problems


def load(root: Path) -> tuple[RehearseSettings, list[tuple[str, str]]]:
    """``[tool.osmosis.rehearse]`` of the workspace's pyproject.toml and its problems; a file that cannot be
    read as TOML (or is over 1 MB) is one problem keyed ``pyproject``. No file: the defaults."""
    from osmosis_workspace.core.bounded import toml_loads

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with (root / "pyproject.toml").open("rb") as fh:
            raw = fh.read(PYPROJECT_CAP + 1)
    except OSError:
        return RehearseSettings(), []
    if len(raw) > PYPROJECT_CAP:
        return RehearseSettings(), [("pyproject", "pyproject.toml is over 1 MB; rehearse does not read its settings from a file that large")]
    try:
        data = toml_loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        return RehearseSettings(), [("pyproject", f"pyproject.toml: cannot read it as TOML ({err})")]
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    osmosis = tool.get("osmosis") if isinstance(tool.get("osmosis"), dict) else {}
    return parse(osmosis.get("rehearse"))
