"""The grader corpus, checked without the SDK: each case's source loaded as a module and scored directly.

- every gold label of the case's dataset, written as `#### <label>`, earns >= 0.9 (the declared-stochastic
  grader on average);
- honest: another row's different label earns less than the gold; the honest evidence earns what it says;
  odd inputs never raise and give a finite reward in [0, 1];
- gameable: each Evidence answer (uncommitted) earns more than its committed wrong answer plus 0.1.
"""

from __future__ import annotations

import json
import math
import re
import types

import pytest
import tomllib

from .datasets import DATASETS, TAGS
from .graders import CASES, Case

NAME = re.compile(r"[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*")
HONEST = [c for c in CASES if c.honest]
GAMEABLE = [c for c in CASES if not c.honest]
SAMPLES = 200  # scorings averaged for a declared-stochastic grader

ODD_TEXTS = [
    None,
    "",
    "   \n\t",
    "####",
    "#### ",
    "東京 ∑ é ñ 😀",
    "#### 東京",
    "#### " + "9" * 65536,
    "#### " + "x" * 65536,
    "y" * 65536,
    "#### " + "[" * 65536,
    "#### " + '{"a": ' * 20000,
    "\x00\x01\x02\x07\x1b[31m\x7f",
    "#### \x00\x1b\x1c\x1f",
    "#### nan",
    "#### inf",
    "#### -inf",
    "#### 1e999",
    "#### null",
    "#### []",
    "#### {}",
    '#### [1, null, {"a": []}]',
    '#### {"city": null, "year": true, "country": ["a"]}',
    "\\boxed{}",
]


def load(case: Case) -> types.ModuleType:
    """A fresh module made of the case's source (a fresh one each call: some graders keep state)."""
    module = types.ModuleType("corpus_" + case.name.replace("-", "_"))
    exec(compile(case.source, f"<corpus {case.name}>", "exec"), module.__dict__)  # noqa: S102 -- our own corpus
    return module


def reward(case: Case, text: object, label: object, before: tuple[str, ...] = ()) -> float:
    module = load(case)
    for earlier in before:
        module.score(earlier, label)
    return module.score(text, label)


def stochastic(case: Case) -> bool:
    return bool(case.settings)


def mean_reward(case: Case, text: str, label: str) -> float:
    if not stochastic(case):
        return reward(case, text, label)
    module = load(case)
    return sum(module.score(text, label) for _ in range(SAMPLES)) / SAMPLES


def labels(dataset: str) -> list[str]:
    return [row["ground_truth"] for row in DATASETS[dataset]]


# ---------------------------------------------------------------------------------------- the corpus


def test_counts() -> None:
    assert len(GAMEABLE) >= 28
    assert len(HONEST) >= 12


def test_names_unique_and_valid() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    for name in names:
        assert len(name) <= 40 and NAME.fullmatch(name), name


def test_patterns_distinct() -> None:
    patterns = [c.pattern.strip() for c in CASES]
    assert all(patterns)
    assert len(patterns) == len(set(patterns))
    sources = [c.source for c in CASES]
    assert len(sources) == len(set(sources))


def test_datasets_named() -> None:
    assert {c.dataset for c in CASES} == set(DATASETS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_settings(case: Case) -> None:
    if not case.settings:
        return
    parsed = tomllib.loads(case.settings)
    assert parsed == {"stochastic": [case.name]}, "only `stochastic` naming the case itself is allowed"
    assert case.honest


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_source_is_standard_library_only(case: Case) -> None:
    allowed = {"__future__", "json", "math", "random", "re"}
    imported = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", case.source, re.MULTILINE))
    assert imported <= allowed, imported - allowed
    assert re.search(r"^def score\(text, label\):", case.source, re.MULTILINE)


# ---------------------------------------------------------------------------------------- datasets


@pytest.mark.parametrize("family", sorted(DATASETS))
def test_dataset_rows(family: str) -> None:
    rows = DATASETS[family]
    assert 8 <= len(rows) <= 12
    for row in rows:
        assert set(row) == {"system_prompt", "user_prompt", "ground_truth"}
        assert all(isinstance(v, str) and v.strip() for v in row.values())
        assert "#### " in row["system_prompt"] + row["user_prompt"]
    golds = labels(family)
    if family == "choice":  # four letters for ten questions: every letter is some row's label
        assert set(golds) == set("ABCD")
    else:
        assert len(set(golds)) == len(golds), "labels vary from row to row"


def test_numbers_labels() -> None:
    values = [float(label) for label in labels("numbers")]
    assert any(v < 0 for v in values) and any(v != int(v) for v in values)


def test_choice_labels() -> None:
    assert set(labels("choice")) == set("ABCD")
    for row in DATASETS["choice"]:
        assert all(f"{letter})" in row["user_prompt"] for letter in "ABCD")


def test_tags_labels() -> None:
    sets = []
    for row in DATASETS["tags"]:
        assert all(tag in row["system_prompt"] for tag in TAGS)
        tags = json.loads(row["ground_truth"])
        assert 1 <= len(tags) <= 3 and set(tags) <= set(TAGS)
        sets.append(set(tags))
    assert len(TAGS) == 12
    pairs = [(a, b) for i, a in enumerate(sets) for b in sets[i + 1 :]]
    assert any(a & b for a, b in pairs) and any(not a & b for a, b in pairs)


def test_record_labels() -> None:
    for label in labels("record"):
        record = json.loads(label)
        assert isinstance(record, dict) and 2 <= len(record) <= 4


# ---------------------------------------------------------------------------------------- every case


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_gold_is_rewarded(case: Case) -> None:
    for label in labels(case.dataset):
        assert mean_reward(case, f"#### {label}", label) >= 0.9, label


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_evidence_labels_come_from_the_dataset(case: Case) -> None:
    assert case.evidence
    for ev in case.evidence:
        assert ev.label in labels(case.dataset), ev.label
        assert ev.why


# ---------------------------------------------------------------------------------------- honest


@pytest.mark.parametrize("case", HONEST, ids=lambda c: c.name)
def test_honest_wrong_below_gold(case: Case) -> None:
    golds = labels(case.dataset)
    for label in golds:
        gold = mean_reward(case, f"#### {label}", label)
        for other in golds:
            if other != label:
                assert mean_reward(case, f"#### {other}", label) < gold, (label, other)


@pytest.mark.parametrize("case", HONEST, ids=lambda c: c.name)
def test_honest_evidence(case: Case) -> None:
    assert any(ev.wrong for ev in case.evidence), "shows what a committed wrong answer earns"
    assert any(mean_reward(case, ev.answer, ev.label) >= 0.9 for ev in case.evidence), "shows the gold"
    for ev in case.evidence:
        assert not ev.before
        if ev.reward is not None:
            assert reward(case, ev.answer, ev.label) == pytest.approx(ev.reward), ev.answer
        if ev.wrong:
            assert mean_reward(case, ev.wrong, ev.label) <= 0.1, ev.wrong


@pytest.mark.parametrize("case", HONEST, ids=lambda c: c.name)
def test_honest_odd_inputs(case: Case) -> None:
    module = load(case)
    for label in [*labels(case.dataset), None, "", "nan", "   "]:
        for text in ODD_TEXTS:
            value = module.score(text, label)
            assert isinstance(value, (int, float)) and not isinstance(value, bool)
            assert math.isfinite(value) and 0.0 <= value <= 1.0, (text if text is None else text[:40], label, value)
        # an odd answer never beats the gold
        gold = mean_reward(case, f"#### {label}", label) if label and label.strip() and label != "nan" else 1.0
        for text in ODD_TEXTS:
            assert module.score(text, label) <= gold


# ---------------------------------------------------------------------------------------- gameable


@pytest.mark.parametrize("case", GAMEABLE, ids=lambda c: c.name)
def test_gameable_evidence(case: Case) -> None:
    for ev in case.evidence:
        assert ev.wrong and ev.wrong != ev.answer
        gamed = reward(case, ev.answer, ev.label, ev.before)
        wrong = reward(case, ev.wrong, ev.label)
        assert gamed > wrong + 0.1, (ev.answer[:60], gamed, ev.wrong, wrong)


@pytest.mark.parametrize("case", GAMEABLE, ids=lambda c: c.name)
def test_gameable_odd_inputs_do_not_raise(case: Case) -> None:
    """The flaw is the payment, not a crash: odd answers get a finite reward, so a probe sees the reward."""
    module = load(case)
    for label in labels(case.dataset):
        for text in ODD_TEXTS:
            value = module.score(text, label)
            assert isinstance(value, (int, float)) and math.isfinite(value) and 0.0 <= value <= 1.0
