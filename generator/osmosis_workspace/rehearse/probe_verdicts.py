"""The probes' verdicts: each probe answer against the gold and wrong rewards of its own source row, by
the rule the answer was built with (probe_cases.py).

Thresholds and hints are the table's (probes.py). A probe line always shows evidence: failing, the
first row that fails with the answer sent (shortened, escaped), the reward it earned against the row's
gold and wrong, and the hint; a grader that raised is named with its place instead of the hint;
passing, the best-paid answer and its figures. Every row's figures go to the JSON output. A failure the
workspace accepts (`[tool.osmosis.rehearse] accept`) stays visible, with its reason, and does not fail.
"""

from __future__ import annotations

import math
from collections import defaultdict

from osmosis_workspace.core.rehearse_settings import RehearseSettings
from osmosis_workspace.rehearse.probes import BY_NAME, SAME, TOLERANCE, Verdict
from osmosis_workspace.rehearse.run_results import Failure, Row

SHOWN = 60                    # characters of an answer a line shows
CLOSE = 0.01                  # of the scale: a reward this near the gold's counts as the gold's (rounding)

_NOT_BUILT = {
    "hedge": "no gold answer: the gold cannot be hidden among candidates",
    "glued": "no gold answer that glues into one wrong token (a number, a word, a list of words); code and prose do not",
    "determinism": "no gold answer: it cannot be sent twice",
    "echo": "every rehearsed prompt holds its own label, so an echo would carry the answer",
    "partly right": "no label has parts (a JSON object of 2+ fields or a list of items), and no partial-column",
    "near miss": "no number or short text answer to move a little (code is judged by running it)",
    "invariance": "no gold answer whose form may vary (a list, a number, a text); code is judged by running it",
    "code": "no prompt asks for a fenced Python block",
}


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to about ``limit`` characters (its start and its end) and escaped: one printable line."""
    if len(text) > limit:
        text = f"{text[: limit * 2 // 3]}...{text[-(limit // 3):]}"
    return repr(text)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _by_row(rows: list[Row], pass_name: str) -> dict[int, Row]:
    return {r.case.source_row: r for r in rows if r.case.pass_name == pass_name}


def _broken(row: Row) -> str | None:
    if row.status != "success":
        return f"the row failed ({row.error_type or row.status})"
    if row.reward is None:
        return "the row recorded no reward"
    if not math.isfinite(row.reward):
        return f"the reward is {row.reward}"
    return None


def _fails(row: Row, gold: float | None, wrong: float | None, low: float, high: float, stochastic: bool,
           empty: float | None = None) -> str | None:
    """Why ``row`` fails its rule (None when it holds); the sum rule is judged over its group. A grader
    declared stochastic gets twice the tolerance: one sample of wrong and one of the probe may each be noisy."""
    reward, rule, width = row.reward, row.case.rule, high - low
    slack = TOLERANCE * width * (2 if stochastic else 1)
    assert reward is not None
    if not low - SAME <= reward <= high + SAME:
        return f"the reward {reward:g} is outside [{low:g}, {high:g}]"
    if rule in ("report", "sum") or gold is None and rule != "wrong":
        return None
    if rule == "same":
        return None if stochastic or abs(reward - gold) <= SAME else f"the same gold answer earned {gold:g}, then {reward:g}"
    if rule == "gold":
        return None if reward >= gold - CLOSE * width else f"it earned less than the gold ({gold:g}), though the workspace declares the grader forgives this"
    if rule == "below-gold":
        return None if reward < gold - SAME else "it earned what the gold earns: the grader pays for an answer that is not the gold"
    if wrong is None:
        return None
    if rule == "partial":
        if reward >= gold - SAME:
            return "it earned what the gold earns: the grader ignores the part that is wrong"
        return None if reward >= wrong - slack - SAME else "it earned less than a wrong answer: near misses are punished"
    if rule == "format" and empty is not None:
        return None if reward <= empty + slack + SAME else "the answer format alone earned more than an empty answer"
    return None if reward <= wrong + slack + SAME else "it earned more than the row's wrong answer"


def _hedges_fail(group: list[Row], gold: float | None, wrong: float | None, width: float, stochastic: bool) -> str | None:
    """A hedge pays when, over the gold's placements in one shape, the rewards above wrong add up to more
    than the gold earns above it: a policy unsure between the candidates then does better hedging."""
    if gold is None or wrong is None:
        return None
    excess = sum(max(0.0, r.reward - wrong) for r in group if r.reward is not None)
    # a declared stochastic grader's noise may lift every placement a little
    allowed = max(0.0, gold - wrong) + TOLERANCE * width * (len(group) if stochastic else 1)
    if excess <= allowed + SAME:
        return None
    paid = sum(1 for r in group if r.reward is not None and r.reward > wrong + SAME)
    return (f"hedging pays: with the gold in {paid} of {len(group)} places among other candidates the answers earn "
            f"{excess:.2f} above the wrong answer in all, more than the gold alone earns above it ({max(0.0, gold - wrong):.2f})")


def judge_probe(name: str, rollout: str, rows: list[Row], sent: dict[int, str], low: float, high: float,
                settings: RehearseSettings, built: bool, failure: Failure | None = None) -> Verdict:
    mine = [r for r in rows if r.case.pass_name == name]
    entry = BY_NAME[name]
    if not mine:
        if not built:
            return Verdict(name, None, "not run (--no-probes)", [])
        return Verdict(name, None, f"not built: {_NOT_BUILT.get(name, 'no row to probe')}", [])
    golds, wrongs, empties = _by_row(rows, "gold"), _by_row(rows, "wrong"), _by_row(rows, "empty")
    stochastic = settings.is_stochastic(rollout)

    def base(row: Row, runs: dict[int, Row]) -> float | None:
        found = runs.get(row.case.source_row)
        return found.reward if found is not None and found.status == "success" else None

    why: dict[int, str] = {}
    crashed: set[int] = set()
    groups: dict[tuple[int, str], list[Row]] = defaultdict(list)
    for row in mine:
        broken = _broken(row)
        if broken is not None:
            why[row.case.number] = broken
            crashed.add(row.case.number)
            continue
        failed = _fails(row, base(row, golds), base(row, wrongs), low, high, stochastic, base(row, empties))
        if failed is not None:
            why[row.case.number] = failed
        elif row.case.rule == "sum":
            groups[(row.case.source_row, row.case.kind)].append(row)
    for group in groups.values():
        failed = _hedges_fail(group, base(group[0], golds), base(group[0], wrongs), high - low, stochastic)
        if failed is not None:
            wrong = base(group[0], wrongs) or 0.0
            for row in group:
                if row.reward is not None and row.reward > wrong + SAME:
                    why[row.case.number] = failed
    figures = []
    for row in mine:
        figure = {"row": row.case.number, "source_row": row.case.source_row, "status": row.status, "reward": row.reward,
                  "gold": base(row, golds), "wrong": base(row, wrongs), "sent": sent.get(row.case.number, row.case.answer)[:200],
                  "rule": row.case.rule, "holds": row.case.number not in why}
        if row.case.kind:
            figure["kind"] = row.case.kind
        figures.append(figure)
    failing = [r for r in mine if r.case.number in why]
    if failing:
        row = failing[0]
        g, w = base(row, golds), base(row, wrongs)
        kind = f" ({row.case.kind})" if row.case.kind else ""
        more = f"; {len(failing)} of {len(mine)} answers fail" if len(failing) > 1 else ""
        answer = shorten(sent.get(row.case.number, row.case.answer))
        if row.case.number in crashed:
            place = f": {failure.exception}" + (f" at {failure.where}" if failure.where else "") if failure else ""
            detail = f"row {row.case.source_row}{kind}: the grader raised on {answer}{place} ({why[row.case.number]}{more})"
        else:
            detail = (f"row {row.case.source_row}{kind}: {why[row.case.number]}: {_fmt(row.reward)} for {answer} "
                      f"(gold {_fmt(g)}, wrong {_fmt(w)}{more}); hint: {entry.hint}")
        return Verdict(name, False, detail, figures, settings.accepted(rollout, name))
    judged = any(r.case.rule != "report" for r in mine)
    return Verdict(name, True if judged else None, _summary(name, mine, figures, stochastic, judged), figures)


def _summary(name: str, mine: list[Row], figures: list[dict], stochastic: bool, judged: bool) -> str:
    rewards = [f["reward"] for f in figures if f["reward"] is not None]
    span = f"{min(rewards):.2f}..{max(rewards):.2f}" if rewards and min(rewards) != max(rewards) else _fmt(rewards[0] if rewards else None)
    rows = len({f["source_row"] for f in figures})
    count = f"{len(figures)} answer{'s' if len(figures) != 1 else ''} on {rows} row{'s' if rows != 1 else ''}"
    if name == "determinism":
        spread = max((abs(f["reward"] - f["gold"]) for f in figures if f["reward"] is not None and f["gold"] is not None), default=0.0)
        if stochastic:
            return f"declared stochastic: the same gold answer's rewards differ by up to {spread:.2f}"
        return f"{count}: the gold again, and again in a later batch, the same reward each time"
    if not judged:
        by_kind: dict[str, list[float]] = {}
        for f in figures:
            by_kind.setdefault(f.get("kind", ""), []).append(f["reward"] if f["reward"] is not None else math.nan)
        shown = "; ".join(f"{kind} {_fmt(min(v))}" + (f"..{_fmt(max(v))}" if max(v) != min(v) else "")
                          for kind, v in by_kind.items())
        return (f"reported, not judged ({count}): {shown}; declare what the grader forgives in "
                "[tool.osmosis.rehearse.answers] and they are judged")
    best = max(figures, key=lambda f: (f["reward"] if f["reward"] is not None else -math.inf))
    example = (f"; best paid {shorten(best['sent'], 40)}" + (f" ({best['kind']})" if best.get("kind") else "")
               + f" {_fmt(best['reward'])} (gold {_fmt(best['gold'])}, wrong {_fmt(best['wrong'])})")
    if name == "partly right":
        paid = [f for f in figures if f["reward"] is not None and f["wrong"] is not None and f["reward"] > f["wrong"] + SAME]
        if paid:
            return f"partial credit on {len(paid)} of {len(figures)} answers (rewards {span}, below gold and above wrong){example}"
        return f"no partial credit: {len(figures)} partly right answers earn what a wrong one earns ({span}){example}"
    return f"{count}, rewards {span}{example}"
