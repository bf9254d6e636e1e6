"""Where `osmosis doctor` / `osmosis validate` spend their start-up: `python -X importtime`, summarised.

    python bench/importtime.py WORKSPACE

Reports, per command, the total import time and the slowest imports *as the CLI asked for them*
(cumulative time of each import that is not itself nested in a slower one we already list), which
points at the module to make lazy. Also used by `bench/run.py --importtime`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")
ROUNDS = 3  # import time is noisy; the quickest of a few runs is the least disturbed one


@dataclass(frozen=True)
class Import:
    module: str
    self_us: int
    cumulative_us: int
    depth: int


def parse(stderr: str) -> list[Import]:
    """`-X importtime` lines in the order Python printed them (children before their parent)."""
    out = []
    for line in stderr.splitlines():
        m = _LINE.match(line)
        if m:
            out.append(Import(m.group(4), int(m.group(1)), int(m.group(2)), (len(m.group(3)) - 1) // 2))
    return out


def top_imports(imports: list[Import], top: int) -> list[Import]:
    """The slowest imports made at the top of the tree.

    Depth-0 entries are what the program imported directly (through its own modules), so their
    cumulative times add up to the whole import cost without double counting.
    """
    roots = [i for i in imports if i.depth == 0]
    return sorted(roots, key=lambda i: i.cumulative_us, reverse=True)[:top]


def heavy_packages(imports: list[Import], top: int) -> list[tuple[str, int]]:
    """Total self time per top-level package name (``jsonschema.validators`` counts for jsonschema)."""
    totals: dict[str, int] = {}
    for i in imports:
        pkg = i.module.split(".")[0]
        totals[pkg] = totals.get(pkg, 0) + i.self_us
    return sorted(totals.items(), key=lambda kv: kv[1], reverse=True)[:top]


def profile_command(argv: list[str], cwd: Path, env: dict | None) -> dict:
    best = None
    for _ in range(ROUNDS):
        proc = subprocess.run([sys.executable, "-X", "importtime", *argv], cwd=cwd, env=env,
                              capture_output=True, text=True)
        imports = parse(proc.stderr)
        total = sum(i.self_us for i in imports)
        if best is None or total < best[0]:
            best = (total, imports, proc.returncode)
    total, imports, code = best
    return {
        "argv": argv,
        "exit_code": code,
        "total_import_ms": round(total / 1000, 1),
        "modules_imported": len(imports),
        "top_level": [
            {"module": i.module, "cumulative_ms": round(i.cumulative_us / 1000, 1)} for i in top_imports(imports, 12)
        ],
        "by_package": [{"package": p, "self_ms": round(us / 1000, 1)} for p, us in heavy_packages(imports, 12)],
        "loaded_packages": sorted({i.module.split(".")[0] for i in imports}),
    }


def profile_workspace(ws: Path, env: dict | None) -> dict:
    from workspaces import base_rollout  # noqa: PLC0415  (bench/ is on sys.path)

    config = f"configs/eval/{base_rollout(ws)}.toml"
    return {
        "osmosis --help": profile_command(["-m", "osmosis_workspace", "--help"], ws, env),
        "osmosis doctor": profile_command(["-m", "osmosis_workspace", "doctor", "."], ws, env),
        "osmosis validate": profile_command(["-m", "osmosis_workspace", "validate", config], ws, env),
    }


def profile(bench) -> dict:
    """The run.py hook: profile in the bench's fresh multiply workspace with its environment."""
    return profile_workspace(bench.base_workspace(), bench.env)


# Heavy modules that doctor/validate are meant never to import (ARCHITECTURE.md); flagged if seen.
WATCHED = ("copier", "git", "pyarrow", "jsonschema", "jinja2", "rich", "pydantic", "yaml", "questionary", "prompt_toolkit",
           "pygls", "lsprotocol", "cattrs")


def format_report(report: dict) -> str:
    lines = ["import time (python -X importtime, quickest of 3 runs):"]
    for name, r in report.items():
        lines.append(f"  {name}: {r['total_import_ms']} ms in imports, {r['modules_imported']} modules, exit {r['exit_code']}")
        tops = ", ".join(f"{t['module']} {t['cumulative_ms']} ms" for t in r["top_level"][:8])
        lines.append(f"    slowest top-level imports: {tops}")
        pkgs = ", ".join(f"{p['package']} {p['self_ms']} ms" for p in r["by_package"][:8])
        lines.append(f"    self time by package:      {pkgs}")
        heavy = [m for m in WATCHED if m in r["loaded_packages"]]
        if heavy:
            lines.append(f"    heavy packages loaded:     {', '.join(heavy)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Summarise `python -X importtime` for osmosis commands.")
    parser.add_argument("workspace", type=Path)
    args = parser.parse_args(argv)
    if not args.workspace.is_dir():
        print(f"error: {args.workspace} is not a folder", file=sys.stderr)
        return 2
    from workspaces import bench_env  # noqa: PLC0415  (bench/ is on sys.path)

    print(format_report(profile_workspace(args.workspace.resolve(), bench_env())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
