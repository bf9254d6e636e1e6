"""`osmosis rollout new`."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer

from osmosis_workspace.cli import completion
from osmosis_workspace.cli._common import handles_errors

rollout_app = typer.Typer(help="Rollouts in a workspace.\n\nExample: osmosis rollout new adder --template multiply --data integration=openai-agents", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(rollout_app, name="rollout")


@rollout_app.command("new")
@handles_errors
def new(
    name: str = typer.Argument(..., metavar="NAME", help="Rollout name (lowercase letters, digits, hyphens)."),
    template: str = typer.Option("multiply", "--template", "-t", autocompletion=completion.templates, help="Template: a bundled name (osmosis template list), a local folder, or a git URL."),
    workspace: Path = typer.Option(Path("."), "--workspace", "-w", help="The workspace (default: current folder)."),
    data: List[str] = typer.Option([], "--data", "-d", help="Answer a question: KEY=VALUE (repeatable)."),
    defaults: bool = typer.Option(False, "--defaults", help="Use default answers; ask nothing."),
    trust: bool = typer.Option(False, "--trust", help="Allow a non-bundled template's tasks, migrations and Jinja extensions."),
) -> int:
    """Add a rollout, its configs and its data sample to an existing workspace.

    Refuses an existing rollout, or any file the template would overwrite (nothing is written).
    See a template's questions with `osmosis template inspect T`.

    Example: osmosis rollout new adder --template multiply --data integration=openai-agents --defaults
    """
    from osmosis_workspace.core import lock, safe_git
    from osmosis_workspace.scaffold.rollout_new import rollout_new_command
    safe_git.forget_outer_repository()  # copier runs git too: an exported GIT_DIR must reach none

    with lock.workspace(workspace, "rollout new"):
        return rollout_new_command(name=name, template=template, workspace=workspace, data=data, defaults=defaults, trust=trust)
