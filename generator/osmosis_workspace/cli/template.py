"""`osmosis template list|inspect`."""

from __future__ import annotations

import typer

from osmosis_workspace.cli._common import handles_errors

template_app = typer.Typer(help="Bundled templates.\n\nExample: osmosis template list", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(template_app, name="template")


@template_app.command("list")
@handles_errors
def list_templates(json_output: bool = typer.Option(False, "--json", help="Print JSON.")) -> int:
    """List the bundled templates with a one-line description.

    Example: osmosis template list --json
    """
    from osmosis_workspace.scaffold.template_commands import list_command

    return list_command(json_output=json_output)


@template_app.command("inspect")
@handles_errors
def inspect_template(
    name: str = typer.Argument(..., metavar="NAME", help="Template name, local path or git URL."),
    json_output: bool = typer.Option(False, "--json", help="Print JSON."),
) -> int:
    """Show a template's questions (name, type, help, default, choices, validation).

    Example: osmosis template inspect multiply --json
    """
    from osmosis_workspace.scaffold.template_commands import inspect_command

    return inspect_command(name=name, json_output=json_output)
