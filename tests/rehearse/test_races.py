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


def _serve(rehearsal, order: list[int]) -> tuple[Script, dict[int, str]]:
    """Row ``order[i]`` is the i-th to reach the model: the Script, and the answer each row got."""
    script = Script(rehearsal)
    got = {}
    for number in order:
        case = rehearsal.cases[number]
        body = {"model": "m", "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": case.prompt}]}
        got[number] = script(body)["content"]
    return script, got


def _write_trajectory(run_dir, rehearsal, number: int, text: str) -> None:
    folder = run_dir / "trajectories"
    folder.mkdir(exist_ok=True)
    steps = [{"source": "user", "message": rehearsal.cases[number].prompt}, {"source": "agent", "message": text}]
    (folder / f"row_{number}_run_0.json").write_text(json.dumps({"steps": steps}), encoding="utf-8")


def _judged(run_dir, rehearsal, got: dict[int, str], sent: dict[int, str], score):
    """Each row graded on the answer it got, the index written as the SDK writes it, then read back and judged."""
    records = [{"row_index": n, "status": "success", "duration_ms": 5.0,
                "reward": float(score(text, ROWS[rehearsal.cases[n].source_row][1]["ground_truth"]))} for n, text in got.items()]
    (run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    outcome = read_outcome(rehearsal, run_dir, run_dir, EvalProcess(0, "", "", 1.0), sent)
    return outcome, judge(plan_for(ROWS), outcome, sent)


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
    script, got = _serve(rehearsal, _swapped(len(rehearsal.cases), markup.number, copy.number))
    assert got[markup.number] == script.sent[copy.number] and got[copy.number] == script.sent[markup.number]
    for number, text in got.items():
        _write_trajectory(tmp_path, rehearsal, number, text)
    outcome, judgement = _judged(tmp_path, rehearsal, got, script.sent, load_template_score())
    rows = {r.case.number: r for r in outcome.rows}
    assert (rows[markup.number].reward, rows[copy.number].reward) == (0.0, 1.0)   # each case's own reward
    assert [v.name for v in judgement.verdicts if v.holds is False] == [], judgement.headline
    assert judgement.ok, judgement.headline


def test_no_race_of_two_rows_of_one_prompt_fails_a_verdict_on_a_sound_grader(tmp_path):
    """Every pair of rows of one prompt the SDK can run at once (the in-flight window is one row per
    prompt, so rows up to that many apart) swapped in turn: every verdict holds each time. (Swapping two
    rows of one prompt in arrival order swaps exactly their two answers: the Script hands a prompt's
    cases out in arrival order.)"""
    rehearsal = build(ROWS)
    window = len(rehearsal.queue())
    keys = [prompt_key(c.prompt) for c in rehearsal.cases]
    pairs = [(a, b) for a in range(len(keys)) for b in range(a + 1, min(len(keys), a + window + 1)) if keys[a] == keys[b]]
    assert len(pairs) >= 10, pairs
    script, base = _serve(rehearsal, list(range(len(rehearsal.cases))))
    assert base == script.sent
    for number, text in base.items():
        _write_trajectory(tmp_path, rehearsal, number, text)
    cache: dict[tuple[str, str], float] = {}
    score = load_template_score()

    def cached(text: str, label: str) -> float:
        if (text, label) not in cache:
            cache[text, label] = score(text, label)
        return cache[text, label]

    failed = {}
    for a, b in pairs:
        got = {**base, a: base[b], b: base[a]}
        _write_trajectory(tmp_path, rehearsal, a, got[a])
        _write_trajectory(tmp_path, rehearsal, b, got[b])
        _, judgement = _judged(tmp_path, rehearsal, got, script.sent, cached)
        if not judgement.ok:
            failed[(a, b)] = judgement.headline
        _write_trajectory(tmp_path, rehearsal, a, base[a])
        _write_trajectory(tmp_path, rehearsal, b, base[b])
    assert failed == {}
