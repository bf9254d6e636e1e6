"""`osmosis doctor` as a typer command, built from `doctor_spec.PARAMS`; the body is `doctor_spec.run`."""

from __future__ import annotations

import inspect
from pathlib import Path

import typer

from osmosis_workspace.cli import doctor_spec
from osmosis_workspace.cli._common import handles_errors


def _signature() -> inspect.Signature:
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    path = inspect.Parameter("path", keyword, annotation=Path, default=typer.Argument(
        Path("."), metavar="PATH", show_default=False, help=doctor_spec.PATH_HELP))
    options = [inspect.Parameter(p.name, keyword, annotation=p.annotation,
                                 default=typer.Option(p.default, *p.flags, metavar=p.metavar, help=p.help,
                                                      autocompletion=p.complete))
               for p in doctor_spec.PARAMS]
    return inspect.Signature([path, *options], return_annotation=int)


def register(app: typer.Typer) -> None:
    def doctor(**values: object) -> int:
        return doctor_spec.run(**values)  # type: ignore[arg-type]

    # typer reads a command's parameters from its signature and annotations: give it the table's.
    signature = _signature()
    doctor.__signature__ = signature  # type: ignore[attr-defined]
    doctor.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()} | {"return": int}
    doctor.__doc__ = doctor_spec.HELP
    app.command("doctor")(handles_errors(doctor))
