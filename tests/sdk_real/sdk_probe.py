"""Run inside the Python 3.12 environment holding the real osmosis-ai (see sdk_harness.py).

    python sdk_probe.py WORKSPACE ROLLOUT...

For each rollout: the SDK imports its entrypoint the way submit does; the SDK's config loaders and
`eval submit` / `train submit` preflight (everything they run before the network) take the
generated configs; the SDK's dataset validator takes data/<rollout>.jsonl. Prints one JSON line;
a failure is recorded, not raised, so the test can say which step failed and why.
"""

from __future__ import annotations

import json
import sys
import traceback
from importlib.metadata import version
from pathlib import Path


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}\n{''.join(traceback.format_exception(exc)[-6:])}"


def import_entrypoint(workspace: Path, rollout: str, entrypoint: str) -> dict:
    from osmosis_ai.platform.cli.rollout_entrypoint import load_rollout_entrypoint

    try:
        module = load_rollout_entrypoint(workspace / "rollouts" / rollout, entrypoint)
    except BaseException as exc:  # noqa: BLE001 - reported
        return {"ok": False, "error": _error(exc)}
    backend = getattr(module, "backend", None)
    app = getattr(module, "app", None)
    return {
        "ok": True,
        "backend": type(backend).__name__ if backend is not None else None,
        "backend_module": type(backend).__module__ if backend is not None else None,
        "app": type(app).__name__ if app is not None else None,
    }


def submit_preflight(workspace: Path, rollout: str, kind: str) -> dict:
    """What `osmosis eval|train submit` runs before it talks to the platform (shared_submit.run_cloud_submit)."""
    from osmosis_ai.platform.cli.shared_config import validate_workspace_rollout_paths
    from osmosis_ai.platform.cli.workspace_directory_contract import (
        ensure_workspace_directory_config_path,
        validate_rollout_backend,
        validate_workspace_directory_contract,
    )

    if kind == "eval":
        from osmosis_ai.platform.cli.eval_config import load_eval_submit_config as load
        config_dir, label = "configs/eval", "`osmosis eval submit`"
    else:
        from osmosis_ai.platform.cli.training_config import load_train_submit_config as load
        config_dir, label = "configs/training", "`osmosis train submit`"
    path = (workspace / config_dir / f"{rollout}.toml").resolve()
    try:
        validate_workspace_directory_contract(workspace)
        ensure_workspace_directory_config_path(path, workspace, config_dir=config_dir, command_label=label)
        config = load(path)
        validate_workspace_rollout_paths(rollout=config.experiment_rollout, entrypoint=config.experiment_entrypoint,
                                         workspace_directory=workspace, command_label=label)
        warnings = validate_rollout_backend(workspace_directory=workspace, rollout=config.experiment_rollout,
                                            entrypoint=config.experiment_entrypoint, command_label=label)
    except BaseException as exc:  # noqa: BLE001 - reported
        return {"ok": False, "error": _error(exc)}
    return {"ok": True, "warnings": warnings, "rollout": config.experiment_rollout,
            "entrypoint": config.experiment_entrypoint, "dataset": config.experiment_dataset,
            "secrets": list(config.secrets)}


def dataset_check(workspace: Path, rollout: str) -> dict:
    from osmosis_ai.platform.cli.dataset import validate

    try:
        result = validate(str(workspace / "data" / f"{rollout}.jsonl"))
    except BaseException as exc:  # noqa: BLE001 - reported
        return {"ok": False, "error": _error(exc)}
    return {"ok": True, "warnings": list(getattr(result, "data", {}).get("warnings", []))}


def main(argv: list[str]) -> int:
    workspace = Path(argv[0]).resolve()
    report: dict = {"sdk_version": version("osmosis-ai"), "python": sys.version.split()[0], "rollouts": {}}
    for rollout in argv[1:]:
        eval_result = submit_preflight(workspace, rollout, "eval")
        entrypoint = eval_result.get("entrypoint", "main.py")
        report["rollouts"][rollout] = {
            "import": import_entrypoint(workspace, rollout, entrypoint),
            "eval": eval_result,
            "training": submit_preflight(workspace, rollout, "training"),
            "dataset": dataset_check(workspace, rollout),
        }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
