"""The `code` template on the real osmosis-ai, from its own lock: `osmosis eval run` over every row of
its data with the rows' reference solutions as the model's answers earns full reward on each, and
the grader leaves no folder of its sandbox behind. (The mixed run, partial and wrong rows included,
is the template's Scenario in sdk_harness.py, which test_real_sdk.py runs with the others.)"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

import sdk_harness as h

pytestmark = pytest.mark.slow
SCENARIO = next(s for s in h.SCENARIOS if s.template == "code")


@pytest.fixture(scope="module")
def code_workspace(workspaces, envs):
    """The code scenario's workspace and root environment, shared with test_real_sdk.py: each `eval run`
    here only adds a run of its own (a new run name, its own index.jsonl) and reads that run's rewards."""
    return workspaces[SCENARIO.id], envs[SCENARIO.id]


def test_every_reference_solution_earns_full_reward_on_the_sdk(code_workspace):
    ws, env = code_workspace
    rows = h.dataset_rows(ws, SCENARIO.rollout)
    before = set(Path(tempfile.gettempdir()).glob("code-grader-*"))
    run = h.eval_run(env, ws, SCENARIO.rollout, f"0-{len(rows) - 1}", lambda r: h.fenced_python(r.row["reference"]))
    assert len(rows) >= 25
    assert run.statuses == {i: "success" for i in range(len(rows))}, run.output
    assert run.rewards == {i: 1.0 for i in range(len(rows))}, run.output
    assert set(Path(tempfile.gettempdir()).glob("code-grader-*")) <= before
    seconds = run.result.get("resource", {}).get("duration_ms", 0) / 1000
    print(f"\n{len(rows)} rows, references: mean reward 1.0, {seconds:.1f} s for the run")


def test_partial_solutions_earn_a_share_strictly_between_zero_and_one(code_workspace):
    ws, env = code_workspace
    rows = h.dataset_rows(ws, SCENARIO.rollout)
    partial = [i for i, r in enumerate(rows) if r.get("partial")]
    assert len(partial) >= 3
    run = h.eval_run(env, ws, SCENARIO.rollout, ",".join(map(str, partial)), lambda r: h.fenced_python(r.row["partial"]))
    # the SDK numbers the rows it ran in the order it ran them
    assert sorted(run.statuses.values()) == ["success"] * len(partial), run.output
    assert all(0.0 < reward < 1.0 for reward in run.rewards.values()), run.rewards
