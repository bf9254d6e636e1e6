"""The typer-free start of `osmosis doctor`, the command CI and pre-commit run on every commit.

Importing typer and building the command line costs about 50 ms, a fifth of a cold doctor run.
`start` parses the plain forms of doctor's arguments itself (`doctor_spec.parse_plain`) and runs the
same body as the typer command; anything else (help, a mistake, another command) returns None and
the typer app takes over, so every message stays typer's."""

from __future__ import annotations

from types import ModuleType

from osmosis_workspace.core.errors import EXIT_INTERRUPTED


def start(argv: list[str]) -> int | None:
    """The exit code of a doctor run started without typer, or None for the typer app to handle."""
    if argv[:1] != ["doctor"]:
        return None
    _defer("ipaddress")
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


class _Deferred(ModuleType):
    """A stand-in in ``sys.modules`` that imports the real module at the first use of one of its names
    (``importlib.util.LazyLoader`` cannot serve here: on 3.11 the import statement's own look at
    ``__spec__`` loads it)."""

    def __getattr__(self, attr: str):  # only names the stand-in lacks: everything of the real module
        import importlib
        import sys

        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        real = importlib.import_module(self.__name__)
        self.__dict__.update(real.__dict__)  # later uses through a name bound to the stand-in
        return getattr(real, attr)


def _defer(name: str) -> None:
    """Import stdlib module ``name`` only when something first uses it. `pathlib` imports `urllib.parse`,
    which imports `ipaddress` (Python 3.11.4 and later) to check a bracketed host in a URL, which a
    doctor run never splits: ipaddress's classes and constants were about 13 M of a cold run's 630 M
    instructions (docs/performance.md, cold43)."""
    import sys

    sys.modules.setdefault(name, _Deferred(name))
