"""What flows between the stages: each finding with the family whose check found it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from osmosis_workspace.core.diagnostics import Diagnostic


class Finding(NamedTuple):
    family: str  # the family whose check reported it: the group it is printed in
    diagnostic: Diagnostic


def keep_only(findings: list[Finding], survivors: Iterable[Diagnostic]) -> list[Finding]:
    """``findings`` narrowed to ``survivors`` (a filter's output over their diagnostics), counted by
    value: two equal findings survive as many times as the filter kept them."""
    left = Counter(survivors)
    kept = []
    for f in findings:
        if left[f.diagnostic] > 0:
            left[f.diagnostic] -= 1
            kept.append(f)
    return kept
