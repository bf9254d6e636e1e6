"""Issue 28 point 6: no process of a rehearsal outlives it. A preflight's `uv run ... python` (and the
SDK's `eval run`) can start processes of their own; on a timeout, and after a normal exit, the whole
process group ends. Each test plants a grandchild that sleeps for an hour with a marker in its argv and
looks for the marker in /proc once rehearse has returned.

`uv` and the SDK's `osmosis` are stand-ins here (shell scripts): what is tested is how rehearse ends
what it started, which needs a child that starts a grandchild and then hangs. The real SDK's runs are
tests/rehearse/test_templates.py's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from osmosis_workspace.rehearse import children
from osmosis_workspace.rehearse.preflight import run_preflight
from osmosis_workspace.rehearse.runner import run_eval
from tests.orphans import alive_with, end_all, grandchild, shell_script

pytestmark = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc (Linux)")

@pytest.fixture
def marker():
    mark = f"osmosis-orphan-{uuid.uuid4().hex}"
    yield mark
    end_all(mark)  # a failing test must not leave its sleepers behind either


def _fake_sdk(tmp_path: Path, uv_body: str) -> Path:
    """A venv-like folder: bin/osmosis (never run here) and, beside it, the uv the preflight finds first."""
    sdk = shell_script(tmp_path / "sdk" / "bin" / "osmosis", "exit 0\n")
    shell_script(sdk.parent / "uv", uv_body)
    return sdk


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "rollouts" / "r").mkdir(parents=True)
    return root


def test_a_preflight_that_hangs_in_a_grandchild_leaves_nothing_running_after_its_timeout(tmp_path, marker):
    # `uv sync` returns; `uv run` starts a Python that starts the sleeper and hangs itself, as an
    # entrypoint whose import blocks would.
    sdk = _fake_sdk(tmp_path, 'if [ "$1" = sync ]; then exit 0; fi\n' + grandchild(marker, "time.sleep(3600)"))
    started = time.monotonic()
    passed, account = run_preflight(_workspace(tmp_path), sdk, "r", "main.py", dict(os.environ), timeout=2)
    assert not passed and "did not finish within 2 s" in account
    assert time.monotonic() - started < 20
    assert alive_with(marker) == []


def test_a_preflight_that_exits_leaves_no_background_process(tmp_path, marker):
    sdk = _fake_sdk(tmp_path, 'if [ "$1" = sync ]; then exit 0; fi\n' + grandchild(marker, "print('backend:HarborBackend')"))
    passed, account = run_preflight(_workspace(tmp_path), sdk, "r", "main.py", dict(os.environ), timeout=30)
    assert passed, account
    assert "HarborBackend built" in account
    assert alive_with(marker) == []


def test_an_eval_run_past_its_timeout_leaves_nothing_running(tmp_path, marker, monkeypatch):
    monkeypatch.setattr("osmosis_workspace.rehearse.runner.STOP_GRACE_S", 1.0)
    sdk = shell_script(tmp_path / "osmosis", "trap '' INT\n" + grandchild(marker, "time.sleep(3600)"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    process = run_eval([str(sdk)], tmp_path, dict(os.environ), run_dir, timeout=2)
    assert process.timed_out
    assert alive_with(marker) == []


def test_an_eval_run_that_exits_leaves_no_background_process(tmp_path, marker):
    sdk = shell_script(tmp_path / "osmosis", grandchild(marker, "print('{}')"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    process = run_eval([str(sdk)], tmp_path, dict(os.environ), run_dir, timeout=30)
    assert process.returncode == 0 and not process.timed_out
    assert alive_with(marker) == []


def test_the_helper_never_signals_our_own_group():
    assert children.signal_group(os.getpgid(0), 0) is False
    assert children.signal_group(1, 0) is False and children.signal_group(0, 0) is False


def test_the_cli_preflight_with_a_timeout_leaves_nothing_running(tmp_path, marker):
    """End to end: `osmosis rehearse --timeout 3` on a Harbor-looking rollout, the preflight's import hanging."""
    root = tmp_path / "ws"
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "init", str(root), "--template", "blank", "--defaults",
                           "--data", "rollout_name=r"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"})
    assert done.returncode == 0, done.stderr
    main = root / "rollouts" / "r" / "main.py"
    main.write_text(main.read_text() + "\n# backend = HarborBackend(...)  (marks the rollout as Harbor's)\n")
    sdk = _fake_sdk(tmp_path, 'if [ "$1" = sync ]; then exit 0; fi\n' + grandchild(marker, "time.sleep(3600)"))
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "rehearse", "--sdk", str(sdk.parent.parent), "--timeout", "3",
                           "--format", "json"], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "did not finish within 3 s" in done.stdout
    assert alive_with(marker) == []
