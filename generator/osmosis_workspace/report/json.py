"""Machine-readable report (schema_version 1). Only JSON goes to the stream."""

from __future__ import annotations

import json
from typing import TextIO

from osmosis_workspace.core.rules import rule_url
from osmosis_workspace.report import Report

SCHEMA_VERSION = 1


def to_data(report: Report) -> dict:
    s = report.summary
    data = {
        "schema_version": SCHEMA_VERSION,
        "ok": report.ok,
        "workspace": report.workspace,
        "summary": {"errors": s.errors, "warnings": s.warnings, "infos": s.infos},
        "diagnostics": [{**d.to_dict(), "url": rule_url(d.code)} for d in report.diagnostics],
    }
    if report.fixes:
        data["fixes"] = list(report.fixes)
    return data


def write(report: Report, stream: TextIO) -> None:
    json.dump(to_data(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
