"""What to rehearse, read from the workspace: rollouts, their eval configs, their local rows.

Every problem here is the user's to fix and ends the command with one line (exit 2): an unknown
rollout, a rollout without an eval config, no local rows, an unreadable dataset, a config whose
`[env]` would point the rollout at a real endpoint.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
import sys
from pathlib import Path

from osmosis_workspace.core import bounded
from osmosis_workspace.core.dataset_names import PLATFORM_SUFFIXES, local_copies, local_copy, names_a_path
from osmosis_workspace.core.diagnostics import plural
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_dir, is_file, is_inside
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.workspace import DATASET_SUFFIXES  # what rehearse reads rows from, as doctor

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_ROWS = "0-3"
MAX_ROWS = 200           # rows one rehearsal copies three times; a rehearsal is a smoke test, not an eval
MAX_SCAN_BYTES = 256 << 20
MAX_CONFIG_BYTES = 1 << 20  # doctor's config limit: a bigger one is not a config a run reads
_LOOPBACK_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(/|$)", re.IGNORECASE)


@dataclass
class RolloutPlan:
    name: str
    config: Path                       # absolute
    config_rel: str
    entrypoint: str
    model_path: str
    secrets: tuple[str, ...]
    agent_timeout: float | None
    grader_timeout: float | None
    dataset_rel: str                   # where the rows came from
    dataset_name: str = ""             # the config's [experiment] dataset, as written
    rows: list[tuple[int, dict]] = field(default_factory=list)
    with_gold: bool = True
    gold_note: str | None = None       # why no gold answer is sent ("gold not built: ...")
    notes: list[str] = field(default_factory=list)


def parse_rows(spec: str) -> list[int]:
    """``"3,7,10-12"`` -> [3, 7, 10, 11, 12]; a bad spec is a usage error."""
    picked: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        found = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not found:
            raise UserError(f"--rows {spec!r}: expected row numbers and ranges like 0-3,7")
        start, end = int(found.group(1)), int(found.group(2) or found.group(1))
        if end < start:
            raise UserError(f"--rows {spec!r}: the range {part} runs backwards")
        if end - start + len(picked) >= MAX_ROWS:
            raise UserError(f"--rows {spec!r}: at most {MAX_ROWS} rows per rehearsal (each runs three times)")
        picked += [i for i in range(start, end + 1) if i not in picked]
    return picked


def _closest(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else f" (rollouts: {', '.join(names) or 'none'})"


def _load_toml(path: Path, rel: str) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UserError(f"{rel}: cannot read it as TOML ({err}); `osmosis validate {rel}` says more") from None


def workspace_rollouts(root: Path) -> list[str]:
    """The workspace's rollout folders, sorted (a hidden or `_` folder is not one)."""
    base = root / "rollouts"
    if not is_dir(base):
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def config_experiment(path: Path) -> tuple[str | None, str | None]:
    """(the rollout a config runs, the dataset it names), None where it does not say or cannot be read.

    Read within doctor's size and nesting limits, so every config of an untrusted tree can be scanned."""
    try:
        data = bounded.toml_loads(bounded.read_capped(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except (bounded.Unreadable, UnicodeDecodeError, ValueError):
        return None, None
    experiment = data.get("experiment") if isinstance(data.get("experiment"), dict) else {}
    rollout, dataset = experiment.get("rollout"), experiment.get("dataset")
    return (rollout if isinstance(rollout, str) and rollout else None,
            dataset if isinstance(dataset, str) and dataset else None)


def _eval_config_for(root: Path, rollout: str) -> Path | None:
    own = root / "configs" / "eval" / f"{rollout}.toml"
    if is_file(own):
        return own
    for path in sorted((root / "configs" / "eval").glob("*.toml")):
        if config_experiment(path)[0] == rollout:
            return path
    return None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def read_config(root: Path, config: Path, rollout: str | None) -> RolloutPlan:
    rel = config.relative_to(root).as_posix() if is_inside(root, config) else str(config)
    data = _load_toml(config, rel)
    experiment = data.get("experiment") if isinstance(data.get("experiment"), dict) else {}
    name = experiment.get("rollout")
    if not isinstance(name, str) or not name or "<" in name:
        raise UserError(f"{rel}: [experiment] rollout is not set to a rollout folder name")
    if rollout is not None and name != rollout:
        raise UserError(f"{rel} runs rollout {name!r}, not {rollout!r}")
    secrets = (data.get("secrets") or {}).get("required") if isinstance(data.get("secrets"), dict) else []
    evaluation = data.get("evaluation") if isinstance(data.get("evaluation"), dict) else {}
    env = data.get("env") if isinstance(data.get("env"), dict) else {}
    for key, value in env.items():
        if isinstance(value, str) and "://" in value and not _LOOPBACK_URL.match(value.strip()):
            raise UserError(f"{rel}: [env] {key} = {value!r} points the rollout at a real endpoint; rehearse keeps "
                            "every call on 127.0.0.1, so it will not run this config",
                            hint="move the URL out of [env] (read it from a secret or a default in code) and rehearse again")
    return RolloutPlan(
        name=name, config=config, config_rel=rel, entrypoint=str(experiment.get("entrypoint") or "main.py"),
        model_path=str(experiment.get("model_path") or ""),
        secrets=tuple(s for s in secrets or [] if isinstance(s, str)),
        agent_timeout=_number(evaluation.get("agent_workflow_timeout_s")),
        grader_timeout=_number(evaluation.get("grader_timeout_s")), dataset_rel="",
        dataset_name=experiment.get("dataset") if isinstance(experiment.get("dataset"), str) else "",
    )


def rollout_plans(root: Path, rollouts: list[str], config: Path | None) -> list[RolloutPlan]:
    """One plan per rollout to rehearse (every rollout of the workspace when none is named)."""
    present = workspace_rollouts(root)
    if config is not None:
        if len(rollouts) > 1:
            raise UserError("--config names one eval config: give at most one rollout with it")
        path = config if config.is_absolute() else (Path.cwd() / config)
        if not is_file(path):
            raise UserError(f"--config {config}: no such file")
        plan = read_config(root, path.resolve(), rollouts[0] if rollouts else None)
        if plan.name not in present:
            raise UserError(f"{plan.config_rel} runs rollout {plan.name!r}, which has no folder in rollouts/{_closest(plan.name, present)}")
        return [plan]
    for name in rollouts:
        if name not in present:
            raise UserError(f"unknown rollout {name!r}{_closest(name, present)}")
    plans = []
    for name in rollouts or present:
        found = _eval_config_for(root, name)
        if found is None:
            raise UserError(f"rollout {name!r} has no eval config (configs/eval/{name}.toml)",
                            hint="`osmosis rollout new` writes one; or pass --config FILE")
        plans.append(read_config(root, found, name))
    if not plans:
        raise UserError("this workspace has no rollouts to rehearse", hint="`osmosis rollout new NAME` adds one")
    return plans


def _named_rel(value: str) -> str:
    """The file under data/ a ``dataset`` written as a path names (CFG019 warns: submit sends it as a
    name), "" for a path rehearse does not read from."""
    text = value.replace("\\", "/")
    return text if text.startswith("data/") else (f"data/{text}" if "/" not in text else "")


def _named_path(root: Path, value: str) -> Path | None:
    """:func:`_named_rel`, if it is a file inside data/."""
    relative = _named_rel(value)
    if not relative:
        return None
    path = root / relative
    return path if is_file(path) and is_inside(root / "data", path) else None


def dataset_files(name: str, suffixes: tuple[str, ...] = PLATFORM_SUFFIXES) -> list[str]:
    """The files (POSIX, from the root) :func:`local_dataset` may read for a config's ``dataset = name``,
    in order, whether or not they exist; the rollout's own :func:`default_files` come after them."""
    if names_a_path(name):
        return [rel] if (rel := _named_rel(name)) else []
    return local_copies(name, suffixes)


def default_files(rollout: str) -> list[str]:
    """``data/<rollout>.<suffix>``: the rows a rollout is rehearsed with when its config's dataset has no local copy."""
    return [f"data/{rollout}{suffix}" for suffix in DATASET_SUFFIXES]


def local_dataset(root: Path, plan: RolloutPlan, dataset_file: Path | None) -> Path:
    """``--dataset-file``; else the local copy of the dataset the config names (`dataset = "x"` ->
    data/x.jsonl, .csv or .parquet, the mapping doctor and Git Sync use); else ``data/<rollout>.*``."""
    if dataset_file is not None:
        path = dataset_file if dataset_file.is_absolute() else Path.cwd() / dataset_file
        if not is_file(path):
            raise UserError(f"--dataset-file {dataset_file}: no such file")
        return path
    name = plan.dataset_name.strip()
    if name:
        found = _named_path(root, name) if names_a_path(name) else local_copy(root, name)
        if found is not None:
            return found
    for rel in default_files(plan.name):
        if is_file(root / rel):
            if name:
                plan.notes.append(f"warning: {plan.config_rel} names the dataset {name!r}, which has no local copy here; "
                                  f"the rows come from {rel} instead (the training file?), so the rehearsal may not "
                                  "see the rows the evaluation will")
            return root / rel
    wanted = f"data/{name}" if name and names_a_path(name) else \
        " or ".join(f"data/{name or plan.name}{s}" for s in PLATFORM_SUFFIXES)
    raise UserError(f"{plan.config_rel} names the platform dataset {name!r} and there is no {wanted} to rehearse with"
                    if name else f"{plan.config_rel} names no dataset and there is no data/{plan.name}.jsonl to rehearse with",
                    hint="pass --dataset-file FILE (a .jsonl, .json, .csv or .parquet with user_prompt and ground_truth)")


def _records(path: Path, last: int) -> list[object]:
    """Rows 0..last of the file (fewer when it is shorter), read no further than needed."""
    suffix = path.suffix.lower()
    if path.stat().st_size > MAX_SCAN_BYTES and suffix not in (".jsonl", ".parquet"):
        raise UserError(f"{path.name}: too large to rehearse from ({path.stat().st_size >> 20} MB); "
                        "pass --dataset-file with a small .jsonl sample")
    rows: list[object] = []
    with path.open("rb") as fh:
        if suffix == ".jsonl":
            for number, line in enumerate(fh, 1):
                if len(rows) > last:
                    break
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except (ValueError, UnicodeDecodeError) as err:
                        raise UserError(f"{path.name}:{number}: not a JSON object ({err}); `osmosis validate` says more") from None
        elif suffix == ".json":
            try:
                data = json.loads(fh.read())
            except (ValueError, UnicodeDecodeError) as err:
                raise UserError(f"{path.name}: not JSON ({err})") from None
            rows = list(data[: last + 1]) if isinstance(data, list) else [data]
        elif suffix == ".csv":
            try:
                reader = csv.DictReader(io.TextIOWrapper(fh, encoding="utf-8", newline=""))
                for row in reader:
                    if len(rows) > last:
                        break
                    rows.append(dict(row))
            except (csv.Error, UnicodeDecodeError) as err:
                raise UserError(f"{path.name}: not a readable CSV ({err})") from None
        elif suffix == ".parquet":
            rows = _parquet_records(path, last)
        else:
            raise UserError(f"{path.name}: rehearse reads .jsonl, .json, .csv and .parquet datasets; pass --dataset-file with one")
    return rows


def _parquet_records(path: Path, last: int) -> list[object]:
    """Rows 0..last of a Parquet file, a batch at a time (pyarrow, the SDK's own `parquet` extra)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UserError(f"{path.name}: reading Parquet needs pyarrow, which is not installed here; "
                        "pass --dataset-file with a .jsonl sample") from None
    rows: list[object] = []
    try:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=max(1, last + 1)):
            rows += batch.to_pylist()
            if len(rows) > last:
                break
    except Exception as err:  # noqa: BLE001 - any pyarrow failure is an unreadable file
        raise UserError(f"{path.name}: not a readable Parquet file ({err}); `osmosis validate` says more") from None
    return rows[: last + 1]


def select_rows(plan: RolloutPlan, path: Path, rel: str, spec: str) -> None:
    """Fill ``plan.rows`` with the rows ``spec`` picks; note rows out of range and missing ground truth."""
    wanted = parse_rows(spec)
    records = _records(path, max(wanted))
    plan.dataset_rel = rel
    for index in wanted:
        if index >= len(records):
            continue
        record = records[index]
        if not isinstance(record, dict) or not isinstance(record.get("user_prompt"), str):
            raise UserError(f"{rel}: row {index} has no user_prompt string; `osmosis validate {rel}` says more")
        plan.rows.append((index, record))
    if not plan.rows:
        raise UserError(f"{rel}: --rows {spec} picks no row (the file has {len(records)})")
    if len(plan.rows) < len(wanted):
        plan.notes.append(f"{rel} has {plural(len(records), 'row')}: rehearsing {len(plan.rows)} of the {len(wanted)} asked for")
    truths = [row.get("ground_truth") for _, row in plan.rows]
    if any(t is None or (isinstance(t, str) and not t.strip()) for t in truths):
        plan.with_gold = False
        plan.notes.append(f"{rel}: rows without ground_truth, so the gold pass cannot run; ran the wrong and empty passes only")


def choose_gold(plan: RolloutPlan, gold_column: str | None) -> str:
    """Where the rows' gold answers come from: ``gold_column`` when the workspace names one (every row must
    have it), else the label, unless the labels hold test cases rather than answers; then no gold is sent,
    and the report says "gold not built" with the way to name one. Returns the column."""
    from osmosis_workspace.rehearse.answer_space import looks_like_tests
    from osmosis_workspace.rehearse.cases import text_of

    if gold_column:
        missing = [index for index, row in plan.rows if not text_of(row.get(gold_column)).strip()]
        if missing:
            plan.with_gold = False
            plan.gold_note = (f"gold not built: row {missing[0]} of {plan.dataset_rel} has no {gold_column!r} "
                              "(the gold-column [tool.osmosis.rehearse] names), so no gold answer is sent")
            plan.notes.append(plan.gold_note)
        return gold_column
    labels = [text_of(row.get("ground_truth")) for _, row in plan.rows]
    if plan.with_gold and labels and all(looks_like_tests(label) for label in labels):
        plan.with_gold = False
        plan.gold_note = ("gold not built: the labels hold test cases, not answers; name the dataset column that holds a "
                          f"reference answer: [tool.osmosis.rehearse.rollout.{plan.name}] gold-column = \"<column>\"")
        plan.notes.append(plan.gold_note)
    return "ground_truth"
