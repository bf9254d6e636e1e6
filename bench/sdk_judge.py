"""The SDK's own verdict on one mutated workspace; run inside a Python 3.12 environment holding the
real osmosis-ai (never by osmosis-workspace itself, which does not import the SDK).

    python sdk_judge.py WORKSPACE FAMILY KIND [FILE]   # prints one JSON line (FILE: the config or dataset, workspace-relative)

FAMILY is what the mutation touched:
- ``config`` (KIND eval|training): the submit loader (load_*_submit_config), the rollout-path
  check submit and `eval run` share, and for eval `eval run`'s own value stage (finite numbers,
  integer n/batch_size, n > 0), all before any network call;
- ``dataset``: `osmosis dataset validate data/multiply.jsonl` (platform/cli/dataset.py validate);
- ``entrypoint``: submit's import (load_rollout_entrypoint), the backend's grader (LocalBackend
  fails every graded rollout without one: rollout/backend/local/backend.py execute), then `eval
  run`'s launch: _server_bootstrap.py runs the entrypoint as __main__ with _OSMOSIS_ROLLOUT_PORT
  set and the run waits for /health on that port.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROLLOUT = "multiply"


def _short(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"


def judge_config(ws: Path, kind: str, rel: str | None = None) -> dict:
    from osmosis_ai.platform.cli.shared_config import validate_workspace_rollout_paths
    from osmosis_ai.platform.cli.workspace_directory_contract import (
        ensure_workspace_directory_config_path,
    )

    path = ws / (rel or f"configs/{kind}/{ROLLOUT}.toml")
    try:
        # where and how the config is named: submit and `eval run` both check it first
        ensure_workspace_directory_config_path(path, ws, config_dir=f"configs/{kind}", command_label="Config")
        if kind == "eval":
            from osmosis_ai.platform.cli import eval_run
            from osmosis_ai.platform.cli.eval_config import load_eval_submit_config

            config = load_eval_submit_config(path)
            evaluation = config.evaluation_config
            eval_run._numeric(evaluation.get("pass_threshold"), field="pass_threshold")
            for field in ("agent_workflow_timeout_s", "grader_timeout_s"):
                eval_run._numeric(evaluation.get(field), field=field)
            n = eval_run._integer(evaluation.get("n"), field="n")
            if n is not None and n <= 0:
                raise ValueError(f"evaluation.n must be a positive integer, got {n!r}")
            eval_run._integer(evaluation.get("batch_size"), field="batch_size")
        else:
            from osmosis_ai.platform.cli.training_config import load_train_submit_config

            config = load_train_submit_config(path)
        validate_workspace_rollout_paths(rollout=config.experiment_rollout, entrypoint=config.experiment_entrypoint,
                                         workspace_directory=ws, command_label="Evaluation")
    except BaseException as exc:  # noqa: BLE001 - the verdict
        return {"ok": False, "why": _short(exc)}
    return {"ok": True}


def judge_dataset(ws: Path, rel: str | None = None) -> dict:
    from osmosis_ai.platform.cli.dataset import validate

    try:
        validate(str(ws / (rel or f"data/{ROLLOUT}.jsonl")))
    except BaseException as exc:  # noqa: BLE001
        return {"ok": False, "why": _short(exc)}
    return {"ok": True}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def judge_entrypoint(ws: Path, timeout: float = 120.0) -> dict:
    rollout = ws / "rollouts" / ROLLOUT
    # submit's import, in a child so one mutation's modules never leak into the next
    code = ("import sys, json; from pathlib import Path; "
            "from osmosis_ai.platform.cli.rollout_entrypoint import load_rollout_entrypoint as load; "
            f"m = load(Path({str(rollout)!r}), 'main.py'); b = getattr(m, 'backend', None); "
            "print(json.dumps({'grader': getattr(b, 'grader_cls', 'n/a') is not None}))")
    env = {**os.environ, "_OSMOSIS_ROLLOUT_PORT": str(_free_port())}
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=rollout, capture_output=True, text=True, timeout=180, env=env)
    except subprocess.TimeoutExpired:
        return {"ok": False, "why": "submit import: never returned (a server started at import?)"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"ok": False, "why": f"submit import: {last[:300]}"}
    if not json.loads(done.stdout.strip().splitlines()[-1])["grader"]:
        return {"ok": False, "why": "LocalBackend has no grader: every graded rollout ends in FAILURE"}
    from osmosis_ai.eval.local import _server_bootstrap

    port = _free_port()
    env = {**os.environ, "_OSMOSIS_ROLLOUT_PORT": str(port), "_OSMOSIS_ROLLOUT_INSTANCE_ID": "judge"}
    child = subprocess.Popen([sys.executable, _server_bootstrap.__file__, str(rollout / "main.py")], cwd=rollout, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if child.poll() is not None:
                last = (child.stderr.read().strip().splitlines() or ["(no output)"])[-1]
                return {"ok": False, "why": f"eval run: exited before /health ({last[:200]})"}
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as reply:
                    if reply.status == 200:
                        return {"ok": True}
            except OSError:
                time.sleep(0.3)
        return {"ok": False, "why": f"eval run: /health on {port} never answered"}
    finally:
        if child.poll() is None:
            os.killpg(child.pid, 9)
            child.wait()


def main(argv: list[str]) -> int:
    ws, family, kind = Path(argv[0]).resolve(), argv[1], argv[2] if len(argv) > 2 else ""
    rel = argv[3] if len(argv) > 3 else None  # the file the mutation left (a renamed config or dataset)
    verdict = {"config": lambda: judge_config(ws, kind, rel), "dataset": lambda: judge_dataset(ws, rel),
               "entrypoint": lambda: judge_entrypoint(ws)}[family]()
    print(json.dumps(verdict))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
