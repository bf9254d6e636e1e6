"""The one shape every finding takes, whatever check produced it and whatever reporter prints it."""

from __future__ import annotations

import re
from enum import Enum

from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.records import dataclass, replace

# What a terminal, a CI log or a GitHub annotation would act on instead of showing: C0 controls but
# tab (ESC starts a colour or OSC sequence, CR/LF forge a new `::error` line, BEL rings), DEL, C1
# controls, lone surrogates (the undecodable bytes of a non-UTF-8 file name) and the bidirectional
# overrides and line separators that reorder or break what a reader sees.
_UNPRINTABLE = lazy_compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
EXCERPT = 80  # the most of a file's own content a finding quotes
MESSAGE_CAP = 1000  # no message or hint is longer, whatever a check quoted into it


def _escaped(match: re.Match) -> str:
    char = ord(match.group())
    if 0xDC80 <= char <= 0xDCFF:  # surrogateescape: the original byte
        return f"\\x{char - 0xDC00:02x}"
    return f"\\x{char:02x}" if char <= 0xFF else f"\\u{char:04x}"


def plural(n: int, word: str) -> str:
    """``1 check``, ``2 checks``: the count and the noun, agreed."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def with_article(word: str) -> str:
    """``an eval``, ``a training``: by the first letter, which is right for our kind names."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\n``-free), valid UTF-8."""
    if text.isprintable():  # holds none of _UNPRINTABLE's characters (all are Cc, Cf, Zl, Zp or Cs)
        return text
    return _UNPRINTABLE.sub(_escaped, text)


def quoted(value: object, limit: int = EXCERPT) -> str:
    """A value read from a file, quoted (``repr``) for a message: at most ``limit`` characters of it."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(value)
    return repr(text[:limit]) + f"… ({len(text) - limit} more characters)"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of ``text`` (file content quoted in a message), escaped."""
    cut = text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"
    return printable(cut)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True)
class Diagnostic:
    """A single finding.

    ``path`` is POSIX-style and relative to the workspace root (or as the user gave it when there is
    no workspace); ``line`` and ``column`` are 1-based, or None where the finding has no location.
    """

    code: str
    name: str
    severity: Severity
    message: str
    hint: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    fixable: bool = False

    def shown(self) -> "Diagnostic":
        """This finding as every reporter prints it: path, message and hint escaped and capped."""
        return replace(self, message=excerpt(self.message, MESSAGE_CAP), hint=excerpt(self.hint, MESSAGE_CAP),
                       path=None if self.path is None else printable(self.path))

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.column or 0, self.code, self.message)

    def to_dict(self) -> dict:
        from dataclasses import asdict  # json and sarif output only (it imports inspect)

        data = asdict(self)
        data["severity"] = self.severity.value
        return data


@dataclass(frozen=True)
class Summary:
    errors: int
    warnings: int
    infos: int

    @classmethod
    def of(cls, diagnostics: list[Diagnostic]) -> "Summary":
        counts = {s: 0 for s in Severity}
        for d in diagnostics:
            counts[d.severity] += 1
        return cls(counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.INFO])
