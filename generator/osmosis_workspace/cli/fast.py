"""The typer-free start of `osmosis doctor`, the command CI and pre-commit run on every commit.

Importing typer and building the command line costs about 50 ms, a fifth of a cold doctor run.
`start` parses the plain forms of doctor's arguments itself (`doctor_spec.parse_plain`) and runs the
same body as the typer command; anything else (help, a mistake, another command) returns None and
the typer app takes over, so every message stays typer's."""

from __future__ import annotations

from osmosis_workspace.core.errors import EXIT_INTERRUPTED


def start(argv: list[str]) -> int | None:
    """The exit code of a doctor run started without typer, or None for the typer app to handle."""
    if argv[:1] != ["doctor"]:
        return None
    from osmosis_workspace.cli import doctor_spec

    values = doctor_spec.parse_plain(argv[1:])
    if values is None:
        return None
    from osmosis_workspace.cli.exit_status import run_body, sound_streams

    sound_streams()
    try:
        return run_body(doctor_spec.run, kwargs=values)
    except KeyboardInterrupt:  # what the typer app answers to Ctrl-C in a command: 130, no traceback
        return EXIT_INTERRUPTED
