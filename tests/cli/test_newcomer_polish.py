"""Issue 12, point 12: the rough edges a new user met in the first hour, one test each."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from osmosis_workspace.cli import app

runner = CliRunner()


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_template_inspect_shows_rules_in_words_and_no_hidden_question():
    text = cli("template", "inspect", "workspace").stdout
    assert "{%" not in text and "%}" not in text
    assert "osmosis_version" not in text
    assert "rule:       keep the description to one line" in text
    assert "answer without prompts:\n  osmosis init NAME --defaults --data description=..." in text
    data = json.loads(cli("template", "inspect", "multiply", "--json").stdout)
    [rollout_name] = [q for q in data["questions"] if q["name"] == "rollout_name"]
    assert rollout_name["rule"].startswith("use 1-64 lowercase letters") and "{%" not in rollout_name["rule"]
    hidden = json.loads(cli("template", "inspect", "workspace", "--json").stdout)["questions"]
    assert "osmosis_version" not in {q["name"] for q in hidden}


def test_the_hidden_ci_pin_cannot_be_answered(tmp_path):
    result = cli("init", tmp_path / "ws", "--defaults", "--no-git", "--data", "osmosis_version=9.9.9")
    assert result.exit_code == 2 and "unknown question 'osmosis_version'" in result.output
    assert "osmosis_version" not in result.output.split("asks:", 1)[1]
    assert not (tmp_path / "ws").exists()


@pytest.mark.parametrize("command", [["template", "inspect", "multipy"], ["init", "ws", "--defaults", "--template", "multiply-opnai"]])
def test_a_misspelt_template_name_gets_a_suggestion(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = cli(*command)
    assert result.exit_code == 2
    assert re.search(r"did you mean 'multiply(-openai)?'\?", result.output), result.output


def _usage_lines() -> list[str]:
    root = typer.main.get_command(app)
    lines = []

    def walk(cmd, prefix):
        if getattr(cmd, "commands", None):
            for name, sub in cmd.commands.items():
                walk(sub, [*prefix, name])
        else:
            out = runner.invoke(app, [*prefix, "--help"], terminal_width=200).stdout
            lines.extend(line for line in out.splitlines() if line.startswith("Usage:"))

    walk(root, [])
    return lines


def test_help_writes_arguments_one_way():
    lines = _usage_lines()
    assert len(lines) > 8
    arguments = [word for line in lines for word in line.split()[2:] if word != "[OPTIONS]" and not word.islower()]
    assert not [w for w in arguments if "{" in w or "}" in w], lines
    for line in lines:  # every argument upper case: [PATH], NAME, PATH...
        for word in line.split("[OPTIONS]", 1)[-1].split():
            assert word.strip("[].") == word.strip("[].").upper(), line


def test_rollout_new_names_the_workspace_it_added_to(make_workspace, monkeypatch):
    ws = make_workspace(git=False)
    monkeypatch.chdir(ws)
    result = cli("rollout", "new", "adder", "--defaults")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first == f"Added rollout adder (template multiply) to the workspace in this folder ({ws.name}):"
    monkeypatch.chdir(ws.parent)
    other = cli("rollout", "new", "suber", "--defaults", "--workspace", ws.name)
    assert other.output.splitlines()[0].endswith(f"to the workspace at {ws.name}:")


@pytest.mark.parametrize(("name", "content", "where"), [
    ("rows.jsonl", '{"user_prompt": "unterminated}\n', "line 1, column 17"),
])
def test_a_json_parser_message_is_a_whole_sentence(tmp_path, name, content, where):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    found = json.loads(cli("validate", path, "-f", "json").stdout)["diagnostics"]
    [d] = [d for d in found if d["code"] == "DAT004"]
    assert d["message"] == f"not valid JSON: Unterminated string starting at {where}"


def test_parquet_type_and_null_hints_speak_parquet_not_json(tmp_path):
    import pyarrow as pa  # a test dependency (pyproject.toml)
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"user_prompt": ["a", None, "c", "d"], "ground_truth": [1, 2, 3, 4],
                             "system_prompt": ["s"] * 4}), tmp_path / "rows.parquet")
    found = json.loads(cli("validate", tmp_path / "rows.parquet", "-f", "json").stdout)["diagnostics"]
    # a type the platform stringifies (DAT008) and a null it rejects (DAT009): both hints speak parquet
    hints = {d["message"]: d["hint"] for d in found if d["code"] in ("DAT008", "DAT009")}
    assert len(hints) == 2, found
    for hint in hints.values():
        assert '"ground_truth": "6"' not in hint and "to_parquet" in hint
    assert any("astype(str)" in h for h in hints.values())
