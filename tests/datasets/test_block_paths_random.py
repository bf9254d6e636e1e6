"""The JSON lines reader's block paths against the per-row reference, on random data.

Three block paths stand in for row-by-row work: lines cut with ``BytesIO.readlines`` (blocks.line_blocks
with ``ends``) instead of ``bytes.split``, a batch's cheap row tests in C-level passes over its columns
(rows.compile_many) instead of the compiled per-row test, and the profile's block pass fed those columns.
Each must find exactly what the reference finds: every line split alone, parsed alone and taken alone,
every row observed alone. The rows vary whitespace, case, unicode, escapes, key order, types, and mix in
malformed, blank, non-object and very long lines, repeats and near repeats, labels in prompts.
"""

from __future__ import annotations

import io
import json
import random

import orjson
import pytest
from osmosis_workspace.readers.datasets import jsonl, profile
from osmosis_workspace.readers.datasets.blocks import LONG_LINE, line_blocks
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.code_tests import OPENS
from osmosis_workspace.readers.datasets.columns import ColumnSpec
from osmosis_workspace.readers.datasets.rows import (
    RowChecker,
    compile_many,
    compile_quick,
)

WORDS = ["val1", "=", "-704.6689", "Multiply", "the", "NUMBERS.", "é", "É", "straße", "日本", "🙂", "(15 + 5) * 3", "#",
         "a)", "B)", "yes", "no", "answer:", "Choose one of: cat, dog", "42", "x_1", "\\", '"', "'quoted'", "…"]
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\x1c", "\u2003", " \t "]
KEYS = ["system_prompt", "user_prompt", "ground_truth"]


def _text(rng: random.Random, words: int) -> str:
    parts = []
    for _ in range(words):
        word = rng.choice(WORDS)
        parts.append(word.upper() if rng.random() < 0.1 else word)
        parts.append(rng.choice(SPACES))
    text = "".join(parts)
    return text.strip() if rng.random() < 0.7 else text


def _odd(rng: random.Random) -> object:
    return rng.choice(["", "   ", "\t\n", None, 5, 2.5, True, [1, "a"], {"k": "v"}, '{"function": "f", "tests": [',
                       " leading space", '{"function": "f", "tests": [{"input": [1], "output": 2}]}'])


NUMERIC_SYSTEMS = ["Multiply the two numbers.", "Give the product, to four places.", "Compute it; show your working."]


def _number(rng: random.Random) -> str:
    """A numeric label, mostly plain (ASCII, no letter, no whitespace: profile._plain), sometimes not."""
    if rng.random() < 0.005:
        return rng.choice(["\x1c7", "7\x1f", "٣", "7A", "1e5", "- 3", "½"])  # whitespace at an end, non-ASCII, a letter
    if rng.random() < 0.1:
        return rng.choice(["#1", "(3)", "1-2", "42", "7", "-0", "3/4", "$5", "1,000"])
    return f"{rng.uniform(-2000, 2000):.4f}"


def _row(rng: random.Random, earlier: list[dict], calm: bool = False, numeric: bool = False) -> dict:
    """A random row; ``calm``: one that passes the row rules (for a stretch of clean batches); ``numeric``:
    with numeric labels, some of them in the user prompt as written or inside a longer number."""
    if earlier and rng.random() < (0.005 if numeric else 0.08):  # a repeat, or a near one (case, spacing, punctuation), maybe another label
        row = dict(rng.choice(earlier))
        if rng.random() < 0.5 and isinstance(row.get("user_prompt"), str):
            row["user_prompt"] = "  " + row["user_prompt"].upper().replace(" ", " \t ") + "?!"
        if rng.random() < 0.3:
            row["ground_truth"] = _number(rng) if numeric else _text(rng, 1)
        return row
    label = _number(rng) if numeric else _text(rng, rng.choice([1, 1, 2]))
    systems = NUMERIC_SYSTEMS if numeric else ["Multiply the two numbers.", "Answer with one of: yes, no", _text(rng, 6)]
    row = {"system_prompt": rng.choice(systems),
           "user_prompt": _text(rng, rng.randint(1, 12)), "ground_truth": label}
    if rng.random() < (0.12 if numeric else 0.05):  # (numeric: past LEAK_SHARE, so the finding counts them)
        row["user_prompt"] += f" (it is {label})"  # a label in its user prompt
    if numeric and rng.random() < 0.05:
        row["user_prompt"] += rng.choice([f" val = 1{label}9", f" {label}.", f"\n{label.upper()}"])  # in a longer number too
    if rng.random() < (0.003 if numeric else 0.03):
        row["system_prompt"] += f" The answer is {label}."
    if not calm and rng.random() < 0.04:
        row[rng.choice(KEYS)] = _odd(rng)
    if not calm and rng.random() < 0.02:
        del row[rng.choice(KEYS)]
    if not calm and rng.random() < 0.02:
        row["extra"] = 1
    if rng.random() < 0.002:
        row["user_prompt"] = "long " * 40_000  # a very long row (200 KB)
    keys = list(row)
    rng.shuffle(keys) if rng.random() < 0.1 else None
    return {k: row[k] for k in keys}


_QUICK = compile_quick(ColumnSpec.from_columns(KEYS, 1, Findings()))


def _clean(row: dict) -> bool:
    """Whether a row passes the row rules with a label that cannot open a code task's tests."""
    return row.keys() == set(KEYS) and _QUICK(row) and not row["ground_truth"].startswith(OPENS)


def _line(rng: random.Random, row: dict, calm: bool) -> str:
    if not calm and rng.random() < 0.01:
        return rng.choice(["", "   ", '{"system_prompt": "s", "user_prompt": ', "[1, 2]", '"text"', "{bad json}", "NaN"])
    separators = rng.choice([(",", ":"), (", ", ": "), (" , ", " : ")])
    return json.dumps(row, ensure_ascii=rng.random() < 0.3, separators=separators)


def _file(seed: int, n: int, numeric: bool = False) -> bytes:
    rng = random.Random(seed)
    rows: list[dict] = []
    lines = []
    calm = False
    for i in range(n):
        if i % 256 == 0:  # stretches of rows that pass the row rules (the block paths' usual case), and others
            calm = rng.random() < 0.6
        row = _row(rng, rows[-300:], calm, numeric)
        while calm and not _clean(row):
            row = _row(rng, [], calm, numeric)
        rows.append(row)
        lines.append(_line(rng, row, calm))
    ending = rng.choice(["\n", "\r\n"])
    return (ending.join(lines) + ("" if rng.random() < 0.3 else ending)).encode()


def _reference(data: bytes) -> tuple:
    """Every line split, parsed and taken alone; every row observed alone."""
    findings = Findings()
    checker = RowChecker(findings, None)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the piece after a final newline is no line
    real = profile.Profile.observe_block
    profile.Profile.observe_block = lambda self, rows, nums, clean=False, columns=None: self._one_by_one(rows, nums)
    try:
        rows = jsonl._one_by_one(lines, 0, False, checker, findings, orjson.loads)
        checker.finish()
    finally:
        profile.Profile.observe_block = real
    if findings.profile is not None:
        findings.profile.report(findings)
    return [tuple(f) for f in findings.shown], sorted(findings.counts.items()), rows


def _fast(path, block_size: int, monkeypatch, blocks: list) -> tuple:
    real = profile.Profile.observe_block
    monkeypatch.setattr(profile.Profile, "observe_block",
                        lambda self, *args: blocks.append(args[-1] if len(args) == 4 else None) or real(self, *args))
    result = jsonl.scan_range(path, 0, path.stat().st_size, None, block_size=block_size)
    monkeypatch.undo()
    if result.findings.profile is not None:
        result.findings.profile.report(result.findings)
    return [tuple(f) for f in result.findings.shown], sorted(result.findings.counts.items()), result.rows


@pytest.mark.parametrize("seed", range(6))
def test_the_reader_finds_on_random_files_what_the_per_row_reference_finds(tmp_path, monkeypatch, seed):
    data = _file(seed, 3000 if seed % 2 else 1500)
    path = tmp_path / "train.jsonl"
    path.write_bytes(data)
    want = _reference(data)
    for block_size in (1 << 20, 3001, 64 << 10):  # one block; blocks cut mid-line and mid-batch
        blocks: list = []
        assert _fast(path, block_size, monkeypatch, blocks) == want, block_size
        assert any(b is not None for b in blocks) and None in blocks  # batches with their columns, and others


@pytest.mark.parametrize("seed", range(4))
def test_numeric_labels_take_the_plain_label_path_and_find_what_the_reference_finds(tmp_path, monkeypatch, seed):
    """Blocks of plain labels (numbers) test the user-prompt leak on the prompts as written (profile._plain):
    the same findings as row by row, leaks and labels inside longer numbers among them."""
    data = _file(100 + seed, 3000, numeric=True)
    path = tmp_path / "train.jsonl"
    path.write_bytes(data)
    want = _reference(data)
    answers: list[bool] = []
    real = profile._plain
    for block_size in (1 << 20, 3001):
        monkeypatch.setattr(profile, "_plain", lambda labels: answers.append(real(labels)) or answers[-1])
        assert _fast(path, block_size, monkeypatch, []) == want, block_size
    assert True in answers and False in answers  # both paths were taken


@pytest.mark.parametrize("seed", range(20))
def test_lines_cut_by_readlines_are_the_lines_split_cuts(seed):
    rng = random.Random(seed)
    pieces = [b"", b"\n", b"\r\n", b"{}", b"x" * rng.randint(1, 300), "é\n".encode(), b"\n\n", b" \t"]
    data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 400)))
    for block in (1, 7, 64, 1 << 20):
        for max_line in (None, 50):
            split = [line for b in line_blocks(io.BytesIO(data), 0, len(data), block, max_line) for line in b]
            kept = [line for b in line_blocks(io.BytesIO(data), 0, len(data), block, max_line, ends=True) for line in b]
            assert [line[:-1] if line.endswith(b"\n") else line for line in kept] == split
            assert all(line.endswith(b"\n") or line is LONG_LINE for line in kept[:-1])


@pytest.mark.parametrize("seed", range(30))
def test_a_batch_passes_the_column_tests_only_when_every_row_passes_the_row_tests(seed):
    rng = random.Random(seed)
    spec = ColumnSpec.from_columns(KEYS, 1, Findings())
    fast, many = compile_quick(spec), compile_many(spec)
    earlier: list[dict] = []
    for _ in range(40):
        rows = [_row(rng, earlier) for _ in range(rng.choice([1, 5, 128]))]
        earlier = rows
        cols = many(rows)
        passes = all(map(fast, rows))
        if cols is not None:
            assert passes
            assert cols == {k: [row[k] for row in rows] for k in KEYS}
        elif passes:  # a wrong None costs time only; it is taken for a label that may open a code task's tests
            assert any(row["ground_truth"].startswith(OPENS) for row in rows)
