"""Issue 12, point 11: one root cause gives one finding, at the place to fix. Each test breaks a
fresh workspace the way the issue's new user did and checks that the doubled or misleading finding
is gone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

EVAL = "configs/eval/multiply.toml"
TRAIN = "configs/training/multiply.toml"

_PRISTINE: dict[str, Path] = {}


@pytest.fixture
def ws(make_workspace, tmp_path_factory, tmp_path) -> Path:
    if "root" not in _PRISTINE:
        keep = tmp_path_factory.mktemp("pristine") / "demo"
        shutil.copytree(make_workspace(), keep, symlinks=True)
        _PRISTINE["root"] = keep
    root = tmp_path / "copy" / "demo"
    shutil.copytree(_PRISTINE["root"], root, symlinks=True)
    return root


def doctor(root: Path, *args: str) -> list[dict]:
    result = CliRunner().invoke(app, ["doctor", str(root), "-f", "json", "--ignore", "GIT", *args])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["diagnostics"]


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_misspelt_rollout_is_cfg016_without_a_rename_to_the_typo(ws):
    edit(ws, EVAL, 'rollout = "multiply"', 'rollout = "multipy"')
    found = [(d["code"], d["path"]) for d in doctor(ws)]
    assert found == [("CFG016", EVAL)], found


def test_a_deleted_entrypoint_suggests_nothing_unrelated_and_entrypoints_is_not_a_pass(ws):
    (ws / "rollouts/multiply/main.py").unlink()
    found = doctor(ws)
    assert {d["code"] for d in found} == {"CFG018"}
    assert all("did you mean" not in d["message"] for d in found), found  # not 'grading.py'
    text = CliRunner().invoke(app, ["doctor", str(ws), "--ignore", "GIT"]).stdout
    assert "✓ Entrypoints" not in text and "- Entrypoints: not checked: the entrypoint is missing" in text


def test_a_misspelt_entrypoint_still_gets_its_suggestion(ws):
    edit(ws, EVAL, 'entrypoint = "main.py"', 'entrypoint = "mian.py"')
    [d] = doctor(ws)
    assert d["code"] == "CFG018" and "did you mean 'main.py'?" in d["message"]


def test_a_secret_set_in_env_is_reported_at_the_env_key_the_hint_says_to_remove(ws):
    edit(ws, EVAL, "[evaluation]", '[env]\nOPENAI_API_KEY = "x"\n\n[evaluation]')
    [d] = [d for d in doctor(ws) if d["code"] == "CFG013"]
    lines = (ws / EVAL).read_text(encoding="utf-8").splitlines()
    assert lines[d["line"] - 1].startswith("OPENAI_API_KEY = ") and "[env]" in d["hint"]


def test_a_first_row_without_ground_truth_is_one_finding_at_that_row(ws):
    path = ws / "data/multiply.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    del rows[0]["ground_truth"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    found = [(d["code"], d["path"], d["line"]) for d in doctor(ws, "--select", "DAT")]
    assert found == [("DAT010", "data/multiply.jsonl", 1)], found
    [d] = doctor(ws, "--select", "DAT")
    assert "first row" in d["message"] and "`ground_truth`" in d["message"]


def test_a_later_row_without_ground_truth_is_still_that_rows_finding(ws):
    path = ws / "data/multiply.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    del rows[3]["ground_truth"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    found = [(d["code"], d["line"]) for d in doctor(ws, "--select", "DAT")]
    assert found == [("DAT010", 4)], found


def test_one_bad_skill_name_is_one_finding(ws):
    edit(ws, ".agents/skills/plan-training/SKILL.md", "name: plan-training", "name: Plan_Training")
    found = [d for d in doctor(ws, "--select", "SKL")]
    assert [(d["code"], d["line"]) for d in found] == [("SKL014", 2)], found
    assert "uppercase" in found[0]["message"] and "'_'" in found[0]["message"]
    assert found[0]["hint"] == "set `name: plan-training`"


def test_validate_with_a_kind_other_than_the_folders_offers_no_fix_it_cannot_make(ws):
    result = CliRunner().invoke(app, ["validate", "--kind", "eval", str(ws / TRAIN), "-f", "json"])
    found = json.loads(result.stdout)["diagnostics"]
    assert found and not any(d["fixable"] for d in found), found
    assert "CFG022" not in {d["code"] for d in found}
    text = CliRunner().invoke(app, ["validate", "--kind", "eval", str(ws / TRAIN)]).stdout
    assert "fixable" not in text
