"""`osmosis rehearse` (three passes of N rows) against one plain `osmosis eval run` of the same N rows,
and rehearse with its probes against rehearse without them (`--no-probes`) on the same rows.

    python bench/rehearse.py [--template blank] [--data integration=openai-agents] [--rows 0-3] [--runs 2]

Both sides run the real osmosis-ai from the workspace's own root environment (`uv sync --locked`,
tests/sdk_real's workspace_env), on one workspace rendered by our CLI, after a warm-up run of each so the rollout's environment is synced
(the issue's "warm environment"). The plain run talks to the scripted model with a fixed reply, the
way a user's local run talks to a provider; both sides get the same child environment. Rounds are
interleaved (plain, rehearse, probes, plain, rehearse, probes ...) and the medians compared. Targets:
rehearse without probes <= 2.0x the plain run; with probes <= 2.0x without (issue 36); the number of
probe answers per row is printed beside it. Exit 0 when both are
met, 1 when one is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests" / "sdk_real")]

import sdk_harness as h  # noqa: E402

from osmosis_workspace.rehearse.child_env import child_env  # noqa: E402
from osmosis_workspace.rehearse.scripted_model import ScriptedModel  # noqa: E402

TARGET = 2.0
PROBES_TARGET = 2.0


def _plain(env: h.SdkEnv, ws: Path, rollout: str, rows: str) -> float:
    with ScriptedModel(lambda body: {"content": "#### 1"}) as model:
        child = child_env(os.environ, model.base_url, ["OPENAI_API_KEY"],
                          {"UV_PYTHON": env.base_python, "UV_PYTHON_DOWNLOADS": "never"})
        argv = [str(env.bin / "osmosis"), "--json", "eval", "run", f"configs/eval/{rollout}.toml", "--dataset-file",
                f"data/{rollout}.jsonl", "--rows", rows, "--output", str(ws / ".osmosis" / "evals" / "bench"),
                "--name", "plain", "--fresh", "--yes"]
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=ws, env=child, capture_output=True, text=True, timeout=900)
        seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"plain eval run failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds


def _rehearse(env: h.SdkEnv, ws: Path, rows: str, probes: bool = False) -> float:
    child = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    child.update({"UV_PYTHON": env.base_python, "UV_PYTHON_DOWNLOADS": "never"})
    argv = [sys.executable, "-m", "osmosis_workspace", "rehearse", "--rows", rows, "--probes" if probes else "--no-probes"]
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ws, env=child, capture_output=True, text=True, timeout=900)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"rehearse failed (exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    return seconds


def _probe_answers_per_row(ws: Path, rows: str) -> float:
    """How many probe answers rehearse sends per row, built from the rows it rehearses."""
    from osmosis_workspace.rehearse import plan as planning
    from osmosis_workspace.rehearse.cases import PASSES, build

    [plan] = planning.rollout_plans(ws, ["bench"], None)
    planning.select_rows(plan, planning.local_dataset(ws, plan, None), "data", rows)
    cases = build(plan.rows, plan.with_gold).cases
    return sum(1 for c in cases if c.pass_name not in PASSES) / len(plan.rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--template", default="blank")
    parser.add_argument("--data", action="append", default=[])
    parser.add_argument("--rows", default="0-3")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    scenario = h.Scenario("bench", args.template, "bench", data=tuple(args.data))
    ws = h.render(Path(tempfile.mkdtemp(prefix="rehearse-bench-")) / "ws", [scenario])
    env = h.workspace_env(ws)
    print(f"osmosis-ai {env.sdk_version}; template {args.template} {' '.join(args.data)}; rows {args.rows}; warming up")
    _plain(env, ws, "bench", args.rows)
    _rehearse(env, ws, args.rows)
    _rehearse(env, ws, args.rows, probes=True)
    plain, rehearse, probed = [], [], []
    for _ in range(args.runs):
        plain.append(_plain(env, ws, "bench", args.rows))
        rehearse.append(_rehearse(env, ws, args.rows))
        probed.append(_rehearse(env, ws, args.rows, probes=True))
    p, r, q = statistics.median(plain), statistics.median(rehearse), statistics.median(probed)
    per_row = _probe_answers_per_row(ws, args.rows)
    ratio, probes_ratio = r / p, q / r

    def runs(xs: list[float]) -> str:
        return ", ".join(f"{x:.1f}" for x in xs)

    print(f"plain eval run ({args.rows}):            {p:6.1f} s  (runs: {runs(plain)})")
    print(f"rehearse, 3 passes of the same rows:   {r:6.1f} s  (runs: {runs(rehearse)})")
    print(f"rehearse with probes, same rows:       {q:6.1f} s  (runs: {runs(probed)})")
    print(f"ratio {ratio:.2f}x (target <= {TARGET:.1f}x): {'ok' if ratio <= TARGET else 'MISSED'}")
    print(f"probe answers per row: {per_row:.1f} (besides gold, wrong and empty)")
    print(f"probes {probes_ratio:.2f}x (target <= {PROBES_TARGET:.1f}x): {'ok' if probes_ratio <= PROBES_TARGET else 'MISSED'}")
    return 0 if ratio <= TARGET and probes_ratio <= PROBES_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
