"""Shared glue for the typer command modules: a command body's outcome (cli/exit_status.py) as typer's exit."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TypeVar

import typer

from osmosis_workspace.cli.exit_status import (  # noqa: F401  re-exported for the typer app
    end_on_machine_error,
    internal_error_line,
    machine_error_line,
    quiet_broken_pipe,
    run_body,
)

F = TypeVar("F", bound=Callable[..., object])


def _control_flow() -> tuple[type[BaseException], ...]:
    """Exceptions typer/click use to end a command on purpose; they are not internal errors.
    Typer >= 0.20 vendors click (typer.TyperException); older releases raise click's own."""
    kinds: list[type[BaseException]] = [typer.Exit, typer.Abort, KeyboardInterrupt]
    if hasattr(typer, "TyperException"):
        kinds.append(typer.TyperException)
    # click's own exceptions only when something loaded click: a typer that vendors it never raises
    # them, and importing click just to name them costs every command about 40 ms.
    click = sys.modules.get("click")
    if click is not None:
        kinds += [click.exceptions.Exit, click.exceptions.Abort, click.ClickException]
    return tuple(kinds)


_CONTROL_FLOW = _control_flow()


def handles_errors(fn: F) -> F:
    """Run a command body through `outcome.run_body`; typer's own control flow passes through."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        code = run_body(fn, args, kwargs, passthrough=_CONTROL_FLOW)
        if code:
            raise typer.Exit(code)
        return None

    return wrapper  # type: ignore[return-value]
