"""`osmosis doctor` end to end over tiny workspaces with test rules: exit codes, selection, formats."""

from __future__ import annotations

import json
import re

import pytest


def test_clean_workspace_exits_0_and_says_so(standard, mini_ws, run):
    result = run("doctor", mini_ws)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == "No issues found."
    assert sorted(standard.calls) == ["configs", "layout", "secrets"]


def test_error_exits_1_with_family_mark_location_code_and_hint(standard, mini_ws, run):
    (mini_ws / "data").rmdir()
    (mini_ws / "configs/eval/a.toml").write_text("x = 1\ny = 'bad'\n", encoding="utf-8")
    result = run("doctor", mini_ws)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "✗ Layout" in lines
    assert "! Configs" in lines
    assert "    data: error LAY901 the data/ folder is missing" in lines
    assert "    configs/eval/a.toml:2:6: warning CFG901 the word bad" in lines
    assert lines[lines.index("    configs/eval/a.toml:2:6: warning CFG901 the word bad") + 1:][:2] == ["      2 | y = 'bad'", "        |      ^"]
    assert "      hint: Fix CFG901." in lines
    assert lines[-1] == "1 error, 1 warning; 1 fixable with `osmosis doctor --fix`"
    # every family gets its line (issue 3): the ones without findings are marked as passing
    passing = [line for line in lines if line.startswith("✓ ")]
    assert passing and all(not line.endswith(("Layout", "Configs")) for line in passing)


def test_warnings_pass_unless_strict(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad = 1\n", encoding="utf-8")
    assert run("doctor", mini_ws).exit_code == 0
    strict = run("doctor", mini_ws, "--strict")
    assert strict.exit_code == 1
    assert "--strict: warnings fail the run" in strict.stdout


def test_infos_never_fail(standard, mini_ws, run):
    (mini_ws / "NOTE").write_text("", encoding="utf-8")
    result = run("doctor", mini_ws, "--strict")
    assert result.exit_code == 0
    assert "i Secrets" in result.stdout and result.stdout.splitlines()[-1] == "1 info"


def test_verbose_lists_passing_families_files_and_time(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("ok = 1\n", encoding="utf-8")
    result = run("doctor", mini_ws, "-v")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for family in ("✓ Layout", "✓ Configs", "✓ Secrets"):  # each with its own time (issue 12, point 12)
        assert any(re.fullmatch(rf"{family} \(\d+\.\d\ds\)", line) for line in lines), lines
    assert "2 files checked in " in result.stdout  # the config and pyproject.toml (settings)
    assert "skipped" not in result.stdout
    assert f"workspace: {mini_ws}" in result.stdout


def test_a_subfolder_finds_the_root(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    result = run("doctor", mini_ws / "configs" / "eval", "-f", "json")
    data = json.loads(result.stdout)
    assert data["workspace"] == str(mini_ws)
    assert data["diagnostics"][0]["path"] == "configs/eval/a.toml"


@pytest.mark.parametrize("args", [("--select", "CFG"), ("--select", "cfg901"), ("--ignore", "LAY,SEC"), ("--ignore", "LAY", "--ignore", "SEC901")])
def test_select_and_ignore_keep_only_the_named_codes(standard, mini_ws, run, args):
    (mini_ws / "data").rmdir()
    (mini_ws / "NOTE").write_text("", encoding="utf-8")
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    result = run("doctor", mini_ws, "-f", "json", *args)
    codes = [d["code"] for d in json.loads(result.stdout)["diagnostics"]]
    assert codes == ["CFG901"]
    assert result.exit_code == 0  # the error was deselected; a warning alone passes


def test_deselected_families_do_not_run(standard, mini_ws, run):
    result = run("doctor", mini_ws, "--select", "CFG", "-v")
    assert standard.calls == ["configs"]
    assert "- Layout: skipped (not selected)" in result.stdout.splitlines()


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_code_is_a_usage_error_with_a_suggestion(standard, mini_ws, run, option):
    result = run("doctor", mini_ws, option, "CGF901")
    assert result.exit_code == 2
    assert "no check has that code or prefix; did you mean 'CFG901'?" in result.stderr
    assert "Traceback" not in result.output


def test_not_a_workspace_exits_2_with_one_line(standard, tmp_path, run):
    result = run("doctor", tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "not inside an Osmosis workspace" in result.stderr
    assert result.stdout == ""


def test_missing_path_exits_2(standard, tmp_path, run):
    result = run("doctor", tmp_path / "nope")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def test_unknown_format_exits_2(standard, mini_ws, run):
    result = run("doctor", mini_ws, "--format", "markdown")
    assert result.exit_code == 2
    assert "text, json, github, sarif" in result.stderr


def test_a_crashing_check_is_an_internal_error_exit_3(rules, mini_ws, run):
    rules.rule("ENT901", "entrypoints")

    @rules.check("entrypoints")
    def explode(ws):
        raise KeyError("boom")

    result = run("doctor", mini_ws)
    assert result.exit_code == 3
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("internal error: ")
    assert "explode" in result.stderr and "KeyError" in result.stderr and "please report it" in result.stderr


def test_json_output_is_only_json_and_follows_schema_1(standard, mini_ws, run):
    (mini_ws / "data").rmdir()
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    result = run("doctor", mini_ws, "--format", "json")
    data = json.loads(result.stdout)
    assert data["schema_version"] == 1 and data["ok"] is False
    assert data["workspace"] == str(mini_ws)
    assert data["summary"] == {"errors": 1, "warnings": 1, "infos": 0}
    assert data["diagnostics"][1] == {
        "code": "LAY901", "name": "test-lay901", "severity": "error", "message": "the data/ folder is missing",
        "hint": "Fix LAY901.", "path": "data", "line": None, "column": None, "fixable": True,
        "url": "https://github.com/osmosis-ai/osmosis-workspace/blob/main/docs/checks.md#lay901",
    }
    assert data["diagnostics"][0]["line"] == 1 and data["diagnostics"][0]["column"] == 1


def test_json_ok_is_false_for_warnings_under_strict(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    data = json.loads(run("doctor", mini_ws, "-f", "json", "--strict").stdout)
    assert data["ok"] is False


def test_github_format_annotates_each_finding(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    result = run("doctor", mini_ws, "--format", "github")
    assert result.stdout == "::warning file=configs/eval/a.toml,line=1,col=1,title=CFG901::the word bad\n"


def test_github_paths_are_relative_to_the_repository(standard, mini_ws, run):
    import subprocess

    subprocess.run(["git", "init", "-q", str(mini_ws.parent)], check=True)  # the workspace is a subfolder of a repository
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    result = run("doctor", mini_ws, "--format", "github")
    assert "file=ws/configs/eval/a.toml," in result.stdout


def test_output_file_receives_the_report(standard, mini_ws, run, tmp_path):
    (mini_ws / "data").rmdir()
    out = tmp_path / "report.json"
    result = run("doctor", mini_ws, "-f", "json", "-o", out)
    # the report goes to the file; the verdict line still to the terminal
    assert result.exit_code == 1 and result.stdout == f"1 error; 1 fixable with `osmosis doctor --fix` (report written to {out})\n"
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["errors"] == 1


def test_colour_follows_force_color_and_no_color(standard, mini_ws, run):
    (mini_ws / "data").rmdir()
    plain = run("doctor", mini_ws, env={"NO_COLOR": None, "FORCE_COLOR": None})
    assert "\033[" not in plain.stdout  # the runner is not a terminal
    forced = run("doctor", mini_ws, env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert "\033[31m✗\033[0m Layout" in forced.stdout
    both = run("doctor", mini_ws, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\033[" not in both.stdout


def test_list_checks_formats(standard, run):
    text = run("doctor", "--list-checks")
    assert text.exit_code == 0
    assert "  CFG901  test-cfg901  (warning)" in text.stdout
    data = json.loads(run("doctor", "--list-checks", "-f", "json").stdout)
    entry = next(c for c in data["checks"] if c["code"] == "LAY901")
    assert entry == {
        "code": "LAY901", "name": "test-lay901", "family": "layout", "severity": "error",
        "summary": "Test rule LAY901.", "why": "Because tests need it.", "example": "example of LAY901",
        "fix": "Fix LAY901.", "fixable": True, "fixability": "safe", "source": "",
        "url": "https://github.com/osmosis-ai/osmosis-workspace/blob/main/docs/checks.md#lay901",
    }
    md = run("doctor", "--list-checks", "--format", "markdown").stdout
    assert "| [LAY901](#lay901) | `test-lay901` | error | yes | Test rule LAY901. |" in md
    assert "### SET001" in md  # the settings family is documented too
    only = json.loads(run("doctor", "--list-checks", "-f", "json", "--select", "CFG").stdout)
    assert [c["code"] for c in only["checks"]] == ["CFG901"]


def test_unwritable_output_is_a_usage_error(standard, mini_ws, run, tmp_path):
    for args in (("doctor", mini_ws), ("doctor", "--list-checks")):
        result = run(*args, "-o", tmp_path / "no" / "such" / "dir" / "r.txt")
        assert result.exit_code == 2 and result.stderr.startswith("error: cannot write the report to ")


def test_real_workspace_end_to_end(make_workspace, run):
    ws = make_workspace()
    clean = run("doctor", ws)
    assert clean.exit_code == 0, clean.output
    assert clean.stdout == (
        "✓ Layout\n✓ Configs\n✓ Secrets\n✓ Entrypoints\n✓ Dependencies\n✓ Datasets\n✓ Skills\n✓ Git Sync\nNo issues found.\n"
    )
    (ws / "CLAUDE.md").unlink()
    text = run("doctor", ws)
    assert text.exit_code == 1 and "✗ Layout" in text.stdout and "CLAUDE.md" in text.stdout
    sarif = json.loads(run("doctor", ws, "-f", "sarif").stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["ruleId"].startswith("LAY") and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "CLAUDE.md"
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert {r["id"][:3] for r in rules} >= {"LAY", "CFG", "SEC", "ENT", "DAT", "SKL", "GIT", "SET"}
    github = run("doctor", ws, "-f", "github").stdout
    assert github.startswith(f"::error file=CLAUDE.md,title={result['ruleId']}::")
