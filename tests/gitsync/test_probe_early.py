"""safe_git.probe_early: the config probe (which filter drivers a repository's own config defines, to
empty them) started before doctor imports its checks, and taken by the first git call that needs it. The
call must see exactly what a probe of its own would have said: a probe started for another environment
is ended and made again; one nobody takes is ended with the run, even one git is stuck in (a FIFO)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from osmosis_workspace.core import safe_git


@pytest.fixture(autouse=True)
def fresh_probes():
    safe_git.stop_early()
    safe_git._STUCK.clear()
    yield
    safe_git.stop_early()
    safe_git._STUCK.clear()


def repo(tmp_path, name: str = "repo"):
    path = tmp_path / name
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def probes_spawned(monkeypatch) -> list[tuple]:
    """The config probes started from now on, early or not: (cwd, env) of each."""
    seen: list[tuple] = []
    real = safe_git.Started.__init__

    def init(self, cwd, args, env, *rest):
        if tuple(args) == safe_git._PROBE_ARGS:
            seen.append((str(cwd), dict(env)))
        real(self, cwd, args, env, *rest)

    monkeypatch.setattr(safe_git.Started, "__init__", init)
    return seen


def evil(path, marker) -> None:
    """A clean filter the repository's own config defines, on every file `git status` hashes."""
    with open(path / ".git" / "config", "a", encoding="utf-8") as f:
        f.write(f'[filter "evil"]\n\tclean = touch {marker}; cat\n')
    (path / ".gitattributes").write_text("*.txt filter=evil\n", encoding="utf-8")
    (path / "a.txt").write_text("a\n", encoding="utf-8")


def test_the_call_takes_the_early_probe_and_its_filters_are_emptied(tmp_path, monkeypatch):
    path, marker = repo(tmp_path), tmp_path / "PWNED"
    evil(path, marker)
    spawned = probes_spawned(monkeypatch)
    env = safe_git.ceiling_env(path)
    safe_git.probe_early(path, env=env)
    assert len(spawned) == 1 and safe_git._PROBING
    done = safe_git.run(path, "status", "--porcelain", env=env)
    assert len(spawned) == 1 and not safe_git._PROBING  # taken, not probed again
    assert safe_git._local_filters(path, safe_git.clean_env(env)) == ["evil"]
    assert b"a.txt" in done.stdout and not marker.exists()


def test_a_probe_started_for_another_environment_is_ended_and_made_again(tmp_path, monkeypatch):
    path, marker = repo(tmp_path), tmp_path / "PWNED"
    evil(path, marker)
    spawned = probes_spawned(monkeypatch)
    ended: list[safe_git.Started] = []
    real_stop = safe_git.Started.stop
    monkeypatch.setattr(safe_git.Started, "stop", lambda self: (ended.append(self), real_stop(self)))
    safe_git.probe_early(path, env=safe_git.ceiling_env(path))
    safe_git.run(path, "status", "--porcelain")  # no ceiling: git's own discovery, as the call asks
    assert len(spawned) == 2 and len(ended) == 1 and not safe_git._PROBING
    assert "GIT_CEILING_DIRECTORIES" in spawned[0][1] and "GIT_CEILING_DIRECTORIES" not in spawned[1][1]
    assert safe_git._local_filters(path, safe_git.clean_env()) == ["evil"] and not marker.exists()


def test_a_broken_git_folder_is_not_answered_by_the_repository_above(tmp_path):
    """The reason the environment must match: without the ceiling, git finds the outer repository (and
    its filters); with it, none. An early probe made with the ceiling must not answer a call without."""
    outer = repo(tmp_path, "outer")
    with open(outer / ".git" / "config", "a", encoding="utf-8") as f:
        f.write('[filter "outer"]\n\tclean = cat\n')
    inner = outer / "inner"
    (inner / ".git").mkdir(parents=True)  # not a repository
    safe_git.probe_early(inner, env=safe_git.ceiling_env(inner))
    assert safe_git._local_filters(inner, safe_git.clean_env()) == ["outer"]  # as without an early probe
    safe_git.stop_early()
    safe_git.probe_early(inner, env=safe_git.ceiling_env(inner))
    assert safe_git._local_filters(inner, safe_git.clean_env(safe_git.ceiling_env(inner))) == []


def test_a_probe_nobody_takes_is_ended_even_when_git_is_stuck(tmp_path):
    """A `.git/config` that is a FIFO blocks git until someone writes to it: the run's end kills it."""
    path = repo(tmp_path)
    config = path / ".git" / "config"
    config.unlink()
    os.mkfifo(config)
    safe_git.probe_early(path)
    ((_, early),) = safe_git._PROBING.values()
    time.sleep(0.2)
    assert early.proc.poll() is None  # git waits on the FIFO
    safe_git.stop_early()
    assert early.proc.returncode is not None and not safe_git._PROBING


def test_a_stuck_early_probe_times_out_from_when_it_is_taken(tmp_path, monkeypatch):
    path = repo(tmp_path)
    config = path / ".git" / "config"
    config.unlink()
    os.mkfifo(config)
    monkeypatch.setenv("OSMOSIS_GIT_TIMEOUT", "1")
    safe_git.probe_early(path)
    time.sleep(1.2)  # past the probe's own timeout: still the call's full second from now
    started = time.monotonic()
    with pytest.raises(safe_git.GitTimeout):
        safe_git.run(path, "status")
    assert time.monotonic() - started >= 0.9
    assert str(path) in safe_git._STUCK and not safe_git._PROBING
    safe_git.probe_early(path)  # a repository git got stuck in is not probed again
    assert not safe_git._PROBING


def test_no_probe_where_one_was_made_this_run(tmp_path, monkeypatch):
    path = repo(tmp_path)
    safe_git.run(path, "status")
    spawned = probes_spawned(monkeypatch)
    safe_git.probe_early(path)
    assert not spawned and not safe_git._PROBING


def test_no_git_on_path_is_left_to_the_call(tmp_path, monkeypatch):
    path = repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    safe_git.probe_early(path)
    assert not safe_git._PROBING
    with pytest.raises(safe_git.GitMissing):
        safe_git.run(path, "status")
