"""The data checks' fast path (a block of rows in C-level passes) finds exactly what the plain path
(every row observed alone, Profile.observe) finds, on generated data holding every kind of finding:
repeats, near repeats (case, spacing, punctuation), labels in user and system prompts, a dominant
label and labels outside a system prompt's options; under the caps and past them."""

from __future__ import annotations

import json
import random

import pytest

from osmosis_workspace.check.families import datasets
from osmosis_workspace.readers.datasets import jsonl, profile

KINDS = {"DAT026", "DAT027", "DAT028", "DAT030"}  # duplicate-rows, dominant-label, label-in-*-prompt, label-off-options
MENU = "Answer with one of: yes, no"


def _rows(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        a, b = rng.randint(100, 9999), rng.randint(100, 9999)
        kind = i % 100
        if kind < 78:  # the dominant label; some rows' system prompt lists the options, a few labels are off them
            system = MENU if i % 3 == 0 else "Reply about the number."
            label = "maybe" if i % 3 == 0 and i % 51 == 0 else "yes"
            rows.append({"system_prompt": system, "user_prompt": f"Is {a} less than {b + a}?", "ground_truth": label})
        elif kind < 89:  # the answer written in the user prompt
            rows.append({"system_prompt": "Multiply.", "user_prompt": f"{a} * {b} (it is {a * b})", "ground_truth": str(a * b)})
        else:  # the answer written in the system prompt
            rows.append({"system_prompt": f"The answer is {a + b}.", "user_prompt": f"{a} + {b}", "ground_truth": str(a + b)})
    for i in range(40, n, 37):  # repeats, some with another label
        rows[i] = dict(rows[i - 20], ground_truth="no") if i % 2 else dict(rows[i - 20])
    for i in range(45, n, 53):  # near repeats: another case, spacing and punctuation
        near = dict(rows[i - 7])
        near["user_prompt"] = "  " + near["user_prompt"].upper().replace(" ", " \t ") + "!!"
        rows[i] = near
    return rows


def _findings(path, monkeypatch, plain: bool, parallel: bool) -> list[tuple]:
    with monkeypatch.context() as m:
        if plain:
            m.setattr(profile.Profile, "observe_block", lambda self, rows, lines, clean=False, columns=None: self._one_by_one(rows, lines))
        m.setattr(jsonl, "PARALLEL_MIN_BYTES", 0 if parallel else 1 << 40)
        return [(d.code, d.line, d.message) for d in datasets.check_dataset_file(path, path.name)]


@pytest.mark.parametrize("caps", [None, (300, 40)])  # under the caps; past a digest cap of 300 and a label cap of 40
def test_the_fast_path_finds_what_rows_one_by_one_find(tmp_path, monkeypatch, caps):
    if caps:
        monkeypatch.setattr(profile, "DIGEST_CAP", caps[0])
        monkeypatch.setattr(profile, "LABEL_CAP", caps[1])
    path = tmp_path / "train.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _rows(6000, seed=40)))
    plain = _findings(path, monkeypatch, plain=True, parallel=False)
    assert _findings(path, monkeypatch, plain=False, parallel=False) == plain
    if caps is None:  # the parallel reader gives each range a share of the digest cap: past it, it may remember other rows
        assert _findings(path, monkeypatch, plain=False, parallel=True) == plain
    codes = {code for code, _, _ in plain}
    assert codes >= (KINDS if caps is None else KINDS - {"DAT028"}), plain  # past a label cap of 40 the leaked labels are few
    if caps is None:
        assert sum(code == "DAT028" for code, _, _ in plain) == 2  # user prompts and system prompts


def test_a_block_past_the_label_cap_counts_labels_as_rows_one_by_one(monkeypatch):
    # the block that reaches the cap takes its new labels in order until the cap, not all of them
    from osmosis_workspace.readers.datasets.capped import Findings
    from osmosis_workspace.readers.datasets.columns import ColumnSpec

    monkeypatch.setattr(profile, "LABEL_CAP", 100)
    rows = [{"system_prompt": "s", "user_prompt": f"q{i}", "ground_truth": f"label {i % 150}"} for i in range(600)]
    spec = ColumnSpec.from_columns(list(rows[0]), 1, Findings())
    one, many = profile.Profile(spec), profile.Profile(spec)
    for line, row in enumerate(rows, 1):
        one.observe(row, line)
    for start in range(0, len(rows), 512):
        many.observe_block(rows[start : start + 512], list(range(start + 1, start + 513))[: len(rows[start : start + 512])], True)
    assert (many.labels, many.label_lines, many.unlisted) == (one.labels, one.label_lines, one.unlisted)
    assert len(many.labels) == 100 and many.unlisted == 600 - 4 * 100  # rows of labels 0-99, four of each
