"""Every bundled template, rendered by our CLI, imported, preflighted and run by the real osmosis-ai.

How it works and how to add a template: sdk_harness.py (top of the module).
"""

from __future__ import annotations

import pytest

import sdk_harness as h

pytestmark = pytest.mark.slow
SCENARIOS = {s.id: s for s in h.SCENARIOS}


def test_every_bundled_rollout_template_has_a_scenario():
    from osmosis_workspace.scaffold.catalog import rollout_templates

    covered = {s.template for s in h.SCENARIOS}
    missing = sorted(t.name for t in rollout_templates() if t.name not in covered)
    assert not missing, f"add a Scenario to tests/sdk_real/sdk_harness.py for: {missing}"


@pytest.mark.parametrize("sid", list(SCENARIOS))
def test_the_sdk_imports_the_entrypoint(sid, probes):
    scenario, report = SCENARIOS[sid], probes[sid]
    assert report["sdk_version"].startswith("0.3."), report["sdk_version"]
    imported = report["rollouts"][scenario.rollout]["import"]
    assert imported["ok"], imported.get("error")
    assert imported["backend"] == scenario.backend, imported
    assert imported["backend_module"].startswith("osmosis_ai.rollout.backend."), imported
    assert imported["app"] == "FastAPI", imported


@pytest.mark.parametrize("kind", ["eval", "training"])
@pytest.mark.parametrize("sid", list(SCENARIOS))
def test_the_sdk_submit_preflight_accepts_the_configs(sid, kind, probes):
    scenario = SCENARIOS[sid]
    result = probes[sid]["rollouts"][scenario.rollout][kind]
    assert result["ok"], result.get("error")
    # A warning means the preflight skipped the import (unmet dependency): not a pass.
    assert result["warnings"] == [], result["warnings"]
    assert result["rollout"] == scenario.rollout and result["entrypoint"] == "main.py"
    assert "/" not in result["dataset"] and not result["dataset"].endswith(".jsonl"), result["dataset"]


@pytest.mark.parametrize("sid", list(SCENARIOS))
def test_the_sdk_dataset_validator_accepts_the_data(sid, probes):
    result = probes[sid]["rollouts"][SCENARIOS[sid].rollout]["dataset"]
    assert result["ok"], result.get("error")
    assert result["warnings"] == []


@pytest.mark.parametrize("sid", [s.id for s in h.SCENARIOS if s.eval_run])
def test_sdk_eval_run_records_the_expected_rewards(sid, envs, workspaces):
    scenario = SCENARIOS[sid]
    run = h.eval_run(envs[sid], workspaces[sid], scenario.rollout, scenario.rows, scenario.reply)
    assert run.statuses == {i: "success" for i in scenario.expected}, run.output
    assert run.rewards == scenario.expected, run.output
    if scenario.check:
        scenario.check(run)


@pytest.mark.parametrize("sid", list(SCENARIOS))
def test_the_rollouts_own_tests_pass_in_its_locked_environment(sid, envs, workspaces):
    """What `uv run pytest` in the rollout runs: its tests, the Grader's against the SDK's own
    GraderContext and RolloutSample included (they skip only where osmosis-ai is missing, not here)."""
    import subprocess

    scenario, ws = SCENARIOS[sid], workspaces[sid]
    python = h.rollout_python(envs[sid], ws, scenario.rollout)
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"],
                          cwd=ws / "rollouts" / scenario.rollout, capture_output=True, text=True, timeout=600,
                          env=h.sdk_subprocess_env(envs[sid]))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "skipped" not in done.stdout, done.stdout[-4000:]
    if scenario.template == "multiply":
        assert (ws / "rollouts" / scenario.rollout / "tests" / "test_grader.py").is_file()
