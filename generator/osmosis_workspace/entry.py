"""The console scripts' entry point. It imports nothing heavy itself: `osmosis doctor` in its plain
forms starts without typer (`cli/fast.py`), and a Ctrl-C while typer, click and the command modules
load (the slowest part of start-up) ends with one line and exit 130 instead of a traceback;
everything after is `osmosis_workspace.cli.main`'s."""

from __future__ import annotations

import sys

from osmosis_workspace.core.errors import EXIT_INTERRUPTED


def main() -> None:
    try:
        from osmosis_workspace.cli.fast import start

        if (code := start(sys.argv[1:])) is not None:
            sys.exit(code)
        from osmosis_workspace.cli.typer_app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run()
