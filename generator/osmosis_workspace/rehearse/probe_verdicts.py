"""The probes' verdicts: each probe row against the gold and wrong rewards of its own source row.

Thresholds and hints are the table's (probes.py). A failing probe says, in one line, the first row
that fails it: the answer sent (shortened, escaped), the reward it earned against the row's gold and
wrong, and the hint. Every row's figures go to the JSON output, passing or not, so a grader's partial
credit shows there. A failure the workspace accepts (`[tool.osmosis.rehearse] accept`) stays visible,
with its reason, and does not fail the rehearsal.
"""

from __future__ import annotations

import math
from pathlib import Path

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.rehearse_settings import RehearseSettings, load
from osmosis_workspace.core.suggest import closest
from osmosis_workspace.rehearse.run_results import Row
from osmosis_workspace.rehearse.probes import BY_NAME, PROBES, SAME, TOLERANCE, Verdict

SHOWN = 60                    # characters of an answer a failure line shows

_NOT_BUILT = {
    "enumeration": "no ground truth: the gold cannot be hidden among candidates",
    "determinism": "no ground truth: the gold answer cannot be sent twice",
    "echo": "every rehearsed prompt holds its own label, so an echo would carry the answer",
    "partly right": "no label has parts (a number, a JSON object of 2+ fields or a list of 2+ items)",
}


def load_settings(root: Path) -> RehearseSettings:
    """``[tool.osmosis.rehearse]`` (read by core/rehearse_settings.py); a bad value, or an accepted probe
    that does not exist, is a usage error (exit 2)."""
    settings, problems = load(root)
    if problems:
        key, message = problems[0]
        if key == "pyproject":
            raise UserError(message)
        raise UserError(f"pyproject.toml: [tool.osmosis.rehearse] {message}",
                        hint="`osmosis doctor` lists every problem in the settings (SET002)")
    for key in settings.accept:
        probe = key.rsplit("/", 1)[-1]
        if probe not in PROBES:
            guess = closest(probe, list(PROBES))
            raise UserError(f"pyproject.toml: [tool.osmosis.rehearse] accept names {key!r}, which is no probe"
                            + (f"; did you mean {guess!r}?" if guess else f" (probes: {', '.join(PROBES)})"))
    return settings


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to about ``limit`` characters (its start and its end) and escaped: one printable line."""
    if len(text) > limit:
        text = f"{text[: limit * 2 // 3]}...{text[-(limit // 3):]}"
    return repr(text)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _by_row(rows: list[Row], pass_name: str) -> dict[int, Row]:
    return {r.case.source_row: r for r in rows if r.case.pass_name == pass_name}


def _fails(name: str, row: Row, gold: float | None, wrong: float | None, low: float, high: float,
           stochastic: bool) -> str | None:
    """Why ``row`` fails probe ``name`` (None when it holds)."""
    width = high - low
    reward = row.reward
    if row.status != "success":
        return f"the row failed ({row.error_type or row.status}): the grader or the workflow raised on this answer"
    if reward is None:
        return "the row recorded no reward"
    if not math.isfinite(reward):
        return f"the reward is {reward}"
    if name == "malformed":
        return None if low - SAME <= reward <= high + SAME else f"the reward {reward:g} is outside [{low:g}, {high:g}]"
    if name == "determinism":
        if gold is None or stochastic:
            return None
        return None if abs(reward - gold) <= SAME else f"the same gold answer earned {gold:g}, then {reward:g}"
    if name == "partly right":
        if gold is None or wrong is None:
            return None
        if reward >= gold - SAME:
            return "it earned what the gold earns: the grader ignores the part that is wrong"
        return None if reward >= wrong - TOLERANCE * width - SAME else "it earned less than a wrong answer: near misses are punished"
    if wrong is None:
        return None
    return None if reward <= wrong + TOLERANCE * width + SAME else "it earned more than the row's wrong answer"


def judge_probe(name: str, rollout: str, rows: list[Row], sent: dict[int, str], low: float, high: float,
                settings: RehearseSettings, built: bool) -> Verdict:
    mine = [r for r in rows if r.case.pass_name == name]
    entry = BY_NAME[name]
    if not mine:
        if not built:
            return Verdict(name, None, "not run (--no-probes)", [])
        return Verdict(name, None, f"not built: {_NOT_BUILT.get(name, 'no row to probe')}", [])
    golds, wrongs = _by_row(rows, "gold"), _by_row(rows, "wrong")
    stochastic = settings.is_stochastic(rollout)
    figures, failing = [], []
    for row in mine:
        gold = golds.get(row.case.source_row)
        wrong = wrongs.get(row.case.source_row)
        g = gold.reward if gold is not None and gold.status == "success" else None
        w = wrong.reward if wrong is not None and wrong.status == "success" else None
        why = _fails(name, row, g, w, low, high, stochastic)
        figure = {"row": row.case.number, "source_row": row.case.source_row, "status": row.status, "reward": row.reward,
                  "gold": g, "wrong": w, "sent": sent.get(row.case.number, "")[:200], "holds": why is None}
        if row.case.kind:
            figure["kind"] = row.case.kind
        figures.append(figure)
        if why is not None:
            failing.append((row, g, w, why))
    if failing:
        row, g, w, why = failing[0]
        kind = f" ({row.case.kind})" if row.case.kind else ""
        more = f"; {len(failing)} of {len(mine)} rows fail" if len(failing) > 1 else ""
        detail = (f"row {row.case.source_row}{kind}: {why}: {_fmt(row.reward)} for {shorten(sent.get(row.case.number, row.case.answer))} "
                  f"(gold {_fmt(g)}, wrong {_fmt(w)}{more}); hint: {entry.hint}")
        return Verdict(name, False, detail, figures, settings.accepted(rollout, name))
    return Verdict(name, True, _summary(name, figures, stochastic), figures)


def _summary(name: str, figures: list[dict], stochastic: bool) -> str:
    rewards = [f["reward"] for f in figures if f["reward"] is not None]
    span = f"{min(rewards):.2f}..{max(rewards):.2f}" if rewards and min(rewards) != max(rewards) else _fmt(rewards[0] if rewards else None)
    if name == "determinism":
        spread = max((abs(f["reward"] - f["gold"]) for f in figures if f["reward"] is not None and f["gold"] is not None), default=0.0)
        if stochastic:
            return f"declared stochastic: the same gold answer's rewards differ by up to {spread:.2f}"
        return f"{len(figures)} gold answers sent twice, the same reward each time"
    if name == "partly right":
        paid = [f for f in figures if f["reward"] is not None and f["wrong"] is not None and f["reward"] > f["wrong"] + SAME]
        if paid:
            return f"partial credit on {len(paid)} of {len(figures)} rows (rewards {span}, below gold and above wrong)"
        return f"no partial credit: {len(figures)} partly right answers earn what a wrong one earns ({span})"
    return f"{len(figures)} rows, rewards {span}"
