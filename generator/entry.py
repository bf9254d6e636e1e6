"""The console scripts' entry point. It imports nothing heavy itself, so a Ctrl-C while typer,
click and the command modules load (the slowest part of start-up) ends with one line and exit 130
instead of a traceback; everything after is `generator.cli.main`'s."""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def main() -> None:
    try:
        from generator.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run()
