"""Issue 36 points 8 and 12: prompts compared normalised (DAT026, DAT029), the label in the user prompt
(DAT028) and a label outside the options the system prompt lists (DAT030)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from osmosis_workspace.check.families import datasets
from osmosis_workspace.readers.datasets import profile
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.columns import ColumnSpec
from osmosis_workspace.readers.datasets.jsonl import scan_file
from osmosis_workspace.readers.datasets.prompt_text import listed_options, normalise, normalise_many

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _codes(path: Path) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in datasets.check_dataset_file(path, path.name)]


# --- the compared form ----------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [
    ("What is the capital of France?", "what is the capital of  france"),
    ("Hello, world!", "hello world"),
    ("  Tabs\tand\nnewlines ", "tabs and newlines"),
    ("It's \"quoted\".", "it s quoted"),
])
def test_texts_differing_in_case_spacing_or_punctuation_compare_equal(a, b):
    assert normalise(a) == normalise(b)


@pytest.mark.parametrize(("a", "b"), [
    ("What is (15 + 5) * 3?", "What is 15 + 5 * 3?"),  # brackets change the question
    ("What is -2 * 3?", "What is 2 * 3?"),  # so does a sign
    ("val1 = 12 3", "val1 = 1 23"),  # word boundaries are kept
    ("20% of 50", "20 of 50"),
])
def test_texts_differing_in_what_they_ask_stay_apart(a, b):
    assert normalise(a) != normalise(b)


def test_a_block_is_normalised_as_its_texts_one_by_one():
    rng = random.Random(5)
    alphabet = "aB c.,;:!?\"'`\t\n\r(-)*+É\x00 "
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(400)]
    for start in range(0, 400, 40):
        block = texts[start : start + 40]
        assert normalise_many(block) == [normalise(t) for t in block]
    assert normalise_many([]) == [normalise("")] or normalise_many([]) == []


def test_the_compared_form_is_an_independent_spelling_of_it():
    # lower case, prose punctuation and ASCII whitespace to one space a run, the ends trimmed (re, not our passes)
    rng = random.Random(11)
    alphabet = "aB c.,;:!?\"'`\t\n\r\x0b\x0c(-)*+É\x00\x1c   "
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        want = re.sub(r"[ \t\n\r\x0b\x0c.,;:!?\"'`]+", " ", text.lower()).strip(" ")
        assert normalise(text) == want.encode().decode("latin-1"), repr(text)


@pytest.mark.parametrize("labels", [["42", "7", "1000"], ["yes", "no", "b12"], ["yes", "No"], ["42", "4.2"], ["yes", "", "no"],
                                    ["42", "x y"], ["ja", "nä"], ["42", "٣"], ["yes", "no\x00"]])
def test_labels_already_in_compared_form_come_back_as_they_are(labels):
    # ASCII letters and digits with no upper case are their own compared form; any other block is normalised
    assert normalise_many(labels) == [normalise(t) for t in labels]


def test_near_duplicates_are_repeats_and_the_fast_passes_agree_with_row_by_row(tmp_path):
    rows = [{"system_prompt": "Multiply." if i % 2 else "multiply", "user_prompt": f"What is {i % 300} * 3?", "ground_truth": str(3 * (i % 300))}
            for i in range(1000)]
    rows[700]["user_prompt"] = "WHAT IS 5 * 3"  # a near-duplicate of row 6 (system "multiply", like row 701's)
    path = _write(tmp_path / "rows.jsonl", rows)
    shown = []
    for parallel in (False, True):
        findings = Findings()
        scan_file(path, path.stat().st_size, findings, parallel=parallel)
        findings.profile.report(findings)
        shown.append([(f.kind, f.line, f.message) for f in findings.shown])
    assert shown[0] == shown[1]
    [(kind, line, message)] = shown[0]
    # rows 301 on repeat rows 1-300 (the two system prompts differ only in case and the full stop)
    assert kind == "duplicate-rows" and line == 301 and message.startswith("700 rows repeat")


# --- the label in the user prompt (DAT028) -----------------------------------------------------------

def _qa(prompts_and_labels: list[tuple[str, str]]) -> list[dict]:
    return [{"system_prompt": "Answer the question.", "user_prompt": p, "ground_truth": g} for p, g in prompts_and_labels]


def test_a_label_written_in_its_user_prompt_in_any_case_is_a_leak(tmp_path):
    path = _write(tmp_path / "d.jsonl", _qa([("Capital of France? PARIS", "Paris"), ("Largest planet (jupiter)?", "Jupiter"),
                                              ("Capital of Peru?", "Lima"), ("Capital of Chile?", "Santiago")]))
    [found] = datasets.check_dataset_file(path, path.name)
    assert (found.code, found.line) == ("DAT028", 1) and "2 of 4 rows" in found.message and "user prompt" in found.message


@pytest.mark.parametrize("prompt", [
    "Which city hosts the Louvre? A) Paris B) Lyon C) Nice",
    "Which city hosts the Louvre? Options: Lyon, Paris, Nice",
    "Which city hosts the Louvre?\n(A) Lyon\n(B) Paris",
    "Which city hosts the Louvre? Choose from: [Lyon, Paris]",
])
def test_a_label_among_the_choices_its_user_prompt_lists_is_not_a_leak(tmp_path, prompt):
    path = _write(tmp_path / "d.jsonl", _qa([(prompt, "Paris")] * 1 + [(prompt + f" ({i})", "Paris") for i in range(3)]))
    assert [c for c, _ in _codes(path) if c == "DAT028"] == []


def test_short_labels_and_class_labels_in_user_prompts_are_not_leaks(tmp_path):
    short = _write(tmp_path / "short.jsonl", _qa([(f"Is {n} prime? Think about {n}.", "7" if n == 7 else "no") for n in range(2, 30)]
                                                  + [(f"Pick {c} or B.", c) for c in "AB"]))
    assert [c for c, _ in _codes(short) if c == "DAT028"] == []
    # a yes/no task whose questions say "true" or "false": the classes are named, not given away
    classes = _write(tmp_path / "classes.jsonl", _qa([(f"Is it true that {i} is even?", "true" if i % 2 == 0 else "false")
                                                      for i in range(40)]))
    assert [c for c, _ in _codes(classes) if c == "DAT028"] == []


def test_a_row_leaking_through_its_system_prompt_is_not_counted_again_for_its_user_prompt(tmp_path):
    rows = [{"system_prompt": f"The answer is {3 * i}.", "user_prompt": f"What is {i} * 3? It is {3 * i}.", "ground_truth": str(3 * i)}
            for i in range(100, 110)]
    found = datasets.check_dataset_file(_write(tmp_path / "d.jsonl", rows), "d.jsonl")
    assert [(d.code, "system prompt" in d.message) for d in found] == [("DAT028", True)]


# --- the options a system prompt lists (DAT030) ------------------------------------------------------

@pytest.mark.parametrize(("text", "options"), [
    ("Tag it. Choose from: pets, food, travel.", {"pets", "food", "travel"}),
    ("Classify the review. Answer with one of: positive, negative, neutral.", {"positive", "negative", "neutral"}),
    ("Tags: [pets, food, travel]", {"pets", "food", "travel"}),
    ("Options: A) Paris B) Lyon C) Nice", {"a", "b", "c", "paris", "lyon", "nice"}),
    ("Pick one of the following labels:\n- cat\n- dog\n- bird\n\nThen stop.", {"cat", "dog", "bird"}),
    ("Select from the following options:\n1. Apple\n2. Banana", {"apple", "banana"}),
    ("Answer with yes or no.", {"yes", "no"}),
    ("Label it with one of these tags: `urgent`, `normal`, `low`.", {"urgent", "normal", "low"}),
])
def test_a_closed_set_of_options_is_read(text, options):
    assert listed_options(text) == options


@pytest.mark.parametrize("text", [
    "Answer with the final number.",
    "Respond with a number, a unit and a comment.",
    "You have 3 tries; answer with 1 or 2 words.",
    "Choose one category, e.g. sports, politics, tech",
    "Pick a topic such as: sports, politics, tech",
    "This is one of the best: the answer is below.",
    "Answer in one or two sentences.",
    "Give the product on its own final line, after '#### ' (for example: #### -1234.5678).",
])
def test_free_form_prompts_list_no_options(text):
    assert listed_options(text) is None


def test_no_bundled_template_prompt_lists_options():
    files = [p for p in TEMPLATES.glob("*/template/data/*") if p.is_file()]
    assert len(files) >= 5
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            assert listed_options(row.get("system_prompt", "")) is None, (path, row)


def _tagging(labels: list[str], system: str = "Tag the item. Choose from: pets, food, travel, garden.") -> list[dict]:
    return [{"system_prompt": system, "user_prompt": f"item {i}", "ground_truth": g} for i, g in enumerate(labels)]


def test_a_label_outside_the_listed_options_is_named_with_its_line(tmp_path):
    path = _write(tmp_path / "d.jsonl", _tagging(["pets", "Food", "furniture", "travel", '["pets", "garden"]', '["pets", "sofa"]']))
    [found] = datasets.check_dataset_file(path, path.name)
    assert (found.code, found.line, found.severity.value) == ("DAT030", 3, "warning")
    assert found.message.startswith("2 rows have a label outside the options") and '"furniture" is not one of' in found.message
    assert "lines 3, 6" in found.message and found.hint.startswith("Add it to the list the prompt offers, or fix the label")


def test_a_lettered_option_written_with_its_mark_is_inside_the_options(tmp_path):
    system = "Pick the capital. Options: A) Paris B) Lyon C) Nice"
    inside = _write(tmp_path / "in.jsonl", _tagging(["A", "(B)", "c)", "A) Paris", "b. Lyon", "Nice"], system=system))
    assert _codes(inside) == []
    off = _write(tmp_path / "off.jsonl", _tagging(["A", "D) Lille", "B", "C"], system=system))
    assert [c for c, _ in _codes(off)] == ["DAT030"]


def test_labels_inside_the_options_and_free_form_prompts_give_nothing(tmp_path):
    inside = _write(tmp_path / "in.jsonl", _tagging(["pets", "FOOD", "travel.", '["garden", "pets"]']))
    assert _codes(inside) == []
    free = _write(tmp_path / "free.jsonl", _tagging(["furniture", "sofa", "pets", "x"], system="Tag the item with a short word."))
    assert _codes(free) == []


def test_options_rows_go_the_same_way_in_blocks_and_one_by_one():
    rows = _tagging(["pets", "furniture"] * 200) + _qa([(f"q{i} (answer: ans{i})", f"ans{i}") for i in range(300)])
    spec = ColumnSpec.from_columns(list(rows[0]), 1, Findings())
    one, many = profile.Profile(spec, ordered=True), profile.Profile(spec, ordered=True)
    for line, row in enumerate(rows, 1):
        one.observe(row, line)
    for start in range(0, len(rows), 128):
        block = rows[start : start + 128]
        many.observe_block(block, list(range(start + 1, start + 1 + len(block))))
    for name in ("rows", "repeats", "labels", "leaks", "user_leaks", "off_list", "seen"):
        assert getattr(one, name) == getattr(many, name), name
    assert one.off_list[0] == 200 and len(one.user_leaks) == 300


# --- the data checks add findings, never change the reader's ------------------------------------------

DATA_KINDS = {"duplicate-rows", "dominant-label", "label-in-system-prompt", "label-in-user-prompt", "label-off-options"}


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[1] / "cases" / "datasets" / "bad").glob("*.jsonl")),
                         ids=lambda p: p.name)
def test_the_reader_finds_the_same_with_and_without_the_data_checks(path, monkeypatch):
    from osmosis_workspace.readers.datasets import rows

    shown = {}
    real = rows.RowChecker.__init__
    for profiled in (True, False):
        monkeypatch.setattr(rows.RowChecker, "__init__",
                            lambda self, findings, spec=None, profile=True, digest_cap=None, _p=profiled:
                            real(self, findings, spec, _p, digest_cap))
        findings = Findings()
        count = scan_file(path, path.stat().st_size, findings, parallel=False)
        shown[profiled] = (count, [f for f in findings.shown if f.kind not in DATA_KINDS], findings.profile is not None)
    assert shown[True][:2] == shown[False][:2]
    assert shown[False][2] is False  # without the data checks there is no profile at all
