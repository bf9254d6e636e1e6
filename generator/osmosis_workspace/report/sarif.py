"""SARIF 2.1.0, the format GitHub code scanning (and most security dashboards) upload."""

from __future__ import annotations

import dataclasses
import json
from typing import TextIO
from urllib.parse import quote

from osmosis_workspace import __version__
from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.core.rules import REPOSITORY_URL, Rule, rule_url
from osmosis_workspace.report import Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = REPOSITORY_URL
WORKSPACE_ANCHOR = "pyproject.toml"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_data(rule: Rule) -> dict:
    help_text = rule.fix if not rule.example else f"{rule.fix}\n\nExample of the problem:\n{rule.example}"
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why or rule.summary},
        "help": {"text": help_text},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"family": rule.family, "fixable": rule.fixable, "fixability": rule.fixability},
    }


def _result(d: Diagnostic, report: Report, index: dict[str, int]) -> dict:
    result: dict = {
        "ruleId": d.code,
        "level": _LEVEL[d.severity],
        "message": {"text": f"{d.message}\n{d.hint}" if d.hint else d.message},
    }
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    path = report.repo_path(d)
    if path is None:
        # GitHub code scanning rejects a result without a file location; a workspace-wide finding
        # is pinned to the workspace's pyproject.toml (every workspace has one), without a region.
        d = dataclasses.replace(d, path=WORKSPACE_ANCHOR, line=None, column=None)
        path = report.repo_path(d)
    physical: dict = {"artifactLocation": {"uri": quote(path), "uriBaseId": "%SRCROOT%"}}
    if d.line is not None:
        region = {"startLine": d.line}
        if d.column is not None:
            region["startColumn"] = d.column
        physical["region"] = region
    result["locations"] = [{"physicalLocation": physical}]
    return result


def to_data(report: Report) -> dict:
    rules = report.rules
    known = {r.code for r in rules}
    # A finding whose code no module declared still needs a rule entry for ruleIndex to point at.
    extra = [d for d in report.diagnostics if d.code not in known]
    rule_data = [_rule_data(r) for r in rules]
    for d in {d.code: d for d in extra}.values():
        rule_data.append({"id": d.code, "name": d.name, "shortDescription": {"text": d.message}, "helpUri": rule_url(d.code)})
    index = {r["id"]: i for i, r in enumerate(rule_data)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "osmosis",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rule_data,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_result(d, report, index) for d in report.diagnostics],
            }
        ],
    }


def write(report: Report, stream: TextIO) -> None:
    json.dump(to_data(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
