"""doctor's cache, end to end through the CLI: an unchanged workspace is not checked again, any
change is, and a broken cache is no cache. (The session's cache folder: tests/conftest.py.)"""

from __future__ import annotations

import json
import os
import re

import pytest


@pytest.fixture
def counted(standard):
    return standard  # standard.calls lists each family whose check actually ran


def codes(result) -> list[str]:
    return [d["code"] for d in json.loads(result.stdout)["diagnostics"]]


def test_an_unchanged_workspace_is_answered_from_the_cache(counted, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("a = 'bad'\n", encoding="utf-8")
    first = run("doctor", mini_ws, "-f", "json")
    calls = len(counted.calls)
    second = run("doctor", mini_ws, "-f", "json")
    assert calls > 0 and len(counted.calls) == calls  # no check ran the second time
    assert codes(first) == codes(second) == ["CFG901"]


def test_a_changed_file_is_checked_again(counted, mini_ws, run):
    config = mini_ws / "configs/eval/a.toml"
    config.write_text("a = 'good'\n", encoding="utf-8")
    assert codes(run("doctor", mini_ws, "-f", "json")) == []
    before = os.stat(config)
    config.write_text("a = 'bad!'\n", encoding="utf-8")  # same size, and the old mtime put back
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert codes(run("doctor", mini_ws, "-f", "json")) == ["CFG901"]
    (mini_ws / "NOTE").write_text("", encoding="utf-8")  # a new file is a change too
    assert sorted(codes(run("doctor", mini_ws, "-f", "json"))) == ["CFG901", "SEC901"]
    (mini_ws / "data").rmdir()  # and a removed folder
    assert sorted(codes(run("doctor", mini_ws, "-f", "json"))) == ["CFG901", "LAY901", "SEC901"]


def test_settings_and_selection_are_part_of_the_key(counted, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("a = 'bad'\n", encoding="utf-8")
    (mini_ws / "NOTE").write_text("", encoding="utf-8")
    assert codes(run("doctor", mini_ws, "-f", "json", "--select", "SEC")) == ["SEC901"]
    assert sorted(codes(run("doctor", mini_ws, "-f", "json"))) == ["CFG901", "SEC901"]
    assert codes(run("doctor", mini_ws, "-f", "json", "--ignore", "CFG")) == ["SEC901"]


def test_no_cache_runs_every_check(counted, mini_ws, run):
    run("doctor", mini_ws)
    calls = len(counted.calls)
    run("doctor", mini_ws, "--no-cache")
    assert len(counted.calls) == 2 * calls


def test_a_corrupt_cache_entry_is_ignored(counted, mini_ws, run, doctor_cache):
    (mini_ws / "configs/eval/a.toml").write_text("a = 'bad'\n", encoding="utf-8")
    run("doctor", mini_ws)
    entries = [p for p in doctor_cache.rglob("*.json")]
    assert entries
    from osmosis_workspace.check.cache import FORMAT

    for n, p in enumerate(entries):  # cut short, or the right header over the wrong shapes
        p.write_bytes(b'{"format": 1, "findings": [["con' if n % 2 else json.dumps({"format": FORMAT, "findings": [["configs", {"code": 7}]]}).encode())
    calls = len(counted.calls)
    result = run("doctor", mini_ws, "-f", "json")
    assert result.exit_code == 0 and codes(result) == ["CFG901"] and len(counted.calls) > calls


def test_an_unwritable_cache_folder_is_no_cache(counted, mini_ws, run, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would go", encoding="utf-8")
    (mini_ws / "configs/eval/a.toml").write_text("a = 'bad'\n", encoding="utf-8")
    result = run("doctor", mini_ws, "-f", "json", env={"OSMOSIS_DOCTOR_CACHE": str(blocked / "sub")})
    assert result.exit_code == 0 and codes(result) == ["CFG901"]


def test_a_real_workspace_edited_after_a_cached_run_reports_the_new_finding(make_workspace, run):
    """The real check families and a real git repository: an edit that breaks a config is seen."""
    ws = make_workspace()
    assert run("doctor", ws, "-f", "json", "--select", "CFG").exit_code == 0
    assert run("doctor", ws, "-f", "json", "--select", "CFG").exit_code == 0  # from the cache
    config = next((ws / "configs" / "eval").glob("*.toml"))
    config.write_text(config.read_text(encoding="utf-8") + "\n[experiment\n", encoding="utf-8")
    result = run("doctor", ws, "-f", "json", "--select", "CFG")
    assert result.exit_code == 1 and any(d["path"] == f"configs/eval/{config.name}" for d in json.loads(result.stdout)["diagnostics"])


def test_concurrent_runs_share_the_cache_folder(make_workspace, tmp_path):
    """Four doctor processes at once on one workspace and one cache folder: each answers the same,
    and the entry they leave serves the next run."""
    import subprocess
    import sys

    ws = make_workspace(git=False)
    env = {**os.environ, "OSMOSIS_DOCTOR_CACHE": str(tmp_path / "shared"), "NO_COLOR": "1"}
    argv = [sys.executable, "-m", "osmosis_workspace", "doctor", str(ws), "-f", "json", "--select", "CFG,LAY,SKL"]
    procs = [subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    codes_seen = {p.returncode for p in procs}
    assert len(codes_seen) == 1 and codes_seen <= {0, 1}, outs
    answers = {json.dumps(json.loads(out)["diagnostics"]) for out, _ in outs}
    assert len(answers) == 1
    assert not [p for p in (tmp_path / "shared").rglob(".*") if p.is_file()]  # no temp file left behind
    again = subprocess.run(argv, env=env, capture_output=True, timeout=120)
    assert again.returncode in codes_seen and json.dumps(json.loads(again.stdout)["diagnostics"]) in answers


def test_the_walks_index_is_kept_for_the_next_run(counted, mini_ws, run, doctor_cache):
    """The status of every entry is kept beside the entries (walk.json, check/cache_index.py), and a file
    changed since is found changed (test_a_changed_file_is_checked_again)."""
    config = mini_ws / "configs/eval/a.toml"
    config.write_text("a = 1\n", encoding="utf-8")
    old = os.stat(config).st_mtime_ns - 10_000_000_000
    os.utime(config, ns=(old, old))
    run("doctor", mini_ws)
    assert any(str(config) in p.read_text(encoding="utf-8") for p in doctor_cache.rglob("walk.json"))


def test_verbose_says_when_the_cache_answered(counted, mini_ws, run):
    checked, answered = run("doctor", mini_ws, "-v").stdout, run("doctor", mini_ws, "-v").stdout
    uncached = run("doctor", mini_ws, "-v", "--no-cache").stdout
    assert "answered from the cache" not in checked + uncached
    assert re.search(r"^\d+ files? checked in \d+\.\d\ds \(answered from the cache\)$", answered, re.MULTILINE), answered
