"""Every JSON and TOML we read from someone else's file is checked for depth before a recursive parser
sees it (issue 28, point 5): Python's json recursed into RecursionError at ~1,000 levels (a baseline
nested 100,000 deep was exit 3), tomllib likewise."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from osmosis_workspace.core.bounded import MAX_JSON_NESTING, json_loads, json_too_deep

DEEP = "[" * 100_000 + "]" * 100_000
PACKAGE = Path(__file__).resolve().parents[2] / "generator" / "osmosis_workspace"
# The wings another change owns (issue 28's points 2, 6, 7, 9, 10): their readers are theirs to route.
ELSEWHERE = ("rehearse/", "lsp/")


@pytest.mark.parametrize("text", [DEEP, '{"a": ' * 5_000 + "1" + "}" * 5_000, b"[" * 100_000])
def test_a_deep_text_is_a_decode_error(text):
    with pytest.raises(json.JSONDecodeError, match="nested more than"):
        json_loads(text)


def test_strings_and_shallow_texts_pass():
    shallow = "[" * MAX_JSON_NESTING + "]" * MAX_JSON_NESTING
    assert json_too_deep(shallow) is None and json_loads(shallow) is not None
    assert json_loads('{"a": "[[[[\\\\\\"{{{{", "b": ["]"]}') == {"a": '[[[[\\"{{{{', "b": ["]"]}
    assert json_too_deep('"' + "[" * 500 + '"') is None


def test_the_update_policy_file_nested_deep_is_one_user_error():
    from osmosis_workspace.core.errors import UserError
    from osmosis_workspace.scaffold.policy import parse_json

    with pytest.raises(UserError, match="not valid JSON"):
        parse_json(DEEP)


def test_a_journal_nested_deep_is_no_journal(tmp_path):
    from osmosis_workspace.core.journal import read_journal

    undo = tmp_path / "undo"
    undo.mkdir()
    (undo / "journal.json").write_text("seal\n" + DEEP, encoding="utf-8")
    journal, sealed = read_journal(undo)
    assert not sealed and not journal


def test_a_dataset_value_nested_deep_is_a_finding_not_a_crash():
    from osmosis_workspace.readers.datasets.columns import loads_exact

    with pytest.raises(ValueError):
        loads_exact("[" * 5_000 + "12345678901234567890" + "]" * 5_000)  # the long number takes json, not orjson


def test_no_reader_parses_a_file_without_the_depth_check():
    """A grep over the package: json.loads / tomllib.loads only in core/bounded.py, on our own bundled
    data, or on text already checked (toml_locate runs toml_too_deep first)."""
    allowed = {"core/bounded.py", "core/schemas/__init__.py", "core/sdk_exports.py", "readers/toml_locate.py",
               "readers/datasets/jsonl.py",  # jsonl: orjson's own limit (1,024) and RecursionError caught per line
               # decode: json only below its recursion limit (a RecursionError hands the text to orjson, limit 1,024)
               "readers/datasets/decode.py"}
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in allowed or rel.startswith(ELSEWHERE):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\b(json|tomllib)\.loads?\(", line):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert offenders == []


def test_a_small_range_nested_deep_gets_orjsons_refusal_not_a_recursion_error():
    from osmosis_workspace.readers.datasets import decode

    text = "[" * 999 + "1" + "]" * 999  # past json's recursion limit, within orjson's (1,024): orjson reads it
    assert decode.standard(text) is decode.UNSURE
    assert isinstance(decode.loads(text), list)
    for depth in (1_100, 5_000):  # past orjson's limit, and far past both
        with pytest.raises(ValueError):  # orjson.JSONDecodeError is a ValueError; a RecursionError is not
            decode.loads("[" * depth + "1" + "]" * depth)
