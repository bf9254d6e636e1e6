"""Shared glue for command modules: the one place that maps an outcome to a message and exit code."""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable
from typing import TypeVar

import typer

from generator.core.diagnostics import printable
from generator.core.errors import EXIT_INTERNAL, EXIT_USAGE, UserError
from generator.core.rules import REPOSITORY_URL

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

REPORT_URL = f"{REPOSITORY_URL}/issues"


def internal_error_line(err: BaseException) -> str:
    """One line for a bug in osmosis itself: what broke, and where to report it (never a traceback)."""
    return f"internal error: {type(err).__name__}: {printable(str(err))} (this is a bug in osmosis; please report it at {REPORT_URL})"


# What a shell reports for a process ended by SIGPIPE (128 + 13), as git and coreutils do under
# `| head`; not one of the documented codes because no report was delivered at all.
EXIT_BROKEN_PIPE = 141


def quiet_broken_pipe() -> int:
    """The reader of our output went away (`osmosis doctor | head`): not a bug, so no message.

    stdout is pointed at /dev/null so the interpreter's last flush does not raise again and print
    "Exception ignored". Returns the exit code to use."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. a test runner's capture)
        pass
    return EXIT_BROKEN_PIPE


# Failures of the machine, not of osmosis: a full disk, `ulimit -f` / `ulimit -n`, an I/O error, a
# read-only file system. One line, exit 2, like any other refusal the user has to resolve.
_MACHINE_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EMFILE, errno.ENFILE, errno.EROFS,
                   getattr(errno, "EDQUOT", errno.ENOSPC)}


def machine_error_line(err: BaseException) -> str | None:
    """The one line for an OSError the machine caused (None for anything else)."""
    if isinstance(err, FileNotFoundError) and _cwd_gone():
        return "error: the current folder no longer exists (deleted or moved away); cd to a folder that exists and run again"
    if not isinstance(err, OSError) or err.errno not in _MACHINE_ERRNOS:
        return None
    if err.errno in (errno.EMFILE, errno.ENFILE):
        return f"error: {err.strerror or err} (the open-file limit, `ulimit -n`, is too low for osmosis); raise it and run again"
    where = f" {err.filename}" if getattr(err, "filename", None) else " the output"
    hint = "; raise the file-size limit (`ulimit -f`)" if err.errno == errno.EFBIG else ""
    return f"error: cannot write{where}: {err.strerror or err}{hint}"


def _cwd_gone() -> bool:
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def end_on_machine_error(line: str) -> int:
    """Print ``line`` and leave stdout on /dev/null (what is still buffered for it cannot be written)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    quiet_broken_pipe()
    return EXIT_USAGE


def handles_errors(fn: F) -> F:
    """Run a command body; a returned int is the exit code, a UserError prints one line and exits
    (its code), anything else unexpected is an internal error (exit 3)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            code = fn(*args, **kwargs)
            # Flush here, not at interpreter exit, so a closed pipe is seen while we can handle it.
            sys.stdout.flush()
        except BrokenPipeError:
            raise typer.Exit(quiet_broken_pipe()) from None
        except UserError as err:
            # printable: the message may name a file of the workspace (ESC, CR/LF, undecodable bytes)
            typer.echo(f"error: {printable(err.message)}", err=True)
            if err.hint:
                typer.echo(f"hint: {printable(err.hint)}", err=True)
            raise typer.Exit(err.exit_code) from None
        except _CONTROL_FLOW:
            raise
        except PermissionError as err:  # a file or folder this user may not read or write: theirs to fix
            if not err.filename:
                typer.echo(internal_error_line(err), err=True)
                raise typer.Exit(EXIT_INTERNAL) from None
            typer.echo(f"error: {printable(str(err.filename))}: {err.strerror or 'permission denied'}; check its permissions", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        except Exception as err:  # noqa: BLE001  the contract: never a traceback
            if (line := machine_error_line(err)) is not None:
                raise typer.Exit(end_on_machine_error(line)) from None
            typer.echo(internal_error_line(err), err=True)
            raise typer.Exit(EXIT_INTERNAL) from None
        if code:
            raise typer.Exit(int(code))
        return None

    return wrapper  # type: ignore[return-value]
