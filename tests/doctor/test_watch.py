"""`osmosis doctor --watch` as a user runs it: a real process, a file edited under it, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.cli import app


class Stream:
    """Everything a pipe has said so far, read on a thread so the test never blocks on it."""

    def __init__(self, pipe):
        self.text = ""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, args=(pipe,), daemon=True).start()

    def _read(self, pipe) -> None:
        for line in pipe:
            with self._lock:
                self.text += line

    def wait_for(self, needle: str, count: int = 1, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.text.count(needle) >= count:
                    return self.text
            time.sleep(0.05)
        raise AssertionError(f"no {count}x {needle!r} within {timeout}s; so far:\n{self.text}")


def ctrl_c(proc: subprocess.Popen, out: Stream, err: Stream) -> int:
    """Ctrl-C to a running --watch; its exit code once it stopped (killed, and a failure, if it does not)."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"Ctrl-C did not stop --watch within 60 s\nstdout:\n{out.text[-3000:]}\nstderr:\n{err.text[-3000:]}") from None


def test_watch_checks_again_on_change_and_ctrl_c_exits_0(make_workspace):
    root = make_workspace()
    env = {**os.environ, "OSMOSIS_WATCH_INTERVAL": "0.1", "NO_COLOR": "1"}
    # Ctrl-C as a terminal delivers it: a test run started in the background (`.ci/run &`) passes
    # SIGINT on ignored, and a Python that starts with it ignored never raises KeyboardInterrupt.
    proc = subprocess.Popen([sys.executable, "-m", "osmosis_workspace", "doctor", str(root), "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out, err = Stream(proc.stdout), Stream(proc.stderr)
    try:
        err.wait_for("for changes; Ctrl-C stops")  # said after each report
        first = out.text
        assert "Configs" in first and "CFG003" not in first

        config = root / "configs" / "eval" / "multiply.toml"
        config.write_text(config.read_text() + "\nnot_a_key = 1\n")
        err.wait_for("for changes; Ctrl-C stops", count=2)
        second = out.text[len(first):]
        # not a terminal: a separator names the change, then the new report with the new finding
        assert "changed: configs/eval/multiply.toml; checked again ---" in second
        assert "CFG003" in second and "not_a_key" in second
    finally:
        code = ctrl_c(proc, out, err)
    assert code == 0
    err.wait_for("stopped watching")
    assert "Traceback" not in err.text and "Traceback" not in out.text


def test_watch_refuses_fix_and_a_folder_that_is_no_workspace(tmp_path: Path):
    refused = CliRunner().invoke(app, ["doctor", str(tmp_path), "--watch", "--fix"])
    assert refused.exit_code == 2 and "--watch cannot be combined with --fix" in refused.output
    lost = CliRunner().invoke(app, ["doctor", str(tmp_path), "--watch"])
    assert lost.exit_code == 2 and "Traceback" not in lost.output
