"""What a command's outcome becomes, without typer: an exit code and at most one line on stderr.

Shared by the typer commands (`_common.handles_errors`) and doctor's typer-free start (`cli/fast.py`),
so a bug, a refusal or a full disk reads the same whichever way the command was parsed."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

from osmosis_workspace.core.diagnostics import printable
from osmosis_workspace.core.errors import EXIT_INTERNAL, EXIT_USAGE, UserError
from osmosis_workspace.core.rules import REPOSITORY_URL

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


def sound_streams() -> None:
    """What the process was started with must not turn output into a crash: a closed stdout or stderr
    (`>&-`) becomes /dev/null (the exit code still reports), a name the stream's encoding cannot hold
    (`PYTHONIOENCODING=ascii`) is written escaped, and a write past `ulimit -f` fails with EFBIG
    (one line) instead of SIGXFSZ ending the process without a word."""
    import signal

    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115  for the process's life
        elif hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def run_body(fn: Callable[..., object], args: tuple = (), kwargs: dict | None = None,
             passthrough: tuple[type[BaseException], ...] = ()) -> int:
    """Run a command body; a returned int is the exit code, a UserError prints one line (and its
    hint) and exits with its code, anything else unexpected is an internal error (exit 3).
    Exceptions in ``passthrough`` (a CLI library's own control flow) are raised again."""
    try:
        code = fn(*args, **(kwargs or {}))
        # Flush here, not at interpreter exit, so a closed pipe is seen while we can handle it.
        sys.stdout.flush()
    except BrokenPipeError:
        return quiet_broken_pipe()
    except UserError as err:
        # printable: the message may name a file of the workspace (ESC, CR/LF, undecodable bytes)
        _say(f"error: {printable(err.message)}")
        if err.hint:
            _say(f"hint: {printable(err.hint)}")
        return err.exit_code
    except passthrough:
        raise
    except PermissionError as err:  # a file or folder this user may not read or write: theirs to fix
        if not err.filename:
            _say(internal_error_line(err))
            return EXIT_INTERNAL
        _say(f"error: {printable(str(err.filename))}: {err.strerror or 'permission denied'}; check its permissions")
        return EXIT_USAGE
    except Exception as err:  # noqa: BLE001  the contract: never a traceback
        if (line := machine_error_line(err)) is not None:
            return end_on_machine_error(line)
        _say(internal_error_line(err))
        return EXIT_INTERNAL
    return int(code) if code else 0
