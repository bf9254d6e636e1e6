"""run_results.answered() reads trajectories the rollout's own code decides (the SDK writes what the agent
said): a trajectory no JSON reader can take in one go, or rows that show one another's answers in a shape no
race makes, must neither crash the rehearsal nor make the pairing take minutes."""

from __future__ import annotations

import json
import time

from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.run_results import answered, read_outcome
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.scripted_model import Script

SYSTEM = "Reply with #### and the number."


def _rehearsal(rows: int):
    """``rows`` dataset rows of one prompt and one answer (a placeholder dataset), and what the Script sends each case."""
    rehearsal = build([(i, {"system_prompt": SYSTEM, "user_prompt": "What is 6 times 7?", "ground_truth": "42"})
                       for i in range(rows)])
    script = Script(rehearsal)
    for case in rehearsal.cases:
        script({"model": "m", "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": case.prompt}]})
    return rehearsal, script.sent


def _show(run_dir, number: int, data: bytes) -> None:
    folder = run_dir / "trajectories"
    folder.mkdir(exist_ok=True)
    (folder / f"row_{number}_run_0.json").write_bytes(data)


def _said(text: str) -> bytes:
    return json.dumps({"steps": [{"source": "agent", "message": text}]}).encode()


def test_a_trajectory_nested_past_the_json_readers_depth_is_one_we_cannot_read(tmp_path):
    rehearsal, sent = _rehearsal(1)
    for case in rehearsal.cases:
        _show(tmp_path, case.number, _said(sent[case.number]))
    _show(tmp_path, 0, b'{"steps": [{"source": "agent", "message": "x", "meta": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]}")
    _show(tmp_path, 1, b"[" * 200_000)  # cut off as well
    playing = answered(rehearsal, tmp_path, sent)
    assert {n: c.number for n, c in playing.items()} == {c.number: c.number for c in rehearsal.cases}
    outcome = read_outcome(rehearsal, tmp_path, tmp_path, EvalProcess(0, "", "", 1.0), sent)
    assert [r.case.number for r in outcome.rows] == [c.number for c in rehearsal.cases]


def test_rows_that_all_want_a_few_cases_are_paired_in_linear_time(tmp_path):
    """A dataset of one prompt and one answer at the row limit (199 rows: about 7,000 cases, the gold text
    sent by 597 of them): the rows sent the gold show the wrong answer and every other row shows the gold.
    Thousands of rows then want the 597 gold cases; each failed search for a free one walked all of them and
    their holders' options again (76 s of CPU). A search that failed leaves what it visited unusable until a
    row is placed, so the pairing is a few seconds."""
    rehearsal, sent = _rehearsal(199)
    gold = max(set(sent.values()), key=list(sent.values()).count)
    wrong = next(c for c in rehearsal.cases if c.pass_name == "wrong")
    for number, text in sent.items():
        _show(tmp_path, number, _said(sent[wrong.number] if text == gold else gold))
    started = time.process_time()
    playing = answered(rehearsal, tmp_path, sent)
    assert time.process_time() - started < 15
    assert len({c.number for c in playing.values()}) == len(rehearsal.cases)  # every case played once
    for number, case in playing.items():  # a row moved only onto a case that sent what it showed
        assert case.number == number or sent[case.number] == (sent[wrong.number] if sent[number] == gold else gold)
