"""Verdicts for one rollout, from what the SDK recorded; the first one that fails gives the headline.

Names, thresholds and hints are one table (probes.py), in report order; the probes' own judging is
probe_verdicts.py. The scale is the declared `reward-range` ([tool.osmosis.rehearse]), else [0, 1]
widened to what the base passes earned.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from statistics import mean

from osmosis_workspace.core.diagnostics import plural
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.rehearse_settings import RehearseSettings
from osmosis_workspace.rehearse.cases import PASSES
from osmosis_workspace.rehearse.run_results import Outcome, Row
from osmosis_workspace.rehearse.plan import RolloutPlan
from osmosis_workspace.rehearse.probe_verdicts import judge_probe
from osmosis_workspace.rehearse.probes import PROBES, Verdict

GOLD_MIN = 0.9           # of the scale's top
MARGIN_MIN = 0.5         # of the scale's width
HEALTH_BUDGET_S = 90.0   # the SDK's own wait for /health


@dataclass
class Judgement:
    rollout: str
    ok: bool
    headline: str
    verdicts: list[Verdict]
    means: dict[str, float | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _mean(rows: list[Row], pass_name: str) -> float | None:
    values = [r.reward for r in rows if r.case.pass_name == pass_name and r.reward is not None and math.isfinite(r.reward)]
    return mean(values) if values else None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _runs(plan: RolloutPlan, outcome: Outcome) -> Verdict:
    rows = outcome.rows
    bad = [r for r in rows if r.status != "success"]
    if outcome.process.timed_out:
        return Verdict("runs", False, f"stopped after the --timeout ({outcome.process.seconds:.0f} s) with "
                       f"{len(rows) - len(bad)} of {len(rows)} rows done")
    if outcome.process.stopped:
        return Verdict("runs", False, outcome.process.stopped)
    if not bad:
        return Verdict("runs", True, f"all {len(rows)} rows completed ({len(rows) // max(1, len(set(r.case.pass_name for r in rows)))} per pass)")
    where = ""
    failure = outcome.failure
    if failure is not None:
        where = f": {failure.exception}" + (f" at {failure.where}" if failure.where else "")
    if all(r.status == "missing" for r in rows) and outcome.sdk_error:
        error = outcome.sdk_error
        if failure is not None and failure.exception in error:
            error = error[: error.index(failure.exception)].rstrip(" :")
            return Verdict("runs", False, f"eval run failed before any row: {error}: {failure.exception}"
                           + (f" at {failure.where}" if failure.where else ""))
        return Verdict("runs", False, f"eval run failed before any row: {error}{where}")
    kinds = Counter(r.error_type or r.status for r in bad)
    if set(kinds) == {"timeout"} and plan.agent_timeout is not None:
        # The traceback of a timed-out workflow is the cancellation: say where it was waiting.
        waited = f", waiting at {failure.where}" if failure is not None and failure.where else ""
        return Verdict("runs", False, f"{len(bad)} of {len(rows)} rows hit the timeout (agent_workflow_timeout_s = "
                       f"{plan.agent_timeout:g} s, grader_timeout_s = {plan.grader_timeout or 0:g} s){waited}")
    if failure is None and set(kinds) == {"rollout_failed"}:
        where = (": the rollouts ended with no error and no reward (is a grader attached to the backend? "
                 "LocalBackend(workflow=..., grader=...))")
    shown = ", ".join(f"{k} x{n}" for k, n in kinds.most_common())
    passes = sorted({r.case.pass_name for r in bad})
    return Verdict("runs", False, f"{len(bad)} of {len(rows)} rows failed ({shown}; passes: {', '.join(passes)}){where}")


def _timings(plan: RolloutPlan, outcome: Outcome) -> Verdict:
    row_times = [r.seconds for r in outcome.rows if r.seconds is not None]
    budget = None
    if plan.agent_timeout is not None:
        budget = plan.agent_timeout + (plan.grader_timeout or 0.0)
    parts = []
    if outcome.sync_s is not None:
        parts.append(f"env sync {outcome.sync_s:.1f} s")
    if outcome.server_start_s is not None:
        parts.append(f"server start {outcome.server_start_s:.1f} s (the SDK waits {HEALTH_BUDGET_S:.0f} s)")
    if row_times:
        parts.append(f"slowest row {max(row_times):.1f} s" + (f" of a {budget:.0f} s budget" if budget else ""))
    holds = True
    if budget is not None and row_times and max(row_times) > budget:
        holds = False
    if outcome.server_start_s is not None and outcome.server_start_s > HEALTH_BUDGET_S:
        holds = False
    timeouts = sum(1 for r in outcome.rows if r.error_type and "timeout" in r.error_type.lower())
    if timeouts:
        holds = False
        parts.append(f"{plural(timeouts, 'row')} hit a timeout")
    return Verdict("timings", holds, "; ".join(parts) or "no timing recorded")


def _finite(rows: list[Row]) -> Verdict:
    bad = [r for r in rows if r.reward is not None and not math.isfinite(r.reward)]
    if not bad:
        return Verdict("finite", True, "every reward is a finite number")
    first = bad[0]
    return Verdict("finite", False, f"{plural(len(bad), 'reward')} not finite: {first.reward} on row {first.case.source_row} "
                   f"({first.case.pass_name}); a grader must return a number (a division by zero? a log of 0?)")


def _in_range(rows: list[Row], low: float, high: float, declared: bool) -> tuple[Verdict, str | None]:
    """The verdict, and a note when rewards leave the default range (reported, not failed)."""
    values = [r.reward for r in rows if r.reward is not None and math.isfinite(r.reward)]
    outside = [v for v in values if v < low or v > high]
    where = f"[{low:g}, {high:g}]" + (" (declared)" if declared else "")
    if not outside:
        return Verdict("in range", True, f"every reward within {where}"), None
    said = f"{plural(len(outside), 'reward')} outside {where}, from {min(outside):g} to {max(outside):g}"
    if declared:
        return Verdict("in range", False, said), None
    return (Verdict("in range", True, f"{said}: reported only, as the range is not declared"),
            (f"{said}; declare the scale in pyproject.toml ([tool.osmosis.rehearse] reward-range = [LOW, HIGH]) "
             "and rehearse fails on a reward outside it"))


def judge(plan: RolloutPlan, outcome: Outcome, sent: dict[int, str] | None = None,
          settings: RehearseSettings | None = None, probes: bool = True) -> Judgement:
    settings = settings or RehearseSettings()
    everything = outcome.rows
    rows = [r for r in everything if r.case.pass_name in PASSES]
    means = {p: _mean(rows, p) for p in PASSES}
    rewards = [r.reward for r in rows if r.reward is not None and math.isfinite(r.reward)]
    verdicts = [_runs(plan, replace(outcome, rows=rows))]
    if settings.range_declared:
        low, high = settings.reward_range
    else:
        low, high = min([settings.reward_range[0], *rewards]), max([settings.reward_range[1], *rewards])
    top, width = high, high - low
    notes = list(plan.notes)
    verdicts.append(_finite(everything))
    in_range, note = _in_range(everything, *settings.reward_range, settings.range_declared)
    verdicts.append(in_range)
    if note:
        notes.append(note)
    gold, others = means["gold"], [m for m in (means["wrong"], means["empty"]) if m is not None]
    headline = None
    if not rewards:
        no_reward = "no row recorded a reward"
        if verdicts[0].holds:
            no_reward += ": the rows completed without one (is a grader attached to the backend?)"
            verdicts[0] = Verdict("runs", False, f"{verdicts[0].detail}, but {no_reward.split(': ', 1)[1]}")
        verdicts += [Verdict(n, None, no_reward) for n in ("gold rewarded", "discriminates", "not constant")]
    else:
        if not plan.with_gold:
            verdicts.append(Verdict("gold rewarded", None, plan.gold_note or "no ground truth in the rows: the gold pass did not run"))
        else:
            verdicts.append(Verdict("gold rewarded", gold is not None and gold >= GOLD_MIN * top,
                                    f"gold mean {_fmt(gold)} (needs >= {GOLD_MIN * top:.2f})"))
        worst_other = max(others) if others else None
        if gold is None or worst_other is None:
            verdicts.append(Verdict("discriminates", None, "needs a rewarded gold pass and a wrong or empty pass"))
        else:
            margin = gold - worst_other
            verdicts.append(Verdict("discriminates", margin >= MARGIN_MIN * width,
                                    f"gold {_fmt(gold)} - max(wrong {_fmt(means['wrong'])}, empty {_fmt(means['empty'])})"
                                    f" = {margin:.2f} (needs >= {MARGIN_MIN * width:.2f})"))
        constant = len(set(rewards)) == 1
        verdicts.append(Verdict("not constant", not constant,
                                f"every reward is {rewards[0]:g}" if constant else f"rewards from {min(rewards):g} to {max(rewards):g}"))
        headline = _reward_headline(means, rewards, constant, bool(plan.with_gold))
    for name in PROBES:
        verdicts.append(judge_probe(name, plan.name, everything, sent or {}, low, high, settings, probes, outcome.failure))
    verdicts.append(_timings(plan, outcome))
    ok = not any(v.fails for v in verdicts) and verdicts[0].holds is True
    if headline is None or verdicts[0].holds is not True:
        failing = next((v for v in verdicts if v.fails), None)
        headline = f"{failing.name}: {failing.detail}" if failing else "every verdict holds"
    if ok:
        shown = ", ".join(f"{p} {_fmt(m)}" for p, m in means.items() if m is not None)
        accepted = [v.name for v in verdicts if v.holds is False and v.accepted]
        headline = f"every verdict holds ({shown})" if shown else "every verdict holds"
        if accepted:
            headline += f"; accepted on purpose: {', '.join(accepted)}"
    return Judgement(plan.name, ok, headline, verdicts, means, notes)


def _reward_headline(means: dict[str, float | None], rewards: list[float], constant: bool, with_gold: bool) -> str | None:
    """The one line naming why the reward fails, most telling first; None when it does not fail."""
    gold, wrong, empty = means["gold"], means["wrong"], means["empty"]
    if constant and rewards[0] <= 0:
        return (f"no row is ever rewarded, gold answers included (every reward {rewards[0]:g}): "
                "the grader never sees the right answer (does it read the right field?)")
    if constant:
        return (f"the reward is constant ({rewards[0]:g} for gold, wrong and empty answers alike): "
                "it does not judge the answer")
    if with_gold and gold is not None and wrong is not None and wrong - gold >= MARGIN_MIN:
        return f"the reward is inverted: wrong answers get {wrong:.2f}, gold answers {gold:.2f}"
    if with_gold and gold is not None and empty is not None and empty >= gold - MARGIN_MIN and empty > 0:
        return f"an empty answer is rewarded like a right one (empty {empty:.2f}, gold {gold:.2f})"
    if with_gold and gold is not None and wrong is not None and wrong >= gold - MARGIN_MIN:
        return f"wrong answers are rewarded like right ones (wrong {wrong:.2f}, gold {gold:.2f})"
    if with_gold and gold is not None and gold < GOLD_MIN * max([1.0, *rewards]):
        return f"gold answers are not fully rewarded (gold mean {gold:.2f}; needs >= {GOLD_MIN:.2f})"
    return None
