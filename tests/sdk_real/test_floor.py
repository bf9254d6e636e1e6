"""The other end of the templates' `osmosis-ai` range: every scenario again, from its floor locks
(lockset.py: `--resolution lowest-direct`, so osmosis-ai sits at the lowest release each requirement
admits). Import, preflight and `osmosis eval run` rewards, as test_real_sdk.py checks at the newest.

Every scenario's rollout sits in one workspace rendered by our CLI (as test_many_rollouts.py renders
it): the root's floor lock is the same for all of them, so its environment is synced once; each
rollout keeps its own floor lock and its own environment, synced by the test that runs it."""

from __future__ import annotations

import shutil

import lockset
import pytest

import sdk_harness as h

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def floor(tmp_path_factory) -> tuple:
    """The workspace holding every scenario's rollout, each lock replaced by its floor lock, and its root
    environment (`uv sync --locked` at the floor)."""
    ws = h.render(tmp_path_factory.mktemp("floor") / "ws", h.SCENARIOS)
    shutil.copyfile(lockset.BY_ID[lockset.ROOT_ID].floor, ws / "uv.lock")
    for scenario in h.SCENARIOS:
        shutil.copyfile(lockset.BY_ID[scenario.id].floor, ws / "rollouts" / scenario.rollout / "uv.lock")
    try:
        return ws, h.workspace_env(ws, resolution=lockset.FLOOR_RESOLUTION)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.parametrize("scenario", h.SCENARIOS, ids=[s.id for s in h.SCENARIOS])
def test_the_floor_of_the_sdk_range_runs_the_template(scenario, floor):
    ws, env = floor
    floor_rollout = lockset.BY_ID[scenario.id].floor
    try:
        report = h.probe(env, ws, scenario.rollout)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)
    floor_sdk = h.locked_versions(floor_rollout.read_text(encoding="utf-8"))["osmosis-ai"]
    assert report["sdk_version"] == floor_sdk, (report["sdk_version"], floor_sdk)
    checks = report["rollouts"][scenario.rollout]
    for step in ("import", "eval", "training", "dataset"):
        assert checks[step]["ok"], f"{step} on osmosis-ai {floor_sdk}: {checks[step].get('error')}"
    assert checks["import"]["backend"] == scenario.backend, checks["import"]
    if scenario.eval_run:
        run = h.eval_run(env, ws, scenario.rollout, scenario.rows, scenario.reply)
        assert run.statuses == {i: "success" for i in scenario.expected}, run.output
        assert run.rewards == scenario.expected, run.output


def test_the_floor_locks_sit_at_the_lowest_release_each_requirement_admits():
    floors = {v.id: h.locked_versions(v.floor.read_text(encoding="utf-8"))["osmosis-ai"] for v in lockset.VARIANTS}
    assert floors.pop("multiply-harbor") == "0.3.7"  # its requirement starts at 0.3.7 (OpenSandbox)
    # The root runs `eval run`, which works without a platform login from 0.3.2 (0.3.1 asks for one).
    assert floors.pop(lockset.ROOT_ID) == "0.3.2"
    assert set(floors.values()) == {"0.3.1"}, floors
