"""Two rollouts of each of calculator-remote, llm-judge and blank in one workspace: their generated
tests run from the workspace root and from each rollout folder without shadowing one another (same
module names: tools, rewards, judge, grading, tests), and the generated code is clean under ruff's
defaults and under the workspace's own [tool.ruff] settings. No SDK is needed for any of it; the
real-SDK runs of these templates are in tests/sdk_real."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from template_helpers import cli

# Rollout names of both lengths: the longest allowed name checks that no line outgrows ruff's limit.
LONG = "r" * 63 + "x"
ROLLOUTS = {"calc-a": "calculator-remote", LONG: "calculator-remote", "judge-a": "llm-judge",
            "judge-b": "llm-judge", "task-a": "blank", "task-b": "blank"}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("side-by-side") / "ws"
    (first, template), *rest = ROLLOUTS.items()
    result = cli("init", ws, "--template", template, "--defaults", "--no-git", "--data", f"rollout_name={first}")
    assert result.exit_code == 0, result.output
    for name, template in rest:
        result = cli("rollout", "new", name, "--template", template, "--defaults", "--workspace", ws)
        assert result.exit_code == 0, result.output
    return ws


def _pytest(cwd) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    passed = re.search(r"(\d+) passed", done.stdout)
    assert done.returncode == 0 and passed, done.stdout[-4000:] + done.stderr[-2000:]
    return int(passed.group(1)), done.stdout


def test_each_rollouts_tests_pass_from_its_folder_and_all_of_them_from_the_root(workspace):
    per_rollout = {name: _pytest(workspace / "rollouts" / name)[0] for name in ROLLOUTS}
    total, output = _pytest(workspace)
    assert total == sum(per_rollout.values()), (per_rollout, output)
    # the same template twice gives the same tests twice, each run against its own package
    assert per_rollout["calc-a"] == per_rollout[LONG] and per_rollout["judge-a"] == per_rollout["judge-b"]


@pytest.mark.parametrize("isolated", [True, False], ids=["ruff-defaults", "workspace-settings"])
def test_generated_code_is_clean_under_ruff(workspace, isolated):
    args = [sys.executable, "-m", "ruff", "check", "--no-cache", *(["--isolated"] if isolated else []), "rollouts"]
    done = subprocess.run(args, cwd=workspace, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
