"""A cold doctor run split over worker processes gives exactly the findings of one process.

The workspace is generated the way bench/ scales one (copies of a fresh multiply rollout), then
broken in several rollouts of different shards, in what the per-rollout units check: an entrypoint
(ENT), a lock, a placeholder, a suppression comment. Both runs go through the CLI, `--no-cache` and
with a cold cache, with OSMOSIS_DOCTOR_JOBS forcing the pool on (4 workers) and off.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import workspaces  # noqa: E402

from osmosis_workspace.check.pipeline import pool  # noqa: E402

ROLLOUTS = 24


@pytest.fixture(scope="module")
def scaled(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("pool")
    fresh = workspaces.init_workspace([sys.executable, "-m", "osmosis_workspace"], base / "fresh")
    ws = workspaces.scaled_copy(fresh, base / "scaled", ROLLOUTS)
    names = sorted(p.name for p in (ws / "rollouts").iterdir() if p.is_dir())
    assert len(names) == ROLLOUTS
    first, middle, last = names[1], names[ROLLOUTS // 2], names[-1]
    # an entrypoint whose run() is no longer async (ENT006), in the first shard
    for path in (ws / "rollouts" / first).rglob("workflow.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"async def run\(", "def run(", text, count=1), encoding="utf-8")
    # a template placeholder and an unknown code in a suppression comment, in the middle shard
    main = ws / "rollouts" / middle / "main.py"
    main.write_text(main.read_text(encoding="utf-8") + "\n# TODO(osmosis): fill in\nx = 1  # osmosis: ignore[ENT999]\n",
                    encoding="utf-8")
    # a lock that no longer belongs to its project, in the last shard
    lock = ws / "rollouts" / last / "uv.lock"
    lock.write_text(lock.read_text(encoding="utf-8").replace("[[package]]", "[[package]]\n# edited", 1) + "\n[broken\n",
                    encoding="utf-8")
    workspaces.commit_all(ws, "broken in three shards")
    return ws


def doctor(ws: Path, jobs: str, cache: Path | None) -> tuple[int, list[dict]]:
    env = {**os.environ, "OSMOSIS_DOCTOR_JOBS": jobs, "NO_COLOR": "1"}
    args = [sys.executable, "-m", "osmosis_workspace", "doctor", "--format", "json"]
    if cache is None:
        args.append("--no-cache")
    else:
        env["XDG_CACHE_HOME"] = str(cache)
    done = subprocess.run(args, cwd=ws, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)["diagnostics"]


def test_the_pool_gives_the_findings_of_one_process(scaled, tmp_path):
    one = doctor(scaled, "1", None)
    pooled = doctor(scaled, "4", None)
    assert pooled == one
    codes = {d["code"] for d in one[1]}
    assert one[0] == 1 and {"ENT006", "LAY100"} <= codes, codes  # the breaks are seen, in more than one shard
    # with the cache: a cold run pools and fills the cache; the warm run answers from it, the same
    cold = doctor(scaled, "4", tmp_path / "cache")
    warm = doctor(scaled, "4", tmp_path / "cache")
    assert cold == one and warm == one


def test_doctor_v_says_the_workers_ran_and_one_process_says_nothing_of_them(scaled):
    def note(jobs: str) -> str:
        done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "doctor", "-v", "--no-cache"], cwd=scaled, text=True,
                              capture_output=True, env={**os.environ, "OSMOSIS_DOCTOR_JOBS": jobs, "NO_COLOR": "1"})
        return done.stdout + done.stderr

    assert re.search(r"\d+ units of work computed by 4 worker processes", note("4"))
    assert "worker processes" not in note("1")


def test_every_unit_lives_in_a_family_the_workers_run():
    """A check that calls Workspace.remember outside UNIT_FAMILIES would never be pooled: keep the list true."""
    from osmosis_workspace.check.families import CHECKS

    users = set()
    for family, fn in CHECKS:
        source = Path(sys.modules[fn.__module__].__file__).read_text(encoding="utf-8")
        if "ws.remember(" in source:
            users.add(family)
    assert users and users <= set(pool.UNIT_FAMILIES) | set(pool.WHOLE_WORKSPACE_UNITS), users


@pytest.mark.parametrize("value, rollouts, expected", [("1", 5000, 0), ("3", 1, 3), ("junk", 5000, 0), ("", 1, 0)])
def test_the_worker_count(monkeypatch, value, rollouts, expected):
    monkeypatch.setenv("OSMOSIS_DOCTOR_JOBS", value)
    assert pool.workers_wanted(rollouts) == expected
