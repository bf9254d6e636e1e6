"""Errors that reach the user as one clear line and a documented exit code, never a traceback."""

from __future__ import annotations

# Exit codes are a contract (README "Exit codes").
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


class UserError(Exception):
    """Something the user can fix: bad arguments, a missing path, not a workspace, a refused write."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.hint = hint
