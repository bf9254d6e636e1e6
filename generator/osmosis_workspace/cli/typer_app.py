"""The `osmosis` typer app: parse arguments, call a plain function, map the outcome to an exit code.

Command modules under generator/osmosis_workspace/cli/ hold only typer signatures; each imports its
implementation inside the function, so `osmosis --help` and `osmosis doctor` never pay for copier.
"""

from __future__ import annotations

import sys

import typer

from osmosis_workspace import __version__
from osmosis_workspace.cli import typer_compat
from osmosis_workspace.cli import dataset, doctor, init, lsp, rehearse, rollout, rule, schema, template, update, validate
from osmosis_workspace.cli.exit_status import end_on_machine_error, internal_error_line, machine_error_line, quiet_broken_pipe, sound_streams
from osmosis_workspace.core.errors import EXIT_INTERNAL, UserError

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


# Readable --help labels and a pydantic-free fast path for plain parameters (see the module).
typer_compat.apply()


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
rule.register(app)
schema.register(app)
dataset.register(app)
template.register(app)
rollout.register(app)
update.register(app)
rehearse.register(app)
lsp.register(app)


def command_paths() -> set[tuple[str, ...]]:
    """Our command paths (`("doctor",)`, `("rollout", "new")`), read from the registrations without building click."""
    paths = {(c.name,) for c in app.registered_commands if c.name}
    for group in app.registered_groups:
        paths |= {(group.name, c.name) for c in group.typer_instance.registered_commands if c.name}
    return paths


def main() -> None:
    """Console-script entry point: user errors exit 2 (or as they say), internal errors exit 3."""
    from osmosis_workspace.cli.platform_cli import platform_command, refusal

    sound_streams()
    if (command := platform_command(sys.argv[1:], command_paths())) is not None:
        typer.echo(refusal(command), err=True)
        sys.exit(2)
    try:
        app(prog_name="osmosis", standalone_mode=True)
    except UserError as err:  # raised outside a command body (commands catch their own)
        typer.echo(f"error: {err.message}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:  # e.g. `osmosis --help | head -1`
        sys.exit(quiet_broken_pipe())
    except Exception as err:  # noqa: BLE001  the contract: never a traceback
        if (line := machine_error_line(err)) is not None:
            sys.exit(end_on_machine_error(line))
        typer.echo(internal_error_line(err), err=True)
        sys.exit(EXIT_INTERNAL)
