"""SARIF output against the required structure of SARIF 2.1.0 (OASIS standard, sections 3.13-3.30).

The official JSON Schema ships in no package installable here, so this is the subset of it that
GitHub code scanning enforces on upload, written out by hand from the specification."""

from __future__ import annotations

import io
import json

import jsonschema

from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.check.doctor import load_rules
from osmosis_workspace.report import Report, get_reporter

MESSAGE = {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}], "properties": {"text": {"type": "string"}}}
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["tool"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string", "format": "uri"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "name": {"type": "string"},
                                                "shortDescription": MESSAGE,
                                                "fullDescription": MESSAGE,
                                                "help": MESSAGE,
                                                "defaultConfiguration": {"type": "object", "properties": {"level": {"enum": ["none", "note", "warning", "error"]}}},
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": -1},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": MESSAGE,
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "anyOf": [{"required": ["address"]}, {"required": ["artifactLocation"]}],
                                                "properties": {
                                                    "artifactLocation": {"type": "object", "properties": {"uri": {"type": "string", "format": "uri-reference"}, "uriBaseId": {"type": "string"}}},
                                                    "region": {"type": "object", "properties": {"startLine": {"type": "integer", "minimum": 1}, "startColumn": {"type": "integer", "minimum": 1}}},
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_sarif_output_has_the_required_structure():
    load_rules()
    diagnostics = [
        Diagnostic("CFG001", "config-toml-syntax", Severity.ERROR, "bad", "fix", "configs/eval/a b.toml", 2, 3),
        Diagnostic("SET004", "unused-suppression", Severity.INFO, "unused", "remove", "pyproject.toml", 4, None),
        Diagnostic("GIT004", "git-unreadable", Severity.WARNING, "no git", "install git"),
    ]
    stream = io.StringIO()
    get_reporter("sarif")(Report(diagnostics, rules=load_rules()), stream)
    data = json.loads(stream.getvalue())
    jsonschema.validate(data, SARIF_SUBSET, format_checker=jsonschema.FormatChecker())
    run = data["runs"][0]
    assert len(run["results"]) == 3 and len(run["tool"]["driver"]["rules"]) == len(load_rules())
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"], "GitHub code scanning rejects results without a location"
    workspace_wide = run["results"][2]["locations"][0]["physicalLocation"]
    assert workspace_wide == {"artifactLocation": {"uri": "pyproject.toml", "uriBaseId": "%SRCROOT%"}}
