"""`osmosis update`."""

from __future__ import annotations

from pathlib import Path

import typer

from generator.commands._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("update")
    @handles_errors
    def update(
        path: Path = typer.Argument(Path("."), help="The workspace (default: current folder)."),
        check: bool = typer.Option(False, "--check", help="Change nothing; exit 1 when behind the installed templates."),
        conflict: str = typer.Option("inline", "--conflict", help="How to show conflicts: inline (conflict markers in the file) or rej (your file kept, <file>.rej beside it)."),
        trust: bool = typer.Option(False, "--trust", help="Allow a non-bundled template's tasks, migrations and Jinja extensions."),
    ) -> int:
        """Bring the workspace and its rollouts up to the installed templates and skills (three-way merge).

        Example: osmosis update --check
        """
        from contextlib import nullcontext

        from generator import lock
        from generator.update import update_command

        with nullcontext() if check else lock.workspace(path, "update"):
            return update_command(path=path, check=check, conflict=conflict, trust=trust)
