"""`osmosis schema`: print or export the JSON Schemas that `validate` uses."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from osmosis_workspace.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("schema")
    @handles_errors
    def schema(
        kind: Optional[str] = typer.Argument(None, metavar="KIND", help="eval, training, benchmark or dataset."),
        write: Optional[Path] = typer.Option(None, "--write", help="Write every schema into this folder instead."),
    ) -> int:
        """Print the JSON Schema (draft-07) for a config kind (eval, training, benchmark) or dataset rows.

        Example: osmosis schema eval > eval.schema.json
        """
        from osmosis_workspace.core.schemas import schema_command

        return schema_command(kind=kind, write=write)
