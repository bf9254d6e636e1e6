"""The probes without the SDK: their answers, and their verdicts on graders run in-process on exactly the
answers the scripted model would send (policy_answer). The real SDK's run is test_probes_sdk.py."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import re
from pathlib import Path

import pytest

from osmosis_workspace.core.rehearse_settings import RehearseSettings, parse
from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.run_results import Outcome, Row
from osmosis_workspace.rehearse.plan import RolloutPlan
from osmosis_workspace.rehearse.probe_cases import MALFORMED, enumeration, partly_right
from osmosis_workspace.rehearse.probes import PROBES, markdown
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.scripted_model import policy_answer
from osmosis_workspace.rehearse.verdicts import judge

REPO = Path(__file__).resolve().parents[2]
SCORING = REPO / "templates" / "multiply" / "template" / "rollouts" / "{{ rollout_name }}" / "{{ package }}" / "scoring.py"
SYSTEM = "Multiply val1 by val2; give the product on its own final line, after '#### ' (for example: #### -1234.5678)."
ROWS = [(i, {"system_prompt": SYSTEM, "user_prompt": f"val1 = {a}\nval2 = {b}", "ground_truth": f"{a * b:.4f}"})
        for i, (a, b) in enumerate([(-170.7625, -1003.1735), (1950.8372, -1336.8757), (12.5, 3.25), (7.0, 8.0)])]


def _load_scoring():
    spec = importlib.util.spec_from_file_location("multiply_scoring", SCORING)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.score


def _plan(rows=ROWS) -> RolloutPlan:
    return RolloutPlan("r", Path("/ws/c.toml"), "configs/eval/r.toml", "main.py", "openai/x", (), 60.0, 30.0,
                       "data/r.jsonl", list(rows))


def rehearse_in_process(grader, rows=ROWS, settings: RehearseSettings | None = None):
    """Every case's answer as the scripted model sends it, graded by ``grader(answer, label)``; a raise fails the row."""
    rehearsal = build(rows, True)
    labels = {i: row["ground_truth"] for i, row in rows}
    sent, out = {}, []
    for case in rehearsal.cases:
        text = policy_answer(case, SYSTEM + "\n" + case.prompt)
        sent[case.number] = text
        try:
            out.append(Row(case, "success", float(grader(text, labels[case.source_row])), None, 0.1))
        except Exception:  # noqa: BLE001 - as the SDK records a grader that raises
            out.append(Row(case, "failed", None, "grader_error", 0.1))
    outcome = Outcome(out, EvalProcess(0, "", "", 5.0), server_start_s=1.0)
    return judge(_plan(rows), outcome, sent, settings or RehearseSettings())


def _failing(judgement) -> list[str]:
    return [v.name for v in judgement.verdicts if v.holds is False]


def test_the_templates_grader_passes_every_probe():
    judgement = rehearse_in_process(_load_scoring())
    assert judgement.ok, [(v.name, v.detail) for v in judgement.verdicts if v.holds is not True]
    holds = {v.name: v.holds for v in judgement.verdicts}
    assert all(holds[p] is True for p in PROBES), holds
    [partial] = [v for v in judgement.verdicts if v.name == "partly right"]
    assert partial.detail.startswith("no partial credit"), partial.detail


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
    # a third of the reward for being within 20% (a near miss), full for the answer
    found = re.findall(r"####\s*(-?\d+(?:\.\d+)?)", text)
    if not found:
        return 0.0
    answer, expected = float(found[-1]), float(label)
    if abs(answer - expected) <= 0.01:
        return 1.0
    return 1 / 3 if abs(answer - expected) <= 0.2 * abs(expected) else 0.0


@pytest.mark.parametrize("grader, probe", [
    (_label_anywhere, "enumeration"),
    (_any_number_close, "enumeration"),
    (_length_bonus, "length"),
    (_ascii_only, "malformed"),
    (_noisy, "determinism"),
    (_nan_on_empty, "finite"),
])
def test_each_gameable_grader_fails_its_probe(grader, probe):
    judgement = rehearse_in_process(grader)
    assert not judgement.ok
    assert probe in _failing(judgement), [(v.name, v.detail) for v in judgement.verdicts]
    [verdict] = [v for v in judgement.verdicts if v.name == probe]
    assert "\n" not in verdict.detail and "row " in verdict.detail and "hint" in verdict.detail or probe == "finite"


def test_a_failing_probe_says_row_answer_rewards_and_hint_in_one_line():
    judgement = rehearse_in_process(_label_anywhere)
    assert judgement.headline.startswith("enumeration: row 0: it earned more than the row's wrong answer: 1.00 for '#### ")
    assert "(gold 1.00, wrong 0.00; 4 of 4 rows fail); hint: the grader pays for the label anywhere in the answer" in judgement.headline


def test_a_format_reward_above_a_wrong_answer_fails_format_only_but_not_a_wrong_with_the_format():
    # A wrong answer in the format earns the format's 0.5 too: format-only earns no more than it.
    judgement = rehearse_in_process(_format_bonus)
    assert "format-only" not in _failing(judgement)


def test_partial_credit_shows_in_the_figures():
    judgement = rehearse_in_process(_partial)
    [partial] = [v for v in judgement.verdicts if v.name == "partly right"]
    assert partial.holds is True and partial.detail.startswith("partial credit on 4 of 4 rows"), partial.detail
    assert {round(f["reward"], 3) for f in partial.figures} == {0.333}
    assert all(f["gold"] == 1.0 and f["wrong"] == 0.0 for f in partial.figures)


def _within_a_fifth(text, label):
    found = re.findall(r"####\s*(-?\d+(?:\.\d+)?)", text)
    return 1.0 if found and abs(float(found[-1]) - float(label)) <= 0.2 * abs(float(label)) else 0.0


def test_full_credit_for_a_partly_right_answer_fails():
    judgement = rehearse_in_process(_within_a_fifth)
    assert "partly right" in _failing(judgement), [(v.name, v.detail) for v in judgement.verdicts]


def test_a_declared_range_fails_rewards_outside_it_and_the_default_only_reports():
    default = rehearse_in_process(_ten_scale)
    assert default.ok, default.headline
    assert any("outside [0, 1]" in n for n in default.notes)
    declared = rehearse_in_process(_ten_scale, settings=parse({"reward-range": [0, 1]})[0])
    assert not declared.ok and declared.headline.startswith("in range: ")
    scaled = rehearse_in_process(_ten_scale, settings=parse({"reward-range": [0, 10]})[0])
    assert scaled.ok, scaled.headline


def test_a_declared_stochastic_grader_reports_the_spread_and_an_accepted_probe_says_so():
    settings = parse({"stochastic": ["r"], "accept": {"r/enumeration": "the policy must list every factor"}})[0]
    noisy = rehearse_in_process(_noisy, settings=settings)
    [determinism] = [v for v in noisy.verdicts if v.name == "determinism"]
    assert determinism.holds is True and determinism.detail.startswith("declared stochastic: the same gold answer's rewards differ by up to 0.")
    anywhere = rehearse_in_process(_label_anywhere, settings=settings)
    assert anywhere.ok and anywhere.headline.endswith("accepted on purpose: enumeration")
    [enum] = [v for v in anywhere.verdicts if v.name == "enumeration"]
    assert enum.holds is False and enum.accepted == "the policy must list every factor"


def test_settings_problems_are_named():
    _, problems = parse({"reward-range": [1, 0], "stochastic": "yes", "accept": {"length": ""}, "reward_range": [0, 1]})
    assert [key for key, _ in problems] == ["reward_range", "reward-range", "stochastic", "accept"]


def test_enumeration_hides_the_gold_in_the_middle():
    listed = enumeration("56", ["12", "90"]).split(", ")
    assert "56" in listed and listed[0] != "56" and listed[-1] != "56" and listed.count("56") == 1
    assert len(listed) > 30
    words = enumeration("Paris", ["Rome"]).split(", ")
    assert words[0] == "Rome" and "Paris" in words[1:-1]


@pytest.mark.parametrize("gold, partial", [
    ("56", "62"), ("171304.4148", "188434.8563"), ('{"a": 1, "b": "x"}', '{"a": 1, "b": "not x"}'),
    ('[1,2,3]', '[1,2,4]'), ("Paris", None), ('{"a": 1}', None), ("[1]", None),
])
def test_partly_right_changes_one_part(gold, partial):
    assert partly_right(gold) == partial


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

    data = to_json(Rehearsed(rehearse_in_process(_load_scoring())))
    figures = {v["name"]: v.get("figures") for v in data["verdicts"]}
    assert all(figures[p] for p in PROBES), figures
    json.dumps(data)


def test_the_rows_take_a_labels_parts_in_turn():
    gold = '{"name": "Ana", "city": "Lima", "age": 34}'
    changed = [next(k for k, v in json.loads(partly_right(gold, row)).items() if json.loads(gold)[k] != v) for row in range(4)]
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
    [partial] = [v for v in sound.verdicts if v.name == "partly right"]
    assert partial.holds is True and "partial credit on 4 of 4 rows" in partial.detail, partial.detail
    blind = rehearse_in_process(lambda text, label: _per_field(text, label, ignore=("city",)), rows=PEOPLE)
    [partial] = [v for v in blind.verdicts if v.name == "partly right"]
    assert partial.holds is False and "row 1" in partial.detail, partial.detail  # row 1 got the city wrong, paid as gold
