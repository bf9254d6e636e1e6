"""Config checks over a whole workspace (doctor) and through `osmosis validate`, and the CFG022 fix."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.check.families.configs import check_configs, check_config_file
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace

CASES = Path(__file__).resolve().parents[1] / "cases" / "configs"


def fix_schema_directives(root):
    """Only CFG022's repair, through the journaled writer `doctor --fix` uses."""
    from osmosis_workspace.check.fix import apply_fixes

    return apply_fixes(Workspace(root), wanted=lambda code: code == "CFG022")


def put(root: Path, kind: str, name: str, case: str) -> Path:
    target = root / "configs" / kind / name
    target.write_text((CASES / kind / case).read_text(encoding="utf-8"), encoding="utf-8")
    return target


def codes(found) -> list[tuple[str, str | None, int | None]]:
    return sorted((d.code, d.path, d.line) for d in found)


def test_good_workspace_has_no_config_findings(config_ws):
    put(config_ws, "eval", "multiply.toml", "good-full.toml")
    put(config_ws, "training", "multiply.toml", "good-full.toml")
    assert check_configs(Workspace(config_ws)) == []


def test_rollout_without_eval_config_is_a_warning(config_ws):
    (config_ws / "rollouts" / "search").mkdir()
    put(config_ws, "eval", "multiply.toml", "good-full.toml")
    found = check_configs(Workspace(config_ws))
    assert codes(found) == [("CFG020", "rollouts/search", None)]
    assert found[0].severity.value == "warning"
    # A config whose file name differs still counts when its `rollout` names the folder.
    (config_ws / "configs" / "eval" / "search-small.toml").write_text(
        (config_ws / "configs" / "eval" / "multiply.toml").read_text().replace('rollout = "multiply"', 'rollout = "search"')
    )
    (config_ws / "rollouts" / "search" / "main.py").write_text("")
    assert check_configs(Workspace(config_ws)) == []


def test_variant_file_names_match_their_rollout(config_ws):
    put(config_ws, "eval", "multiply-large.toml", "good-full.toml")
    put(config_ws, "eval", "multiplyer.toml", "good-full.toml")
    found = check_configs(Workspace(config_ws))
    assert codes(found) == [("CFG021", "configs/eval/multiplyer.toml", 4)]


def test_entrypoint_symlink_out_of_the_rollout(config_ws, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("")
    os.symlink(outside, config_ws / "rollouts" / "multiply" / "agent.py")
    text = (CASES / "eval" / "good-minimal.toml").read_text().replace('"./main.py"', '"agent.py"')
    path = config_ws / "configs" / "eval" / "multiply.toml"
    path.write_text(text)
    found = check_config_file(path, "eval", Workspace(config_ws), "configs/eval/multiply.toml")
    assert [(d.code, d.line, d.column) for d in found] == [("CFG017", 5, 14)]


def test_named_local_file_outside_the_dataset_listing_is_checked_as_a_dataset(config_ws):
    (config_ws / "data" / "rows.txt").write_text("not a dataset\n")
    text = (CASES / "eval" / "good-full.toml").read_text().replace('dataset = "multiply"', 'dataset = "data/rows.txt"')
    path = config_ws / "configs" / "eval" / "multiply.toml"
    path.write_text(text)
    found = check_config_file(path, "eval", Workspace(config_ws), "configs/eval/multiply.toml")
    # the path itself is CFG019 (`dataset` is a platform name); the file's content is the dataset checks'
    assert [d.code for d in found if d.path == "configs/eval/multiply.toml"] == ["CFG019"]
    data = [d for d in found if d.path != "configs/eval/multiply.toml"]
    assert data, "an unsupported dataset file must be reported by the dataset checks"
    assert {d.path for d in data} == {"data/rows.txt"}
    assert all(d.code.startswith("DAT") for d in data)


def test_files_listed_under_data_are_left_to_the_dataset_family(config_ws, monkeypatch):
    import osmosis_workspace.check.families.datasets as datasets

    def boom(*_):
        raise AssertionError("doctor already checks data/ files")

    monkeypatch.setattr(datasets, "check_dataset_file", boom)
    put(config_ws, "eval", "multiply.toml", "good-full.toml")
    assert check_configs(Workspace(config_ws)) == []


def test_fix_inserts_or_replaces_the_directive(config_ws):
    missing = put(config_ws, "eval", "multiply.toml", "cfg022-no-directive.toml")
    wrong = put(config_ws, "training", "multiply.toml", "cfg022-wrong-directive.toml")
    before_missing = missing.read_text()
    broken = config_ws / "configs" / "training" / "broken.toml"
    broken.write_text("# no directive\n[experiment\n")
    changes = fix_schema_directives(config_ws)
    assert len(changes) == 2
    assert missing.read_text() == "#:schema ../../.osmosis/schemas/eval.schema.json\n" + before_missing
    assert wrong.read_text().splitlines()[0] == "#:schema ../../.osmosis/schemas/training.schema.json"
    assert wrong.read_text().splitlines()[1:] == (CASES / "training" / "cfg022-wrong-directive.toml").read_text().splitlines()[1:]
    assert broken.read_text() == "# no directive\n[experiment\n"  # unparsable: left alone
    found = check_configs(Workspace(config_ws))
    assert "CFG022" not in {d.code for d in found}
    assert fix_schema_directives(config_ws) == []  # idempotent


def test_fix_keeps_crlf_line_endings(config_ws):
    path = config_ws / "configs" / "eval" / "multiply.toml"
    text = (CASES / "eval" / "cfg022-no-directive.toml").read_text().replace("\n", "\r\n")
    path.write_bytes(text.encode())
    fix_schema_directives(config_ws)
    assert path.read_bytes().startswith(b"#:schema ../../.osmosis/schemas/eval.schema.json\r\n# expect")


# -- the CLI ------------------------------------------------------------------------------------


def test_validate_cli_reports_code_and_position(config_ws, monkeypatch):
    path = put(config_ws, "eval", "multiply.toml", "cfg028-threshold.toml")
    monkeypatch.chdir(config_ws)
    result = CliRunner().invoke(app, ["validate", "configs/eval/multiply.toml"])
    assert result.exit_code == 0, result.output  # a range outside our advice is a warning (issue 10)
    assert "configs/eval/multiply.toml:13:18" in result.output and "CFG028" in result.output
    assert path.exists()


def test_validate_cli_json_and_clean_exit(config_ws, monkeypatch):
    import json

    put(config_ws, "eval", "multiply.toml", "good-full.toml")
    put(config_ws, "training", "multiply.toml", "cfg023-nan.toml")
    monkeypatch.chdir(config_ws)
    ok = CliRunner().invoke(app, ["validate", "configs/eval/multiply.toml"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(app, ["validate", "configs/training/multiply.toml", "--format", "json"])
    assert bad.exit_code == 1
    payload = json.loads(bad.stdout)
    text = json.dumps(payload)
    assert '"CFG023"' in text and '"line": 10' in text


def test_validate_cli_outside_a_workspace_skips_cross_references(tmp_path, monkeypatch):
    config = tmp_path / "loose.toml"
    config.write_text((CASES / "eval" / "cfg018-entrypoint-missing.toml").read_text())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "loose.toml", "--kind", "eval"])
    assert result.exit_code == 0, result.output  # only the entrypoint cross-reference is wrong
    syntax = tmp_path / "syntax.toml"
    syntax.write_text((CASES / "eval" / "cfg001-unquoted-string.toml").read_text())
    result = CliRunner().invoke(app, ["validate", "syntax.toml", "--kind", "eval"])
    assert result.exit_code == 1 and "CFG001" in result.output and "Traceback" not in result.output


def test_unreadable_configs_are_one_finding(tmp_path):
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('model_path = "caf\xe9"\n'.encode("latin-1"))
    found = check_config_file(latin1, "eval", None, "latin1.toml")
    assert [(d.code, d.line, d.message) for d in found] == [("CFG001", 1, "latin1.toml is not UTF-8 text (TOML must be)")]
    gone = check_config_file(tmp_path / "gone.toml", "eval", None, "gone.toml")
    assert [(d.code, d.line) for d in gone] == [("CFG001", None)]


def test_kind_is_guessed_from_folder_then_tables(tmp_path):
    from osmosis_workspace.check.families.configs import guess_config_kind

    assert guess_config_kind(tmp_path / "configs" / "training" / "x.toml") == "training"
    assert guess_config_kind(tmp_path / "x.toml", "[sampling]\nrollout_top_p = 1\n") == "training"
    assert guess_config_kind(tmp_path / "x.toml", "[evaluation]\nn = 1\n") == "eval"
    assert guess_config_kind(tmp_path / "x.toml", "a = 1\n") is None
