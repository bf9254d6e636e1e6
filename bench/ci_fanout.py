"""The generated CI on a pull request that touches one rollout of N: fanned out against today's serial rehearse.

    python bench/ci_fanout.py [--rollouts 20] [--rows 0-3]

One workspace of N multiply rollouts, pushed to a local bare origin; a branch changes one rollout's
grader. Measured here, each as its CI job runs it:
  - the affected job's command: `osmosis rehearse --changed origin/main --list --format json`;
  - one matrix job's command: `osmosis rehearse ROLLOUT --format json` (real osmosis-ai, warm uv cache);
  - the summary job's command: `osmosis rehearse --merge verdicts`.
The fanned-out critical path is their sum (the matrix has one job). The serial reference is what the
workflow ran before: every rollout, one after another, estimated as N x the measured one-rollout time
(the rehearsals are independent and alike here; running 20 of them costs ~15 minutes). Runner start
and checkout are the same per job on both sides and not counted. Target: about one rollout's time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests" / "sdk_real")]

import sdk_harness as h  # noqa: E402

from tests.git_origin import push_to_bare_origin  # noqa: E402

IDENTITY = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
            "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}


def _osmosis(ws: Path, *args: str, env: dict | None = None, ok=(0,)) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=ws, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY, **(env or {})}, timeout=1800)
    seconds = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(f"osmosis {' '.join(args)} failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def _git(ws: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True, env={**os.environ, **IDENTITY})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=20)
    parser.add_argument("--rows", default="0-3")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fanout-") as tmp:
        base = Path(tmp)
        ws = base / "ws"
        _osmosis(base, "init", str(ws), "--defaults")
        for i in range(2, args.rollouts + 1):
            _osmosis(ws, "rollout", "new", f"r{i:02d}", "--defaults")
        _git(ws, "add", "-A")
        _git(ws, "commit", "-qm", "rollouts")
        push_to_bare_origin(ws, base / "origin.git")
        _git(ws, "checkout", "-qb", "feature")
        grader = ws / "rollouts/r07/r07_rollout/grading.py"
        grader.write_text(grader.read_text(encoding="utf-8") + "\n# tuned\n", encoding="utf-8")
        _git(ws, "commit", "-qam", "tune r07")

        env = h.workspace_env(ws)
        child = {"UV_PYTHON": env.base_python, "UV_PYTHON_DOWNLOADS": "never"}
        list_s, listing = _osmosis(ws, "rehearse", "--changed", "origin/main", "--list", "--format", "json")
        matrix = json.loads(listing)["matrix"]
        assert matrix == [{"job": 1, "rollouts": ["r07"]}], matrix
        _osmosis(ws, "rehearse", "--rows", args.rows, "--", "r07", env=child)  # warm-up: the rollout's env synced once
        one_s, verdict = _osmosis(ws, "rehearse", "--rows", args.rows, "--format", "json", "--", "r07", env=child)
        folder = base / "verdicts"
        folder.mkdir()
        (folder / "verdict-r07.json").write_text(verdict, encoding="utf-8")
        (folder / "affected.json").write_text(listing, encoding="utf-8")
        merge_s, _ = _osmosis(ws, "rehearse", "--merge", str(folder))

    fanned = list_s + one_s + merge_s
    serial = args.rollouts * one_s
    print(f"{'job command':<46} {'seconds':>8}")
    print(f"{'affected: rehearse --changed --list':<46} {list_s:8.2f}")
    print(f"{'rehearse one rollout (the matrix of one)':<46} {one_s:8.2f}")
    print(f"{'summary: rehearse --merge':<46} {merge_s:8.2f}")
    print(f"critical path, fanned out: {fanned:.1f} s = {fanned / one_s:.2f}x one rollout's rehearse")
    print(f"serial rehearse of {args.rollouts} rollouts (estimated {args.rollouts} x {one_s:.1f} s): {serial:.0f} s")
    print(f"ratio fanned out / serial: {fanned / serial:.3f}  (target: about one rollout's time, {1 / args.rollouts:.3f})")
    return 0 if fanned <= 1.25 * one_s else 1


if __name__ == "__main__":
    raise SystemExit(main())
