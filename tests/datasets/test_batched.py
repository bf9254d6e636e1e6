"""The JSON lines reader's batches and the profile's bulk passes find exactly what rows one by one find.

The fast paths (a batch of lines parsed, tested and profiled in C-level passes; a block's digests
added to the set at once; a range's digests merged at once) each fall back when anything is unusual.
These tests put the unusual inside a batch and compare with the line-by-line reading.
"""

from __future__ import annotations

import json

import pytest

from osmosis_workspace.readers.datasets import jsonl, profile
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.columns import ColumnSpec
from osmosis_workspace.readers.datasets.rows import RowChecker

from tests.datasets.conftest import good_row


def _spec() -> ColumnSpec:
    return ColumnSpec.from_columns(list(good_row(0)), 1, Findings())


def _same(one: profile.Profile, many: profile.Profile) -> None:
    for name in ("rows", "repeats", "repeat_lines", "labelled_rows", "labels", "label_lines", "leaks", "seen", "unlisted"):
        assert getattr(one, name) == getattr(many, name), name
    assert list(one.firsts) == list(many.firsts) and list(one.first_lines) == list(many.first_lines)


def _both_ways(blocks: list[list[dict]], cap: int | None, after: dict | None = None) -> profile.Profile:
    """The blocks profiled row by row and block by block (the same profile asserted); the block-wise one.
    ``after``: block number -> a test of the block-wise profile after that block."""
    one, many = profile.Profile(_spec(), cap, ordered=True), profile.Profile(_spec(), cap, ordered=True)
    for n, block in enumerate(blocks):
        lines = list(range(n * 128 + 1, n * 128 + 129))
        for row, line in zip(block, lines):
            one.observe(row, line)
        many.observe_block(block, lines, clean=True)
        assert (after or {}).get(n, bool)(many), n
    _same(one, many)
    return many


@pytest.mark.parametrize("cap", [None, 10])  # under the digest cap, and past it
def test_a_repeat_within_one_block_is_found_and_the_block_leaves_no_stray_digest(cap):
    rows = [good_row(i) for i in range(128)]
    rows[50] = dict(rows[5], ground_truth="another answer")  # the same prompt, another label: a repeat
    one, many = profile.Profile(_spec(), cap, ordered=True), profile.Profile(_spec(), cap, ordered=True)
    lines = list(range(1, 129))
    if cap:  # fill the cap first, so the block is past it
        first = [good_row(1000 + i) for i in range(cap)]
        for p in (one, many):
            p.observe_block(first, list(range(1000, 1000 + cap)))
    for row, line in zip(rows, lines):
        one.observe(row, line)
    many.observe_block(rows, lines)
    _same(one, many)
    if cap:  # past the cap line 6 is not remembered, so line 51 is no repeat of a remembered row
        assert many.repeats == 0 and len(many.seen) == cap
    else:
        assert many.repeats == 1 and many.repeat_lines == [51]
        assert len(many.seen) == 127  # the block's digests were taken back, then added row by row


def _scan_lines_one_by_one(path) -> tuple[list, list, int]:
    """What the reader found before its batches: every line parsed and taken alone."""
    findings = Findings()
    checker = RowChecker(findings, None)
    rows = jsonl._one_by_one(path.read_bytes().split(b"\n")[:-1], 0, True, checker, findings)
    checker.finish()
    findings.profile.report(findings)
    return [tuple(f) for f in findings.shown], sorted(findings.counts.items()), rows


def test_batches_with_bad_lines_and_failing_rows_read_as_lines_one_by_one(tmp_path, monkeypatch):
    rows = [json.dumps(good_row(i)) for i in range(1000)]
    rows[3] = rows[200] = rows[201] = ""  # blank lines: a batch that does not parse
    rows[300] = '{"system_prompt": "s", "user_prompt": '  # cut short
    rows[400] = json.dumps(dict(good_row(400), user_prompt=""))  # fails a cheap test: that batch row by row
    rows[401] = json.dumps(good_row(7))  # repeats line 8, in a batch that is not fast
    rows[600] = "[1, 2]"  # not an object
    rows[700] = json.dumps(dict(good_row(700), extra=1))  # divergent keys
    rows[900] = json.dumps(good_row(850))  # repeats line 851, in the same batch
    rows[999] = json.dumps(good_row(5))  # repeats line 6, in a batch with no other trouble
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(rows) + "\n")
    fast = []
    real = RowChecker.take_many
    monkeypatch.setattr(RowChecker, "take_many", lambda self, objs, line: fast.append(real(self, objs, line)) or fast[-1])
    result = jsonl.scan_range(path, 0, path.stat().st_size, None, block_size=8 << 10)
    result.findings.profile.report(result.findings)
    got = [tuple(f) for f in result.findings.shown], sorted(result.findings.counts.items()), result.rows
    assert got == _scan_lines_one_by_one(path)
    assert True in fast and False in fast  # both ways were taken
    [dup] = [f for f in result.findings.shown if f.kind == "duplicate-rows"]
    assert dup.message.endswith("lines 402, 901, 1000"), dup.message


def test_clean_batches_take_the_fast_path(tmp_path, monkeypatch):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(good_row(i)) + "\n" for i in range(1000)))
    slow = []
    real = RowChecker.take
    monkeypatch.setattr(RowChecker, "take", lambda self, *a: slow.append(a[1]) or real(self, *a))
    assert jsonl.scan_range(path, 0, path.stat().st_size, None).rows == 1000
    # the first batch line by line (its first row fixes the columns), every other batch at once
    assert slow == list(range(1, jsonl.BATCH_LINES + 1))


@pytest.mark.parametrize("repeat", [False, True])
def test_the_parallel_readers_ranges_merge_as_the_serial_reader_reads(tmp_path, repeat):
    rows = [good_row(i) for i in range(3000)]
    if repeat:
        rows[2900] = dict(rows[10], ground_truth="x")  # across the ranges: the merge goes digest by digest
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    profiles = []
    for parallel in (False, True):
        findings = Findings(keep_order=True)
        assert jsonl.scan_file(path, path.stat().st_size, findings, parallel=parallel) == 3000
        profiles.append(findings.profile)
    _same(*profiles)
    assert profiles[1].repeat_lines == ([2901] if repeat else [])


def test_a_list_label_in_a_file_without_a_system_prompt_is_no_crash(tmp_path):
    # the block's fast passes took a list label for a string (it has a len) and tried to hash it
    path = tmp_path / "rows.jsonl"
    path.write_text('{"ground_truth": [], "user_prompt": null}\n')
    result = jsonl.scan_range(path, 0, path.stat().st_size, None)
    assert result.rows == 1 and "not-string" in result.findings.counts


def test_blocks_of_one_or_several_system_prompts_profile_as_rows_one_by_one():
    # one system prompt for a whole block is looked up once; blocks mixing prompts (one of them listing
    # options, one non-ASCII) take each row's; repeats written with another case, spacing or accent escape
    systems = ["Solve it. Put the answer after '#### '.", "Réponds en français, s'il te plaît.",
               "Answer with one of: yes, no"]
    blocks = []
    for b in range(6):
        block = []
        for i in range(128):
            row = good_row(b * 128 + i)
            if b % 2:  # odd blocks mix the prompts; even ones keep the first
                row["system_prompt"] = systems[i % (3 if b == 5 else 2)]
            block.append(row)
        blocks.append(block)
    blocks[2][7] = dict(blocks[0][3], user_prompt=blocks[0][3]["user_prompt"].upper().replace("\n", "  \t"))
    blocks[3][9] = dict(blocks[1][1], user_prompt="Évalue  " + blocks[1][1]["user_prompt"], ground_truth="x")  # new
    blocks[4][0] = dict(blocks[3][9], user_prompt="évalue " + blocks[1][1]["user_prompt"].lower())
    for cap in (None, 300):
        many = _both_ways(blocks, cap)
        # line 264 repeats line 4 (case and spacing); 513 repeats 394 (an accent in another case), which
        # past a cap of 300 digests is not remembered
        assert many.repeat_lines == ([264, 513] if cap is None else [264]), many.repeat_lines


def test_mixed_blocks_found_among_the_known_prompts_profile_as_rows_one_by_one():
    # mixed blocks' prompts are found among the last mixed block's (list.index, no hashing): two prompts
    # equal in their compared form (case, punctuation) make repeats across them; a block of more than
    # KNOWN_SYSTEMS prompts takes the look-up by hash and leaves the list as it was; a new prompt refreshes it
    few = ["Solve it. Put the answer after '#### '.", "SOLVE IT; put the answer after '####'", "Réponds en français."]
    many_prompts = [f"Prompt number {k}: answer briefly." for k in range(profile.KNOWN_SYSTEMS + 2)]
    blocks = []
    for b, prompts in enumerate([few, few, many_prompts, few, few[:2] + ["A new prompt."], few]):
        blocks.append([dict(good_row(b * 128 + i), system_prompt=prompts[i % len(prompts)]) for i in range(128)])
    blocks[1][5] = dict(blocks[0][0], system_prompt=few[1])  # line 134 repeats line 1 through the other spelling
    blocks[3][2] = dict(blocks[2][4])  # a repeat of the block of many prompts (line 387 of line 261)
    for cap in (None, 300):
        many = _both_ways(blocks, cap, {2: lambda p: p._known == few})  # past KNOWN_SYSTEMS prompts the list is kept
        assert many._known == few  # the last block's prompts, found in the list
        assert many.repeat_lines == [134, 387], many.repeat_lines
