"""doctor's cache and cold start, with check-jsonschema on one config as the yardstick of the same run.

    python bench/cache.py [--rollouts 2000] [--runs 5] [--work DIR] [--cold-scaled]

Rows (median wall seconds; ratio = subject / reference, measured round by round):
  cold   doctor on a fresh multiply workspace, its cache folder emptied before every run
         (the run checks everything and writes the cache) vs check-jsonschema      target <= 0.6
  warm   the same with the cache left from the previous run                          (no target)
  warm N doctor on N rollouts, unchanged since the run that filled the cache         target <= 1 s
  edit N the same after one rollout's main.py changed (before every run): the run misses, but every
         other rollout's results are reused from the cache, unit by unit              (no target)
  config N the same after one config changed (before every run)                     target <= 1 s
  cold N (--cold-scaled) the same with the cache emptied first: minutes at 2,000 rollouts
The cache lives in WORK/cache-base and WORK/cache (OSMOSIS_DOCTOR_CACHE), never in the user's.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import workspaces  # noqa: E402
from measure import Command, measure, run_once  # noqa: E402

PY = sys.executable
OSMOSIS = [PY, "-m", "osmosis_workspace"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--work", type=Path, default=None, help="keep workspaces here (reused when present)")
    parser.add_argument("--cold-scaled", action="store_true", help="also time a cold run on the scaled workspace (slow)")
    args = parser.parse_args(argv)

    work = args.work or Path(tempfile.mkdtemp(prefix="osmosis-bench-cache-"))
    work.mkdir(parents=True, exist_ok=True)
    cache = work / "cache-base"  # the fresh workspace's rows empty it; the scaled workspace keeps its own
    env = workspaces.bench_env(cache)
    scaled_env = workspaces.bench_env(work / "cache")
    base = work / "base"
    if not base.exists():
        workspaces.init_workspace(OSMOSIS, base, env=env)
    config = base / "configs" / "eval" / f"{workspaces.base_rollout(base)}.toml"
    schema = base / ".osmosis" / "schemas" / "eval.schema.json"
    reference = Command([PY, "-m", "check_jsonschema", "--schemafile", str(schema), str(config)], cwd=base, env=env)

    def empty_cache() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    doctor = [*OSMOSIS, "doctor", "."]
    rows = []
    cold, ref = measure([Command(doctor, cwd=base, env=env, ok_codes=(0, 1), prepare=empty_cache), reference],
                        runs=args.runs, warmup=args.warmup)
    rows.append(("cold doctor, fresh workspace", cold, ref, 0.6))
    run_once(doctor, cwd=base, env=env, ok_codes=(0, 1))
    warm, ref = measure([Command(doctor, cwd=base, env=env, ok_codes=(0, 1)), reference], runs=args.runs, warmup=args.warmup)
    rows.append(("warm doctor, fresh workspace", warm, ref, None))

    if args.rollouts > 1:
        scaled = work / f"ws{args.rollouts}"
        if not scaled.exists():
            workspaces.scaled_copy(base, scaled, args.rollouts)
        first = run_once(doctor, cwd=scaled, env=scaled_env, ok_codes=(0, 1))  # fills the cache (or finds it filled)
        print(f"first run on {args.rollouts} rollouts (fills the cache unless present): {first.wall_s:.2f} s", file=sys.stderr)
        [warm_n] = measure([Command(doctor, cwd=scaled, env=scaled_env, ok_codes=(0, 1))], runs=args.runs, warmup=args.warmup)
        rows.append((f"warm doctor, {args.rollouts} rollouts", warm_n, None, 1.0))
        edits = iter(range(1_000_000))

        def after_edits(path: Path):
            """warm doctor's timing with ``path`` given a different comment before every run."""
            original = path.read_bytes()

            def edit() -> None:  # a different comment each time, so every run sees a change
                path.write_bytes(original + f"# bench edit {next(edits)}\n".encode())

            try:
                [timing] = measure([Command(doctor, cwd=scaled, env=scaled_env, ok_codes=(0, 1), prepare=edit)],
                                   runs=args.runs, warmup=args.warmup)
            finally:
                path.write_bytes(original)
            return timing

        rollout = workspaces.base_rollout(base)
        rows.append((f"one file edited, {args.rollouts} rollouts", after_edits(scaled / "rollouts" / rollout / "main.py"), None, None))
        # issue 32's row (b): one config edited, warm doctor
        rows.append((f"one config edited, {args.rollouts} rollouts", after_edits(scaled / "configs" / "eval" / f"{rollout}-0002.toml"), None, 1.0))
        if args.cold_scaled:
            [cold_n] = measure([Command([*doctor, "--no-cache"], cwd=scaled, env=scaled_env, ok_codes=(0, 1))], runs=1, warmup=0)
            rows.append((f"cold doctor, {args.rollouts} rollouts (--no-cache)", cold_n, None, None))

    print(f"{'row':44} {'median s':>9} {'min s':>7} {'reference s':>11} {'ratio':>6}  target")
    for name, subject, reference_t, target in rows:
        ratio = subject.median_s / reference_t.median_s if reference_t else None
        ref_s = f"{reference_t.median_s:11.3f}" if reference_t else f"{'-':>11}"
        ratio_s = f"{ratio:6.2f}" if ratio is not None else f"{'-':>6}"
        goal = "" if target is None else (f"ratio <= {target}" if reference_t else f"<= {target} s")
        met = "" if target is None else (" ok" if (ratio if reference_t else subject.median_s) <= target else " MISSED")
        print(f"{name:44} {subject.median_s:9.3f} {subject.min_s:7.3f} {ref_s} {ratio_s}  {goal}{met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
