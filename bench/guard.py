"""The regression guard: this checkout against an older build, in one run, on the same inputs.

    python bench/guard.py --before b7a1a5b [--runs 7] [--dataset-mb 120] [--work DIR]

``--before REF`` is built from git, never through the editable install: ``git archive REF`` is
unpacked into WORK/src-SHA and ``pip install``ed (a real wheel build, with its dependencies) into a
scratch venv WORK/venv-SHA; this checkout is built the same way into WORK/venv-now from its working
tree (uncommitted changes included), so both sides import an installed package, not a source folder.
The venvs are kept and reused (keyed by commit; the working tree's is rebuilt with ``--rebuild``).

Rows, each pair timed round by round (before, now, before, ...) after a warm-up, medians reported:

  doctor cold   ``doctor --no-cache`` on a fresh multiply workspace (``osmosis init`` by this checkout,
                one copy per build, with git), and check-jsonschema on one config as the yardstick
  doctor warm   ``doctor`` with the cache the previous run left (each build its own cache folder)
  dataset       ``dataset validate`` on a JSON lines file of ``--dataset-mb`` MB (bench/gen_dataset.py),
                wall and CPU (user + system, worker processes included), and jq selecting bad rows

Printed: both builds' medians, now / before, the yardstick ratios (cold doctor / check-jsonschema,
dataset validate / jq) and the load average (/proc/loadavg) before and after. ``--json FILE`` keeps
every sample.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import gen_dataset  # noqa: E402
import workspaces  # noqa: E402

JQ_FILTER = 'select(.user_prompt|type != "string")'


@dataclass
class Series:
    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)

    def median(self, what: str = "wall") -> float:
        return statistics.median(getattr(self, what))


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


# The command is started by a small launcher (this interpreter without site, a few MiB), and the launcher
# times it: Linux carries the peak RSS of the process that forks across exec into the child's ru_maxrss,
# so a child forked by this script (tens of MiB once it has made the dataset) reported this script's
# peak, not its own: the memory row read 40 MiB for both builds and for jq.
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    out.write(f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


def run(argv: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0, 1)) -> tuple[float, float, float]:
    """(wall s, CPU s of the process and the children it waited for, peak RSS MiB) of one run."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as scratch:
        figures = Path(scratch) / "figures"
        proc = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, str(figures), *argv], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, stdout=out, stderr=out, check=False)
        code = proc.returncode
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
        # exit 1 is findings, but also Python's own "No module named ...": that run checked nothing
        if code not in ok or "No module named" in text or "Traceback (most recent call last)" in text:
            raise SystemExit(f"{' '.join(argv)} exited {code}: {text[-800:]}")
        wall, cpu, rss_kib = figures.read_text().split()
    return float(wall), float(cpu), float(rss_kib) / 1024


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def build(ref: str | None, work: Path, rebuild: bool) -> Path:
    """A scratch venv with ``ref`` (None: this working tree) installed from a real build; its python."""
    if ref is None:
        venv, src = work / "venv-now", ROOT
    else:
        sha = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
        venv, src = work / f"venv-{sha[:12]}", work / f"src-{sha[:12]}"
    python = venv / "bin" / "python"
    if python.exists() and not (rebuild and ref is None):
        return python
    shutil.rmtree(venv, ignore_errors=True)
    if ref is not None and not src.exists():
        src.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    print(f"building {ref or 'the working tree'} into {venv} ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # a plain (non-editable) install: the build backend packs the package as a wheel would ship it
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(src), "check-jsonschema"], check=True)
    return python


def module_of(python: Path) -> str:
    """The import name of the build in ``python``'s venv: `osmosis_workspace` now, `generator` in builds
    before the rename (1d40999 and older); `python -m` of the wrong one exits 1 at once, which the
    rows would time as a very fast doctor."""
    probe = "import importlib.util as u; print('osmosis_workspace' if u.find_spec('osmosis_workspace') else 'generator')"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(python), "-c", probe], check=True, capture_output=True, text=True, env=env, cwd="/").stdout.strip()


def env_for(cache: Path) -> dict[str, str]:
    env = workspaces.git_env()
    for name in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV"):
        env.pop(name, None)
    env.update(NO_COLOR="1", TERM="dumb", OSMOSIS_DOCTOR_CACHE=str(cache))
    return env


def rounds(pairs: list[tuple[Series, list[str], Path, dict, object]], runs: int, warmup: int) -> None:
    """Each round runs every command once, in order; ``prepare`` (if any) runs untimed before its command."""
    for n in range(warmup + runs):
        for series, argv, cwd, env, prepare in pairs:
            if prepare is not None:
                prepare()
            wall, cpu, rss = run(argv, cwd, env)
            if n >= warmup:
                series.wall.append(wall)
                series.cpu.append(cpu)
                series.rss.append(rss)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="REF", help="the older build: a git ref of this repository")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--dataset-mb", type=float, default=120)
    parser.add_argument("--work", type=Path, default=BENCH / ".work" / "guard")
    parser.add_argument("--rebuild", action="store_true", help="rebuild this working tree's venv")
    parser.add_argument("--only", default="cold,warm,dataset", help="rows to run (default all): cold,warm,dataset")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    pythons = {"before": build(args.before, work, False), "now": build(None, work, args.rebuild)}
    osmosis = {side: [str(python), "-m", module_of(python)] for side, python in pythons.items()}
    started = load()

    base = work / "ws-base"
    if not base.exists():
        workspaces.init_workspace(osmosis["now"], base, env=env_for(work / "cache-init"))
    spaces, envs = {}, {}
    for side in pythons:  # one copy a side, each with its own cache folder: a build's cache is not the other's
        spaces[side] = work / f"ws-{side}"
        if not spaces[side].exists():
            shutil.copytree(base, spaces[side], symlinks=True)
        envs[side] = env_for(work / f"cache-{side}")
    rollout = workspaces.base_rollout(base)
    config = f"configs/eval/{rollout}.toml"
    lines, raw = [f"before: {args.before} ({_git('rev-parse', '--short', args.before)}); now: working tree of "
                  f"{_git('rev-parse', '--short', 'HEAD')}; runs: {args.runs} after {args.warmup} warm-up, medians; "
                  f"CPUs: {len(os.sched_getaffinity(0))}; load average at start: {started}", "",
                  "| row | before | now | now / before | yardstick | before / yardstick | now / yardstick |",
                  "|---|---|---|---|---|---|---|"], {}

    def emit(name: str, before: Series, now: Series, ref: Series | None, what: str = "wall") -> None:
        b, n = before.median(what), now.median(what)
        r = ref.median(what) if ref is not None else None
        unit = "s" if what == "wall" else "s CPU"
        lines.append(f"| {name} | {b:.3f} {unit} | {n:.3f} {unit} | **{n / b:.2f}x** | "
                     + (f"{ref.label} {r:.3f} {unit} | {b / r:.2f}x | **{n / r:.2f}x** |" if r else "- | - | - |"))
        raw.setdefault(name, {}).update({s.label: {"wall": s.wall, "cpu": s.cpu, "rss_mib": s.rss} for s in (before, now, ref) if s is not None})

    if "cold" in only or "warm" in only:
        ref = Series("check-jsonschema")
        schema = spaces["now"] / ".osmosis" / "schemas" / "eval.schema.json"
        ref_cmd = (ref, [str(pythons["now"]), "-m", "check_jsonschema", "--schemafile", str(schema), config],
                   spaces["now"], envs["now"], None)
        if "cold" in only:
            cold = {side: Series(side) for side in pythons}
            rounds([(cold[s], [*osmosis[s], "doctor", ".", "--no-cache"], spaces[s], envs[s], None)
                    for s in pythons] + [ref_cmd], args.runs, args.warmup)
            emit("doctor --no-cache, fresh workspace", cold["before"], cold["now"], ref)
            emit("doctor --no-cache, fresh workspace (CPU)", cold["before"], cold["now"], ref, "cpu")
        if "warm" in only:
            warm = {side: Series(side) for side in pythons}
            ref = Series("check-jsonschema")
            ref_cmd = (ref, *ref_cmd[1:])
            rounds([(warm[s], [*osmosis[s], "doctor", "."], spaces[s], envs[s], None)
                    for s in pythons] + [ref_cmd], args.runs, max(args.warmup, 1))
            emit("doctor, warm cache", warm["before"], warm["now"], ref)
            emit("doctor, warm cache (CPU)", warm["before"], warm["now"], ref, "cpu")
    if "dataset" in only:
        path = BENCH / ".work" / f"bench-{args.dataset_mb:g}mb.jsonl"
        if not path.exists():
            print(f"generating {path} ...", file=sys.stderr)
            gen_dataset.write_jsonl(args.dataset_mb, path, seed=7)
        data = {side: Series(side) for side in pythons}
        jq = Series("jq")
        rounds([(data[s], [*osmosis[s], "dataset", "validate", str(path)], work, envs[s], None)
                for s in pythons] + [(jq, ["jq", "-c", JQ_FILTER, str(path)], work, envs["now"], None)], args.runs, args.warmup)
        size = f"{path.stat().st_size / 1e6:.0f} MB"
        emit(f"dataset validate, {size} JSONL", data["before"], data["now"], jq)
        emit(f"dataset validate, {size} JSONL (CPU)", data["before"], data["now"], jq, "cpu")
        lines.append(f"| peak RSS of dataset validate | {max(data['before'].rss):.0f} MiB | {max(data['now'].rss):.0f} MiB | "
                     f"{max(data['now'].rss) / max(data['before'].rss):.2f}x | | | |")
    lines += ["", f"load average at end: {load()}"]
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"table": lines, "samples": raw}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
