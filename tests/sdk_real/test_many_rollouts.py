"""One workspace holding every scenario's rollout (and a second rollout of the same template):
the generated tests run from the root and from each rollout folder, the code is clean under the
workspace's own ruff settings, and the SDK's eval run still resolves the whole uv workspace."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys

import pytest

import sdk_harness as h

pytestmark = pytest.mark.slow
AGAIN = dataclasses.replace(h.SCENARIOS[0], id="again", rollout="again")
MANY = [*h.SCENARIOS, AGAIN]


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    return h.render(tmp_path_factory.mktemp("many") / "ws", MANY)


def _pytest(sdk_env, cwd) -> tuple[int, str, int]:
    done = subprocess.run([str(sdk_env.python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=h.sdk_subprocess_env(sdk_env))
    passed = re.search(r"(\d+) passed", done.stdout)
    return done.returncode, done.stdout[-4000:] + done.stderr[-2000:], int(passed.group(1)) if passed else 0


def test_pytest_runs_every_rollouts_tests_from_the_root_and_from_each_folder(many, sdk_env):
    per_rollout = {}
    for s in MANY:
        code, output, passed = _pytest(sdk_env, many / "rollouts" / s.rollout)
        assert code == 0 and passed > 0, f"rollouts/{s.rollout}:\n{output}"
        per_rollout[s.rollout] = passed
    code, output, passed = _pytest(sdk_env, many)
    assert code == 0, output
    assert passed == sum(per_rollout.values()), (per_rollout, output)


def test_generated_code_is_clean_under_the_workspace_ruff_settings(many):
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=many,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_eval_run_resolves_a_workspace_of_several_rollouts(many, sdk_env):
    s = h.SCENARIOS[0]
    run = h.eval_run(sdk_env, many, s.rollout, s.rows, s.reply)
    assert run.rewards == s.expected, run.output
