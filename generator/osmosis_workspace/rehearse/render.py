"""Rehearsal results as text for a person or JSON for agents and CI (one object per rollout)."""

from __future__ import annotations

import json
from typing import TextIO

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.rehearse.cases import Rehearsal
from osmosis_workspace.rehearse.run_results import Outcome
from osmosis_workspace.rehearse.probes import WIDTH
from osmosis_workspace.rehearse.verdicts import Judgement


@dataclass
class Rehearsed:
    judgement: Judgement
    rehearsal: Rehearsal | None = None
    outcome: Outcome | None = None
    calls: dict[str, int] = field(default_factory=dict)
    output: str = ""
    config: str = ""
    dataset: str = ""


_MARK = {True: "ok  ", False: "FAIL", None: "-   "}
ACCEPTED = "acc "


def _verdict_json(v) -> dict:
    data = {"name": v.name, "holds": v.holds, "detail": v.detail}
    if v.accepted:
        data["accepted"] = v.accepted
    if v.figures:
        data["figures"] = v.figures
    return data


def to_json(result: Rehearsed) -> dict:
    j = result.judgement
    data: dict = {
        "rollout": j.rollout, "ok": j.ok, "headline": j.headline, "config": result.config,
        "dataset": result.dataset, "output": result.output or None,
        "verdicts": [_verdict_json(v) for v in j.verdicts],
        "means": j.means, "model_calls": result.calls, "notes": j.notes,
    }
    outcome = result.outcome
    if outcome is not None:
        data["rows"] = [{"row": r.case.number, "source_row": r.case.source_row, "pass": r.case.pass_name,
                         "status": r.status, "reward": r.reward, "error_type": r.error_type, "seconds": r.seconds}
                        for r in outcome.rows]
        data["timings"] = {"env_sync_s": outcome.sync_s, "server_start_s": outcome.server_start_s,
                           "total_s": round(outcome.process.seconds, 2)}
        data["sdk_error"] = outcome.sdk_error
        data["failure"] = None if outcome.failure is None else {
            "exception": outcome.failure.exception, "where": outcome.failure.where, "excerpt": outcome.failure.excerpt}
    return data


def _text(result: Rehearsed, out: TextIO) -> None:
    j = result.judgement
    where = f" ({result.config}, rows from {result.dataset})" if result.config else ""
    out.write(f"{j.rollout}{where}\n  {'ok' if j.ok else 'FAILED'}: {j.headline}\n")
    for v in j.verdicts:
        mark = ACCEPTED if v.holds is False and v.accepted else _MARK[v.holds]
        out.write(f"    {mark}  {v.name:<{WIDTH}} {v.detail}\n")
        if v.holds is False and v.accepted:
            out.write(f"    {'':4}  {'':<{WIDTH}} accepted on purpose: {v.accepted}\n")
    outcome = result.outcome
    if outcome is not None and not j.ok:
        if outcome.failure is not None:
            out.write("    the rollout's first traceback (logs.txt):\n")
            for line in outcome.failure.excerpt:
                out.write(f"      {line}\n")
        elif outcome.sdk_error and outcome.log_tail:
            out.write("    the rollout server's last lines (logs.txt):\n")
            for line in outcome.log_tail:
                out.write(f"      {line[:200]}\n")
    for note in j.notes:
        out.write(f"    note: {note}\n")
    if result.output:
        out.write(f"    output: {result.output}/ (the SDK's logs.txt, index.jsonl, trajectories)\n")


def write(results: list[Rehearsed], format: str, out: TextIO) -> None:
    if format == "json":
        json.dump({"ok": all(r.judgement.ok for r in results), "rollouts": [to_json(r) for r in results]}, out, indent=2)
        out.write("\n")
        return
    for result in results:
        _text(result, out)
    failed = sum(1 for r in results if not r.judgement.ok)
    out.write(f"\n{len(results)} rollout{'s' if len(results) != 1 else ''} rehearsed: "
              f"{len(results) - failed} ok, {failed} failed\n")
