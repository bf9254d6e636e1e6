"""The `osmosis` command line: parse arguments, call a plain function, map the outcome to an exit code.

Command modules under generator/commands/ hold only typer signatures; each imports its
implementation inside the function, so `osmosis --help` and `osmosis doctor` never pay for copier.
"""

from __future__ import annotations

import sys

import typer

from generator import __version__
from generator.commands import dataset, doctor, init, rollout, schema, template, update, validate
from generator.commands._common import internal_error_line
from generator.errors import EXIT_INTERNAL, UserError

HELP = """Create and check Osmosis RL training workspaces.

Start here: osmosis init my-agent --template multiply, then cd my-agent and run osmosis doctor.

Example: osmosis doctor --format github
"""

app = typer.Typer(
    name="osmosis",
    help=HELP,
    # Plain `osmosis` prints the help and exits 0 (handled in _root): click >= 8.2 makes
    # no_args_is_help exit 2, which reads as a failure to people and to scripts probing the tool.
    no_args_is_help=False,
    invoke_without_command=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _readable_help_types() -> None:
    """Typer 0.29 labels values by Python type (`--data <list[str]>`, `path <path>`), which reads as
    noise in --help. Options get click-style names (`--data TEXT`); arguments, whose name already
    says what they are, get none. Only the help text changes, never parsing."""
    from typer import core

    if getattr(core._TyperParameter, "_osmosis_patched", False):
        return
    original = core._TyperParameter.display_type
    names = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN", "path": "PATH", "file": "FILE"}

    def display_type(self, ctx):  # type: ignore[no-untyped-def]
        if isinstance(self, core.TyperArgument):
            return ""
        label = original(self, ctx)
        inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
        if inner.startswith("list[") and inner.endswith("]"):
            inner = inner[5:-1]
        return names.get(inner.lower(), inner.upper() if inner.isidentifier() else inner)

    core._TyperParameter.display_type = display_type
    core._TyperParameter._osmosis_patched = True


_readable_help_types()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"osmosis-workspace {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", callback=_version, is_eager=True),
) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


init.register(app)
doctor.register(app)
validate.register(app)
schema.register(app)
dataset.register(app)
template.register(app)
rollout.register(app)
update.register(app)


def main() -> None:
    """Console-script entry point: user errors exit 2 (or as they say), internal errors exit 3."""
    try:
        app(prog_name="osmosis", standalone_mode=True)
    except UserError as err:  # raised outside a command body (commands catch their own)
        typer.echo(f"error: {err.message}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # noqa: BLE001  the contract: never a traceback
        typer.echo(internal_error_line(err), err=True)
        sys.exit(EXIT_INTERNAL)
