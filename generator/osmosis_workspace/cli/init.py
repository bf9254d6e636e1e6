"""`osmosis init`: signature only; the work is in osmosis_workspace.scaffold.init_workspace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer

from osmosis_workspace.cli import completion
from osmosis_workspace.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("init")
    @handles_errors
    def init(
        path: Optional[Path] = typer.Argument(None, metavar="PATH", help="Folder to create (default: a new folder named after the workspace)."),
        template: str = typer.Option("multiply", "--template", "-t", autocompletion=completion.templates, help="Template to render (see `osmosis template list`)."),
        defaults: bool = typer.Option(False, "--defaults", help="Use default answers; ask nothing."),
        data: List[str] = typer.Option([], "--data", "-d", help="Answer a question: KEY=VALUE (repeatable)."),
        here: bool = typer.Option(False, "--here", help="Render into the current folder."),
        force: bool = typer.Option(False, "--force", help="Render into a non-empty folder; existing files are kept and listed."),
        no_git: bool = typer.Option(False, "--no-git", help="Do not create a git repository and first commit."),
        trust: bool = typer.Option(False, "--trust", help="Allow a non-bundled template's tasks, migrations and Jinja extensions."),
    ) -> int:
        """Create a workspace from a template.

        Example: osmosis init my-agent --template multiply --defaults
        """
        from osmosis_workspace.core import lock, safe_git
        from osmosis_workspace.scaffold.init_workspace import init_command
        safe_git.forget_outer_repository()  # copier runs git too: an exported GIT_DIR must reach none

        with lock.hold(Path(os.path.abspath(path if path is not None and not here else ".")), "init"):
            return init_command(
                path=path, template=template, defaults=defaults, data=data, here=here, force=force,
                no_git=no_git, trust=trust,
            )
