"""The error codes the bundled guidance tells an agent to expect are the ones the real osmosis-ai CLI
answers with (issue 21, point 3): run in a generated workspace's own root environment, `--json`, with
an empty HOME (no login), nothing leaving the machine.

- `eval run` without `--yes` stops before any model call with INTERACTIVE_REQUIRED (evaluate-rollouts);
- `eval submit` without an `origin` answers VALIDATION, outside any git work tree WORKSPACE_REQUIRED
  (submit-eval, json-protocol.md);
- every code json-protocol.md's table names is one the SDK defines.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import sdk_harness as h

pytestmark = pytest.mark.slow
SID = "multiply-strands"
SKILLS = Path(__file__).resolve().parents[2] / "skills"


def _envelope(env: h.SdkEnv, cwd: Path, home: Path, *args: str) -> dict:
    child = h.sdk_subprocess_env(env, HOME=str(home), GIT_CEILING_DIRECTORIES=str(cwd.parent))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):  # no provider key: nothing can reach a model
        child.pop(name, None)
    done = subprocess.run([str(env.bin / "osmosis"), "--json", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=child)
    assert done.returncode == 1, done.stdout + done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])["error"]


@pytest.fixture(scope="module")
def copy(envs, workspaces, tmp_path_factory) -> Path:
    """A copy of the scenario workspace (its .venv left behind), so no run here touches the shared one."""
    target = tmp_path_factory.mktemp("guidance") / "ws"
    shutil.copytree(workspaces[SID], target, ignore=shutil.ignore_patterns(".venv", ".osmosis"), symlinks=True)
    return target


def test_eval_run_without_yes_stops_with_interactive_required(envs, copy, tmp_path):
    rollout = next(s.rollout for s in h.SCENARIOS if s.id == SID)
    error = _envelope(envs[SID], copy, tmp_path, "eval", "run", f"configs/eval/{rollout}.toml",
                      "--dataset-file", f"data/{rollout}.jsonl", "--rows", "0-4")
    assert error["code"] == "INTERACTIVE_REQUIRED", error
    assert re.fullmatch(r"5 rollouts x model \S+ — continue\?", error["details"]["prompt"]), error
    text = (SKILLS / "evaluate-rollouts" / "SKILL.md").read_text(encoding="utf-8")
    assert "INTERACTIVE_REQUIRED" in text and "--rows 0-4 --yes" in text and "rollouts x model" in text
    # with --yes and no key the same code comes back, but it is a missing secret, not a question
    error = _envelope(envs[SID], copy, tmp_path, "eval", "run", f"configs/eval/{rollout}.toml",
                      "--dataset-file", f"data/{rollout}.jsonl", "--rows", "0-4", "--yes")
    assert error["code"] == "INTERACTIVE_REQUIRED" and error["details"]["missing"], error
    assert error["message"].startswith("No value found for:"), error
    assert '`INTERACTIVE_REQUIRED` "No value found for: OPENAI_API_KEY", `details.missing`' in text


def test_eval_submit_without_origin_is_validation_and_outside_git_workspace_required(envs, copy, tmp_path):
    rollout = next(s.rollout for s in h.SCENARIOS if s.id == SID)
    subprocess.run(["git", "remote", "remove", "origin"], cwd=copy, capture_output=True)  # as init leaves it
    error = _envelope(envs[SID], copy, tmp_path, "eval", "submit", f"configs/eval/{rollout}.toml")
    assert error["code"] == "VALIDATION" and error["message"].startswith("Set `origin`"), error
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    error = _envelope(envs[SID], outside, tmp_path, "eval", "submit", "configs/eval/x.toml")
    assert error["code"] == "WORKSPACE_REQUIRED", error
    said = (SKILLS / "submit-eval" / "SKILL.md").read_text(encoding="utf-8")
    assert '`VALIDATION` "Set `origin` to the Platform-connected repository"' in said
    assert "| `WORKSPACE_REQUIRED` | the command ran outside any git work tree" in said


def test_every_code_the_protocol_table_names_is_one_the_sdk_defines(envs):
    done = subprocess.run([str(envs[SID].python), "-c", "import json; from osmosis_ai.cli.errors import CLIErrorCode; "
                           "print(json.dumps([c.value for c in CLIErrorCode]))"], capture_output=True, text=True,
                          timeout=120, check=True, env=h.sdk_subprocess_env(envs[SID]))
    defined = set(json.loads(done.stdout))
    table = (SKILLS / "submit-eval" / "references" / "json-protocol.md").read_text(encoding="utf-8")
    named: set[str] = set()
    for row in re.findall(r"^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|", table, re.M):
        named |= set(re.findall(r"`([A-Z_]+)`", row))
    assert len(named) >= 10, named
    assert named <= defined, sorted(named - defined)
