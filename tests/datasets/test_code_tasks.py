"""DAT031 (a code task's tests that do not parse) and DAT032 (a rehearse column the data lacks), through
`osmosis dataset validate` and `osmosis doctor` on a workspace rendered from the `code` template; and the
checker's reading of the tests agrees with the template's own parser (scoring.parse_tests)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.readers.datasets.code_tests import looks_like_tests, problem_of_tests

ROLLOUT = "tasks"


def _cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def _doctor(root: Path) -> list[dict]:
    result = _cli("doctor", root, "--format", "json", "--no-cache")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["diagnostics"]


@pytest.fixture
def ws(tmp_path) -> Path:
    root = tmp_path / "ws"
    result = _cli("init", root, "--template", "code", "--defaults", "--no-git", "--data", f"rollout_name={ROLLOUT}")
    assert result.exit_code == 0, result.output
    return root


def _rows(ws: Path) -> list[dict]:
    return [json.loads(line) for line in (ws / "data" / f"{ROLLOUT}.jsonl").read_text().splitlines()]


def _write(ws: Path, rows: list[dict]) -> None:
    (ws / "data" / f"{ROLLOUT}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_the_fresh_template_is_clean_and_declares_its_columns(ws):
    assert [d for d in _doctor(ws) if d["code"] in ("DAT031", "DAT032")] == []
    text = (ws / "pyproject.toml").read_text()
    assert f'[tool.osmosis.rehearse.rollout.{ROLLOUT}]\ngold-column = "reference"\npartial-column = "partial"\n' in text


BROKEN = {
    "not JSON": '{"function": "gcd", "tests": [',
    "no function name": '{"function": "", "tests": [{"input": [1], "output": 1}]}',
    "tests not a list": '{"function": "gcd", "tests": {"input": [1], "output": 1}}',
    "no tests": '{"function": "gcd", "tests": []}',
    "input not a list": '{"function": "gcd", "tests": [{"input": 7, "output": 7}]}',
    "no output": '{"function": "gcd", "tests": [{"input": [7, 7]}]}',
}


@pytest.mark.parametrize("how", list(BROKEN))
def test_a_row_whose_tests_do_not_parse_is_an_error_at_its_line(ws, how):
    rows = _rows(ws)
    rows[4]["ground_truth"] = BROKEN[how]
    _write(ws, rows)
    [found] = [d for d in _doctor(ws) if d["code"] == "DAT031"]
    assert found["severity"] == "error" and found["path"] == f"data/{ROLLOUT}.jsonl" and found["line"] == 5
    assert "do not parse" in found["message"] and found["hint"]
    result = _cli("dataset", "validate", ws / "data" / f"{ROLLOUT}.jsonl", "--format", "json")
    assert result.exit_code == 1 and "DAT031" in result.output


def test_labels_of_other_tasks_are_not_read_as_tests(tmp_path):
    data = tmp_path / "qa.jsonl"
    rows = [{"user_prompt": f"q{i}", "ground_truth": label} for i, label in
            enumerate(["Paris", '{"answer": 3}', "[1, 2]", '{"function_name": "x"}', "function"])]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = _cli("dataset", "validate", data, "--format", "json")
    assert "DAT031" not in result.output, result.output


def test_a_declared_column_the_dataset_lacks_is_reported_at_the_declaration(ws):
    rows = [{k: v for k, v in r.items() if k != "partial"} for r in _rows(ws)]
    _write(ws, rows)
    [found] = [d for d in _doctor(ws) if d["code"] == "DAT032"]
    text = (ws / "pyproject.toml").read_text().splitlines()
    assert found["path"] == "pyproject.toml" and text[found["line"] - 1] == 'partial-column = "partial"'
    assert f"data/{ROLLOUT}.jsonl" in found["message"] and "`partial`" in found["message"]


def test_a_workspace_wide_column_applies_to_every_rollout_without_its_own(ws):
    assert _cli("rollout", "new", "mul", "--template", "multiply", "--defaults", "--workspace", ws).exit_code == 0
    path = ws / "pyproject.toml"
    path.write_text(path.read_text().replace("[tool.osmosis.rehearse.rollout.", '[tool.osmosis.rehearse]\ngold-column = "solution"\n\n[tool.osmosis.rehearse.rollout.', 1))
    found = [d for d in _doctor(ws) if d["code"] == "DAT032"]
    # the code rollout declares its own gold-column; multiply's data has no `solution`
    assert [("data/mul.jsonl" in d["message"], d["line"]) for d in found] == [(True, path.read_text().splitlines().index('gold-column = "solution"') + 1)]


@pytest.fixture
def template_parser(ws):
    folder = ws / "rollouts" / ROLLOUT
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(f"{ROLLOUT}_rollout.scoring").parse_tests
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n.startswith(f"{ROLLOUT}_rollout")]:
            del sys.modules[name]


def test_the_checker_and_the_template_read_tests_alike(ws, template_parser):
    labels = [*BROKEN.values(), *(r["ground_truth"] for r in _rows(ws)),
              '{"function": "f", "tests": [{"input": [], "output": null}]}', '{"function": "f", "tests": [1]}']
    for label in labels:
        assert looks_like_tests(label)
        try:
            template_parser(label)
            parsed = True
        except ValueError:
            parsed = False
        assert parsed is (problem_of_tests(label) is None), label
