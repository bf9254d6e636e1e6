"""Rows of one prompt that the SDK runs at once may reach the scripted model out of dataset order and take
each other's answers (a loaded machine makes it likely). The rehearsal must then judge each row by the
answer it really got, read back from its trajectory, so no probe fails on a sound grader.

Here the race is forced: the first requests of the rows reach the Script in a chosen order, each row is
graded on the answer it got by the multiply template's own scoring, and the run folder is written as the
SDK writes it (index.jsonl, one trajectory per row)."""

from __future__ import annotations

import json

from inprocess import load_template_score, plan_for

from osmosis_workspace.rehearse.cases import build, prompt_key
from osmosis_workspace.rehearse.run_results import read_outcome
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.scripted_model import Script
from osmosis_workspace.rehearse.verdicts import judge

SYSTEM = "Reply with #### and the number."
ROWS = [(0, {"system_prompt": SYSTEM, "user_prompt": "What is 6 times 7?", "ground_truth": "42"}),
        (1, {"system_prompt": SYSTEM, "user_prompt": "What is 7 times 9?", "ground_truth": "63"}),
        (2, {"system_prompt": SYSTEM, "user_prompt": "What is 8 times 12?", "ground_truth": "96"})]


def _run(tmp_path, rehearsal, order: list[int]):
    """Row ``order[i]`` is the i-th to reach the model; (the outcome read back, the judgement)."""
    score = load_template_score()
    script = Script(rehearsal)
    got = {}
    for number in order:
        case = rehearsal.cases[number]
        body = {"model": "m", "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": case.prompt}]}
        got[number] = script(body)["content"]
    folder = tmp_path / "trajectories"
    folder.mkdir(exist_ok=True)
    records = []
    for number, text in got.items():
        steps = [{"source": "user", "message": rehearsal.cases[number].prompt}, {"source": "agent", "message": text}]
        (folder / f"row_{number}_run_0.json").write_text(json.dumps({"steps": steps}), encoding="utf-8")
        label = ROWS[rehearsal.cases[number].source_row][1]["ground_truth"]
        records.append({"row_index": number, "status": "success", "reward": float(score(text, label)), "duration_ms": 5.0})
    (tmp_path / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    outcome = read_outcome(rehearsal, tmp_path, tmp_path, EvalProcess(0, "", "", 1.0), script.sent)
    return outcome, judge(plan_for(ROWS), outcome, script.sent)


def _swapped(count: int, a: int, b: int) -> list[int]:
    order = list(range(count))
    order[a], order[b] = order[b], order[a]
    return order


def test_a_probe_row_that_got_a_gold_copy_in_a_race_is_judged_as_the_copy(tmp_path):
    """The race two CI runs lost (llm-judge, calculator-remote, on a loaded machine): row 0's last malformed
    answer and its first determinism copy (the gold again) are neighbours of one prompt; the copy's row
    reached the model first and took the malformed answer, and the malformed row got the gold. The gold is
    sent by three rows (gold, two copies), so the row that got it must be matched to the one case whose
    own row showed something else: the copy, not the gold pass's row."""
    rehearsal = build(ROWS)
    [markup] = [c for c in rehearsal.cases if c.pass_name == "malformed" and c.kind == "broken markup and JSON"]
    copy = rehearsal.cases[markup.number + 1]
    assert (copy.pass_name, copy.kind, copy.source_row) == ("determinism", "again", markup.source_row)
    outcome, judgement = _run(tmp_path, rehearsal, _swapped(len(rehearsal.cases), markup.number, copy.number))
    rows = {r.case.number: r for r in outcome.rows}
    assert (rows[markup.number].reward, rows[copy.number].reward) == (0.0, 1.0)   # each case's own reward
    assert [v.name for v in judgement.verdicts if v.holds is False] == [], judgement.headline
    assert judgement.ok, judgement.headline


def test_no_race_of_two_rows_of_one_prompt_fails_a_verdict_on_a_sound_grader(tmp_path):
    """Every pair of rows of one prompt the SDK can run at once (the scripted model's in-flight window is
    one row per prompt, so rows up to that many apart) swapped in turn: every verdict holds each time."""
    rehearsal = build(ROWS)
    window = len(rehearsal.queue())
    keys = [prompt_key(c.prompt) for c in rehearsal.cases]
    pairs = [(a, b) for a in range(len(keys)) for b in range(a + 1, min(len(keys), a + window + 1)) if keys[a] == keys[b]]
    assert len(pairs) >= 10, pairs
    failed = {}
    for a, b in pairs:
        run_dir = tmp_path / f"race-{a}-{b}"
        run_dir.mkdir()
        _, judgement = _run(run_dir, rehearsal, _swapped(len(rehearsal.cases), a, b))
        if not judgement.ok:
            failed[(a, b)] = judgement.headline
    assert failed == {}
