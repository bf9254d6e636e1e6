"""The one shape every finding takes, whatever check produced it and whatever reporter prints it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum


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

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.column or 0, self.code, self.message)

    def to_dict(self) -> dict:
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
