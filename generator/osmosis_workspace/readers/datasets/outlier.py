"""When the first row of a JSON Lines or JSON array dataset is the odd one out.

Rows are checked against the first row's keys (streaming needs a fixed spec). If the first row
lacks a column every other row has, that gave a missing-column finding for the whole file plus a
"keys differ" finding for every other row: one root cause reported everywhere but at the place to
fix. Here those findings become one, at the first row.
"""

from __future__ import annotations

from osmosis_workspace.readers.datasets.columns import shown_list
from osmosis_workspace.readers.datasets.capped import Findings

COLUMN_KINDS = ("missing-column", "no-system-prompt")  # findings made from the first row's keys alone


def first_row_outlier(findings: Findings, rows: int | None) -> None:
    """Rewrite ``findings`` in place when every row but the first differs from it and has keys it lacks."""
    divergent = [f for f in findings.shown if f.kind == "divergent-keys" and f.detail is not None]
    if not rows or rows < 3 or not divergent or findings.counts.get("divergent-keys", 0) != rows - 1:
        return  # with a row agreeing with the first one, the differing rows are the ones to fix
    line, missing, extra = divergent[0].detail  # as seen from the second row
    lacks, has = extra, missing
    if not lacks:
        return
    keep = [f for f in findings.shown if f.kind != "divergent-keys" and not (
        f.kind in COLUMN_KINDS and f.line == line and any(f"`{name}`" in f.message for name in lacks))]
    findings.shown[:] = keep
    findings.counts.pop("divergent-keys", None)
    findings.first_hidden.pop("divergent-keys", None)
    for kind in COLUMN_KINDS:
        findings.counts[kind] = sum(1 for f in keep if f.kind == kind)
    parts = [f"lacks {shown_list(lacks)}"] + ([f"has extra {shown_list(has)}"] if has else [])
    findings.add("divergent-keys", f"the first row's keys differ from all {rows - 1} other rows': it {' and '.join(parts)}",
                 line, hint="Give the first row the keys every other row has (or, if it is the right one, fix the others).")
