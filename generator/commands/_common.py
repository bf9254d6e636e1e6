"""Shared glue for command modules: one place that turns a UserError into a message and exit code."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import typer

from generator.errors import UserError

F = TypeVar("F", bound=Callable[..., object])


def handles_errors(fn: F) -> F:
    """Run a command body; a returned int is the exit code, a UserError prints one line and exits."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            code = fn(*args, **kwargs)
        except UserError as err:
            typer.echo(f"error: {err.message}", err=True)
            if err.hint:
                typer.echo(f"hint: {err.hint}", err=True)
            raise typer.Exit(err.exit_code) from None
        if code:
            raise typer.Exit(int(code))
        return None

    return wrapper  # type: ignore[return-value]
