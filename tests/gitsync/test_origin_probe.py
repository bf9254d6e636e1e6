"""A cold doctor's `git config --get remote.origin.url` is answered by the config probe safe_git makes
for filter drivers (one git process instead of two, issue 40): the answer must be the one git itself
gives, in every spelling of a config, and never one read before the run in a long-lived process."""

from __future__ import annotations

import subprocess

import pytest
from osmosis_workspace.core import safe_git

ORIGIN = ("config", "--get", "remote.origin.url")


@pytest.fixture(autouse=True)
def fresh_caches():
    safe_git._FILTER_CACHE.clear()
    safe_git.stop_early()
    yield
    safe_git._FILTER_CACHE.clear()
    safe_git.stop_early()


def _repo(tmp_path, config: str = "", extra: dict[str, str] | None = None):
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    with open(repo / ".git" / "config", "a") as f:
        f.write(config)
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    return repo


def _spawned(monkeypatch) -> list[tuple]:
    seen: list[tuple] = []
    real = safe_git.Started.__init__

    def init(self, cwd, args, *rest):
        seen.append(tuple(args))
        real(self, cwd, args, *rest)

    monkeypatch.setattr(safe_git.Started, "__init__", init)
    return seen


CASES = {
    "none": "",
    "one": '[remote "origin"]\n\turl = https://github.com/me/demo.git\n',
    "two values, the last wins": '[remote "origin"]\n\turl = https://a/1.git\n\turl = https://b/2.git\n',
    "no equals sign": '[remote "origin"]\n\turl\n',
    "empty value": '[remote "origin"]\n\turl =\n',
    "section and key in capitals": '[Remote "origin"]\n\tURL = https://github.com/me/caps.git\n',
    "subsection in capitals is another remote": '[remote "Origin"]\n\turl = https://github.com/me/other.git\n',
    "another key of origin only": '[remote "origin"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    "dotted subsection": '[remote "origin.url"]\n\turl = https://x/y.git\n',
    "a broken config": '[remote "origin"]\n\turl = https://x/y.git\n[bad\n',
    "through an include": '[include]\n\tpath = ../../inc.cfg\n',
    "with a local filter": '[filter "evil"]\n\tclean = touch PWNED\n[remote "origin"]\n\turl = https://x/y.git\n',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_probe_answers_as_git_config_get_does(tmp_path, monkeypatch, name):
    repo = _repo(tmp_path, CASES[name], {"inc.cfg": '[remote "origin"]\n\turl = https://github.com/me/inc.git\n'})
    env = safe_git.clean_env()
    truth = subprocess.run(["git", *ORIGIN], cwd=repo, env=env, capture_output=True, check=False)
    spawned = _spawned(monkeypatch)
    safe_git.start_early(repo, *ORIGIN, check=False)
    answer = safe_git.run(repo, *ORIGIN, check=False)
    assert (answer.returncode, answer.stdout) == (truth.returncode, truth.stdout)
    assert spawned[0][:3] == ("config", "--show-scope", "-z")
    if name == "a broken config":  # the probe read no config of the repository's: git itself is asked
        assert spawned[1:] == [ORIGIN]
    else:  # no second git process
        assert len(spawned) == 1


def test_a_local_filter_is_still_emptied_when_the_probe_also_reads_origin(tmp_path):
    repo = _repo(tmp_path, CASES["with a local filter"])
    safe_git.start_early(repo, *ORIGIN, check=False)
    assert safe_git._local_filters(repo, safe_git.clean_env()) == ["evil"]
    (repo / "f.txt").write_text("x\n")
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    safe_git.run(repo, "add", "f.txt")
    assert not (repo / "PWNED").exists()


def test_a_repository_probed_before_is_asked_again(tmp_path, monkeypatch):
    """A long-lived process (the language server) probed the filters on an earlier run: the origin
    added since must be seen, so git is asked, not the old probe."""
    repo = _repo(tmp_path)
    safe_git.run(repo, "status")  # probes the filters: no origin then
    subprocess.run(["git", "remote", "add", "origin", "https://github.com/me/late.git"], cwd=repo, check=True)
    spawned = _spawned(monkeypatch)
    safe_git.start_early(repo, *ORIGIN, check=False)
    assert safe_git.run(repo, *ORIGIN, check=False).returncode == 0
    assert spawned == [ORIGIN]


def test_an_answer_nobody_asked_for_is_dropped_with_the_run(tmp_path):
    repo = _repo(tmp_path, CASES["one"])
    safe_git.start_early(repo, *ORIGIN, check=False)
    safe_git.stop_early()
    subprocess.run(["git", "remote", "remove", "origin"], cwd=repo, check=True)
    assert safe_git.run(repo, *ORIGIN, check=False).returncode == 1


def test_a_checked_call_that_would_fail_is_left_to_git(tmp_path, monkeypatch):
    repo = _repo(tmp_path)
    spawned = _spawned(monkeypatch)
    safe_git.start_early(repo, *ORIGIN)  # check=True: no origin fails, and git says so itself
    with pytest.raises(safe_git.GitFailed):
        safe_git.run(repo, *ORIGIN)
    assert spawned[-1] == ORIGIN


@pytest.mark.parametrize("output", [b"\xff\xfegarbage\0\n", b"local\0remote.origin.url\nhttps://x/y.git",
                                    b"nowhere\0remote.origin.url\nhttps://x/y.git\0",
                                    b"local\0core.bare\nfalse\0", b"local\0"])
def test_a_probe_answer_not_shaped_as_git_gives_it_is_left_to_git(tmp_path, monkeypatch, output):
    """A `git` on PATH that prints what git never prints (the garbage of tests/security/test_not_our_bug.py,
    a cut-off entry, an unknown scope, a key the probe did not ask for): origin is asked of git itself, so
    doctor meets the same answer it met before the probe answered origin."""
    repo = _repo(tmp_path)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "out").write_bytes(output)
    (fake / "git").write_text(f"#!/bin/sh\ncat '{fake / 'out'}'\nexit 0\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{__import__('os').environ['PATH']}")
    spawned = _spawned(monkeypatch)
    safe_git.start_early(repo, *ORIGIN, check=False)
    answer = safe_git.run(repo, *ORIGIN, check=False)
    assert ORIGIN in spawned
    assert (answer.returncode, answer.stdout) == (0, output)


def _bare(tmp_path):
    bare = tmp_path / "bare"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    with open(bare / "config", "a") as f:
        f.write('[remote "origin"]\n\turl = https://github.com/me/bare.git\n')
    return bare


@pytest.mark.parametrize("where", ["a bare repository", "inside a work tree's .git", "a bare repository, origin in global"])
def test_a_repository_the_probes_overrides_refuse_is_asked_of_git(tmp_path, monkeypatch, where):
    """The probe runs under safe.bareRepository=explicit (it also lists filters for the calls made with
    that override); `git config --get` runs without it. Where the override refuses the repository (a bare
    one, or a .git folder entered directly, which git 2.39 takes for bare) the probe reads only the user's
    config: it must not answer "no origin", nor the global origin, for a repository that has its own."""
    if where == "inside a work tree's .git":
        cwd = _repo(tmp_path, CASES["one"]) / ".git"
    else:
        cwd = _bare(tmp_path)
    if where.endswith("origin in global"):
        home = tmp_path / "global.cfg"
        home.write_text('[remote "origin"]\n\turl = https://github.com/me/global.git\n')
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home))
    truth = subprocess.run(["git", *ORIGIN], cwd=cwd, env=safe_git.clean_env(), capture_output=True, check=False)
    assert truth.returncode == 0 and b"global" not in truth.stdout  # git reads the repository's own origin
    safe_git.start_early(cwd, *ORIGIN, check=False)
    answer = safe_git.run(cwd, *ORIGIN, check=False)
    assert (answer.returncode, answer.stdout) == (truth.returncode, truth.stdout)
