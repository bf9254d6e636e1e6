"""The probes without the SDK (inprocess.py): their answers, and their verdicts on graders run in-process on
exactly the answers the scripted model would send. The real SDK's run is test_probes_sdk.py."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from inprocess import REPO, failing, load_template_score, rehearse_in_process

from osmosis_workspace.core.rehearse_settings import RehearseSettings, parse
from osmosis_workspace.rehearse.answer_space import answer_space, partly_right, read_label
from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.probe_cases import MALFORMED, NON_ANSWERS
from osmosis_workspace.rehearse.probes import PROBES, markdown

SYSTEM = "Multiply val1 by val2; give the product on its own final line, after '#### ' (for example: #### -1234.5678)."
ROWS = [(i, {"system_prompt": SYSTEM, "user_prompt": f"val1 = {a}\nval2 = {b}", "ground_truth": f"{a * b:.4f}"})
        for i, (a, b) in enumerate([(-170.7625, -1003.1735), (1950.8372, -1336.8757), (12.5, 3.25), (7.0, 8.0)])]
_failing = failing


def _load_scoring():
    return load_template_score()


def test_the_templates_grader_passes_every_probe():
    judgement = rehearse_in_process(_load_scoring(), ROWS)
    assert judgement.ok, [(v.name, v.detail) for v in judgement.verdicts if v.holds is not True]
    holds = {v.name: v.holds for v in judgement.verdicts}
    judged = [p for p in PROBES if p not in ("partly right", "near miss", "invariance", "code")]
    assert all(holds[p] is True for p in judged), holds
    assert holds["partly right"] is None   # numbers have no parts: near misses cover them


def _label_anywhere(text, label):
    return 1.0 if label in text else 0.0


def _any_number_close(text, label):
    return 1.0 if any(abs(float(n) - float(label)) <= 0.01 for n in re.findall(r"-?\d+(?:\.\d+)?", text)) else 0.0


def _length_bonus(text, label):
    return min(1.0, _load_scoring()(text, label) + len(text) / 20000)


def _ascii_only(text, label):
    text.encode("ascii")
    return _load_scoring()(text, label)


def _noisy(text, label):
    return min(1.0, max(0.0, _load_scoring()(text, label) + random.uniform(-0.05, 0.05)))


def _format_bonus(text, label):
    return 0.5 * ("####" in text) + 0.5 * _load_scoring()(text, label)


def _nan_on_empty(text, label):
    return math.nan if not text.strip() else _load_scoring()(text, label)


def _ten_scale(text, label):
    return 10.0 * _load_scoring()(text, label)


def _partial(text, label):
    # a third of the reward for being within 20% (a near miss), full for the answer: honest shaping
    found = re.findall(r"####\s*(-?\d+(?:\.\d+)?)", text)
    if not found:
        return 0.0
    answer, expected = float(found[-1]), float(label)
    if abs(answer - expected) <= 0.01:
        return 1.0
    return 1 / 3 if abs(answer - expected) <= 0.2 * abs(expected) else 0.0


@pytest.mark.parametrize("grader, probe", [
    (_label_anywhere, "hedge"),
    (_any_number_close, "hedge"),
    (_length_bonus, "length"),
    (_ascii_only, "malformed"),
    (_noisy, "determinism"),
    (_nan_on_empty, "finite"),
])
def test_each_gameable_grader_fails_its_probe(grader, probe):
    judgement = rehearse_in_process(grader, ROWS)
    assert not judgement.ok
    assert probe in _failing(judgement), [(v.name, v.detail) for v in judgement.verdicts]
    [verdict] = [v for v in judgement.verdicts if v.name == probe]
    assert probe == "finite" or "\n" not in verdict.detail and "row " in verdict.detail and (
        "hint" in verdict.detail or "the grader raised on " in verdict.detail)


def test_a_failing_probe_says_row_answer_rewards_and_hint_in_one_line():
    judgement = rehearse_in_process(_label_anywhere, ROWS)
    assert judgement.headline.startswith("hedge: row 0 (two on one line): hedging pays: with the gold in 2 of 2 places "), judgement.headline
    assert "1.00 for '#### " in judgement.headline and "(gold 1.00, wrong 0.00; " in judgement.headline
    assert "hint: the grader pays for the gold in more than one place" in judgement.headline and "\n" not in judgement.headline


def test_a_format_reward_above_a_tenth_of_the_scale_fails_format_only_and_a_small_one_holds():
    judgement = rehearse_in_process(_format_bonus, ROWS)   # 0.5 for the `####` wrapper alone
    assert "format-only" in _failing(judgement), [(v.name, v.detail) for v in judgement.verdicts]
    small = rehearse_in_process(lambda text, label: 0.1 * ("####" in text) + 0.9 * _load_scoring()(text, label), ROWS)
    assert small.ok, small.headline


def test_near_misses_are_reported_and_judged_only_against_a_declared_tolerance():
    undeclared = rehearse_in_process(_partial, ROWS)
    assert undeclared.ok, undeclared.headline
    [near] = [v for v in undeclared.verdicts if v.name == "near miss"]
    assert near.holds is True   # the flipped sign is judged always; the rest reported
    assert {f["kind"] for f in near.figures} >= {"sign flipped", "off by one", "1% off", "5% off", "9% off"}
    assert {round(f["reward"], 3) for f in near.figures if f["kind"] == "5% off"} == {0.333}
    declared = rehearse_in_process(_partial, ROWS, parse({"answers": {"absolute-tolerance": 0.01}})[0])
    assert declared.ok, declared.headline   # partial credit outside the tolerance stays below the gold
    lenient = rehearse_in_process(_within_a_fifth, ROWS, parse({"answers": {"relative-tolerance": 0.05}})[0])
    assert "near miss" in failing(lenient) and "(9% off)" in lenient.headline, lenient.headline
    assert rehearse_in_process(_within_a_fifth, ROWS, parse({"answers": {"relative-tolerance": 0.1}})[0]).ok


def _within_a_fifth(text, label):
    found = re.findall(r"####\s*(-?\d+(?:\.\d+)?)", text)
    return 1.0 if found and abs(float(found[-1]) - float(label)) <= 0.2 * abs(float(label)) else 0.0


def _sign_ignored(text, label):
    found = re.findall(r"####\s*(-?\d+(?:\.\d+)?)", text)
    return 1.0 if found and abs(abs(float(found[-1])) - abs(float(label))) <= 0.01 else 0.0


def test_a_grader_that_ignores_the_sign_fails_even_undeclared():
    judgement = rehearse_in_process(_sign_ignored, ROWS)
    assert "near miss" in failing(judgement) and "(sign flipped)" in judgement.headline, judgement.headline


def test_a_declared_range_fails_rewards_outside_it_and_the_default_only_reports():
    default = rehearse_in_process(_ten_scale, ROWS)
    assert default.ok, default.headline
    assert any("outside [0, 1]" in n for n in default.notes)
    declared = rehearse_in_process(_ten_scale, ROWS, settings=parse({"reward-range": [0, 1]})[0])
    assert not declared.ok and declared.headline.startswith("in range: ")
    scaled = rehearse_in_process(_ten_scale, ROWS, settings=parse({"reward-range": [0, 10]})[0])
    assert scaled.ok, scaled.headline


def test_a_declared_stochastic_grader_reports_the_spread_and_an_accepted_probe_says_so():
    settings = parse({"stochastic": ["r"], "accept": {"r/hedge": "the policy must list every factor"}})[0]
    noisy = rehearse_in_process(_noisy, ROWS, settings=settings)
    [determinism] = [v for v in noisy.verdicts if v.name == "determinism"]
    assert determinism.holds is True and determinism.detail.startswith("declared stochastic: the same gold answer's rewards differ by up to 0.")
    anywhere = rehearse_in_process(_label_anywhere, ROWS, settings=parse(
        {"stochastic": ["r"], "accept": {"r/hedge": "the policy must list every factor", "glued": "ok", "near miss": "ok"}})[0])
    assert anywhere.ok and anywhere.headline.endswith("accepted on purpose: hedge, glued, near miss"), anywhere.headline
    [enum] = [v for v in anywhere.verdicts if v.name == "hedge"]
    assert enum.holds is False and enum.accepted == "the policy must list every factor"


def test_settings_problems_are_named():
    _, problems = parse({"reward-range": [1, 0], "stochastic": "yes", "accept": {"length": ""}, "reward_range": [0, 1]})
    assert [key for key, _ in problems] == ["reward_range", "reward-range", "stochastic", "accept"]


def _space(golds):
    labels = [read_label(g) for g in golds]
    return labels, answer_space(labels, [])


@pytest.mark.parametrize("golds, index, partial", [
    (['[1,2,3]', '[4,5]'], 0, '[4,2,3]'), (['["a","b"]', '["c"]'], 1, '["c","a"]'), (['["a","b"]', '["a"]'], 0, '["b"]'),
    (['{"a": 1, "b": "x"}', '{"a": 2, "b": "y"}'], 0, '{"a": 2, "b": "x"}'), (["Paris"], 0, None), (["56"], 0, None),
])
def test_partly_right_swaps_one_part_for_another_option_of_the_space(golds, index, partial):
    labels, space = _space(golds)
    assert partly_right(labels[index], space, 0) == partial


def test_a_partly_right_item_is_never_a_decoration_of_the_original():
    labels, space = _space(['["pets", "food"]', '["travel"]', '["music", "pets"]'])
    for part in range(4):
        swapped = json.loads(partly_right(labels[0], space, part))
        assert all(item in space.items for item in swapped) and "not pets" not in swapped


def test_every_hedge_puts_the_gold_in_every_place():
    cases = build(ROWS[:3], True).cases
    for row in range(3):
        gold = ROWS[row][1]["ground_truth"]
        by_shape = {}
        for case in cases:
            if case.pass_name == "hedge" and case.source_row == row:
                by_shape.setdefault(case.kind, []).append(case.answer)
        assert {"two on one line", "three with or", "one per line", "several answer lines", "one per answer format"} <= set(by_shape)
        for shape, answers in by_shape.items():
            if shape in ("a range holding it", "glued"):
                continue
            places = [re.split(r", | or |\n", a.replace("#### ", "").replace("\\boxed{", "").replace("The answer is ", "")).index(
                next(p for p in re.split(r", | or |\n", a.replace("#### ", "").replace("\\boxed{", "").replace("The answer is ", ""))
                     if p.rstrip("}.") == gold)) for a in answers]
            assert sorted(places) == list(range(len(answers))), (shape, answers)


def test_every_non_answer_kind_is_sent_even_with_fewer_rows():
    kinds = {c.kind for c in build(ROWS[:2], True).cases if c.pass_name == "non-answer"}
    assert kinds == {k for k, _ in NON_ANSWERS}


def test_the_wrong_answer_is_wrong_beyond_any_tolerance_and_shares_no_item():
    near = [(i, {"user_prompt": f"q{i}", "ground_truth": g}) for i, g in enumerate(["100", "101", "250"])]
    wrongs = {c.source_row: c.answer for c in build(near, True, probes=False).cases if c.pass_name == "wrong"}
    assert wrongs == {0: "250", 1: "250", 2: "100"}
    tags = [(i, {"user_prompt": f"q{i}", "ground_truth": g}) for i, g in enumerate(['["a","b"]', '["b","c"]', '["d"]'])]
    wrongs = {c.source_row: json.loads(c.answer) for c in build(tags, True, probes=False).cases if c.pass_name == "wrong"}
    assert wrongs == {0: ["d"], 1: ["d"], 2: ["a", "b"]}


def test_every_malformed_kind_is_sent_even_with_fewer_rows():
    cases = build(ROWS[:2], True).cases
    kinds = {c.kind for c in cases if c.pass_name == "malformed"}
    assert kinds == {k for k, _ in MALFORMED}
    assert {c.source_row for c in cases if c.pass_name == "malformed"} == {0, 1}


def test_the_docs_table_is_the_probe_table():
    doc = (REPO / "docs" / "rehearse.md").read_text(encoding="utf-8")
    assert markdown() in doc, ("docs/rehearse.md's verdict table is stale: paste the output of "
                               "`python -c 'from osmosis_workspace.rehearse.probes import markdown; print(markdown())'`")


def test_json_carries_every_probes_figures():
    from osmosis_workspace.rehearse.render import Rehearsed, to_json

    data = to_json(Rehearsed(rehearse_in_process(_load_scoring(), ROWS)))
    figures = {v["name"]: v.get("figures") for v in data["verdicts"]}
    assert all(figures[p] for p in PROBES if p not in ("partly right", "code")), figures
    json.dumps(data)


def test_the_rows_take_a_labels_parts_in_turn():
    labels, space = _space(['{"name": "Ana", "city": "Lima", "age": 34}', '{"name": "Bo", "city": "Oslo", "age": 51}'])
    gold = json.loads(labels[0].text)
    changed = [next(k for k, v in json.loads(partly_right(labels[0], space, row)).items() if gold[k] != v) for row in range(4)]
    assert changed == ["name", "city", "age", "name"]


PEOPLE = [(i, {"user_prompt": f"Who is person {i}? Answer as JSON.",
               "ground_truth": json.dumps({"name": n, "city": c, "age": a})})
          for i, (n, c, a) in enumerate([("Ana", "Lima", 34), ("Bo", "Oslo", 51), ("Cy", "Rome", 27), ("Di", "Kyiv", 45)])]


def _per_field(text: str, label: str, ignore: tuple[str, ...] = ()) -> float:
    """1/3 per matching field of the JSON object after the last ####; ``ignore``d fields always count as right."""
    try:
        got = json.loads(text.rsplit("####", 1)[-1].strip())
    except ValueError:
        return 0.0
    want = json.loads(label)
    if not isinstance(got, dict):
        return 0.0
    return sum(1 for k in want if k in ignore or got.get(k) == want[k]) / len(want)


def test_a_per_field_grader_shows_its_partial_credit_and_one_that_ignores_a_field_fails():
    sound = rehearse_in_process(_per_field, rows=PEOPLE)
    assert sound.ok, sound.headline
    [partial] = [v for v in sound.verdicts if v.name == "partly right"]
    assert partial.holds is True and "partial credit on 4 of 4 answers" in partial.detail, partial.detail
    blind = rehearse_in_process(lambda text, label: _per_field(text, label, ignore=("city",)), rows=PEOPLE)
    [partial] = [v for v in blind.verdicts if v.name == "partly right"]
    assert partial.holds is False and "row 1" in partial.detail, partial.detail  # row 1 got the city wrong, paid as gold
