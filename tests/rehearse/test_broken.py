"""Broken rollouts, each made from a fresh rollout the way a user breaks one (broken.py), all rehearsed in
one `osmosis rehearse --jobs 2` run: each fails, for its own reason, named in one line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sdk_harness as h
from broken import BREAKS
from conftest import rehearse, synced
from typer.testing import CliRunner

from osmosis_workspace.cli import app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def broken_workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("broken") / "ws"
    names = list(BREAKS)
    runner = CliRunner()
    done = runner.invoke(app, ["init", str(ws), "--template", "blank", "--defaults", "--data", f"rollout_name={names[0]}"])
    assert done.exit_code == 0, done.output
    for name in names[1:]:
        done = runner.invoke(app, ["rollout", "new", name, "--template", "blank", "--defaults", "--workspace", str(ws)])
        assert done.exit_code == 0, done.output
    synced(ws, rollouts=True)
    for name, broken in BREAKS.items():
        broken.apply(ws, name)
    return ws


@pytest.fixture(scope="module")
def verdicts(broken_workspace):
    # The base passes are what these breaks fail; the probes have their own real-SDK test (test_probes_sdk.py).
    code, report, stderr = rehearse(broken_workspace, "--rows", "0-1", "--jobs", "2", "--no-probes")
    assert report is not None, stderr[-4000:]
    assert code == 1
    return {r["rollout"]: r for r in report["rollouts"]}


def test_every_broken_rollout_fails_for_its_own_reason(verdicts):
    assert set(verdicts) == set(BREAKS)
    table = []
    for name, broken in BREAKS.items():
        result = verdicts[name]
        headline = result["headline"]
        table.append(f"{name}: {headline}")
        assert not result["ok"], name
        assert "\n" not in headline, headline
        assert all(word in headline.lower() for word in broken.reason), (name, headline)
        first_failing = next(v["name"] for v in result["verdicts"] if v["holds"] is False)
        assert first_failing == broken.verdict, (name, result["verdicts"])
    assert len({r["headline"] for r in verdicts.values()}) == len(BREAKS), "two cases share a reason"
    print("\n" + "\n".join(table))


def test_a_failure_in_user_code_points_at_its_file_and_line(verdicts):
    for name, filename in (("import-error", "workflow.py"), ("workflow-crash", "workflow.py"), ("grader-raises", "grading.py")):
        where = verdicts[name]["failure"]["where"]
        assert where.startswith(f"rollouts/{name}/") and where.split(":")[0].endswith(filename), where
        assert int(where.rsplit(":", 1)[1]) > 0


def test_the_grader_that_raises_fails_only_the_rows_it_raises_on(verdicts):
    rows = verdicts["grader-raises"]["rows"]
    failed = {(r["pass"], r["source_row"]) for r in rows if r["status"] != "success"}
    assert failed == {("gold", 1), ("wrong", 1)}   # the empty answer scores 0 before the label is read


def _processes_under(path: Path) -> list[str]:
    """Command lines of live processes that name ``path`` (a rollout server, uv, the SDK)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(path) in cmdline:
            found.append(cmdline)
    return found


def test_ctrl_c_stops_the_sdk_and_its_rollout_server(broken_workspace):
    """Ctrl-C while the hanging rollout's server is up: rehearse exits 130 and leaves no process behind."""
    child = h.sdk_child_environ("PYTHONPATH")
    child.update({"UV_PYTHON": h.find_python312(), "UV_PYTHON_DOWNLOADS": "never"})
    # An earlier rehearsal's log would say "dispatching" before this one has started.
    shutil.rmtree(broken_workspace / ".osmosis" / "evals" / "rehearse" / "hang", ignore_errors=True)
    # The verdict test gave the hang a 5 s budget; here the rows must still be hanging when Ctrl-C
    # comes, however slowly a loaded machine notices that they started.
    config = broken_workspace / "configs" / "eval" / "hang.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("agent_workflow_timeout_s = 5", "agent_workflow_timeout_s = 600"),
                      encoding="utf-8")
    # SIGINT restored as a terminal has it: a test run started in the background passes it on ignored.
    process = subprocess.Popen([sys.executable, "-m", "osmosis_workspace", "rehearse", "hang", "--rows", "0"], cwd=broken_workspace,
                               env=child, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    log = broken_workspace / ".osmosis" / "evals" / "rehearse" / "hang" / "logs.txt"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and "dispatching rollout" not in (log.read_text() if log.is_file() else ""):
        time.sleep(0.5)
    assert "dispatching rollout" in log.read_text(), "the hanging rollout never started"
    assert any("_server_bootstrap" in c for c in _processes_under(broken_workspace)), "no rollout server to stop"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err
    time.sleep(1)
    assert _processes_under(broken_workspace) == []


def test_the_real_verdicts_split_as_a_ci_matrix_merge_into_a_failing_summary_naming_each(verdicts, tmp_path):
    """Each broken rollout's real verdict as its own matrix job wrote it, then `rehearse --merge`."""
    folder = tmp_path / "verdicts"
    folder.mkdir()
    for name, entry in verdicts.items():
        (folder / f"verdict-{name}.json").write_text(json.dumps({"ok": entry["ok"], "rollouts": [entry]}), encoding="utf-8")
    summary = tmp_path / "summary.md"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "rehearse", "--merge", str(folder)], capture_output=True,
                          text=True, env={**env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}, timeout=60)
    assert done.returncode == 1, done.stderr
    table = summary.read_text(encoding="utf-8")
    assert f"{len(BREAKS)} rollouts rehearsed: 0 ok, {len(BREAKS)} failed" in table
    for name in BREAKS:
        assert f"| {name} | **failed**: " in table, name
    # a failure in user code is annotated at its file and line
    where = verdicts["grader-raises"]["failure"]["where"]
    path, line = where.rsplit(":", 1)
    assert f"::error file={path},line={line},title=rehearse grader-raises::" in done.stdout
