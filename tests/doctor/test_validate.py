"""`osmosis validate` / `osmosis dataset validate`: path detection, dispatch, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from osmosis_workspace.check import validate as validate_files
from osmosis_workspace.check.validate import Target, collect


@pytest.fixture
def calls(rules, monkeypatch):
    """Replace the family file functions with recorders; CFG901 fires on a config containing `bad`."""
    cfg = rules.rule("CFG901", "configs", "error")
    seen: list[tuple] = []

    def config(path, kind, ws, display):
        seen.append(("config", kind, ws is not None, display))
        text = path.read_text(encoding="utf-8")
        return [cfg.at(display, "bad config", line=i + 1, column=1) for i, line in enumerate(text.splitlines()) if "bad" in line]

    def simple(kind):
        def fn(path, display):
            seen.append((kind, display))
            return []
        return fn

    table = {"config": config, "dataset": simple("dataset"), "skill": simple("skill"), "entrypoint": simple("entrypoint")}
    monkeypatch.setattr(validate_files, "file_function", lambda kind: table.get(kind))
    return seen


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_named_files_are_classified(tmp_path):
    tree(tmp_path, {"configs/eval/a.toml": "", "x.jsonl": "", "s/SKILL.md": "", "m.py": "", "t.toml": ""})
    got = collect([tmp_path / "configs/eval/a.toml", tmp_path / "x.jsonl", tmp_path / "s/SKILL.md", tmp_path / "m.py"], None, None)
    assert got == [
        Target(tmp_path / "configs/eval/a.toml", "config", "eval"),
        Target(tmp_path / "x.jsonl", "dataset"),
        Target(tmp_path / "s", "skill"),
        Target(tmp_path / "m.py", "entrypoint"),
    ]
    assert collect([tmp_path / "t.toml"], "training", None) == [Target(tmp_path / "t.toml", "config", "training")]


def test_a_folder_is_walked_with_narrow_rules(tmp_path):
    tree(tmp_path, {
        "configs/eval/a.toml": "", "configs/training/b.toml": "", "pyproject.toml": "",
        "data/d.json": "", "package.json": "", ".osmosis/schemas/eval.schema.json": "",
        "rollouts/r/main.py": "", "rollouts/r/tools.py": "", ".agents/skills/s/SKILL.md": "",
        ".agents/skills/s/scripts/x.py": "", ".claude/skills/s/SKILL.md": "",
    })
    kinds = sorted((t.kind, t.path.relative_to(tmp_path).as_posix()) for t in collect([tmp_path], None, None))
    assert kinds == [
        ("config", "configs/eval/a.toml"), ("config", "configs/training/b.toml"),
        ("dataset", "data/d.json"), ("entrypoint", "rollouts/r/main.py"), ("skill", ".agents/skills/s"),
    ]


def test_unknown_file_kind_and_unknown_config_kind_are_usage_errors(calls, tmp_path, run):
    tree(tmp_path, {"notes.txt": "", "x.toml": ""})
    result = run("validate", tmp_path / "notes.txt")
    assert result.exit_code == 2 and "cannot tell what this file is" in result.stderr
    result = run("validate", tmp_path / "x.toml")
    assert result.exit_code == 2 and "--kind eval or --kind training" in result.stderr
    assert run("validate", tmp_path / "x.toml", "--kind", "nope").exit_code == 2


def test_missing_path_exits_2(calls, tmp_path, run):
    result = run("validate", tmp_path / "missing.toml")
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_findings_exit_1_and_name_the_file(calls, tmp_path, run):
    tree(tmp_path, {"c.toml": "a = 1\nbad = 2\n"})
    result = run("validate", tmp_path / "c.toml", "--kind", "eval")
    assert result.exit_code == 1
    assert f"    {(tmp_path / 'c.toml').as_posix()}:2:1: error CFG901 bad config" in result.stdout
    assert calls == [("config", "eval", False, (tmp_path / "c.toml").as_posix())]


def test_inside_a_workspace_paths_are_relative_and_cross_references_on(calls, mini_ws, run):
    tree(mini_ws, {"configs/eval/a.toml": "bad = 1  # osmosis: ignore[CFG901]\n"})
    result = run("validate", mini_ws / "configs/eval/a.toml", "-f", "json")
    assert calls == [("config", "eval", True, "configs/eval/a.toml")]
    data = json.loads(result.stdout)
    assert data["workspace"] == str(mini_ws)
    assert data["diagnostics"] == [] and result.exit_code == 0  # the inline suppression applies


def test_dataset_validate_accepts_only_datasets(calls, tmp_path, run):
    tree(tmp_path, {"d.csv": "", "c.toml": "", "data/e.jsonl": ""})
    assert run("dataset", "validate", tmp_path / "d.csv").exit_code == 0
    result = run("dataset", "validate", tmp_path / "c.toml")
    assert result.exit_code == 2 and "is not a dataset file" in result.stderr
    assert run("dataset", "validate", tmp_path / "data").exit_code == 0
    assert [c for c in calls] == [("dataset", (tmp_path / "d.csv").as_posix()), ("dataset", (tmp_path / "data/e.jsonl").as_posix())]


def test_a_missing_family_function_skips_its_kind_with_a_message(calls, tmp_path, run, monkeypatch):
    monkeypatch.setattr(validate_files, "file_function", lambda kind: None)
    tree(tmp_path, {"d.jsonl": ""})
    result = run("validate", tmp_path / "d.jsonl")
    assert "skipped: the dataset checks are not available" in result.stdout
    assert result.stdout.splitlines()[-1] == "Nothing was checked."


def test_a_crashing_file_function_is_exit_3(rules, tmp_path, run, monkeypatch):
    def boom(path, display):
        raise ValueError("kaput")

    monkeypatch.setattr(validate_files, "file_function", lambda kind: boom)
    tree(tmp_path, {"d.jsonl": ""})
    result = run("validate", tmp_path / "d.jsonl")
    assert result.exit_code == 3
    assert result.stderr.startswith("internal error:") and "kaput" in result.stderr and "Traceback" not in result.output


def test_real_checks_over_a_fresh_workspace(make_workspace, run):
    ws = make_workspace()
    clean = run("validate", ws)
    assert clean.exit_code == 0, clean.output
    assert "✓ configs/eval/multiply.toml" in clean.stdout and "✓ data/multiply.jsonl" in clean.stdout
    config = ws / "configs/eval/multiply.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n[unknown_table]\nx = 1\n", encoding="utf-8")
    broken = run("validate", config, "-f", "json")
    assert broken.exit_code == 1
    [d] = json.loads(broken.stdout)["diagnostics"]
    assert d["code"].startswith("CFG") and d["path"] == "configs/eval/multiply.toml" and d["line"]
