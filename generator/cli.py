"""The `osmosis` command line: parse arguments, call a plain function, map the outcome to an exit code.

Command modules under generator/commands/ hold only typer signatures; each imports its
implementation inside the function, so `osmosis --help` and `osmosis doctor` never pay for copier.
"""

from __future__ import annotations

import sys

import typer

from generator import __version__
from generator.commands import dataset, doctor, init, rollout, schema, template, update, validate
from generator.errors import EXIT_INTERNAL, UserError

app = typer.Typer(
    name="osmosis",
    help="Create and check Osmosis RL training workspaces. Start with: osmosis init --template multiply",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"osmosis-workspace {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", callback=_version, is_eager=True),
) -> None:
    """Create and check Osmosis RL training workspaces."""


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
        app(standalone_mode=True)
    except UserError as err:  # raised outside a command body (commands catch their own)
        typer.echo(f"error: {err.message}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # noqa: BLE001  the contract: never a traceback
        typer.echo(
            f"internal error: {type(err).__name__}: {err} "
            "(please report it at https://github.com/osmosis-ai/osmosis-workspace/issues)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
