"""`osmosis dataset validate`: the dataset checks under the platform's spelling."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from osmosis_workspace.cli import completion
from osmosis_workspace.cli._common import handles_errors
from osmosis_workspace.report import formats_help

dataset_app = typer.Typer(
    help="Dataset commands.\n\nExample: osmosis dataset validate data/multiply.jsonl",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(dataset_app, name="dataset")


@dataset_app.command("validate")
@handles_errors
def validate(
    files: List[Path] = typer.Argument(..., metavar="FILE", help="Dataset files: .jsonl, .csv or .parquet, the formats the platform reads (a .json file is reported, with how to convert it)."),
    format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help=formats_help(), autocompletion=completion.formats),
    strict: Optional[bool] = typer.Option(None, "--strict/--no-strict", help="Warnings fail the run (exit 1)."),
) -> int:
    """Check dataset files: columns, types, row counts, encoding, size.

    Example: osmosis dataset validate data/multiply.jsonl
    """
    from osmosis_workspace.check.validate import validate_command

    return validate_command(paths=files, format=format, kind=None, strict=strict, only="dataset")
