"""Regexes compiled on first use: a module-level pattern a cold run never reaches costs nothing at import.

``lazy_compile(pattern, flags)`` stands where ``re.compile(pattern, flags)`` stood. The first call of
any pattern method (``match``, ``search``, ``sub``, ...) compiles it; from then on the compiled
pattern's bound methods sit on the object itself, so a later call costs what a ``re.Pattern`` call costs.
"""

from __future__ import annotations

import re


class LazyPattern:
    """A ``re.Pattern`` not compiled yet: the same methods and ``pattern``/``flags``, compiled on first use."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self._flags = pattern, flags

    def compiled(self) -> re.Pattern:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = re.compile(self.pattern, self._flags)
        return compiled

    def __getattr__(self, name: str):  # only for names not on the object yet: the pattern's methods
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        if callable(value):
            self.__dict__[name] = value  # the bound method, called directly from now on
        return value

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, done the first time the pattern is used."""
    return LazyPattern(pattern, flags)
