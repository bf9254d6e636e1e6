"""MINORS (issue 14): two writers on one workspace do not meet (the second refuses, exit 2), and
staging folders a killed run left behind are removed by the next run while a live run's are kept."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import cli, make_workspace
from osmosis_workspace.core import lock

pytestmark = pytest.mark.skipif(lock.fcntl is None, reason="advisory locks need fcntl")

HOLD = """
import sys, time
from pathlib import Path
from osmosis_workspace.core import lock
with lock.workspace(Path(sys.argv[1]), "update"):
    print("held", flush=True)
    time.sleep(60)
"""


def _holder(path: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


@pytest.mark.parametrize("command", [
    ("update", "{ws}"), ("rollout", "new", "second", "--template", "blank", "--workspace", "{ws}/rollouts", "--defaults"),
    ("doctor", "{ws}/configs", "--fix"),
])
def test_a_second_writer_refuses_while_the_first_holds_the_workspace(tmp_path, command):
    ws = make_workspace(tmp_path / "ws")
    holder = _holder(ws)
    try:
        result = cli(*[part.format(ws=ws) for part in command])
        assert result.exit_code == 2, result.output
        assert "being changed by another osmosis command (osmosis update, pid" in result.output
    finally:
        holder.kill()
        holder.wait()
    assert not (ws / "rollouts" / "second").exists()
    # the holder was killed (-9): its lock went with it
    assert cli("doctor", ws, "--fix").exit_code in (0, 1)


def test_init_twice_into_one_folder(tmp_path):
    holder = _holder(tmp_path / "ws")
    try:
        result = cli("init", tmp_path / "ws", "--defaults", "--no-git")
        assert result.exit_code == 2 and "another osmosis command" in result.output, result.output
        assert not (tmp_path / "ws").exists()
    finally:
        holder.kill()
        holder.wait()


KILLED_INIT = """
import os, sys
from pathlib import Path
import osmosis_workspace.scaffold.render as render
real = render.render
def render_then_die(src, dst, **kw):
    out = real(src, dst, **kw)
    os.kill(os.getpid(), 9)
render.render = render_then_die
sys.argv = ["osmosis", "init", sys.argv[1], "--defaults", "--no-git"]
from osmosis_workspace.entry import main
main()
"""


def test_staging_left_by_a_killed_init_is_removed_by_the_next_run(tmp_path):
    done = subprocess.run([sys.executable, "-c", KILLED_INIT, str(tmp_path / "ws")], capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    left = list(tmp_path.glob(".osmosis-init-*"))
    assert len(left) == 1  # what kill -9 leaves
    live = tmp_path / ".osmosis-init-live"
    live.mkdir()
    lock.claim(live)  # a staging folder a live run is using
    try:
        result = cli("init", tmp_path / "ws", "--defaults", "--no-git")
        assert result.exit_code == 0, result.output
        assert [p.name for p in tmp_path.glob(".osmosis-init-*")] == [live.name]
    finally:
        lock.release(live)


def test_lock_file_is_outside_the_workspace(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    before = {p.relative_to(ws) for p in ws.rglob("*")}
    with lock.workspace(ws, "update"):
        assert {p.relative_to(ws) for p in ws.rglob("*")} == before
        assert lock.lock_file(ws).is_file()


def test_scratch_folders_of_a_killed_update_are_removed_by_the_next_one(tmp_path):
    import tempfile

    dead = Path(tempfile.mkdtemp(prefix="osmosis-update-"))  # what kill -9 left (nobody holds it)
    (dead / "new").mkdir()
    with lock.temp_folder("osmosis-update-") as live:
        assert not dead.exists()
        with lock.temp_folder("osmosis-update-") as second:  # a concurrent run (another workspace) keeps its own
            assert Path(live).is_dir() and Path(second).is_dir()
    assert not Path(live).exists()
