"""Verdicts and their one-line reasons, from synthetic SDK outcomes (the real SDK's are in test_broken.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.run_results import Outcome, Row, first_traceback, wrong_port
from osmosis_workspace.rehearse.plan import RolloutPlan
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.verdicts import judge

SOURCE = [(i, {"user_prompt": f"q{i}", "ground_truth": str(i)}) for i in range(2)]


def _plan(**kw) -> RolloutPlan:
    return RolloutPlan("r", Path("/ws/configs/eval/r.toml"), "configs/eval/r.toml", "main.py", "openai/x", (),
                       kw.get("agent", 10.0), 5.0, "data/r.jsonl", SOURCE)


def _outcome(rewards: dict[str, float | None], status: str = "success", error: str | None = None) -> Outcome:
    rehearsal = build(SOURCE, probes=False)
    rows = [Row(c, status, rewards[c.pass_name], error, 1.0) for c in rehearsal.cases]
    return Outcome(rows, EvalProcess(0, "", "", 30.0), server_start_s=4.0)


@pytest.mark.parametrize("rewards, ok, headline", [
    ({"gold": 1.0, "wrong": 0.0, "empty": 0.0}, True, "every verdict holds (gold 1.00, wrong 0.00, empty 0.00)"),
    ({"gold": 1.0, "wrong": 1.0, "empty": 1.0}, False, "the reward is constant"),
    ({"gold": 0.0, "wrong": 0.0, "empty": 0.0}, False, "no row is ever rewarded"),
    ({"gold": 0.0, "wrong": 1.0, "empty": 0.0}, False, "the reward is inverted"),
    ({"gold": 1.0, "wrong": 0.0, "empty": 1.0}, False, "an empty answer is rewarded like a right one"),
    ({"gold": 1.0, "wrong": 0.8, "empty": 0.0}, False, "wrong answers are rewarded like right ones"),
    ({"gold": 0.6, "wrong": 0.0, "empty": 0.0}, False, "gold answers are not fully rewarded"),
    ({"gold": 10.0, "wrong": 0.0, "empty": 0.0}, True, "every verdict holds"),
])
def test_reward_headlines(rewards, ok, headline):
    judgement = judge(_plan(), _outcome(rewards))
    assert judgement.ok is ok and judgement.headline.startswith(headline), judgement.headline


def test_failed_rows_name_the_category_and_the_passes():
    judgement = judge(_plan(), _outcome({"gold": None, "wrong": None, "empty": None}, "failed", "agent_error"))
    assert not judgement.ok
    assert judgement.headline == "runs: 6 of 6 rows failed (agent_error x6; passes: empty, gold, wrong)"
    holds = {v.name: v.holds for v in judgement.verdicts}
    assert [holds[n] for n in ("gold rewarded", "discriminates", "not constant")] == [None, None, None]


def test_rows_over_the_configs_budget_fail_timings():
    outcome = _outcome({"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    outcome.rows[0].seconds = 99.0
    timings = judge(_plan(), outcome).verdicts[-1]
    assert timings.name == "timings" and timings.holds is False and "slowest row 99.0 s of a 15 s budget" in timings.detail


def test_first_traceback_finds_the_users_frame(tmp_path):
    user = tmp_path / "rollouts" / "r" / "pkg" / "grading.py"
    lines = ["INFO: started", "Traceback (most recent call last):",
             f'  File "{tmp_path}/.venv/lib/python3.12/site-packages/osmosis_ai/x.py", line 10, in run',
             "    await grader.grade(ctx)", f'  File "{user}", line 35, in score', "    raise ValueError('x')",
             "ValueError: cannot parse the label", "INFO: next"]
    failure = first_traceback(lines, tmp_path)
    assert failure.exception == "ValueError: cannot parse the label"
    assert failure.where == "rollouts/r/pkg/grading.py:35"
    assert failure.excerpt[-1] == "ValueError: cannot parse the label"


def test_wrong_port_is_read_from_the_sdks_log():
    log = ('2026 INFO [server] starting rollout server (main.py) {"attempt":1,"port":41075}\n'
           "2026 INFO [rollout-server] INFO:     Uvicorn running on http://0.0.0.0:18765 (Press CTRL+C to quit)\n")
    assert wrong_port(log) == (41075, 18765)
    assert wrong_port(log.replace("18765", "41075")) is None


def test_rows_that_hit_the_timeout_say_which_budget_and_where_they_waited():
    outcome = _outcome({"gold": None, "wrong": None, "empty": None}, "failed", "timeout")
    from osmosis_workspace.rehearse.run_results import Failure

    outcome.failure = Failure("asyncio.exceptions.CancelledError", "rollouts/r/pkg/workflow.py:35")
    judgement = judge(_plan(agent=5.0), outcome)
    assert judgement.headline == ("runs: 6 of 6 rows hit the timeout (agent_workflow_timeout_s = 5 s, grader_timeout_s = 5 s), "
                                  "waiting at rollouts/r/pkg/workflow.py:35")
