"""DEP001-DEP003: the uv.lock files `uv sync` installs from, judged statically and, for staleness,
against uv's own verdict (`uv lock --check`, offline: it reads the lock and the pyproject, nothing
is resolved when they match)."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

ROLLOUT = "rollouts/multiply"


def doctor(ws) -> list[dict]:
    result = CliRunner().invoke(app, ["doctor", str(ws), "--select", "DEP", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [d for d in json.loads(result.output)["diagnostics"]]


def codes(ws) -> list[tuple[str, str]]:
    return sorted((d["code"], d["path"]) for d in doctor(ws))


def uv_says_stale(folder) -> bool:
    """uv's own verdict. It needs a Python the project admits (3.12, found as tests/sdk_real finds it)."""
    from tests.sdk_real.sdk_harness import find_python312, uv_binary

    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), "UV_NO_CONFIG": "1",
           "UV_PYTHON": find_python312(), "UV_PYTHON_DOWNLOADS": "never"}
    done = subprocess.run([uv_binary(), "lock", "--check", "--offline", "--project", str(folder)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode in (0, 1), done.stderr  # 1: out of date; anything else: uv could not tell
    return done.returncode == 1


@pytest.fixture
def ws(make_workspace):
    return make_workspace(git=False)


def test_a_fresh_workspace_has_its_locks_and_they_match(ws):
    assert codes(ws) == []
    assert not uv_says_stale(ws / ROLLOUT) and not uv_says_stale(ws)


def test_a_missing_rollout_lock_is_a_warning_with_the_command(ws):
    (ws / ROLLOUT / "uv.lock").unlink()
    found = doctor(ws)
    assert [(d["code"], d["severity"], d["path"]) for d in found] == [("DEP001", "warning", f"{ROLLOUT}/uv.lock")]
    assert f"uv lock --project {ROLLOUT}" in found[0]["hint"]


def test_a_missing_root_lock_names_plain_uv_lock(ws):
    (ws / "uv.lock").unlink()
    found = doctor(ws)
    assert [(d["code"], d["path"]) for d in found] == [("DEP001", "uv.lock")]
    assert "`uv lock`" in found[0]["hint"]


MUTATIONS = {
    "a dependency added": lambda t: t.replace('dependencies = [\n', 'dependencies = [\n  "numpy>=2",\n', 1),
    "a bound moved": lambda t: t.replace(">=0.3.1,<0.4", ">=0.3.2,<0.4", 1),
    "an extra added": lambda t: t.replace("osmosis-ai[server,strands]", "osmosis-ai[server,strands,rubric]", 1),
    "a dev group changed": lambda t: t.replace('dev = ["pytest>=8"]', 'dev = ["pytest>=8", "ruff"]'),
    "the constraint changed": lambda t: t.replace('"litellm<1.106"', '"litellm<1.105"'),
    "the constraint dropped": lambda t: re.sub(r"(?m)^constraint-dependencies = .*\n", "", t),
    "requires-python moved": lambda t: t.replace('requires-python = ">=3.12"', 'requires-python = ">=3.12.1"'),
    # the same requirements, written differently: not stale for uv, nor for us
    "clauses reordered": lambda t: t.replace(">=0.3.1,<0.4", "<0.4, >=0.3.1", 1),
    "extras reordered": lambda t: t.replace("osmosis-ai[server,strands]", "osmosis-ai[strands,server]", 1),
    "a comment added": lambda t: t.replace("[dependency-groups]", "# mine\n[dependency-groups]"),
}


@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_a_stale_lock_is_found_exactly_when_uv_says_so(ws, mutation):
    pyproject = ws / ROLLOUT / "pyproject.toml"
    pyproject.write_text(MUTATIONS[mutation](pyproject.read_text()))
    ours = [d for d in doctor(ws) if d["code"] == "DEP002"]
    assert bool(ours) == uv_says_stale(ws / ROLLOUT), (mutation, ours)
    if ours:
        assert ours[0]["path"] == f"{ROLLOUT}/uv.lock" and f"uv lock --project {ROLLOUT}" in ours[0]["hint"]


def test_uv_and_doctor_disagree_on_none_of_the_mutations_that_change_something(ws):
    # guards the corpus itself: most mutations must really make the lock stale
    stale = 0
    for name, mutate in MUTATIONS.items():
        pyproject = ws / ROLLOUT / "pyproject.toml"
        before = pyproject.read_text()
        pyproject.write_text(mutate(before))
        stale += uv_says_stale(ws / ROLLOUT)
        pyproject.write_text(before)
    assert stale == 7


def test_a_known_bad_pin_is_an_error_at_its_line(ws):
    lock = ws / ROLLOUT / "uv.lock"
    text = lock.read_text()
    old = re.search(r'name = "litellm"\nversion = "([^"]+)"', text).group(0)
    lock.write_text(text.replace(old, 'name = "litellm"\nversion = "1.106.12"'))
    found = doctor(ws)
    assert [(d["code"], d["severity"]) for d in found] == [("DEP003", "error")]
    line = lock.read_text().splitlines()[found[0]["line"] - 1]
    assert line == 'version = "1.106.12"'
    assert "litellm 1.106.12 with mcp 1.30.0" in found[0]["message"] and '"litellm<1.106"' in found[0]["hint"]


def test_the_openai_agents_lock_is_not_known_bad(make_workspace):
    # litellm 1.110 there comes with mcp 2.3: the combination works
    ws = make_workspace(git=False, data=("integration=openai-agents",))
    assert codes(ws) == []


def test_a_lock_that_is_not_a_lock_is_one_finding(ws):
    (ws / ROLLOUT / "uv.lock").write_text("<<<<<<< ours\nversion = 1\n")
    assert codes(ws) == [("DEP002", f"{ROLLOUT}/uv.lock")]


def test_a_workspace_made_with_uv_members_uses_the_root_lock(ws):
    pyproject = ws / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.uv.workspace]\nmembers = ["rollouts/*"]\n')
    (ws / ROLLOUT / "uv.lock").unlink()
    (ws / "uv.lock").unlink()
    assert codes(ws) == [("DEP001", "uv.lock")]  # one root cause, one finding
