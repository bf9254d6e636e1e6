"""The JSON Schemas (draft-07) for eval, training and benchmark configs and for dataset rows.

The ``*.schema.json`` files beside this module are the one source of truth: `osmosis schema`
prints them byte for byte, `osmosis init` copies them into ``.osmosis/schemas/`` (where editors
find them through each config's ``#:schema`` line), and the config checks walk them with a small
draft-07 evaluator (osmosis_workspace.check.families.schema_eval) instead of importing jsonschema at start-up.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from osmosis_workspace.core.errors import UserError

KINDS = ("eval", "training", "benchmark", "dataset")
CONFIG_KINDS = ("eval", "training", "benchmark")
_HERE = Path(__file__).resolve().parent


def schema_filename(kind: str) -> str:
    return f"{kind}.schema.json"


def schema_path(kind: str) -> Path:
    if kind not in KINDS:
        raise UserError(f"unknown schema kind {kind!r}; choose one of: {', '.join(KINDS)}")
    return _HERE / schema_filename(kind)


def schema_bytes(kind: str) -> bytes:
    """The schema file exactly as shipped (what `osmosis schema KIND` prints)."""
    return schema_path(kind).read_bytes()


@lru_cache(maxsize=None)
def load_schema(kind: str) -> dict[str, Any]:
    """The parsed schema. Cached and shared: callers must not mutate it."""
    return json.loads(schema_bytes(kind))


def schema_directive(kind: str) -> str:
    """The first line `osmosis init` writes into ``configs/<kind>/<rollout>.toml``.

    Taplo resolves a relative ``#:schema`` path against the config file's own folder, so this
    reaches ``<workspace>/.osmosis/schemas/`` from ``configs/<kind>/``.
    """
    return f"#:schema ../../.osmosis/schemas/{schema_filename(kind)}"


WORKSPACE_SCHEMA_DIR = ".osmosis/schemas"


def write_schemas(folder: Path) -> list[tuple[Path, str]]:
    """Write every schema into ``folder`` (created if needed).

    Returns each file with what happened to it: "created", "updated" (it differed and was replaced,
    which is what the caller asked for) or "unchanged".
    """
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        done = []
        for kind in KINDS:
            target = folder / schema_filename(kind)
            data = schema_bytes(kind)
            if target.is_file():
                if target.read_bytes() == data:
                    done.append((target, "unchanged"))
                    continue
                status = "updated"
            elif target.exists():
                raise UserError(f"{target} exists and is not a file")
            else:
                status = "created"
            from osmosis_workspace.core import safe_write

            safe_write.write_bytes(folder, target, data)
            done.append((target, status))
    except OSError as err:
        raise UserError(f"cannot write schemas into {folder}: {err.strerror or err}") from None
    return done


def schema_command(kind: str | None, write: Path | None) -> int:
    """`osmosis schema [KIND] [--write DIR]`: print one schema's bytes, or write them all."""
    import sys

    if write is not None:
        if kind is not None:
            raise UserError("give either a schema kind or --write DIR, not both")
        for target, status in write_schemas(write):
            print(f"{status}: {target}", file=sys.stderr)
        return 0
    if kind is None:
        raise UserError(f"name a schema kind: {', '.join(KINDS)} (or --write DIR for all of them)")
    data = schema_bytes(kind)
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        out.write(data)
        out.flush()
    else:  # a text-only stream (e.g. some test runners): the files are ASCII-safe UTF-8
        sys.stdout.write(data.decode("utf-8"))
    return 0
