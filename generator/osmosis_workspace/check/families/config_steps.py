"""CFG027: a training run too short for its checkpoint or eval interval.

Only where the arithmetic is known: `total_epochs`, `rollout_batch_size` and the interval set as
integers in the config, and the dataset's local copy (data/<dataset>.jsonl or .parquet, what `osmosis
dataset upload` names after its stem) countable. Counting stops as soon as the run is known to be long
enough, and a JSONL copy is read at most ``_SCAN_CAP`` bytes deep, so a big dataset costs little.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from osmosis_workspace.check.families.config_rules import CHECKPOINT_NEVER_REACHED
from osmosis_workspace.core.dataset_names import local_copy
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace

COUNTED_SUFFIXES = (".jsonl", ".parquet")  # the copies whose rows are counted cheaply; a .csv copy is not counted

_SCAN_CAP = 64 << 20
INTERVALS = ("checkpoint_save_freq", "eval_interval")


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _jsonl_rows(path: Path, enough: int) -> int | None:
    """Non-blank lines, or None when the count is unknown (unreadable, or too deep to tell)."""
    rows = read = 0
    try:
        with path.open("rb") as fh:
            carry = b""
            while read < _SCAN_CAP:
                block = fh.read(1 << 16)
                if not block:
                    return rows + (1 if carry.strip() else 0)
                read += len(block)
                lines = (carry + block).split(b"\n")
                carry = lines.pop()
                rows += sum(1 for line in lines if line.strip())
                if rows >= enough:
                    return rows
                if len(carry) > _SCAN_CAP:
                    return None
    except OSError:
        return None
    return None


def _parquet_rows(path: Path) -> int | None:
    try:
        import pyarrow.parquet as pq  # optional, as for the datasets family
    except ImportError:
        return None
    try:
        return int(pq.ParquetFile(path).metadata.num_rows)
    except Exception:  # noqa: BLE001 - a broken footer is the datasets family's finding
        return None


def _local_rows(ws: Workspace, dataset: str, enough: int) -> tuple[int, str] | None:
    path = local_copy(ws.root, dataset, COUNTED_SUFFIXES)
    if path is None or path in ws.unreadable or path.is_symlink():
        return None
    rows = _jsonl_rows(path, enough) if path.suffix == ".jsonl" else _parquet_rows(path)
    return (rows, f"data/{path.name}") if rows else None


def check_steps(data: dict, ws: Workspace, loc, display: str, bad_paths: set[tuple]) -> Iterator[Diagnostic]:
    training, checkpoints = data.get("training"), data.get("checkpoints")
    experiment = data.get("experiment")
    if not all(isinstance(t, dict) for t in (training, checkpoints, experiment)):
        return
    if any(p in bad_paths for p in (("training", "total_epochs"), ("training", "rollout_batch_size"))):
        return
    epochs, batch = _count(training.get("total_epochs")), _count(training.get("rollout_batch_size"))
    intervals = {k: _count(checkpoints.get(k)) for k in INTERVALS if ("checkpoints", k) not in bad_paths}
    intervals = {k: v for k, v in intervals.items() if v is not None}
    dataset = experiment.get("dataset")
    if epochs is None or batch is None or not intervals or not isinstance(dataset, str):
        return
    # rows enough for the largest interval: counting further changes no verdict
    enough = batch * -(-max(intervals.values()) // epochs)
    found = _local_rows(ws, dataset, enough)
    if found is None:
        return
    rows, where = found
    per_epoch = -(-rows // batch)
    steps = per_epoch * epochs
    for key, interval in intervals.items():
        if interval <= steps:
            continue
        line, column = loc.value(("checkpoints", key)) or (1, 1)
        effect = "no checkpoint would be saved" if key == "checkpoint_save_freq" else "no evaluation would run during training"
        yield CHECKPOINT_NEVER_REACHED.at(
            display,
            f"{key} = {interval} is never reached: {where} has {rows} rows / rollout_batch_size {batch} = "
            f"{per_epoch} step{'s' if per_epoch != 1 else ''} per epoch x total_epochs {epochs} = {steps} steps; {effect}",
            line=line, column=column,
            hint=f"Set {key} to at most {steps}, or train longer (more rows or epochs, a smaller rollout_batch_size).",
        )
