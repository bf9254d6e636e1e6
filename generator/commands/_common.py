"""Shared glue for command modules: the one place that maps an outcome to a message and exit code."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import click
import typer

from generator.errors import EXIT_INTERNAL, UserError

F = TypeVar("F", bound=Callable[..., object])

REPORT_URL = "https://github.com/osmosis-ai/osmosis-workspace/issues"


def internal_error_line(err: BaseException) -> str:
    """One line for a bug in osmosis itself: what broke, and where to report it (never a traceback)."""
    return f"internal error: {type(err).__name__}: {err} (this is a bug in osmosis; please report it at {REPORT_URL})"


def handles_errors(fn: F) -> F:
    """Run a command body; a returned int is the exit code, a UserError prints one line and exits
    (its code), anything else unexpected is an internal error (exit 3)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            code = fn(*args, **kwargs)
        except UserError as err:
            typer.echo(f"error: {err.message}", err=True)
            if err.hint:
                typer.echo(f"hint: {err.hint}", err=True)
            raise typer.Exit(err.exit_code) from None
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            raise
        except Exception as err:  # noqa: BLE001  the contract: never a traceback
            typer.echo(internal_error_line(err), err=True)
            raise typer.Exit(EXIT_INTERNAL) from None
        if code:
            raise typer.Exit(int(code))
        return None

    return wrapper  # type: ignore[return-value]
