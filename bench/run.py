"""Benchmarks for the `osmosis` CLI, each against a reference measured in the same run.

    python bench/run.py            # full run (7-11 minutes on 2 CPUs: 1 GB of JSONL, 500 rollouts)
    python bench/run.py --quick    # smoke run: fewer rows, smaller files (about a minute)
    python bench/run.py --json results.json --importtime

Rows, references and targets, and the latest results: docs/performance.md.

Every command runs as its own child process: a warm-up round, then --runs timed rounds (median
reported), subject and reference interleaved round by round. Peak memory is the child's ru_maxrss
from os.wait4. `osmosis` runs as `python -m osmosis_workspace` from this checkout (so the numbers are for
this source tree, whatever else is installed), and so does each Python reference (`python -m
check_jsonschema`, `python -c ...`): both sides pay the same interpreter start-up.

Exit code: 0 when every row ran and met its target, 1 when a target was missed, 2 when a row
could not run (its error is printed in the table).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import workspaces  # noqa: E402
from measure import Command, CommandFailed, Sample, Timing, measure  # noqa: E402

PY = sys.executable
SCALES_FULL = (1, 10, 100, 500)
SCALES_QUICK = (1, 10, 100)


@dataclass
class Row:
    """One line of the table: a subject timed against a reference, with an optional ratio target."""

    group: str
    label: str
    reference_label: str
    target: float | None = None  # highest acceptable subject/reference ratio
    max_peak_mib: float | None = None  # absolute targets of the subject (issue 5's dataset rows)
    max_seconds: float | None = None
    subject: Timing | None = None
    reference: Timing | None = None
    note: str = ""
    error: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.subject is None or self.reference is None or self.reference.median_s <= 0:
            return None
        return self.subject.median_s / self.reference.median_s

    @property
    def verdict(self) -> str:
        if self.error is not None:
            return "ERROR"
        checks = []
        if self.target is not None and self.ratio is not None:
            checks.append(self.ratio <= self.target)
        if self.subject is not None and self.max_peak_mib is not None:
            checks.append(self.subject.peak_mib < self.max_peak_mib)
        if self.subject is not None and self.max_seconds is not None:
            checks.append(self.subject.median_s < self.max_seconds)
        if not checks:
            return "info"
        return "ok" if all(checks) else "MISS"

    @property
    def target_text(self) -> str:
        parts = []
        if self.target is not None:
            parts.append(f"<= {self.target:g}x")
        if self.max_peak_mib is not None:
            parts.append(f"< {self.max_peak_mib:g} MiB")
        if self.max_seconds is not None:
            parts.append(f"< {self.max_seconds:g} s")
        return ", ".join(parts) or "-"

    def as_dict(self) -> dict:
        return {
            "group": self.group,
            "label": self.label,
            "reference_label": self.reference_label,
            "subject": self.subject.as_dict() if self.subject else None,
            "reference": self.reference.as_dict() if self.reference else None,
            "ratio": None if self.ratio is None else round(self.ratio, 4),
            "target": self.target,
            "max_peak_mib": self.max_peak_mib,
            "max_seconds": self.max_seconds,
            "verdict": self.verdict,
            "note": self.note,
            "error": self.error,
        }


@dataclass
class Bench:
    """What every row needs: where to work, how to run osmosis, how many rounds."""

    work: Path
    runs: int
    warmup: int
    quick: bool
    scales: tuple[int, ...]
    env: dict[str, str] = field(default_factory=dict)
    dataset_mb: tuple[float, ...] = ()  # JSONL sizes for row 3 (empty: bench_dataset.py's own choice)
    parquet_rows: int | None = None
    _base: Path | None = None

    @property
    def osmosis(self) -> list[str]:
        return [PY, "-m", "osmosis_workspace"]

    def cmd(self, argv, **kw) -> Command:
        return Command(argv, env=self.env, **kw)

    def base_workspace(self) -> Path:
        """One fresh multiply workspace (git repo, first commit), made once and shared read-only."""
        if self._base is None:
            self._base = workspaces.init_workspace(self.osmosis, self.work / "base", env=self.env)
        return self._base


# --------------------------------------------------------------------------------------------- rows


def row_doctor_vs_check_jsonschema(b: Bench) -> list[Row]:
    ws = b.base_workspace()
    schema = ws / ".osmosis" / "schemas" / "eval.schema.json"
    config = ws / "configs" / "eval" / f"{workspaces.base_rollout(ws)}.toml"
    row = Row(
        "1 doctor vs check-jsonschema", "osmosis doctor (fresh multiply workspace)",
        f"check-jsonschema on {config.relative_to(ws).as_posix()}", target=1.0,
        note="doctor runs every check family over the whole workspace; the reference validates one config",
    )
    row.subject, row.reference = measure(
        [
            b.cmd([*b.osmosis, "doctor", "."], cwd=ws),
            b.cmd([PY, "-m", "check_jsonschema", "--schemafile", str(schema), str(config)], cwd=ws),
        ],
        runs=b.runs, warmup=b.warmup,
    )
    return [row]


def row_doctor_scaling(b: Bench) -> list[Row]:
    base = b.base_workspace()
    roots = {}
    for n in b.scales:
        roots[n] = base if n == 1 else workspaces.scaled_copy(base, b.work / f"scale-{n}", n)
    commands = [b.cmd([*b.osmosis, "doctor", "."], cwd=roots[n]) for n in b.scales]
    timings = measure(commands, runs=b.runs, warmup=b.warmup)
    smallest = b.scales[0]
    rows = []
    for n, timing in zip(b.scales, timings):
        rows.append(Row(
            "2 doctor scaling", f"osmosis doctor, {n} rollout{'s' if n != 1 else ''}",
            f"osmosis doctor, {smallest} rollout{'s' if smallest != 1 else ''}",
            # the target is set for 500 rollouts (<= 20x one rollout); smaller workspaces are reported
            target=20.0 if n >= 500 else None,
            subject=timing, reference=timings[0],
            note="each rollout: its folder, eval + training configs, a dataset; 5 workspace skills",
        ))
    return rows


def row_datasets(b: Bench) -> list[Row]:
    """The dataset rows: bench/bench_dataset.py (dataset engineer's) times `osmosis dataset validate`
    against jq on the same JSONL files; its raw samples are folded into this table. jq cannot read
    parquet, so the parquet row's reference (pyarrow reading the same footer) is timed here."""
    import bench_dataset  # noqa: PLC0415

    raw_path = b.work / "datasets.json"
    argv = [PY, str(BENCH / "bench_dataset.py"), "--runs", str(b.runs), "--json", str(raw_path)]
    sizes = b.dataset_mb or ((10.0,) if b.quick else ())
    if sizes:
        argv += ["--sizes", *(f"{mb:g}" for mb in sizes)]
    parquet_rows = b.parquet_rows or (100_000 if b.quick else None)
    if parquet_rows:
        argv += ["--parquet-rows", str(parquet_rows)]
    proc = subprocess.run(argv, cwd=REPO, env=b.env, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
        raise RuntimeError(f"bench_dataset.py exited {proc.returncode}: {tail}")
    raw = json.loads(raw_path.read_text(encoding="utf-8"))

    rows = []
    for name, series in raw.items():
        path = bench_dataset.WORK / name
        size = f"{path.stat().st_size / 1e6:.0f} MB" if path.exists() else "?"
        subject = _timing(bench_dataset.ours(path), series["osmosis"])
        row = Row("3 dataset vs jq", f"osmosis dataset validate {name} ({size})", "", subject=subject)
        if "jq" in series:
            row.reference = _timing(bench_dataset.jq(path), series["jq"])
            row.reference_label = f"jq -c '{bench_dataset.JQ_FILTER}'"
            row.note = "both read every row; jq only parses (and filters) them, osmosis also checks them"
            # issue 5: at least 2x jq's throughput, peak memory under 100 MB at any size
            row.target, row.max_peak_mib = 0.5, 100.0
        else:
            row.reference_label = "pyarrow.parquet.read_schema (footer only)"
            row.reference, = measure(
                [b.cmd([PY, "-c", "import sys, pyarrow.parquet as pq; pq.read_schema(sys.argv[1])", str(path)])],
                runs=b.runs, warmup=b.warmup,
            )
            row.max_seconds = 1.0  # issue 5: the parquet schema check under 1 s whatever the row count
        if any(sample["exit_code"] for sample in series["osmosis"]):
            row.error = f"osmosis dataset validate exited non-zero on {name} (a clean generated file)"
        rows.append(row)
    return rows


def _timing(argv: list[str], samples: list[dict]) -> Timing:
    """bench_dataset.py's raw samples (wall s, ru_maxrss MiB) as a Timing."""
    return Timing(argv=[str(a) for a in argv],
                  samples=[Sample(wall_s=s["wall"], peak_mib=s["maxrss_mb"], returncode=s["exit_code"]) for s in samples])


def row_init_vs_copier(b: Bench) -> list[Row]:
    base = b.base_workspace()
    templates = REPO / "templates"
    # The answers init recorded tell the reference which templates it rendered and with what.
    answer_files = [base / ".copier-answers.yml", *sorted((base / "rollouts").glob("*/.copier-answers.yml"))]
    specs = []
    for answers in answer_files:
        template = _template_of(answers, templates)
        specs.append(f"{template}={answers}")
    row = Row(
        "4 init vs copier", "osmosis init --template multiply --defaults --no-git",
        f"copier run_copy of {' + '.join(Path(s.split('=')[0]).name for s in specs)} in one process",
        target=1.1,
        note="reference renders the same templates with the same answers via copier's API in one "
             "interpreter, as init does; the ratio is init's own overhead (CLI, skills, schemas)",
    )
    dst_ours, dst_ref = b.work / "init-ours", b.work / "init-ref"
    row.subject, row.reference = measure(
        [
            b.cmd([*b.osmosis, "init", str(dst_ours), "--template", "multiply", "--defaults", "--no-git"],
                  cwd=b.work, prepare=lambda: shutil.rmtree(dst_ours, ignore_errors=True)),
            b.cmd([PY, str(BENCH / "copier_reference.py"), str(dst_ref), *specs],
                  cwd=b.work, prepare=lambda: shutil.rmtree(dst_ref, ignore_errors=True)),
        ],
        runs=b.runs, warmup=b.warmup,
    )
    return [row]


def _template_of(answers: Path, templates: Path) -> Path:
    """The bundled template folder an answers file came from: its `_src_path`, which init records
    as ``bundled:<name>`` (a plain path's last segment is accepted too)."""
    import yaml  # noqa: PLC0415

    data = yaml.safe_load(answers.read_text(encoding="utf-8")) or {}
    src = str(data.get("_src_path", ""))
    name = src.removeprefix("bundled:").rstrip("/").replace("\\", "/").split("/")[-1]
    candidate = templates / name
    if not name or not candidate.is_dir():
        raise RuntimeError(f"{answers}: _src_path {src!r} is not a bundled template under {templates}")
    return candidate


def row_startup(b: Bench) -> list[Row]:
    ws = b.base_workspace()
    config = f"configs/eval/{workspaces.base_rollout(ws)}.toml"
    pass_ = b.cmd([PY, "-c", "pass"], cwd=ws)
    help_, validate, ref = measure(
        [b.cmd([*b.osmosis, "--help"], cwd=ws), b.cmd([*b.osmosis, "validate", config], cwd=ws), pass_],
        runs=b.runs, warmup=b.warmup,
    )
    note = "start-up cost over a bare interpreter; see --importtime for where it goes"
    return [
        Row("5 start-up", "osmosis --help", "python -c pass", subject=help_, reference=ref, note=note),
        Row("5 start-up", f"osmosis validate {config}", "python -c pass", subject=validate, reference=ref, note=note),
    ]


ROWS: list[tuple[str, Callable[[Bench], list[Row]]]] = [
    ("1 doctor vs check-jsonschema", row_doctor_vs_check_jsonschema),
    ("2 doctor scaling", row_doctor_scaling),
    ("3 dataset vs jq", row_datasets),
    ("4 init vs copier", row_init_vs_copier),
    ("5 start-up", row_startup),
]


def run_rows(b: Bench, only: set[str] | None = None) -> list[Row]:
    rows: list[Row] = []
    for group, build in ROWS:
        if only and group.split(" ", 1)[0] not in only:
            continue
        try:
            rows.extend(build(b))
        except (CommandFailed, RuntimeError, OSError, ImportError, KeyError, ValueError, subprocess.CalledProcessError) as err:
            rows.append(Row(group, group.split(" ", 1)[1], "-", error=str(err)))
    return rows


# ------------------------------------------------------------------------------------------ output


def _ms(t: Timing | None) -> str:
    return "-" if t is None else f"{t.median_s * 1000:.0f} ms"


def _mib(t: Timing | None) -> str:
    return "-" if t is None else f"{t.peak_mib:.0f} MiB"


def format_table(rows: list[Row]) -> str:
    header = ("row", "subject", "median", "peak RSS", "reference", "median", "peak RSS", "ratio", "target", "")
    lines = [header]
    for r in rows:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        target = r.target_text
        lines.append((
            r.group.split(" ", 1)[0], r.label, _ms(r.subject), _mib(r.subject),
            r.reference_label, _ms(r.reference), _mib(r.reference), ratio, target, r.verdict,
        ))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    notes = []
    for r in rows:
        if r.error:
            notes.append(f"  {r.group}: ERROR {r.error}")
    seen = set()
    for r in rows:
        if r.note and (r.group, r.note) not in seen:
            seen.add((r.group, r.note))
            notes.append(f"  {r.group}: {r.note}")
    return "\n".join(out + ([""] + ["notes:"] + notes if notes else []))


def environment() -> dict:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "commit": commit,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smoke run: no 500-rollout workspace, small dataset files")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (median reported; default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs per command (default 1)")
    parser.add_argument("--scales", help="rollout counts for row 2, comma-separated (default 1,10,100,500; --quick 1,10,100)")
    parser.add_argument("--dataset-mb", type=float, nargs="+", help="JSONL sizes in MiB for row 3 (default 10 1024; --quick 10)")
    parser.add_argument("--parquet-rows", type=int, help="rows of the parquet file for row 3 (default 5000000; --quick 100000)")
    parser.add_argument("--only", help="run only these rows, e.g. 1,4 (default: all)")
    parser.add_argument("--json", dest="json_path", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--importtime", action="store_true", help="also list the slowest imports of doctor and validate")
    parser.add_argument("--keep", action="store_true", help="keep the generated workspaces (path printed)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be >= 1 and --warmup >= 0")
    try:
        scales = tuple(int(s) for s in args.scales.split(",")) if args.scales else (SCALES_QUICK if args.quick else SCALES_FULL)
    except ValueError:
        parser.error("--scales takes comma-separated integers, e.g. 1,10,100")
    if not scales or scales[0] != 1 or any(n < 1 for n in scales):
        parser.error("--scales must start with 1 (the reference workspace)")
    groups = {group.split(" ", 1)[0] for group, _ in ROWS}
    only = set(args.only.split(",")) if args.only else None
    if only and not only <= groups:
        parser.error(f"--only takes row numbers among {','.join(sorted(groups))}")

    work = Path(tempfile.mkdtemp(prefix="osmosis-bench-"))
    b = Bench(work=work, runs=args.runs, warmup=args.warmup, quick=args.quick, scales=scales, env=workspaces.bench_env(),
              dataset_mb=tuple(args.dataset_mb or ()), parquet_rows=args.parquet_rows)
    try:
        rows = run_rows(b, only)
        print(f"osmosis benchmarks: median of {b.runs} runs after {b.warmup} warm-up; "
              f"python {platform.python_version()}, {os.cpu_count()} cpus")
        print(format_table(rows))
        result = {"environment": environment(), "runs": b.runs, "warmup": b.warmup, "quick": b.quick,
                  "rows": [r.as_dict() for r in rows]}
        if args.importtime:
            import importtime  # noqa: PLC0415

            report = importtime.profile(b)
            print()
            print(importtime.format_report(report))
            result["importtime"] = report
        if args.json_path:
            try:
                args.json_path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
            except OSError as err:
                print(f"error: cannot write {args.json_path}: {err.strerror}", file=sys.stderr)
                return 2
    finally:
        if args.keep:
            print(f"workspaces kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if any(r.verdict == "ERROR" for r in rows):
        return 2
    return 1 if any(r.verdict == "MISS" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
