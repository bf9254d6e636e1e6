"""[tool.osmosis] settings and inline suppressions as doctor applies them."""

from __future__ import annotations

import json


def codes(result) -> list[str]:
    return [d["code"] for d in json.loads(result.stdout)["diagnostics"]]


def broken(ws, config="bad\n"):
    (ws / "data").rmdir()
    (ws / "configs/eval/a.toml").write_text(config, encoding="utf-8")


def test_file_select_and_ignore(standard, mini_ws, tool_osmosis, run):
    broken(mini_ws)
    tool_osmosis('ignore = ["LAY"]')
    assert codes(run("doctor", mini_ws, "-f", "json")) == ["CFG901"]
    tool_osmosis('select = ["LAY901"]')
    assert codes(run("doctor", mini_ws, "-f", "json")) == ["LAY901"]


def test_cli_select_wins_over_file_ignore(standard, mini_ws, tool_osmosis, run):
    broken(mini_ws)
    tool_osmosis('ignore = ["LAY901", "CFG"]')
    assert codes(run("doctor", mini_ws, "-f", "json", "--select", "LAY")) == ["LAY901"]


def test_cli_ignore_adds_to_file_ignore(standard, mini_ws, tool_osmosis, run):
    broken(mini_ws)
    (mini_ws / "NOTE").write_text("", encoding="utf-8")
    tool_osmosis('ignore = ["LAY"]')
    assert codes(run("doctor", mini_ws, "-f", "json", "--ignore", "SEC")) == ["CFG901"]


def test_strict_from_file_and_cli_override(standard, mini_ws, tool_osmosis, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    tool_osmosis("strict = true")
    assert run("doctor", mini_ws).exit_code == 1
    assert run("doctor", mini_ws, "--no-strict").exit_code == 0


def test_per_file_ignores(standard, mini_ws, tool_osmosis, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    (mini_ws / "configs/training/a.toml").write_text("bad\n", encoding="utf-8")
    tool_osmosis('[tool.osmosis.per-file-ignores]\n"configs/eval/*" = ["CFG901"]')
    data = json.loads(run("doctor", mini_ws, "-f", "json").stdout)
    assert [(d["code"], d["path"]) for d in data["diagnostics"]] == [("CFG901", "configs/training/a.toml")]


def test_unknown_setting_is_reported_with_did_you_mean(standard, mini_ws, tool_osmosis, run):
    tool_osmosis('ignores = ["LAY"]')
    data = json.loads(run("doctor", mini_ws, "-f", "json").stdout)
    [d] = data["diagnostics"]
    assert (d["code"], d["path"], d["line"]) == ("SET001", "pyproject.toml", 5)
    assert "ignores" in d["message"] and d["message"].endswith("; did you mean `ignore`?")


def test_wrong_type_is_an_error_and_the_setting_is_dropped(standard, mini_ws, tool_osmosis, run):
    (mini_ws / "configs/eval/a.toml").write_text("bad\n", encoding="utf-8")
    tool_osmosis('strict = "yes"')
    result = run("doctor", mini_ws, "-f", "json")
    assert result.exit_code == 1  # the SET002 error, not strictness: the warning alone would pass
    assert sorted(codes(result)) == ["CFG901", "SET002"]


def test_unknown_code_in_settings_is_a_usage_error(standard, mini_ws, tool_osmosis, run):
    tool_osmosis('ignore = ["CGF901"]')
    result = run("doctor", mini_ws, "-f", "json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "pyproject.toml:5: [tool.osmosis] ignore names 'CGF901'" in result.stderr
    assert "did you mean 'CFG901'?" in result.stderr


def test_typo_in_select_does_not_turn_doctor_off(mini_ws, tool_osmosis, run):
    # issue 12, point 3: select = ["CFX"] used to run no check at all and exit 0
    (mini_ws / "configs/eval/a.toml").write_text("bad = \n", encoding="utf-8")
    tool_osmosis('select = ["CFX"]')
    result = run("doctor", mini_ws)
    assert result.exit_code == 2, result.output
    assert "select names 'CFX': no check has that code or prefix; did you mean 'CFG'?" in result.stderr
    for command in (("validate", mini_ws / "configs/eval/a.toml"), ("doctor", mini_ws, "--fix")):
        assert run(*command).exit_code == 2


def test_unknown_code_in_per_file_ignores_is_a_usage_error(mini_ws, tool_osmosis, run):
    tool_osmosis('[tool.osmosis.per-file-ignores]\n"configs/*" = ["LAY", "XYZ9"]')
    result = run("doctor", mini_ws)
    assert result.exit_code == 2 and "per-file-ignores.configs/* names 'XYZ9'" in result.stderr


def test_inline_suppression_hides_the_code_on_that_line(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text(
        "a = 'bad'  # osmosis: ignore[CFG901]\nb = 'bad'\n", encoding="utf-8"
    )
    data = json.loads(run("doctor", mini_ws, "-f", "json").stdout)
    assert [(d["code"], d["line"]) for d in data["diagnostics"]] == [("CFG901", 2)]


def test_unused_and_unknown_suppressions_are_reported(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text(
        "a = 1  # osmosis: ignore[CFG901]\nb = 2  # osmosis: ignore[XYZ123]\n", encoding="utf-8"
    )
    result = run("doctor", mini_ws, "-f", "json")
    found = [(d["code"], d["line"], d["severity"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert found == [("SET004", 1, "info"), ("SET003", 2, "warning")]
    assert result.exit_code == 0


def test_suppression_of_a_deselected_code_is_not_unused(standard, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("a = 1  # osmosis: ignore[CFG901]\n", encoding="utf-8")
    assert codes(run("doctor", mini_ws, "-f", "json", "--select", "LAY")) == []
