"""The rehearsal dataset: each source row once per pass (gold, wrong, empty), then the probes built
from it (probe_cases.py), all in one `eval run`.

One run instead of three shares the env sync and the server start (the slow part). Every rehearsal row
is its source row exactly as the platform delivers it: nothing is added to the prompt, so a grader sees
what it will see in training (a reward cached per prompt hits its cache; an echo is what the policy was
shown). The scripted model tells the cases of one prompt apart by order: the SDK dispatches rows in
dataset order, so each prompt's cases are queued in that order (``queue``), and the run's trajectories
say afterwards which answer each row really got (run_results.py), should two of them have raced.
"""

from __future__ import annotations

import json

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.rehearse_settings import AnswerRules
from osmosis_workspace.rehearse.answer_space import AnswerSpace, answer_space, read_label, wrong_answer
from osmosis_workspace.rehearse.probe_cases import RowFacts, probe_answers

PASSES = ("gold", "wrong", "empty")


@dataclass(frozen=True)
class Case:
    number: int          # the rehearsal row index (`row_index` in the SDK's index.jsonl)
    source_row: int      # the row of the user's dataset it copies
    pass_name: str       # gold | wrong | empty, or a probe's name
    answer: str          # the policy's answer before formatting ("" for the empty pass)
    prompt: str          # the user prompt, exactly as in the row
    prefix: str = ""     # raw text sent before the formatted answer (the length probe's padding)
    raw: bool = False    # sent as is, not in the prompt's answer format
    top: bool = False    # a grader's own model call scores it at the top (gold and its copies)
    kind: str = ""       # which variant of a probe it is
    rule: str = ""       # how a probe's reward is judged (probe_cases.py)


@dataclass(frozen=True)
class Rehearsal:
    cases: tuple[Case, ...]
    rows: tuple[dict, ...]                       # the rehearsal dataset rows, in case order
    space: AnswerSpace = field(default_factory=AnswerSpace)
    gold_source: str = "ground_truth"            # the column the gold answers came from

    def queue(self) -> dict[str, list[int]]:
        """Each user prompt's case numbers, in dataset order (the order the SDK dispatches them in)."""
        order: dict[str, list[int]] = {}
        for case in self.cases:
            order.setdefault(prompt_key(case.prompt), []).append(case.number)
        return order

    def jsonl(self) -> str:
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in self.rows)

    def passes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.pass_name for c in self.cases))


def prompt_key(text: str) -> str:
    return text.strip()


def text_of(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def build(source: list[tuple[int, dict]], with_gold: bool = True, probes: bool = True, gold_column: str | None = None,
          partial_column: str | None = None, rules: AnswerRules = AnswerRules()) -> Rehearsal:
    """Rehearsal rows for the (index, row) pairs of the user's dataset: the gold passes first, then
    wrong, empty, and (``probes``) every probe's answers; the determinism probe's last copies at the end.

    ``gold_column`` names the column holding each row's gold answer when the label is not one (test
    cases, a rubric); ``with_gold=False``: only the wrong and empty passes, and the probes that need no gold.
    """
    column = gold_column or "ground_truth"
    truths = [text_of(row.get(column)) for _, row in source]
    prompts = [text_of(row.get("user_prompt")) for _, row in source]
    instructions = [f"{text_of(row.get('system_prompt'))}\n{prompt}" for (_, row), prompt in zip(source, prompts)]
    labels = [read_label(t) for t in truths]
    space = answer_space(labels, instructions)
    wrongs = [wrong_answer(labels, p, space) for p in range(len(source))]
    cases: list[Case] = []
    rows: list[dict] = []

    def add(index: int, row: dict, pass_name: str, answer: str, **how: object) -> None:
        cases.append(Case(len(cases), index, pass_name, answer, text_of(row.get("user_prompt")), **how))  # type: ignore[arg-type]
        rows.append(dict(row))

    for pass_name in PASSES:
        if pass_name == "gold" and not with_gold:
            continue
        for position, (index, row) in enumerate(source):
            answer = {"gold": truths[position], "wrong": wrongs[position], "empty": ""}[pass_name]
            add(index, row, pass_name, answer, top=pass_name == "gold")
    if probes:
        facts = [RowFacts(labels[p] if with_gold else None, truths[p], wrongs[p], prompts[p], instructions[p],
                          text_of(source[p][1].get(partial_column)) or None if partial_column else None,
                          text_of(source[p][1].get("ground_truth")))
                 for p in range(len(source))]
        answers = list(probe_answers(facts, space, with_gold, rules))
        for answer in [a for a in answers if not a.last] + [a for a in answers if a.last]:
            index, row = source[answer.position]
            add(index, row, answer.probe, answer.text, prefix=answer.prefix, raw=answer.raw, top=answer.top,
                kind=answer.kind, rule=answer.rule)
    return Rehearsal(tuple(cases), tuple(rows), space, column)
