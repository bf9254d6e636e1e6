"""One workspace holding every scenario's rollout (and a second rollout of the same template):
each rollout is a uv project of its own, synced from its own lock; its generated tests pass in that
environment, from its folder and from the root; the code is clean under the workspace's own ruff
settings; and the SDK's eval run works among several rollouts."""

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


@pytest.fixture(scope="module")
def many_env(many):
    try:
        return h.workspace_env(many)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


def _pytest(env, python, cwd, *args) -> tuple[int, str, int]:
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=h.sdk_subprocess_env(env))
    passed = re.search(r"(\d+) passed", done.stdout)
    return done.returncode, done.stdout[-4000:] + done.stderr[-2000:], int(passed.group(1)) if passed else 0


def test_every_rollout_is_its_own_locked_project(many, many_env):
    import tomllib

    root = tomllib.loads((many / "pyproject.toml").read_text())
    assert "workspace" not in root.get("tool", {}).get("uv", {}), "the root must not make rollouts uv workspace members"
    for s in MANY:
        assert (many / "rollouts" / s.rollout / "uv.lock").is_file(), s.rollout
        python = h.rollout_python(many_env, many, s.rollout)
        assert python.is_file(), f"uv sync --project rollouts/{s.rollout} made no environment of its own"


def test_each_rollouts_tests_pass_in_its_environment_from_its_folder_and_from_the_root(many, many_env):
    for s in MANY:
        python = h.rollout_python(many_env, many, s.rollout)
        code, output, passed = _pytest(many_env, python, many / "rollouts" / s.rollout)
        assert code == 0 and passed > 0, f"rollouts/{s.rollout}:\n{output}"
        code, output, from_root = _pytest(many_env, python, many, f"rollouts/{s.rollout}")
        assert code == 0 and from_root == passed, f"from the root, rollouts/{s.rollout}:\n{output}"


def test_generated_code_is_clean_under_the_workspace_ruff_settings(many):
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=many,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_eval_run_among_several_rollouts(many, many_env):
    s = h.SCENARIOS[0]
    run = h.eval_run(many_env, many, s.rollout, s.rows, s.reply)
    assert run.rewards == s.expected, run.output
