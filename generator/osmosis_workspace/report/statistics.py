"""`doctor --statistics`: how many findings each rule has (as `ruff --statistics`), most first.

Text: `count  code  severity  [*] name`, `[*]` where `osmosis doctor --fix` repairs it; JSON: the
same per rule, with its docs link. Fed a `shown` report like every format.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TextIO

from osmosis_workspace.core.rules import rule_url
from osmosis_workspace.report import Report, formats

FORMATS = formats(statistics=True)


def rows(report: Report) -> list[dict]:
    counts = Counter(d.code for d in report.diagnostics)
    first = {}
    for d in report.diagnostics:
        first.setdefault(d.code, d)
    ordered = sorted(counts, key=lambda code: (-counts[code], code))
    return [{"code": c, "name": first[c].name, "severity": first[c].severity.value, "count": counts[c],
             "fixable": first[c].fixable, "url": rule_url(c)} for c in ordered]  # fmt: skip


def write(report: Report, fmt: str, stream: TextIO) -> None:
    table = rows(report)
    if fmt == "json":
        s = report.summary
        data = {"schema_version": 1, "ok": report.ok, "statistics": table,
                "summary": {"errors": s.errors, "warnings": s.warnings, "infos": s.infos}}  # fmt: skip
        json.dump(data, stream, indent=2, ensure_ascii=False)
        stream.write("\n")
        return
    from osmosis_workspace.report.text import verdict

    width = max((len(str(r["count"])) for r in table), default=1)
    out = [f"{r['count']:>{width}}  {r['code']}  {r['severity']:<7}  {'[*] ' if r['fixable'] else ''}{r['name']}" for r in table]
    if any(r["fixable"] for r in table):
        out.append(f"[*] fixable with `{report.command} --fix`")
    out.append(verdict(report))
    stream.write("\n".join(out) + "\n")
