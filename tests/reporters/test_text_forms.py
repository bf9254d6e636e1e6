"""The text report's two forms: `full` (severity, source line, caret, hint) and `concise` (one line
each, sorted by file and line); both end in the verdict. Reporter in isolation, then the CLI."""

from __future__ import annotations

import io
import json

from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.report import Group, Report, get_reporter
from osmosis_workspace.report.text import SNIPPET, snippet


def diag(path="a.toml", line=2, column=3, code="CFG001", severity=Severity.ERROR, message="bad"):
    return Diagnostic(code, "name", severity, message, "fix it", path, line, column)


def render(report: Report) -> str:
    stream = io.StringIO()
    get_reporter("text")(report, stream)
    return stream.getvalue()


def test_full_shows_the_line_and_a_caret_under_the_column():
    d = diag()
    report = Report([d], groups=[Group("Configs", [d])], source=lambda f: "x = 'oops'")
    assert render(report).splitlines() == [
        "✗ Configs",
        "    a.toml:2:3: error CFG001 bad",
        "      2 | x = 'oops'",
        "        |   ^",
        "      hint: fix it",
        "1 error",
    ]


def test_the_source_line_is_escaped_and_the_caret_follows_the_escapes():
    d = diag(column=4)
    report = Report([d], groups=[Group("Configs", [d])], source=lambda f: "\x1b[31m\tk = 1\r")
    out = render(report)
    assert "\x1b" not in out and "\r" not in out
    line, caret = out.splitlines()[2:4]
    assert line == "      2 | \\x1b[31m k = 1\\x0d"
    # column 4 is the `1`: the three code points before it (ESC, `[`, `3`) print as six characters
    assert caret.index("^") - caret.index("|") - 2 == len("\\x1b[3")


def test_a_long_line_is_cut_around_the_column():
    raw = "a" * 500 + "X" + "b" * 500
    shown, caret = snippet(raw, 501)
    assert shown.startswith("…") and shown.endswith("…")
    assert len(shown) <= SNIPPET + 2 and shown[caret] == "X"
    assert snippet("short", None) == ("short", None)
    assert snippet("ab", 99) == ("ab", 2)  # a column past the end points just after it


def test_no_source_no_snippet_and_findings_without_a_line_say_workspace():
    d = diag(path=None, line=None, column=None, severity=Severity.INFO)
    out = render(Report([d], groups=[Group("Git Sync", [d])], source=lambda f: "never"))
    assert "    (workspace): info CFG001 bad" in out and "never" not in out


def test_concise_is_one_line_per_finding_sorted_by_file_and_line():
    found = [diag("b.toml", 1, 1), diag("a.toml", 9, 1, severity=Severity.WARNING), diag("a.toml", 2, 5)]
    report = Report(found, groups=[Group("Configs", found)], output_format="concise", source=lambda f: "src")
    assert render(report).splitlines() == [
        "a.toml:2:5: error CFG001 bad",
        "a.toml:9:1: warning CFG001 bad",
        "b.toml:1:1: error CFG001 bad",
        "2 errors, 1 warning",
    ]


def _break(ws, relative, old, new):
    path = ws / relative
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_cli_full_concise_and_statistics(workspace_copy):
    _break(workspace_copy, "configs/training/multiply.toml", "lr = ", "learning_rate = ")
    _break(workspace_copy, "configs/eval/multiply.toml", "[evaluation]", "[evaluation]\nbatchsize = 2")
    runner = CliRunner()
    full = runner.invoke(app, ["doctor", str(workspace_copy), "--select", "CFG"])
    assert full.exit_code == 1
    lines = full.stdout.splitlines()
    at = lines.index("    configs/training/multiply.toml:13:1: error CFG003 unknown key `learning_rate` in [training]; did you mean `lr`?")
    assert lines[at + 1].endswith("| learning_rate = 1e-6") and lines[at + 2].endswith("| ^")
    assert lines[-1] == "2 errors"

    concise = runner.invoke(app, ["doctor", str(workspace_copy), "--select", "CFG", "--output-format", "concise"])
    assert concise.exit_code == 1
    first, second, verdict = concise.stdout.splitlines()
    assert first.startswith("configs/eval/multiply.toml:") and ": error CFG003 unknown key `batchsize`" in first
    assert first.endswith("did you mean `batch_size`?")
    assert second.startswith("configs/training/multiply.toml:13:1: error CFG003") and verdict == "2 errors"

    stats = runner.invoke(app, ["doctor", str(workspace_copy), "--select", "CFG", "--statistics"])
    assert stats.exit_code == 1
    assert stats.stdout.splitlines() == ["2  CFG003  error    config-unknown-key", "2 errors"]
    data = json.loads(runner.invoke(app, ["doctor", str(workspace_copy), "--select", "CFG", "--statistics", "-f", "json"]).stdout)
    assert data["statistics"] == [{"code": "CFG003", "name": "config-unknown-key", "severity": "error", "count": 2,
                                   "fixable": False, "url": data["statistics"][0]["url"]}]
    assert data["summary"]["errors"] == 2 and data["ok"] is False


def test_statistics_mark_fixable_rules(workspace_copy):
    (workspace_copy / ".claude/skills/create-rollouts").unlink()  # a missing .claude link: doctor --fix makes it
    result = CliRunner().invoke(app, ["doctor", str(workspace_copy), "--select", "SKL", "--statistics"])
    [row, legend, verdict] = result.stdout.splitlines()
    assert "[*] " in row and legend == "[*] fixable with `osmosis doctor --fix`"
    assert verdict.endswith("fixable with `osmosis doctor --fix`")


def test_bad_forms_are_usage_errors(workspace_copy):
    runner = CliRunner()
    bad = runner.invoke(app, ["doctor", str(workspace_copy), "--output-format", "short"])
    assert bad.exit_code == 2 and bad.stderr == "error: --output-format short: choose full (the default) or concise\n"
    sarif = runner.invoke(app, ["doctor", str(workspace_copy), "--statistics", "-f", "sarif"])
    assert sarif.exit_code == 2 and "--statistics can be printed as text, json" in sarif.stderr


def test_output_file_gets_the_report_and_the_terminal_the_verdict(workspace_copy, tmp_path):
    _break(workspace_copy, "configs/training/multiply.toml", "lr = ", "learning_rate = ")
    out = tmp_path / "report.txt"
    result = CliRunner().invoke(app, ["doctor", str(workspace_copy), "--select", "CFG", "-o", str(out)])
    assert result.exit_code == 1
    assert result.stdout == f"1 error (report written to {out})\n"
    assert "learning_rate = 1e-6" in out.read_text(encoding="utf-8")


def test_a_secret_is_never_shown_as_source(workspace_copy):
    token = "sk-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
    _break(workspace_copy, "configs/eval/multiply.toml", "[evaluation]", f'[evaluation]\napi_key = "{token}"')
    result = CliRunner().invoke(app, ["doctor", str(workspace_copy), "--select", "CFG,SEC"])
    assert result.exit_code == 1 and "api_key" in result.stdout  # the findings are there
    assert token not in result.stdout and token[:12] not in result.stdout


def test_validate_shows_source_lines_too_and_has_the_concise_form(workspace_copy):
    _break(workspace_copy, "configs/training/multiply.toml", "lr = ", "learning_rate = ")
    skill = workspace_copy / ".agents/skills/create-rollouts"
    _break(workspace_copy, ".agents/skills/create-rollouts/SKILL.md", "\ndescription:", "\ndescripton:")
    config = workspace_copy / "configs/training/multiply.toml"
    runner = CliRunner()
    full = runner.invoke(app, ["validate", str(config), str(skill)])
    assert full.exit_code == 1
    assert "      13 | learning_rate = 1e-6" in full.stdout and "      3 | descripton: " in full.stdout
    concise = runner.invoke(app, ["validate", str(config), "--output-format", "concise"])
    assert [line for line in concise.stdout.splitlines() if ": error " in line] == [
        "configs/training/multiply.toml:13:1: error CFG003 unknown key `learning_rate` in [training]; did you mean `lr`?"]
    assert concise.stdout.splitlines()[-1] == "1 error"


def test_validate_shows_no_line_of_a_file_a_link_leads_to(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text("token = 'hunter2-very-secret'\n[experiment]\nbogus = 1\n", encoding="utf-8")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "eval.toml").symlink_to(secret)
    (plain / "own.toml").write_text("token = 'visible-line'\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(plain / "eval.toml"), str(plain / "own.toml"), "--kind", "eval"])
    assert "hunter2-very-secret" not in result.stdout
    assert "| token = 'visible-line'" in result.stdout  # the file itself, not a link, is shown
