"""The scripted model speaks the OpenAI chat-completions wire format the SDK's bridge and graders use."""

from __future__ import annotations

import json

import httpx

from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.scripted_model import MODEL_ID, Script, ScriptedModel

ROWS = [(0, {"system_prompt": "Reply with #### and the number.", "user_prompt": "2 * 3?", "ground_truth": "6"}),
        (1, {"system_prompt": "Reply with #### and the number.", "user_prompt": "4 * 5?", "ground_truth": "20"})]


def _chat(model: ScriptedModel, body: dict, path: str = "/v1/chat/completions") -> httpx.Response:
    base = model.base_url.removesuffix("/v1")
    return httpx.post(base + path, json=body, headers={"Authorization": "Bearer sk-test-value"}, timeout=10)


def _messages(case) -> list[dict]:
    return [{"role": "system", "content": "Reply with #### and the number."}, {"role": "user", "content": case.prompt}]


def test_each_pass_gets_its_answer_in_the_format_the_prompt_asks_for():
    rehearsal = build(ROWS, probes=False)
    with ScriptedModel(Script(rehearsal)) as model:
        answers = {c.number: _chat(model, {"model": "m", "messages": _messages(c)}).json()["choices"][0]["message"]["content"]
                   for c in rehearsal.cases}
    by_pass = {(c.pass_name, c.source_row): answers[c.number] for c in rehearsal.cases}
    assert by_pass == {("gold", 0): "#### 6", ("gold", 1): "#### 20", ("wrong", 0): "#### 20", ("wrong", 1): "#### 6",
                       ("empty", 0): "", ("empty", 1): ""}


def test_streamed_answer_is_the_same_answer_in_sse_chunks_with_usage():
    rehearsal = build(ROWS, probes=False)
    gold = rehearsal.cases[0]
    with ScriptedModel(Script(rehearsal)) as model:
        response = _chat(model, {"model": "m", "stream": True, "stream_options": {"include_usage": True},
                                 "messages": _messages(gold)})
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [line.removeprefix("data: ") for line in response.text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == "#### 6"
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "stop"
    assert chunks[-1]["usage"]["total_tokens"] > 0


def test_tool_calls_travel_streamed_and_not():
    call = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\"a\": 1}"}}
    with ScriptedModel(lambda body: {"content": None, "tool_calls": [call]}) as model:
        plain = _chat(model, {"model": "m", "messages": [{"role": "user", "content": "x"}]}).json()
        streamed = _chat(model, {"model": "m", "stream": True, "messages": [{"role": "user", "content": "x"}]}).text
    assert plain["choices"][0]["message"]["tool_calls"] == [call]
    assert plain["choices"][0]["finish_reason"] == "tool_calls"
    chunks = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    deltas = [c["choices"][0]["delta"]["tool_calls"][0] for c in chunks if c["choices"][0]["delta"].get("tool_calls")]
    assert deltas == [{"index": 0, **call}]
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"


def test_models_route_preflight_and_unknown_routes():
    rehearsal = build(ROWS, probes=False)
    script = Script(rehearsal)
    with ScriptedModel(script) as model:
        listed = httpx.get(model.base_url + "/models", timeout=10).json()
        preflight = _chat(model, {"model": "m", "messages": [{"role": "user", "content": "ping"}]}).json()
        missing = _chat(model, {"model": "m", "input": "x"}, path="/v1/responses")
        unversioned = _chat(model, {"model": "m", "messages": _messages(rehearsal.cases[0])}, path="/chat/completions")
        seen = set(model.authorizations)
    assert [m["id"] for m in listed["data"]] == [MODEL_ID]
    assert preflight["choices"][0]["message"]["content"] == "ok"
    assert missing.status_code == 404 and "chat completions only" in missing.json()["error"]["message"]
    assert unversioned.json()["choices"][0]["message"]["content"] == "#### 6"
    assert script.calls == {"unmarked": 1, "policy": 1}
    assert seen == {"sk-test-value"}


def test_a_grader_calling_the_model_gets_the_top_score_for_gold_and_the_bottom_otherwise():
    rehearsal = build(ROWS, probes=False)
    script = Script(rehearsal)

    def judge_prompt(case, answer: str) -> list[dict]:
        return [{"role": "user", "content": f"Score from 0 to 10 points.\nQUESTION:\n{case.prompt}\nANSWER:\n{answer}\n"
                                            "End with `SCORE: <points>`."}]

    replies = {}
    with ScriptedModel(script) as model:
        for case in rehearsal.cases:   # a grader calls its judge right after the policy answered, quoting the reference
            answer = _chat(model, {"model": "m", "messages": _messages(case)}).json()["choices"][0]["message"]["content"]
            judged = judge_prompt(case, answer)
            judged[0]["content"] += f"\nREFERENCE: #### {ROWS[case.source_row][1]['ground_truth']}"
            reply = _chat(model, {"model": "judge", "messages": judged}).json()["choices"][0]["message"]["content"]
            if case.source_row == 0:
                replies[case.pass_name] = reply
    assert replies["gold"].splitlines()[-1] == "SCORE: 10"
    assert replies["wrong"].splitlines()[-1] == "SCORE: 0" and replies["empty"].splitlines()[-1] == "SCORE: 0"
    assert script.calls["judge"] == len(rehearsal.cases) and script.calls["policy"] == len(rehearsal.cases)


def test_the_rows_of_one_prompt_are_served_in_dataset_order_and_read_back_from_the_trajectories(tmp_path):
    from osmosis_workspace.rehearse.run_results import answered

    rehearsal = build(ROWS, probes=False)
    script = Script(rehearsal)
    with ScriptedModel(script) as model:
        for case in rehearsal.cases:
            _chat(model, {"model": "m", "messages": _messages(case)})
    assert script.sent == {0: "#### 6", 1: "#### 20", 2: "#### 20", 3: "#### 6", 4: "", 5: ""}
    # rows 0 and 2 (one prompt) raced: row 0 got the wrong answer, row 2 the gold; the trajectories say so
    folder = tmp_path / "trajectories"
    folder.mkdir()
    # row 3 (row 1's wrong) shows row 1's gold, but row 1 does not show the wrong in turn: not believed;
    # row 5's trajectory holds no text (the empty answer, as it was sent): it keeps its case
    for number, text in {0: "#### 20", 2: "#### 6", 3: "#### 20", 5: ""}.items():
        steps = [{"source": "user", "message": "q"}, {"source": "agent", "message": text}]
        (folder / f"row_{number}_run_0.json").write_text(json.dumps({"steps": steps}))
    playing = answered(rehearsal, tmp_path, script.sent)
    assert playing[0].pass_name == "wrong" and playing[2].pass_name == "gold"
    assert [playing[n].number for n in (1, 3, 4, 5)] == [1, 3, 4, 5]
    # a three-way race through the empty answer: row 1 got nothing, row 5 (empty) got row 1's wrong, row 3 the gold
    for number, text in {1: "", 5: "#### 6", 3: "#### 20"}.items():
        steps = [{"source": "user", "message": "q"}, {"source": "agent", "message": text}]
        (folder / f"row_{number}_run_0.json").write_text(json.dumps({"steps": steps}))
    playing = answered(rehearsal, tmp_path, script.sent)
    assert [playing[n].pass_name for n in (1, 3, 5)] == ["empty", "gold", "wrong"]


def test_a_failing_script_is_a_500_the_rehearsal_reports_not_a_dead_server():
    def broken(body: dict) -> dict:
        raise ValueError("no answer")

    with ScriptedModel(broken) as model:
        first = _chat(model, {"model": "m", "messages": []})
        second = httpx.get(model.base_url + "/models", timeout=10)
    assert first.status_code == 500 and second.status_code == 200
    assert model.errors == ["ValueError: no answer"]


JUDGE_ROWS = [(i, {"system_prompt": "Explain the term in two to four sentences with one example.",
                   "user_prompt": f"What is {term}?", "ground_truth": truth})
              for i, (term, truth) in enumerate([
                  ("a hash function", "A hash function maps any input to a fixed-size value; equal inputs give equal values."),
                  ("an index", "An index is a sorted structure that finds rows without scanning the table."),
                  ("overfitting", "Overfitting is learning the training data, noise included, so well that new data suffers.")])]


def _judge_text(question: str, reference: str, answer: str) -> str:
    # the shape of the llm-judge template's prompt: rubric, question, reference, the stripped answer
    return (f"Score the ANSWER from 0 to 10 points.\nQUESTION:\n{question}\nREFERENCE:\n{reference}\n"
            f"ANSWER:\n{answer.strip()}\nEnd with one line `SCORE: <points>`.")


def test_a_judge_scores_the_answer_it_quotes_however_the_rows_of_one_prompt_interleave():
    """Every case of a prompt is answered before any is judged, then the judges run in reverse order:
    order says nothing, so each score must come from the answer the judge's prompt quotes (an echo of
    the question and the gold sent again were swapped when a judge took its row's oldest answer)."""
    rehearsal = build(JUDGE_ROWS)
    script = Script(rehearsal)
    answers, scores = {}, {}
    with ScriptedModel(script) as model:
        for case in rehearsal.cases:
            body = {"model": "m", "messages": [{"role": "system", "content": JUDGE_ROWS[0][1]["system_prompt"]},
                                               {"role": "user", "content": case.prompt}]}
            answers[case.number] = _chat(model, body).json()["choices"][0]["message"]["content"]
        for case in reversed(rehearsal.cases):
            if not answers[case.number].strip():
                continue   # the template scores an empty answer 0 without asking
            row = JUDGE_ROWS[case.source_row][1]
            prompt = _judge_text(row["user_prompt"], row["ground_truth"], answers[case.number])
            reply = _chat(model, {"model": "judge", "messages": [{"role": "user", "content": prompt}]}).json()
            scores[case.number] = reply["choices"][0]["message"]["content"].splitlines()[-1]
    passes = {c.pass_name for c in rehearsal.cases}
    assert {"echo", "determinism", "hedge", "gold", "wrong"} <= passes, passes
    # gold, its copies, and an answer that is the gold once stripped (as this judge strips it) score 10
    golds = {(c.source_row, answers[c.number].strip()) for c in rehearsal.cases if c.pass_name == "gold"}
    wrongly = {(c.number, c.pass_name, c.kind, scores[c.number]) for c in rehearsal.cases if c.number in scores
               and scores[c.number] != ("SCORE: 10" if c.top or (c.source_row, answers[c.number].strip()) in golds else "SCORE: 0")}
    assert wrongly == set()
