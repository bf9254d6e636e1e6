"""The JSON Schemas: valid draft-07, in sync with the committed copies, and `osmosis schema` prints them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.schemas import KINDS, load_schema, schema_bytes, schema_directive, schema_filename, schema_path
from osmosis_workspace.core.schemas.evaluate import unsupported_keywords

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases" / "configs"


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft7(kind):
    import jsonschema

    schema = load_schema(kind)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["title"] and schema["description"]


@pytest.mark.parametrize("kind", KINDS)
def test_evaluator_implements_every_keyword(kind):
    assert unsupported_keywords(load_schema(kind)) == []


@pytest.mark.parametrize("kind", KINDS)
def test_committed_copy_is_up_to_date(kind):
    """schemas/ at the repository root is what people link to; it must equal the bundled file."""
    committed = REPO / "schemas" / schema_filename(kind)
    assert committed.read_bytes() == schema_bytes(kind), (
        f"schemas/{schema_filename(kind)} is out of date: cp generator/osmosis_workspace/core/schemas/*.schema.json schemas/"
    )


def test_no_stray_schema_files():
    names = {p.name for p in (REPO / "schemas").glob("*.json")}
    assert names == {schema_filename(k) for k in KINDS}


def test_shared_tables_are_identical_in_eval_and_training():
    eval_, training = load_schema("eval"), load_schema("training")
    for table in ("experiment", "env", "secrets", "advanced"):
        assert eval_["properties"][table] == training["properties"][table], table
    assert eval_["required"] == ["experiment", "secrets"]
    assert training["required"] == ["experiment"]


def test_every_table_and_key_is_closed_and_described():
    for kind in ("eval", "training"):
        schema = load_schema(kind)
        assert schema["additionalProperties"] is False
        for name, table in schema["properties"].items():
            assert table.get("description"), (kind, name)
            if name not in ("env", "advanced"):
                assert table["additionalProperties"] is False, (kind, name)
                for key, sub in table["properties"].items():
                    assert sub.get("description"), (kind, name, key)


def test_patterns_avoid_lookaround():
    """Taplo's validator (Rust `regex`) has no lookahead/lookbehind: such a pattern would break editors."""
    text = json.dumps([load_schema(k) for k in KINDS])
    assert "(?=" not in text and "(?!" not in text and "(?<" not in text


def test_directive_reaches_the_workspace_schema():
    config = Path("/ws/configs/eval/x.toml")
    target = schema_directive("eval").split(" ", 1)[1]
    assert (config.parent / target).resolve() == Path("/ws/.osmosis/schemas/eval.schema.json").resolve()


# -- osmosis schema -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_cli_prints_exact_bytes(kind):
    result = CliRunner().invoke(app, ["schema", kind])
    assert result.exit_code == 0
    assert result.stdout_bytes == schema_path(kind).read_bytes()


def test_cli_subprocess_prints_exact_bytes():
    out = subprocess.run([sys.executable, "-m", "osmosis_workspace", "schema", "training"], cwd=REPO,
                         capture_output=True, check=True).stdout
    assert out == schema_bytes("training")


def test_cli_write_creates_then_reports_unchanged(tmp_path):
    target = tmp_path / "out" / "schemas"
    runner = CliRunner()
    first = runner.invoke(app, ["schema", "--write", str(target)])
    assert first.exit_code == 0, first.output
    for kind in KINDS:
        assert (target / schema_filename(kind)).read_bytes() == schema_bytes(kind)
    assert first.output.count("created:") == len(KINDS)
    (target / "eval.schema.json").write_text("{}")
    second = runner.invoke(app, ["schema", "--write", str(target)])
    assert second.exit_code == 0
    assert "updated:" in second.output and second.output.count("unchanged:") == len(KINDS) - 1
    assert (target / "eval.schema.json").read_bytes() == schema_bytes("eval")


def test_cli_unknown_kind_exits_2_with_choices():
    result = CliRunner().invoke(app, ["schema", "evaluation"])
    assert result.exit_code == 2
    assert "eval, training, benchmark, dataset" in result.output
    assert "Traceback" not in result.output


def test_cli_no_kind_and_both_are_usage_errors(tmp_path):
    assert CliRunner().invoke(app, ["schema"]).exit_code == 2
    both = CliRunner().invoke(app, ["schema", "eval", "--write", str(tmp_path)])
    assert both.exit_code == 2 and "not both" in both.output


def test_cli_write_onto_a_file_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(app, ["schema", "--write", str(blocker)])
    assert result.exit_code == 2 and "not a folder" in result.output
    assert blocker.read_text() == "x"


# -- the reference validator (check-jsonschema, a test dependency) ------------------------------


def _check_jsonschema(kind: str, config: Path) -> int:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema_path(kind)), str(config)],
        capture_output=True,
    ).returncode


def test_check_jsonschema_accepts_good_and_rejects_bad_configs():
    assert _check_jsonschema("eval", CASES / "eval" / "good-full.toml") == 0
    assert _check_jsonschema("training", CASES / "training" / "good-full.toml") == 0
    assert _check_jsonschema("eval", CASES / "eval" / "cfg028-threshold.toml") == 1
    assert _check_jsonschema("eval", CASES / "eval" / "cfg008-branch-and-commit.toml") == 1
    assert _check_jsonschema("training", CASES / "training" / "cfg005-top-p.toml") == 1
