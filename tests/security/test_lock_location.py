"""The update lock (issue 28, point 11): it was `/tmp/osmosis-lock-<sha of the path>`, a name any local
user could compute and create first (and hold, or plant a link at). It now lives in a folder of the
user's own, made 0700, never through a link, the file created exclusively."""

from __future__ import annotations

import fcntl
import os
import tempfile

import pytest

from osmosis_workspace.core import lock
from osmosis_workspace.core.errors import UserError


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "shared-tmp"))
    (tmp_path / "shared-tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)
    (tmp_path / "ws").mkdir()
    return tmp_path


def test_the_lock_is_not_in_the_shared_temporary_folder(home):
    path = lock.lock_file(home / "ws")
    assert not str(path).startswith(tempfile.gettempdir())
    assert path.parent == home / "cache" / "osmosis-workspace" / "locks"


def test_the_runtime_folder_is_preferred_when_it_is_private(home, monkeypatch):
    runtime = home / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert lock.lock_file(home / "ws").parent == runtime / "osmosis-workspace"
    runtime.chmod(0o777)  # anyone may write there: not a place for it
    assert lock.lock_file(home / "ws").parent == home / "cache" / "osmosis-workspace" / "locks"


def test_a_lock_another_user_took_at_the_old_name_does_not_stop_a_writer(home):
    squatted = os.path.join(tempfile.gettempdir(), f"osmosis-lock-{lock._key(home / 'ws')}")
    fd = os.open(squatted, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        with lock.workspace(home / "ws", "update"):
            held = lock.lock_file(home / "ws")
            assert held.is_file() and oct(held.stat().st_mode & 0o777) == "0o600"
            assert oct(held.parent.stat().st_mode & 0o777) == "0o700"
    finally:
        os.close(fd)


def test_two_writers_are_still_one_at_a_time(home):
    with lock.workspace(home / "ws", "update"):
        with pytest.raises(UserError, match="being changed by another osmosis command"):
            with lock.workspace(home / "ws", "rollout new"):
                pass


def test_a_link_at_the_lock_name_is_never_followed(home):
    target = home / "victim.txt"
    target.write_text("keep me\n")
    path = lock.lock_file(home / "ws")
    path.parent.mkdir(parents=True, mode=0o700)
    path.symlink_to(target)
    with lock.workspace(home / "ws", "update"):  # runs, unserialised, rather than write through the link
        pass
    assert target.read_text() == "keep me\n" and path.is_symlink()


def test_a_lock_folder_others_may_write_is_not_used(home):
    folder = lock.lock_file(home / "ws").parent
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    with lock.workspace(home / "ws", "update"):
        assert list(folder.iterdir()) == []
