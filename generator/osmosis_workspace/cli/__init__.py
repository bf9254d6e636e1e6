"""The `osmosis` command line. The typer app lives in `cli/typer_app.py` and loads on first use of `app`,
`main` or `command_paths`, so `cli/fast.py` (doctor without typer) can live in this package."""

from __future__ import annotations

from typing import Any

_APP_NAMES = ("app", "main", "command_paths")


def __getattr__(name: str) -> Any:
    if name in _APP_NAMES:
        from osmosis_workspace.cli import typer_app as module

        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
