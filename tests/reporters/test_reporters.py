"""Reporters in isolation: diagnostics in, exact text out."""

from __future__ import annotations

import io
import json

from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.report import Group, Report, get_reporter
from osmosis_workspace.report.github import escape_data, escape_property


def diag(code="CFG001", severity=Severity.ERROR, path="configs/eval/a.toml", line=3, column=5, message="bad value", fixable=False):
    return Diagnostic(code, f"name-{code.lower()}", severity, message, f"fix {code}", path, line, column, fixable)


def render(fmt: str, report: Report, stream=None) -> str:
    stream = stream or io.StringIO()
    get_reporter(fmt)(report, stream)
    return stream.getvalue()


def test_github_escaping_follows_the_runner_rules():
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_github_lines_per_severity_and_missing_locations():
    report = Report([
        diag(),
        diag("CFG002", Severity.WARNING, line=None, column=None, message="multi\nline"),
        diag("SKL001", Severity.INFO, path=None, line=None, column=None),
    ])
    assert render("github", report).splitlines() == [
        "::error file=configs/eval/a.toml,line=3,col=5,title=CFG001::bad value",
        # a newline in a message is escaped before any format sees it (issue 18: no forged lines)
        "::warning file=configs/eval/a.toml,title=CFG002::multi\\x0aline",
        "::notice title=SKL001::bad value",
    ]


def test_github_escapes_paths_with_commas_and_colons():
    out = render("github", Report([diag(path="data/a,b:c.jsonl")]))
    assert "file=data/a%2Cb%3Ac.jsonl," in out


def test_json_summary_and_ok():
    report = Report([diag(), diag("CFG002", Severity.WARNING)], workspace="/w")
    data = json.loads(render("json", report))
    assert data["ok"] is False and data["summary"] == {"errors": 1, "warnings": 1, "infos": 0}
    warn_only = json.loads(render("json", Report([diag(severity=Severity.WARNING)])))
    assert warn_only["ok"] is True
    assert json.loads(render("json", Report([diag(severity=Severity.WARNING)], strict=True)))["ok"] is False


def test_json_includes_fixes_only_when_there_are_some():
    assert "fixes" not in json.loads(render("json", Report([])))
    assert json.loads(render("json", Report([], fixes=["created folder data/"])))["fixes"] == ["created folder data/"]


def test_sarif_structure():
    report = Report([diag(), diag("ZZZ999", Severity.INFO, path="my file.toml", line=None, column=None)], path_prefix="sub")
    data = json.loads(render("sarif", report))
    assert data["version"] == "2.1.0" and data["$schema"].endswith("sarif-2.1.0.json")
    [run] = data["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "osmosis" and driver["version"]
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)) and "ZZZ999" in ids  # every result's rule is declared once
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"]
    first, second = run["results"]
    assert first["ruleId"] == "CFG001" and first["level"] == "error"
    assert first["message"]["text"] == "bad value\nfix CFG001"
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "sub/configs/eval/a.toml"
    assert loc["region"] == {"startLine": 3, "startColumn": 5}
    assert second["level"] == "note" and driver["rules"][second["ruleIndex"]]["id"] == "ZZZ999"
    assert second["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "sub/my%20file.toml"
    assert "region" not in second["locations"][0]["physicalLocation"]


def test_sarif_rules_carry_help_from_the_registry():
    import osmosis_workspace.check.settings  # noqa: F401  registers SET001
    from osmosis_workspace.check.families import all_rules

    driver = json.loads(render("sarif", Report([], rules=all_rules())))["runs"][0]["tool"]["driver"]
    set001 = next(r for r in driver["rules"] if r["id"] == "SET001")
    assert set001["name"] == "unknown-setting"
    assert set001["help"]["text"].startswith("Rename or remove the key")
    assert set001["defaultConfiguration"] == {"level": "warning"}


def test_text_groups_marks_and_verdict():
    report = Report(
        [diag(), diag("SEC001", Severity.WARNING, path=None, line=None, column=None, fixable=True)],
        groups=[Group("Configs", [diag()]), Group("Secrets", [diag("SEC001", Severity.WARNING, path=None, line=None, column=None)]), Group("Layout", [])],
    )
    out = render("text", report).splitlines()
    assert out == [
        "✗ Configs",
        "    configs/eval/a.toml:3:5: error CFG001 bad value",
        "      hint: fix CFG001",
        "! Secrets",
        "    (workspace): warning SEC001 bad value",
        "      hint: fix SEC001",
        "✓ Layout",  # a family that passed still gets its line (issue 3)
        "1 error, 1 warning; 1 fixable with `osmosis doctor --fix`",
    ]


def test_text_falls_back_to_ascii_marks_on_a_non_utf8_stream():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    report = Report([diag()], groups=[Group("Configs", [diag()]), Group("Layout", [])], verbose=True)
    get_reporter("text")(report, stream)
    stream.flush()
    out = stream.buffer.getvalue().decode("ascii")
    assert "x Configs" in out and "ok Layout" in out


def test_text_no_issues_and_nothing_checked():
    assert render("text", Report([], groups=[Group("Layout", [])])) == "✓ Layout\nNo issues found.\n"
    assert render("text", Report([], groups=[Group("a.toml", note="skipped: x")], files_checked=0)) == "- a.toml: skipped: x\nNothing was checked.\n"
