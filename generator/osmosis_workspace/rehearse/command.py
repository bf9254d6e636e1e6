"""`osmosis rehearse`: plan, run each rollout with the SDK and the scripted model, judge, report."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from pathlib import Path

from osmosis_workspace.core import safe_write
from osmosis_workspace.core.errors import EXIT_FINDINGS, EXIT_OK, UserError
from osmosis_workspace.core.paths import is_inside, own_python_files
from osmosis_workspace.core.workspace import NotAWorkspace, find_git_root, find_root
from osmosis_workspace.rehearse import environment
from osmosis_workspace.rehearse import plan as planning
from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.child_env import child_env
from osmosis_workspace.rehearse.run_results import read_outcome, wrong_port
from osmosis_workspace.rehearse.preflight import run_preflight
from osmosis_workspace.rehearse.settings import load_settings
from osmosis_workspace.rehearse.render import Rehearsed, write
from osmosis_workspace.rehearse.runner import eval_argv, find_sdk, run_eval
from osmosis_workspace.rehearse.scripted_model import Script, ScriptedModel
from osmosis_workspace.rehearse.verdicts import Judgement, Verdict, judge

OUTPUT = (".osmosis", "evals", "rehearse")   # under the SDK's own git-ignored eval folder
DEFAULT_TIMEOUT_S = 900.0                     # a cold `uv sync` of a rollout downloads its dependencies
SANDBOX_REASON = ("Harbor runs every trial in a Docker or Daytona sandbox, which rehearse does not start "
                  "(the SDK would also open a public tunnel to reach it); no row ran")
# Where no model server runs, the child's model endpoints still point at 127.0.0.1 (the discard port).
NO_MODEL_URL = "http://127.0.0.1:9/v1"


_NOT_CODE = frozenset({"tests", "node_modules", "task"})
_SCAN_LIMIT = 500


def _sandboxed(root: Path, rollout: str) -> bool:
    """A rollout whose backend is Harbor's (read as text: rehearse imports nothing of the workspace).
    Hidden folders (the rollout's own .venv after a sync), tests and caches are not its code."""
    for path in own_python_files(root / "rollouts" / rollout, _SCAN_LIMIT, _NOT_CODE):
        try:
            if "HarborBackend(" in path.read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            continue
    return False


def _output_root(root: Path) -> Path:
    out = root.joinpath(*OUTPUT)
    out.mkdir(parents=True, exist_ok=True)
    if not is_inside(root.resolve(), out.resolve()):
        raise UserError(f"{'/'.join(OUTPUT)} leads out of the workspace through a link; remove the link and rehearse again")
    return out


def _clear_previous(out: Path, name: str) -> None:
    """The last rehearsal of this rollout, so the SDK starts fresh instead of resuming it."""
    previous = out / name
    if previous.is_symlink():
        previous.unlink()
    elif previous.is_dir():
        shutil.rmtree(previous)


class Progress:
    """One line per stage of the SDK's run, read from its own log, on a terminal only."""

    STAGES = (("[deps]", "syncing the rollout's environment (uv sync)"), ("[server] starting", "starting the rollout server"),
              ("[server] rollout server healthy", "server healthy; running rows"))

    def __init__(self, rollout: str, run_dir: Path, total: int, enabled: bool):
        self.rollout, self.run_dir, self.total, self.enabled = rollout, run_dir, total, enabled
        self.shown: set[str] = set()
        self.done = -1

    def tick(self) -> str | None:
        """Print new stages; return why the run should stop now (a server on the wrong port), if it should."""
        try:
            log = (self.run_dir / "logs.txt").read_text(encoding="utf-8", errors="replace")[-200_000:]
        except OSError:
            return None
        ports = wrong_port(log)
        if ports is not None:
            return (f"the rollout server listens on port {ports[1]}, not on the port the SDK gave it in "
                    f"_OSMOSIS_ROLLOUT_PORT ({ports[0]}), so /health never answers")
        if not self.enabled:
            return None
        try:
            done = sum(1 for line in (self.run_dir / "index.jsonl").read_text(encoding="utf-8").splitlines() if line.strip())
        except OSError:
            done = 0
        for marker, text in self.STAGES:
            if marker not in self.shown and marker in log:
                self.shown.add(marker)
                print(f"  {self.rollout}: {text}", file=sys.stderr, flush=True)
        if done != self.done and done > 0:
            self.done = done
            print(f"  {self.rollout}: rows {done}/{self.total}", file=sys.stderr, flush=True)
        return None


def _blocked(plan: planning.RolloutPlan, reason: str) -> Rehearsed:
    """A rollout whose environment breaks every row: its preflight fails with why, and nothing runs."""
    verdicts = [Verdict("preflight", False, reason), Verdict("runs", None, "not run: the environment fails every row")]
    return Rehearsed(Judgement(plan.name, False, f"preflight failed: {reason}", verdicts, notes=list(plan.notes)),
                     config=plan.config_rel, dataset=plan.dataset_rel)


def _preflight_only(root: Path, sdk: Path, plan: planning.RolloutPlan, timeout: float) -> Rehearsed:
    env = child_env(os.environ, NO_MODEL_URL, plan.secrets)
    passed, account = run_preflight(root, sdk, plan.name, plan.entrypoint, env, timeout)
    problem = environment.environment_problem(root, plan.name)   # the preflight's `uv sync` made it
    if problem is not None:
        passed, account = False, problem
    verdicts = [Verdict("preflight", passed, account), Verdict("runs", None, SANDBOX_REASON)]
    headline = f"preflight only: {SANDBOX_REASON}" if passed else f"preflight failed: {account.splitlines()[0]}"
    return Rehearsed(Judgement(plan.name, passed, headline, verdicts, notes=list(plan.notes)),
                     config=plan.config_rel, dataset=plan.dataset_rel)


def rehearse_one(root: Path, sdk: Path, plan: planning.RolloutPlan, timeout: float, progress: bool,
                 cancel: threading.Event | None = None, probes: bool = True) -> Rehearsed:
    out = _output_root(root)
    rel_out = "/".join((*OUTPUT, plan.name))
    problem = environment.lock_problem(root, plan.name)
    if problem is not None:
        return _blocked(plan, problem)
    if _sandboxed(root, plan.name):
        return _preflight_only(root, sdk, plan, timeout)
    settings = load_settings(root)
    rules = settings.for_rollout(plan.name)
    column = planning.choose_gold(plan, rules.gold_column)
    rehearsal = build(plan.rows, plan.with_gold, probes, column, rules.partial_column, rules.answers)
    if probes and (rehearsal.space.values or rehearsal.space.items or rehearsal.space.fields):
        plan.notes.append(f"answer space: {rehearsal.space.describe()}")
    _clear_previous(out, plan.name)
    dataset = out / f"{plan.name}.rehearsal.jsonl"
    safe_write.write_text(root, dataset, rehearsal.jsonl())
    script = Script(rehearsal)
    try:
        model = ScriptedModel(script)
    except OSError as err:
        raise UserError(f"cannot bind the scripted model on 127.0.0.1: {err.strerror or err}") from None
    with model:
        env = child_env(os.environ, model.base_url, plan.secrets)
        argv = eval_argv(sdk, plan.config_rel, dataset, len(rehearsal.cases), out, plan.name, len(rehearsal.queue()))
        watcher = Progress(plan.name, out / plan.name, len(rehearsal.cases), progress)
        process = run_eval(argv, root, env, out / plan.name, timeout, watcher.tick, cancel)
    outcome = read_outcome(rehearsal, out / plan.name, root, process, script.sent)
    judgement = judge(plan, outcome, script.sent, settings, probes)
    problem = environment.environment_problem(root, plan.name)   # what `eval run`'s `uv sync` installed
    if problem is not None:
        judgement.verdicts.insert(0, Verdict("preflight", False, problem))
        judgement.ok, judgement.headline = False, f"preflight failed: {problem}"
    if script.calls.get("judge"):
        judgement.notes.append(
            f"the grader called a model itself ({script.calls['judge']} calls): they reached the scripted model, which "
            "scored gold answers at the top of the judge's scale and the others at the bottom, so this tests the "
            "judge's plumbing, not its judgement")
    if model.errors:
        judgement.notes.append(f"the scripted model failed {len(model.errors)} requests: {model.errors[0]}")
    return Rehearsed(judgement, rehearsal, outcome, dict(script.calls), rel_out, plan.config_rel, plan.dataset_rel)


def _run_all(root: Path, sdk: Path, plans: list[planning.RolloutPlan], timeout: float, progress: bool,
             jobs: int, probes: bool = True) -> list[Rehearsed]:
    """Each plan rehearsed, ``jobs`` at a time; Ctrl-C stops every run (and its server) before it returns."""
    if jobs <= 1 or len(plans) == 1:
        return [rehearse_one(root, sdk, plan, timeout, progress, None, probes) for plan in plans]
    from concurrent.futures import ThreadPoolExecutor

    cancel = threading.Event()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(rehearse_one, root, sdk, plan, timeout, progress, cancel, probes) for plan in plans]
        try:
            return [f.result() for f in futures]
        except KeyboardInterrupt:
            cancel.set()
            for future in futures:
                future.cancel()
            pool.shutdown(wait=True)
            raise


def rehearse_command(path: Path, rollouts: list[str], config: Path | None, dataset_file: Path | None, rows: str | None,
                     format: str, timeout: float | None, sdk: Path | None, jobs: int = 1, probes: bool = True,
                     changed: str | None = None, list_only: bool = False, merge: Path | None = None) -> int:
    if format not in ("text", "json"):
        raise UserError(f"--format {format!r}: expected text or json")
    if merge is not None:
        if rollouts or changed is not None or list_only or config or dataset_file or rows:
            raise UserError("--merge reads verdicts another run wrote: give it no rollouts and no other options but --format")
        from osmosis_workspace.rehearse.merge import merge_command

        return EXIT_OK if merge_command(merge, format, sys.stdout, os.environ) else EXIT_FINDINGS
    try:
        return _rehearse(path, rollouts, config, dataset_file, rows, format, timeout, sdk, jobs, changed, list_only, probes)
    except UserError as err:
        if format == "json":
            # an agent reading stdout gets an object either way; the line on stderr and the exit code stay
            # (`requested`: the rollouts it was asked for, so `--merge` can say why they have no verdict)
            json.dump({"ok": False, "error": {"message": err.message, "hint": err.hint, "exit_code": err.exit_code},
                       "rollouts": [], "requested": list(rollouts)}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        raise


def _rehearse(path: Path, rollouts: list[str], config: Path | None, dataset_file: Path | None, rows: str | None,
              format: str, timeout: float | None, sdk: Path | None, jobs: int, changed: str | None,
              list_only: bool, probes: bool) -> int:
    if timeout is not None and timeout <= 0:
        raise UserError("--timeout must be a positive number of seconds")
    try:
        root = find_root(path)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None
    if changed is not None or list_only:
        from osmosis_workspace.rehearse.selection import select

        rollouts = select(root, rollouts, config, changed, list_only, format, sys.stdout)
        if list_only:
            return EXIT_OK
        if not rollouts:
            write([], format, sys.stdout)
            return EXIT_OK
    plans = planning.rollout_plans(root, rollouts, config)
    for plan in plans:
        path_ = planning.local_dataset(root, plan, dataset_file)
        shown = path_.relative_to(root).as_posix() if is_inside(root, path_) else str(path_)
        planning.select_rows(plan, path_, shown, rows or planning.DEFAULT_ROWS)
    if find_git_root(root) is None:
        raise UserError(f"{root} is not a git work tree, and the SDK's eval run runs only in one",
                        hint="run `git init` there (the platform runs the code you push anyway)")
    load_settings(root)   # a bad [tool.osmosis.rehearse] stops here, before any run
    runner = find_sdk(root, sdk)
    progress = format == "text" and sys.stderr.isatty()
    if jobs < 1:
        raise UserError("--jobs must be at least 1")
    results = _run_all(root, runner, plans, timeout or DEFAULT_TIMEOUT_S, progress, jobs, probes)
    write(results, format, sys.stdout)
    return EXIT_OK if all(r.judgement.ok for r in results) else EXIT_FINDINGS
