"""Rehearse without the SDK: every case's answer exactly as the scripted model sends it (policy_answer),
graded in-process by ``grader(answer, label)``, then judged as the real run is. The real SDK's run is
test_probes_sdk.py and the corpus test; this one is quick enough to try many graders."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from osmosis_workspace.core.rehearse_settings import RehearseSettings
from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.plan import RolloutPlan
from osmosis_workspace.rehearse.run_results import Outcome, Row
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.scripted_model import policy_answer
from osmosis_workspace.rehearse.verdicts import judge

REPO = Path(__file__).resolve().parents[2]
SCORING = REPO / "templates" / "multiply" / "template" / "rollouts" / "{{ rollout_name }}" / "{{ package }}" / "scoring.py"


def load_template_score():
    spec = importlib.util.spec_from_file_location("multiply_scoring", SCORING)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.score


def plan_for(rows, name: str = "r") -> RolloutPlan:
    return RolloutPlan(name, Path("/ws/c.toml"), f"configs/eval/{name}.toml", "main.py", "openai/x", (), 60.0, 30.0,
                       f"data/{name}.jsonl", list(rows))


def rehearse_in_process(grader, rows, settings: RehearseSettings | None = None, name: str = "r"):
    """The judgement of ``grader`` on ``rows`` ((index, row) pairs); a grader that raises fails its row."""
    settings = settings or RehearseSettings()
    rules = settings.for_rollout(name)
    plan = plan_for(rows, name)
    from osmosis_workspace.rehearse.plan import choose_gold

    column = choose_gold(plan, rules.gold_column)
    rehearsal = build(list(rows), plan.with_gold, True, column, rules.partial_column, rules.answers)
    labels = {i: row.get("ground_truth") for i, row in rows}
    system = {i: row.get("system_prompt") or "" for i, row in rows}
    sent, out = {}, []
    for case in rehearsal.cases:
        text = policy_answer(case, system[case.source_row] + "\n" + case.prompt)
        sent[case.number] = text
        try:
            out.append(Row(case, "success", float(grader(text, labels[case.source_row])), None, 0.1))
        except Exception:  # noqa: BLE001 - as the SDK records a grader that raises
            out.append(Row(case, "failed", None, "grader_error", 0.1))
    outcome = Outcome(out, EvalProcess(0, "", "", 5.0), server_start_s=1.0)
    return judge(plan, outcome, sent, settings)


def failing(judgement) -> list[str]:
    return [v.name for v in judgement.verdicts if v.holds is False]
