"""`osmosis validate`: signature only; the work is in osmosis_workspace.check.validate."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from osmosis_workspace.cli import completion
from osmosis_workspace.cli._common import handles_errors
from osmosis_workspace.report import formats_help


def register(app: typer.Typer) -> None:
    @app.command("validate")
    @handles_errors
    def validate(
        paths: List[Path] = typer.Argument(..., metavar="PATH", help="Config, dataset, skill folder or entrypoint files to check."),
        format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help=formats_help(), autocompletion=completion.formats),
        kind: Optional[str] = typer.Option(None, "--kind", metavar="KIND", help="Treat TOML files as this config kind: eval, training or benchmark."),
        strict: Optional[bool] = typer.Option(None, "--strict/--no-strict", help="Warnings fail the run (exit 1)."),
        output_format: str = typer.Option("full", "--output-format", metavar="FORM", help="Text findings: full (with the source line) or concise (one line each)."),
    ) -> int:
        """Check the given files or folders, detecting what each one is.

        Example: osmosis validate configs/eval/multiply.toml data/multiply.jsonl
        """
        from osmosis_workspace.check.validate import validate_command

        return validate_command(paths=paths, format=format, kind=kind, strict=strict, output_format=output_format)
