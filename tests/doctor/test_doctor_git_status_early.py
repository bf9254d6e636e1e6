"""The git family's calls started as doctor's run stage begins (check/families/gitsync_early.py through
safe_git.start_early), on a cold run and on a warm one (units reused from the cache: issue 37, point 8,
row (b)): git walks the tree while the other checks run, and Git Sync's own calls take those
processes. The answer is the one a run without the cache gives; a git that finished long before the
check asks is still taken (its timeout counts from then); one the check does not ask for is ended."""

from __future__ import annotations

import json
import subprocess

from osmosis_workspace.check.families import gitsync_early
from osmosis_workspace.core import safe_git


def findings(run, ws, *extra: str) -> list[tuple]:
    result = run("doctor", ws, "-f", "json", *extra)
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["line"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def commit(ws) -> None:
    """Commit everything and "push" it (origin/main moved to HEAD, as the fixture's setup does): no
    GIT005, so Git Sync asks all three questions started early (origin's only when nothing is unpushed)."""
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "PATH": "/usr/bin:/bin", "HOME": str(ws.parent)}
    for args in (("add", "-A"), ("commit", "-qm", "all"), ("update-ref", "refs/remotes/origin/main", "HEAD")):
        subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True, env=env)


def spy(monkeypatch) -> dict:
    """Counts the gits started early, those a later call took, and those ended untaken; ``asked`` and
    ``ended``: the first argument of each early one, and of each ended; ``units``: whether the run had
    units from the cache when it started them."""
    seen = {"started": 0, "taken": 0, "stopped": 0, "asked": [], "ended": [], "units": []}
    early: list[safe_git.Started] = []
    real_early, real_start, real_stop = safe_git.start_early, safe_git.start, safe_git.Started.stop

    def start_early(cwd, *args, **kwargs):
        before = list(safe_git._EARLY.values())
        real_early(cwd, *args, **kwargs)
        new = [s for s in safe_git._EARLY.values() if not any(s is b for b in before)]
        seen["started"] += len(new)
        seen["asked"] += [args[0]] * len(new)
        early.extend(new)

    def start(cwd, *args, **kwargs):
        got = real_start(cwd, *args, **kwargs)
        seen["taken"] += any(got is e for e in early)
        return got

    def stop(self):
        if any(self is e for e in early):
            seen["stopped"] += 1
            seen["ended"].append(self.args[0])
        real_stop(self)

    real_begin = gitsync_early.start

    def begin(ws):
        seen["units"].append(ws.units is not None)
        real_begin(ws)

    monkeypatch.setattr(gitsync_early, "start", begin)
    monkeypatch.setattr(safe_git, "start_early", start_early)
    monkeypatch.setattr(safe_git, "start", start)
    monkeypatch.setattr(safe_git.Started, "stop", stop)
    return seen


def edited_config(ws) -> str:
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    return "configs/eval/multiply.toml"


def warm_after_an_edit(run, ws) -> str:
    commit(ws)
    findings(run, ws)  # fills the cache
    return edited_config(ws)


def test_a_run_reusing_units_takes_the_early_gits(three, run, monkeypatch):
    changed = warm_after_an_edit(run, three)
    seen = spy(monkeypatch)
    cached = findings(run, three)
    assert seen["units"] == [True], seen  # started with the cache's units in hand: a warm run
    # Git Sync's three, and the secrets check's `git ls-files` of tracked .env files
    assert seen["started"] == 4 and sorted(seen["asked"]) == ["config", "for-each-ref", "ls-files", "status"], seen
    assert seen["taken"] == 4 and seen["stopped"] == 0, seen
    monkeypatch.undo()
    assert cached == findings(run, three, "--no-cache")
    assert any(code == "GIT001" and changed in message for code, _, _, message in cached), cached


def test_a_run_without_the_cache_takes_them_too(three, run, monkeypatch):
    commit(three)
    edited_config(three)
    seen = spy(monkeypatch)
    uncached = findings(run, three, "--no-cache")
    assert seen["units"] == [False] and seen["started"] == seen["taken"] == 4 and seen["stopped"] == 0, seen
    monkeypatch.undo()
    assert uncached == findings(run, three, "--no-cache")


def test_an_early_git_that_is_done_is_taken_however_late(three, run, monkeypatch):
    """The checks before Git Sync may take longer than git's whole timeout under load: a git done by
    then is taken, never ended and asked again (its timeout counts from when it is taken)."""
    import time

    warm_after_an_edit(run, three)
    seen = spy(monkeypatch)
    real_start = gitsync_early.start  # the spy's

    class Later:
        @staticmethod
        def monotonic():
            return time.monotonic() + 10 * safe_git.timeout()

    def start_then_wait(ws):
        real_start(ws)
        for started in safe_git._EARLY.values():
            started.proc.wait()  # done (their answers are a few bytes: nothing blocks on a pipe)
        monkeypatch.setattr(safe_git, "time", Later)  # and the check asks long past their timeout

    monkeypatch.setattr(gitsync_early, "start", start_then_wait)
    cached = findings(run, three)
    assert seen["started"] == seen["taken"] == 4 and seen["stopped"] == 0, seen
    monkeypatch.undo()
    assert cached == findings(run, three, "--no-cache")


def test_an_early_git_the_check_does_not_ask_for_is_ended(three, run, monkeypatch):
    """A question that differs from the check's (here: made to) leaves that early git untaken: the run
    stage ends it, and the check's own git answers."""
    warm_after_an_edit(run, three)
    seen = spy(monkeypatch)
    real_watched = gitsync_early.watched  # the check asks through gitsync's own name for it
    monkeypatch.setattr(gitsync_early, "watched", lambda ws: [*real_watched(ws), "not-asked-by-the-check"])
    cached = findings(run, three)
    assert seen["started"] == 4 and seen["taken"] == 3 and seen["ended"] == ["status"], seen
    assert not safe_git._EARLY
    monkeypatch.undo()
    assert cached == findings(run, three, "--no-cache")


def early_probes(monkeypatch) -> list:
    """The config probes doctor starts before importing its checks (safe_git.probe_early)."""
    made: list = []
    real = safe_git.probe_early

    def probe_early(cwd, env=None):
        before = {id(s) for _, s in safe_git._PROBING.values()}
        real(cwd, env=env)
        made.extend(s for _, s in safe_git._PROBING.values() if id(s) not in before)

    monkeypatch.setattr(safe_git, "probe_early", probe_early)
    return made


def test_a_cold_run_takes_the_probe_started_before_the_checks_import(make_workspace, run, monkeypatch):
    ws = make_workspace()
    made = early_probes(monkeypatch)
    seen = spy(monkeypatch)
    cold = findings(run, ws, "--no-cache")
    assert len(made) == 1 and made[0].proc.returncode == 0 and not safe_git._PROBING
    # git config's answer for origin came from that probe: no `git config --get` of its own
    assert seen["taken"] == seen["started"] == 4 and seen["stopped"] == 0, seen
    monkeypatch.undo()
    assert cold == findings(run, ws, "--no-cache")


def test_a_refused_run_ends_its_early_probe(make_workspace, run, monkeypatch):
    ws = make_workspace()
    made = early_probes(monkeypatch)
    result = run("doctor", ws, "--no-cache", "--select", "ZZZ999")
    assert result.exit_code == 2, result.output
    assert len(made) == 1 and made[0].proc.returncode is not None and not safe_git._PROBING and not safe_git._EARLY


def test_without_the_secrets_family_no_ls_files_is_started(make_workspace, run, monkeypatch):
    ws = make_workspace()
    seen = spy(monkeypatch)
    findings(run, ws, "--no-cache", "--ignore", "SEC")
    assert "ls-files" not in seen["asked"] and seen["stopped"] == 0, seen


def test_a_long_git_timeout_leaves_ls_files_to_the_check(make_workspace, run, monkeypatch):
    """Past 30 s the secrets check caps its `ls-files` at 30 s (a call with its own timeout takes no
    early git), so none is started early to be ended unasked."""
    ws = make_workspace()
    monkeypatch.setenv("OSMOSIS_GIT_TIMEOUT", "60")
    seen = spy(monkeypatch)
    findings(run, ws, "--no-cache")
    assert "ls-files" not in seen["asked"] and seen["stopped"] == 0, seen
