"""Make, watch and move forward the lockfiles the templates ship (see tests/sdk_real/lockset.py).

    python bench/locks.py              # (re)write every template's uv.lock and its floor lock
    python bench/locks.py drift        # re-resolve the newest allowed versions and run the real SDK
                                       # on them: what moved, what broke (never fails; exit 0)
    python bench/locks.py drift --move # the same, then move each lock forward whose run passed

`write` keeps every pin a lock already has (uv re-resolves only what a changed pyproject needs), so
running it after editing a template's dependencies changes as little as possible. `drift` is the
watch: the same checks tests/sdk_real makes (the SDK imports the entrypoint, its submit preflight,
`osmosis eval run` with the scenario's fake model and the rewards it must record), on a lock
resolved from the index today instead of the shipped one. Needs Python 3.12 (as tests/sdk_real) and
the package index. The locks record the index they were resolved against only as uv writes it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "sdk_real")]

import lockset  # noqa: E402
import sdk_harness as h  # noqa: E402

# Shown in the report (and the closing note); every moved package is listed anyway.
KEY_PACKAGES = ("osmosis-ai", "litellm", "mcp", "strands-agents", "openai-agents", "openai")


@dataclass
class Rendered:
    workspace: Path
    scenario: h.Scenario
    project: Path


def render(variant: lockset.LockVariant, scratch: Path) -> Rendered:
    scenario = lockset.scenario_of(variant)
    ws = h.render(scratch / variant.id, [scenario])
    return Rendered(ws, scenario, ws / variant.project)


def name_of(rendered: Rendered) -> str:
    return lockset.project_name(rendered.project)


def write(scratch: Path) -> int:
    for variant in lockset.VARIANTS:
        rendered = render(variant, scratch)
        text = lockset.lock(rendered.project)
        variant.shipped.write_text(lockset.to_template(text, name_of(rendered), variant.variable), encoding="utf-8")
        if variant.floor.is_file():
            shutil.copyfile(variant.floor, rendered.project / "uv.lock")
        floor = lockset.lock(rendered.project, resolution=lockset.FLOOR_RESOLUTION)
        variant.floor.parent.mkdir(exist_ok=True)
        variant.floor.write_text(floor, encoding="utf-8")
        print(f"{variant.id:24} {summary(h.locked_versions(text))}   floor: {summary(h.locked_versions(floor), ('osmosis-ai',))}")
    return 0


def summary(versions: dict[str, str], names: tuple[str, ...] = KEY_PACKAGES) -> str:
    return ", ".join(f"{n} {versions[n]}" for n in names if n in versions)


def run_checks(rendered: Rendered, variant: lockset.LockVariant) -> str | None:
    """None when the SDK passes the workspace as tests/sdk_real does; else the first failure, one line."""
    scenario = rendered.scenario
    try:
        env = h.workspace_env(rendered.workspace)
        report = h.probe(env, rendered.workspace, scenario.rollout)["rollouts"][scenario.rollout]
        for step in ("import", "eval", "training", "dataset"):
            if not report[step]["ok"]:
                return f"{step}: {report[step]['error'].splitlines()[0]}"
        if scenario.eval_run:
            run = h.eval_run(env, rendered.workspace, scenario.rollout, scenario.rows, scenario.reply)
            if run.statuses != {i: "success" for i in scenario.expected} or run.rewards != scenario.expected:
                return f"eval run: statuses {run.statuses}, rewards {run.rewards} (expected {scenario.expected}); {_first_error(run)}"
    except (h.HarnessError, AssertionError) as err:
        return str(err).strip().splitlines()[0][:300]
    return None


def _first_error(run: h.EvalRun) -> str:
    for line in run.output.splitlines():
        if "Error" in line or "error" in line:
            return line.strip()[:240]
    return "no error line in the SDK's output"


def drift(scratch: Path, *, move: bool) -> int:
    rows = []
    for variant in lockset.VARIANTS:
        rendered = render(variant, scratch)
        shipped = h.locked_versions((rendered.project / "uv.lock").read_text(encoding="utf-8"))
        newest = lockset.lock(rendered.project, upgrade=True)
        moved = {n: (shipped.get(n), v) for n, v in h.locked_versions(newest).items() if shipped.get(n) != v}
        failure = run_checks(rendered, variant) if moved else None
        rows.append((variant, moved, failure))
        if move and moved and failure is None:
            variant.shipped.write_text(lockset.to_template(newest, name_of(rendered), variant.variable), encoding="utf-8")
    print("# Drift: the newest versions each template's requirements admit today, run on the real SDK\n")
    for variant, moved, failure in rows:
        verdict = "unchanged" if not moved else ("PASS" if failure is None else "BREAKS")
        print(f"## {variant.id}: {verdict}" + (" (lock moved forward)" if move and moved and failure is None else ""))
        key = [f"{n} {old or '-'} -> {new}" for n, (old, new) in moved.items() if n in KEY_PACKAGES]
        if moved:
            print(f"moved: {len(moved)} packages" + (f"; {', '.join(key)}" if key else ""))
            others = [f"{n} {old or '-'}->{new}" for n, (old, new) in sorted(moved.items()) if n not in KEY_PACKAGES]
            if others:
                print(f"also: {', '.join(others)}")
        if failure:
            print(f"failure: {failure}")
        print()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="write", choices=("write", "drift"))
    parser.add_argument("--move", action="store_true", help="drift: move each lock whose run passed forward")
    parser.add_argument("--keep", action="store_true", help="keep the scratch workspaces (printed)")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="osmosis-locks-"))
    try:
        return write(scratch) if args.command == "write" else drift(scratch, move=args.move)
    except h.HarnessError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"scratch workspaces: {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
