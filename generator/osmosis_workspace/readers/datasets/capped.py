"""What a dataset reader found, capped so a file with a million bad rows yields a readable report.

The first ``cap`` findings of each kind are kept in full; the rest are only counted (with the line
of the first one not shown) and become one summarising diagnostic.
"""

from __future__ import annotations

from typing import NamedTuple

from osmosis_workspace.core.records import dataclass, field

SHOWN_PER_KIND = 20
# Kinds shown fewer times: after the first row whose keys differ, the rest only need counting.
CAPS = {"divergent-keys": 1}


class Finding(NamedTuple):
    kind: str
    message: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    detail: object = None  # what a later pass needs beyond the text (divergent-keys: first row's line, missing, extra)


@dataclass
class Findings:
    """Findings of one file (or one byte range of it), in file order within each kind."""

    caps: dict[str, int] = field(default_factory=lambda: dict(CAPS))  # kinds not capped at SHOWN_PER_KIND
    shown: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # every finding, shown or not, per kind
    first_hidden: dict[str, int | None] = field(default_factory=dict)  # line of the first one not shown
    profile: object = None  # the rows' osmosis_workspace.readers.datasets.profile.Profile, once a row fixed the columns
    keep_order: bool = False  # the profile keeps each distinct prompt's line (for DAT029, which names eval lines)

    def add(self, kind: str, message: str, line: int | None = None, column: int | None = None, hint: str | None = None,
            detail: object = None) -> None:
        seen = self.counts.get(kind, 0)
        self.counts[kind] = seen + 1
        if seen < self.caps.get(kind, SHOWN_PER_KIND):
            self.shown.append(Finding(kind, message, line, column, hint, detail))
        elif kind not in self.first_hidden:
            self.first_hidden[kind] = line

    def drop(self, kind: str) -> None:
        """Forget every finding of ``kind`` (when a later one explains the same cause better)."""
        self.shown = [f for f in self.shown if f.kind != kind]
        self.counts.pop(kind, None)
        self.first_hidden.pop(kind, None)

    def hidden(self, kind: str) -> int:
        """How many findings of ``kind`` were counted but not kept."""
        return self.counts.get(kind, 0) - sum(1 for f in self.shown if f.kind == kind)

    def extend(self, other: "Findings", line_offset: int = 0) -> None:
        """Append ``other`` (the findings of the next byte range) with its lines shifted by ``line_offset``."""
        if other.profile is not None:
            if self.profile is None and not line_offset:
                self.profile = other.profile  # the serial reader's one range: nothing to merge
            else:
                if self.profile is None:
                    self.profile = other.profile.empty()
                self.profile.merge(other.profile, line_offset)
        shift = (lambda n: n) if not line_offset else (lambda n: None if n is None else n + line_offset)
        for f in other.shown:
            self.add(f.kind, f.message, shift(f.line), f.column, f.hint, f.detail)
        for kind, total in other.counts.items():
            rest = total - sum(1 for f in other.shown if f.kind == kind)
            if rest:
                if kind not in self.first_hidden:
                    self.first_hidden[kind] = shift(other.first_hidden.get(kind))
                self.counts[kind] = self.counts.get(kind, 0) + rest
