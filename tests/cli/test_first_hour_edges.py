"""Issue 21, point 4: the first-hour rough edges, each as a new user met it, end to end through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import CONFIG_KINDS

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_a_number_question_answered_with_text_is_one_line_naming_question_and_type(tmp_path):
    result = cli("init", tmp_path / "ws", "--defaults", "--no-git", "--data", "integration=harbor",
                 "--data", "n_concurrent=abc")
    assert result.exit_code == 2, result.output
    assert "invalid literal" not in result.output and "Traceback" not in result.output
    [line] = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert "n_concurrent" in line and "a whole number" in line and "'abc'" in line
    assert "hint: for example --data n_concurrent=8" in result.output
    assert not (tmp_path / "ws").exists()


def test_rollout_new_refuses_a_mistyped_answer_the_same_way(make_workspace):
    ws = make_workspace(git=False)
    result = cli("rollout", "new", "h", "--workspace", ws, "--defaults", "--data", "integration=harbor",
                 "--data", "n_concurrent=1.5")
    assert result.exit_code == 2 and "expects a whole number for n_concurrent, not '1.5'" in result.output
    assert not (ws / "rollouts" / "h").exists()


def test_template_inspect_lists_the_workspace_questions_init_accepts():
    text = cli("template", "inspect", "multiply").stdout
    for name in ("workspace_name", "description"):
        assert f"\n{name} (str)" in text
    assert "osmosis init NAME --template multiply --defaults --data workspace_name=NAME --data description=..." in text
    data = json.loads(cli("template", "inspect", "multiply", "--json").stdout)
    assert {q["name"] for q in data["init_questions"]} == {"workspace_name", "description", "checker_source", "rehearse_max_parallel"}


def test_init_accepts_what_inspect_lists(tmp_path):
    result = cli("init", tmp_path / "ws", "--defaults", "--no-git", "--data", "workspace_name=from-inspect",
                 "--data", "description=said by inspect")
    assert result.exit_code == 0, result.output
    assert "said by inspect" in (tmp_path / "ws" / "README.md").read_text()


def _leaf_commands() -> dict[str, list[list[str]]]:
    """`osmosis <path>` -> each option's names (the typer app itself, not a list kept by hand)."""
    found: dict[str, list[list[str]]] = {}

    def walk(cmd, prefix):
        if getattr(cmd, "commands", None):
            for name, sub in cmd.commands.items():
                walk(sub, [*prefix, name])
            return
        found[" ".join(prefix)] = [p.opts for p in cmd.params if p.param_type_name == "option" and not p.hidden]

    walk(typer.main.get_command(app), ["osmosis"])
    return found


def _readme_rows() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("| command | what it does |", 1)[1].split("\n\n", 1)[0]
    return [row.split(" | ", 1)[0] for row in table.splitlines() if row.startswith("| `osmosis ")]


def test_readme_command_table_matches_the_cli():
    rows = _readme_rows()
    commands = _leaf_commands()
    assert len(commands) >= 10
    for command, options in commands.items():
        mine = [r for r in rows if re.match(rf"\| `{re.escape(command)}(\W|$)", r)]
        assert mine, f"README's command table has no row for {command}"
        for names in options:
            assert any(re.search(rf"{re.escape(n)}\b", row) for n in names for row in mine), \
                f"README's row for {command} lacks {names[0]}"
    for row in rows:
        assert any(re.match(rf"\| `{re.escape(c)}(\W|$)", row) for c in commands), f"{row}: no such command"
    [schema_row] = [r for r in rows if r.startswith("| `osmosis schema")]
    assert all(kind in schema_row for kind in (*CONFIG_KINDS, "dataset"))


def test_dataset_validate_help_names_only_what_the_platform_reads(tmp_path):
    help_text = " ".join(cli("dataset", "validate", "--help").stdout.split())
    assert ".jsonl, .csv or .parquet" in help_text
    assert ".json," not in help_text and ".json)" not in help_text
    rows = tmp_path / "rows.json"
    rows.write_text('[{"user_prompt": "a", "ground_truth": "b"}]')
    result = cli("dataset", "validate", rows)
    assert result.exit_code == 1 and "DAT001" in result.output and "jq -c" in result.output


def test_blank_template_placeholders_are_one_finding_per_file_with_the_hint_once(make_workspace):
    ws = make_workspace(template="blank", git=False)
    found = [d for d in json.loads(cli("doctor", ws, "-f", "json").stdout)["diagnostics"] if d["code"] == "LAY100"]
    paths = [d["path"] for d in found]
    assert len(paths) == len(set(paths)) == 6, paths
    [data] = [d for d in found if d["path"].startswith("data/")]
    assert re.match(r"12 placeholders `TODO\(osmosis\)` left by the template, on lines 1-4 \(the first: ", data["message"])
    assert (data["line"], data["column"]) == (1, 20)
    text = cli("doctor", ws).stdout
    assert text.count("LAY100") == 6 and text.count("hint: Replace the placeholder") == 1


def test_a_missing_column_without_a_near_miss_gets_a_hint_naming_the_candidates(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"question": f"q{i}", "ground_truth": "a", "system_prompt": "s"}) + "\n"
                            for i in range(4)))
    [d] = [d for d in json.loads(cli("validate", rows, "-f", "json").stdout)["diagnostics"] if d["code"] == "DAT006"]
    assert d["hint"] == ("add a `user_prompt` column, or rename the column that holds the prompt the model answers "
                         "(`question`) to `user_prompt`")
    assert "near miss" not in d["hint"]


def test_counts_and_articles_agree():
    result = cli("doctor", "--list-checks", "--select", "LAY100")
    assert result.stdout.rstrip().endswith("\n1 check") and "1 checks" not in result.stdout
    from osmosis_workspace.core.diagnostics import plural, with_article

    assert (plural(1, "row"), plural(2, "row"), with_article("eval"), with_article("training")) == \
        ("1 row", "2 rows", "an eval", "a training")


def test_a_training_table_in_an_eval_config_reads_an_eval(make_workspace):
    ws = make_workspace(git=False)
    config = ws / "configs" / "training" / "multiply.toml"
    config.write_text(config.read_text() + "\n[evaluation]\nn = 1\n")
    found = json.loads(cli("validate", config, "-f", "json").stdout)["diagnostics"]
    hints = [d["hint"] for d in found if d["hint"] and "belongs in" in d["hint"]]
    assert hints and all("belongs in an eval config" in h for h in hints), found


def test_git_sync_is_skipped_not_ticked_without_git(make_workspace):
    ws = make_workspace(git=False)
    text = cli("doctor", ws).stdout
    assert "✓ Git Sync" not in text and "+ Git Sync" not in text
    assert "- Git Sync: skipped: the workspace is not in a git work tree" in text and "LAY007" in text


def test_an_unclosed_string_is_named_with_its_line_and_column(make_workspace):
    ws = make_workspace(git=False)
    config = ws / "configs" / "eval" / "multiply.toml"
    lines = config.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("rollout = "))
    lines[at] = 'rollout = "multiply'
    config.write_text("\n".join(lines) + "\n")
    [d] = [d for d in json.loads(cli("validate", config, "-f", "json").stdout)["diagnostics"] if d["code"] == "CFG001"]
    assert "Illegal character" not in d["message"] and "not closed" in d["message"]
    assert (d["line"], d["column"]) == (at + 1, 11)
