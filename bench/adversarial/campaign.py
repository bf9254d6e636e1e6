"""The adversarial campaign of issue 14, re-runnable: hostile templates, hostile workspaces, interrupted
and concurrent writers, a full disk. Each case runs the installed CLI in a subprocess inside its own
sandbox and is measured for tracebacks, hangs, writes outside the target, code execution and data loss.

    python bench/adversarial/campaign.py [--quick] [--category X] [--jobs N] [--seed S] [--json FILE] [--keep]

Exit status: 0 when no case failed, 1 otherwise. See bench/adversarial/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases as casemod  # noqa: E402
import git_and_output  # noqa: E402
import lifecycle  # noqa: E402
import round2  # noqa: E402
import round3  # noqa: E402
import round3_lsp_rehearse  # noqa: E402
import templates  # noqa: E402
import workspaces  # noqa: E402
from cases import Case, Plan, Skip  # noqa: E402
from sandbox import MEMORY_LIMIT_MB, PY, Sandbox, content_view, diff, leftovers, snapshot  # noqa: E402

# osmosis's own per-user cache, made on first use: the key that seals its undo journals (generator/osmosis_workspace/core/journal.py)
OWN_CACHE = {"new home/.cache", "new home/.cache/osmosis-workspace", "new home/.cache/osmosis-workspace/journal.key"}
# and doctor's cache of findings (generator/osmosis_workspace/check/cache.py): entries come, go and change; and the
# writers' lock files (generator/osmosis_workspace/core/lock.py), when the environment names no XDG_RUNTIME_DIR
DOCTOR_CACHE = "home/.cache/osmosis-workspace/doctor"
LOCKS = "home/.cache/osmosis-workspace/locks"


def _own_cache(change: str) -> bool:
    path = change.partition(" ")[2]
    return change in OWN_CACHE or any(path == own or path.startswith(own + "/") for own in (DOCTOR_CACHE, LOCKS))

COLUMNS = ("tracebacks", "hangs", "outside_writes", "code_ran", "data_lost", "leftovers", "inconsistent",
           "secrets_printed", "raw_output", "over_memory")
MUST_BE_ZERO = COLUMNS


@dataclass
class Result:
    id: str
    category: str
    exit_codes: list = field(default_factory=list)
    tracebacks: int = 0
    hangs: int = 0
    outside_writes: list = field(default_factory=list)
    code_ran: bool = False
    data_lost: list = field(default_factory=list)
    leftovers: list = field(default_factory=list)
    inconsistent: list = field(default_factory=list)
    secrets_printed: int = 0  # runs whose output held the sandbox's canary secret
    raw_output: int = 0  # runs of a clean_output case that printed a control character or invalid UTF-8
    peak_mb: float = 0.0  # the highest peak RSS of the case's runs
    over_memory: int = 0  # runs whose peak RSS passed MEMORY_LIMIT_MB
    skipped: str = ""
    harness_error: str = ""
    seconds: float = 0.0
    commands: list = field(default_factory=list)
    last_lines: list = field(default_factory=list)
    sandbox: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.tracebacks or self.hangs or self.outside_writes or self.code_ran or self.data_lost
                    or self.leftovers or self.inconsistent or self.secrets_printed or self.raw_output
                    or self.over_memory or self.harness_error)

    def problems(self) -> str:
        parts = []
        if self.tracebacks:
            parts.append("traceback")
        if self.hangs:
            parts.append("hang")
        for name in ("outside_writes", "data_lost", "leftovers", "inconsistent"):
            if getattr(self, name):
                parts.append(f"{name}: {'; '.join(getattr(self, name)[:3])}")
        if self.code_ran:
            parts.append("code ran")
        if self.secrets_printed:
            parts.append("secret printed")
        if self.over_memory:
            parts.append(f"peak memory {self.peak_mb:.0f} MB (limit {MEMORY_LIMIT_MB} MB)")
        if self.raw_output:
            parts.append("raw control characters or invalid UTF-8 in the output")
        if self.harness_error:
            parts.append(f"harness error: {self.harness_error}")
        return " | ".join(parts)


def all_cases(disk: bool, seed: int) -> list[Case]:
    return (templates.all_cases() + workspaces.all_cases() + lifecycle.all_cases(disk, seed) + round2.all_cases()
            + git_and_output.all_cases() + round3.all_cases() + round3_lsp_rehearse.all_cases())


# Categories whose every case spends a minute or more building its input: a full run or --category only.
HEAVY = {"dataset-scale"}


def quick_subset(cases: list[Case], per_category: int, seed: int) -> list[Case]:
    rnd = random.Random(seed)
    by_cat: dict[str, list[Case]] = defaultdict(list)
    for c in cases:
        if c.category not in HEAVY:
            by_cat[c.category].append(c)
    chosen = []
    for cat, items in by_cat.items():
        chosen += rnd.sample(items, min(per_category, len(items)))
    return chosen


# -- data-lost rules ----------------------------------------------------------------------------------


def _protect(ws: Path) -> dict[str, tuple]:
    return content_view(snapshot(ws, skip_parts=(".git",))) if ws.exists() else {}


def _small_texts(ws: Path, view: dict) -> dict[str, bytes]:
    texts = {}
    for rel, entry in view.items():
        if entry[0] == "file" and entry[1] < 2_000_000:
            try:
                texts[rel] = (ws / rel).read_bytes()
            except OSError:
                pass
    return texts


def _mentioned(rel: str, output: str) -> bool:
    parts = rel.split("/")
    return any("/".join(parts[:i]) in output for i in range(len(parts), 0, -1) if len("/".join(parts[:i])) > 3)


def _lines_kept(old: bytes, new: bytes) -> bool:
    """Every old line is still there, or (a list that grew: `members = ["a"]` -> `members = ["a", "b"]`)
    a new line starts with it less its closing bracket."""
    now = new.splitlines()
    have = set(now)
    for line in old.splitlines():
        if line in have:
            continue
        stem = line.rstrip()
        if not (stem.endswith((b"]", b"}")) and any(n.startswith(stem[:-1]) for n in now)):
            return False
    return True


def data_lost(plan: Plan, sb: Sandbox, before: dict, texts: dict, after: dict) -> list[str]:
    if plan.rule in ("none", "custom", "update"):
        return []
    output = "\n".join(r.out for r in sb.runs)
    lost = []
    for change in diff(before, after):
        kind, rel = change.split(" ", 1)
        if plan.rule == "frozen":
            lost.append(change)
        elif plan.rule == "said":
            if not _mentioned(rel, output):
                lost.append(f"{change} (not reported)")
        elif plan.rule == "kept":
            if kind != "new":
                lost.append(change)
        elif plan.rule == "additive" and kind != "new":
            if kind == "gone" or rel not in texts:
                lost.append(change)
                continue
            try:
                now = (sb.ws / rel).read_bytes()
            except OSError:
                lost.append(f"{change} (unreadable after)")
                continue
            if not _mentioned(rel, output) or not _lines_kept(texts[rel], now):
                lost.append(f"{change} (old lines lost)")
    return lost


# -- one case ----------------------------------------------------------------------------------------------


def _follow_up(sb: Sandbox) -> None:
    """What a user does next: git status, add, commit. Hooks, filters or fsmonitor placed by a render run here."""
    if not (sb.ws / ".git").exists():
        return
    for args in (("status",), ("add", "-A"), ("commit", "-qm", "user commit"), ("diff", "HEAD~1")):
        try:
            sb.git(*args)
        except Exception:  # a hang in git itself is not ours to count; the marker is what matters
            return


def run_case(case: Case, index: int, root: Path, timeout: float, keep: bool) -> Result:
    res = Result(case.id, case.category)
    folder = root / "cases" / f"{index:05d}-{case.category}"
    sb = Sandbox(folder, timeout)
    started = time.monotonic()
    try:
        sb.setup()
        try:
            plan = case.prepare(sb)
        except Skip as exc:
            res.skipped = str(exc)
            return res
        outside_before = snapshot(sb.root, skip_top=("work", "tmp", "CODE_RAN"))
        ws_before = _protect(sb.ws)
        texts = _small_texts(sb.ws, ws_before) if plan.rule == "additive" else {}
        sb.runs.clear()
        plan.act(sb)
        runs = list(sb.runs)
        res.exit_codes = [r.code for r in runs]
        res.tracebacks = sum(r.traceback for r in runs)
        res.hangs = sum(r.hang for r in runs)
        res.secrets_printed = sum(r.secret_printed for r in runs)
        res.raw_output = sum(r.raw_control for r in runs) if plan.clean_output else 0
        res.peak_mb = max((r.peak_mb for r in runs), default=0.0)
        res.over_memory = sum(r.peak_mb > MEMORY_LIMIT_MB for r in runs)
        res.commands = [" ".join(shlex.quote(a) for a in r.argv) for r in runs]
        res.last_lines = [r.last_line() for r in runs]
        ws_after = _protect(sb.ws)
        res.data_lost = data_lost(plan, sb, ws_before, texts, ws_after)
        if plan.verify:
            res.data_lost += plan.verify(sb)
        if plan.check_leftovers:
            res.leftovers = leftovers(sb)
        if plan.consistent:
            res.inconsistent = plan.consistent(sb)
        if plan.follow_up:
            _follow_up(sb)
        res.outside_writes = [change for change in diff(outside_before, snapshot(sb.root, skip_top=("work", "tmp", "CODE_RAN")))
                              if not _own_cache(change)]
        res.code_ran = sb.marker.exists()
    except Exception as exc:  # the harness's own failure is reported, not hidden
        res.harness_error = f"{type(exc).__name__}: {exc}"[:300]
        traceback.print_exc()
    finally:
        res.seconds = round(time.monotonic() - started, 2)
        lifecycle.unmount(sb)
        if keep and res.failed:
            res.sandbox = str(folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return res


# -- the report ---------------------------------------------------------------------------------------------


def table(results: list[Result]) -> str:
    by_cat: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_cat[r.category].append(r)
    head = ["category", "cases", "skipped", "exit codes", "peak MB", *COLUMNS]
    rows = []
    totals = Counter()
    for cat in sorted(by_cat):
        rs = by_cat[cat]
        ran = [r for r in rs if not r.skipped]
        codes = Counter(c if c is not None else "killed" for r in ran for c in r.exit_codes)
        counts = {col: sum(1 for r in ran if getattr(r, col)) for col in COLUMNS}
        peak = max((r.peak_mb for r in ran), default=0.0)
        rows.append([cat, len(ran), len(rs) - len(ran), " ".join(f"{k}:{v}" for k, v in sorted(codes.items(), key=str)),
                     f"{peak:.0f}", *[counts[c] for c in COLUMNS]])
        totals.update({"cases": len(ran), "skipped": len(rs) - len(ran), **counts})
    overall = max((r.peak_mb for r in results if not r.skipped), default=0.0)
    rows.append(["TOTAL", totals["cases"], totals["skipped"], "", f"{overall:.0f}", *[totals[c] for c in COLUMNS]])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(head), sep, *[line(r) for r in rows]])


def reproduction(r: Result) -> str:
    rerun = f"{shlex.quote(PY)} bench/adversarial/campaign.py --case {shlex.quote(r.id)} --keep"
    cmd = r.commands[-1] if r.commands else "?"
    where = f" (sandbox {r.sandbox})" if r.sandbox else ""
    return f"{r.id}: {r.problems()}\n    command: osmosis {cmd}{where}\n    rerun:   {rerun}"


def report_from(path: Path) -> int:
    text = path.read_text()
    rows = json.loads(text)["results"] if path.suffix == ".json" else [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    results = sorted((Result(**r) for r in rows), key=lambda r: r.id)
    print(table(results))
    failed = [r for r in results if r.failed]
    if failed:
        print(f"\n{len(failed)} failing case(s):")
        for r in failed:
            print(reproduction(r))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a sample of every category (about 60 cases)")
    ap.add_argument("--per-category", type=int, default=3, help="cases per category with --quick (default 3)")
    ap.add_argument("--sample", type=int, help="at most this many cases per category (a seeded random sample)")
    ap.add_argument("--category", action="append", help="only this category (repeatable)")
    ap.add_argument("--case", action="append", help="only this case id (category/name; repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a command counts as a hang")
    ap.add_argument("--json", type=Path, help="write per-case results here")
    ap.add_argument("--keep", action="store_true", help="keep the sandboxes of failing cases")
    ap.add_argument("--workdir", type=Path, help="where sandboxes go (default: a new temporary folder)")
    ap.add_argument("--list", action="store_true", help="list the case ids and exit")
    ap.add_argument("--from-json", type=Path, help="print the report of an earlier run (--json file, or its .partial.jsonl)")
    args = ap.parse_args(argv)
    # os.walk (snapshots) and shutil.rmtree recurse per folder level before Python 3.12; the env-edges
    # category plants a tree 1,000 folders deep
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    if args.from_json:
        return report_from(args.from_json)

    root = Path(args.workdir or tempfile.mkdtemp(prefix="osmosis-campaign-")).resolve()
    disk = os.geteuid() == 0 and lifecycle.tmpfs_works(root)
    cases = all_cases(disk, args.seed)
    if args.category:
        cases = [c for c in cases if c.category in args.category]
    if args.case:
        cases = [c for c in cases if c.id in args.case]
    if args.quick or args.sample:
        cases = quick_subset(cases, args.sample or args.per_category, args.seed)
    if args.list:
        print("\n".join(c.id for c in cases))
        return 0
    if not cases:
        print("no case matches", file=sys.stderr)
        return 2
    print(f"{len(cases)} cases, {args.jobs} jobs, sandboxes in {root}"
          + ("" if disk else " (full-disk category left out: no tmpfs mount here)"), flush=True)
    started = time.monotonic()
    casemod.build_bases(root / "bases")
    results: list[Result] = []
    lock = threading.Lock()
    partial = args.json.with_suffix(".partial.jsonl").open("w") if args.json else None
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, c, i, root, args.timeout, args.keep) for i, c in enumerate(cases)]
        for i, fut in enumerate(as_completed(futures), 1):
            r = fut.result()
            with lock:
                results.append(r)
                if partial:
                    partial.write(json.dumps(asdict(r)) + "\n")
                    partial.flush()
                if r.failed:
                    print(f"FAIL {r.id}: {r.problems()}", flush=True)
                if i % 50 == 0:
                    print(f"... {i}/{len(cases)} ({time.monotonic() - started:.0f}s)", flush=True)
    elapsed = time.monotonic() - started
    results.sort(key=lambda r: r.id)
    print()
    print(table(results))
    print(f"\n{sum(not r.skipped for r in results)} cases in {elapsed:.0f}s with {args.jobs} jobs"
          + ("" if disk else "; full-disk category not run (tmpfs mount unavailable)"))
    failed = [r for r in results if r.failed]
    if failed:
        print(f"\n{len(failed)} failing case(s):")
        for r in failed:
            print(reproduction(r))
    if args.json:
        args.json.write_text(json.dumps({"seconds": round(elapsed, 1), "jobs": args.jobs, "seed": args.seed,
                                         "results": [asdict(r) for r in results]}, indent=1))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
