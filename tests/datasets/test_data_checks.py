"""The data checks (issue 30, point 2): DAT026-DAT029 on what rows hold, and none of them on a fresh
workspace of any bundled template or on the platform's layout (point 3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.check.families import datasets
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.readers.datasets import profile
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.jsonl import scan_file

DATA_CODES = {"DAT026", "DAT027", "DAT028", "DAT029", "DAT030"}
PLATFORM = Path(__file__).resolve().parents[1] / "cases" / "workspace_template"
# Every bundled template, multiply with each integration and both tasks (Harbor has only the multiply task).
RENDERS = {
    "multiply-strands": ("multiply", ()),
    "multiply-strands-single-answer": ("multiply", ("task=single-answer",)),
    "multiply-openai-agents": ("multiply", ("integration=openai-agents",)),
    "multiply-openai-agents-single-answer": ("multiply", ("integration=openai-agents", "task=single-answer")),
    "multiply-harbor": ("multiply", ("integration=harbor",)),
    "llm-judge": ("llm-judge", ()),
    "calculator-remote": ("calculator-remote", ()),
    "blank": ("blank", ()),
    "code": ("code", ()),
}


def _cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def _doctor(root: Path, *options: str) -> list[dict]:
    result = _cli("doctor", root, "--format", "json", "--no-cache", *options)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["diagnostics"]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("renders")
    out = {}
    for name, (template, data) in RENDERS.items():
        target = base / name
        result = _cli("init", target, "--template", template, "--defaults", "--no-git",
                      *[a for d in data for a in ("--data", d)])
        assert result.exit_code == 0, (name, result.output)
        out[name] = target
    return out


@pytest.mark.parametrize("name", sorted(RENDERS))
def test_no_data_check_fires_on_a_fresh_workspace(rendered, name):
    root = rendered[name]
    found = [d for d in _doctor(root) if d["code"] in DATA_CODES]
    assert found == [], found
    # ... and the checks did look: every dataset the template ships was read into a profile of its rows
    files = Workspace(root).data_files
    assert files, name
    for path in files:
        seen = datasets.findings_of(path).profile
        assert seen is not None and seen.rows >= 4 and seen.labelled_rows == seen.rows, (name, path)


def test_no_data_check_fires_on_the_platform_template(tmp_path):
    ws = tmp_path / "platform"
    shutil.copytree(PLATFORM, ws)
    assert [d for d in _doctor(ws) if d["code"] in DATA_CODES] == []


def _train_and_eval(rendered, tmp_path, shared: int) -> Path:
    """A multiply workspace whose training config names data/multiply-train.jsonl, holding ``shared``
    of the eval dataset's rows (rows 2, 4, ... of it) and rows of its own."""
    root = tmp_path / "ws"
    shutil.copytree(rendered["multiply-strands"], root)
    eval_rows = (root / "data" / "multiply.jsonl").read_text(encoding="utf-8").splitlines()
    own = [json.dumps({"system_prompt": "Multiply.", "user_prompt": f"{i} * 7", "ground_truth": str(7 * i)}) for i in range(30)]
    (root / "data" / "multiply-train.jsonl").write_text("\n".join(own + eval_rows[1 : 2 * shared : 2]) + "\n", encoding="utf-8")
    config = root / "configs" / "training" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('dataset = "multiply"', 'dataset = "multiply-train"'), encoding="utf-8")
    return root


def test_eval_rows_in_the_training_dataset_are_named_with_their_lines(rendered, tmp_path):
    root = _train_and_eval(rendered, tmp_path, shared=7)
    [found] = [d for d in _doctor(root, "--select", "DAT") if d["code"] in DATA_CODES]
    assert found["code"] == "DAT029" and found["path"] == "data/multiply.jsonl" and found["line"] == 2, found
    assert "7 of " in found["message"] and "data/multiply-train.jsonl" in found["message"], found
    assert "lines 2, 4, 6, 8, 10, ..." in found["message"], found
    assert found["severity"] == "warning" and found["hint"]


def test_eval_rows_in_training_count_when_they_differ_in_case_spacing_or_punctuation(rendered, tmp_path):
    root = _train_and_eval(rendered, tmp_path, shared=3)
    train = root / "data" / "multiply-train.jsonl"
    rows = [json.loads(line) for line in train.read_text(encoding="utf-8").splitlines()]
    for row in rows[-3:]:  # the shared eval rows, rewritten: upper case, doubled spaces, a full stop
        row["user_prompt"] = row["user_prompt"].upper().replace(" ", "  ") + "."
        row["system_prompt"] = row["system_prompt"].lower()
    train.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    [found] = [d for d in _doctor(root, "--select", "DAT") if d["code"] in DATA_CODES]
    assert found["code"] == "DAT029" and "3 of " in found["message"] and "lines 2, 4, 6" in found["message"], found


def test_no_overlap_no_finding_and_each_file_is_read_once(rendered, tmp_path, monkeypatch):
    root = _train_and_eval(rendered, tmp_path, shared=0)
    reads: list[str] = []
    real = datasets.findings_of
    monkeypatch.setattr(datasets, "findings_of", lambda path, **kw: reads.append(Path(path).name) or real(path, **kw))
    assert [d for d in _doctor(root, "--select", "DAT") if d["code"] in DATA_CODES] == []
    assert sorted(reads) == ["multiply-train.jsonl", "multiply.jsonl"]  # the overlap check reused the profiles


def _rows_with_repeats(n: int) -> bytes:
    rows = [{"system_prompt": "Multiply.", "user_prompt": f"{i} * 3", "ground_truth": str(3 * i)} for i in range(n)]
    rows[n - 5] = dict(rows[3])  # a repeat in the second half of the file: across the parallel reader's ranges
    rows[n - 2] = dict(rows[n - 10])  # one within the second range
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


def test_the_parallel_reader_finds_the_same_repeats_as_the_serial_one(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(_rows_with_repeats(4000))
    shown = []
    for parallel in (False, True):
        findings = Findings()
        assert scan_file(path, path.stat().st_size, findings, parallel=parallel) == 4000
        findings.profile.report(findings)
        shown.append([(f.kind, f.line, f.message) for f in findings.shown])
    assert shown[0] == shown[1]
    assert shown[0] == [("duplicate-rows", 3996, "2 rows repeat an earlier row's prompt (system and user prompt, compared ignoring case, spacing and punctuation): lines 3996, 3999")]


def test_past_the_digest_cap_repeats_of_remembered_rows_are_still_found(tmp_path, monkeypatch):
    monkeypatch.setattr(profile, "DIGEST_CAP", 100)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(_rows_with_repeats(400))  # row 396 repeats row 4 (remembered), row 399 repeats row 391 (not)
    found = datasets.check_dataset_file(path, "rows.jsonl")
    assert [(d.code, d.line) for d in found] == [("DAT026", 396)]
    assert "1 row repeats" in found[0].message and "digests of the first 100 distinct prompts are kept" in found[0].message


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_dominant_label_says_what_a_constant_answer_earns(tmp_path, suffix):
    labels = ["42"] * 16 + ["7", "8", "9", "10"]
    path = tmp_path / f"d{suffix}"
    if suffix == ".jsonl":
        path.write_text("".join(json.dumps({"user_prompt": f"q{i}", "ground_truth": g, "system_prompt": "s"}) + "\n"
                                for i, g in enumerate(labels)))
    else:
        path.write_text("user_prompt,ground_truth,system_prompt\n" + "".join(f"q{i},{g},s\n" for i, g in enumerate(labels)))
    [found] = datasets.check_dataset_file(path, path.name)
    assert found.code == "DAT027"
    assert 'a model answering "42" every time would earn 0.80 of the reward' in found.message
    assert found.line == 1 if suffix == ".jsonl" else 2


def test_a_small_dataset_is_not_judged_by_its_labels(tmp_path):
    path = tmp_path / "small.jsonl"
    rows = [{"user_prompt": f"q{i}", "ground_truth": "yes", "system_prompt": "s"} for i in range(profile.DOMINANT_MIN_ROWS - 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert datasets.check_dataset_file(path, path.name) == []


def test_rows_observed_a_block_at_a_time_give_what_rows_one_by_one_give():
    from osmosis_workspace.readers.datasets.columns import ColumnSpec

    rows = [{"system_prompt": "Multiply." if i % 7 else f"The answer is {3 * i}.", "user_prompt": f"{i % 500} * 3",
             "ground_truth": "yes" if i % 3 else str(3 * i)} for i in range(2000)]
    rows[900]["system_prompt"] = ""  # an empty system prompt, as absent
    rows[1500]["ground_truth"] = 15  # a number (DAT008's): no label
    spec = ColumnSpec.from_columns(list(rows[0]), 1, Findings())
    one, many = profile.Profile(spec, ordered=True), profile.Profile(spec, ordered=True)
    for line, row in enumerate(rows, 1):
        one.observe(row, line)
    for start in range(0, len(rows), 128):
        many.observe_block(rows[start : start + 128], list(range(start + 1, start + 129))[: len(rows[start : start + 128])])
    for name in ("rows", "repeats", "repeat_lines", "labelled_rows", "labels", "label_lines", "leaks", "seen"):
        assert getattr(one, name) == getattr(many, name), name
    assert list(one.firsts) == list(many.firsts) and list(one.first_lines) == list(many.first_lines)
    assert one.repeats > 1000 and one.leaks  # the case has repeats and leaks to agree on


def test_past_the_digest_cap_blocks_stay_on_the_fast_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(profile, "DIGEST_CAP", 1000)
    slow = []
    real = profile.Profile._one_by_one
    monkeypatch.setattr(profile.Profile, "_one_by_one", lambda self, rows, lines: slow.append(len(rows)) or real(self, rows, lines))
    path = tmp_path / "rows.jsonl"
    path.write_bytes(_rows_with_repeats(20_000))
    found = datasets.check_dataset_file(path, "rows.jsonl")
    assert [(d.code, d.line) for d in found] == [("DAT026", 19996)]  # repeats row 4, remembered; row 19999 repeats one past the cap
    assert sum(slow) < 1000, sum(slow)  # the block that fills the cap and the blocks with a repeat, not the rest
