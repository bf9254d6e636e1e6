"""The rehearsal dataset: each source row once per pass (gold, wrong, empty), then the probes built
from it (probe_cases.py), all in one `eval run`.

One run instead of three shares the env sync and the server start (the slow part). The scripted
model must still know which pass a request belongs to: each rehearsal row's user prompt ends with a
marker, ``[osmosis rehearse <nonce>-<n>]``, that the rollout forwards to the model with the prompt.
The nonce is fresh per run, so a marker can never be mistaken for text already in a dataset.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass

from osmosis_workspace.rehearse.probe_cases import probe_answers

PASSES = ("gold", "wrong", "empty")
_MARKER = "[osmosis rehearse {nonce}-{number}]"
_FIND = re.compile(r"\[osmosis rehearse ([0-9a-f]{8})-(\d+)\]")


@dataclass(frozen=True)
class Case:
    number: int          # the rehearsal row index (`row_index` in the SDK's index.jsonl)
    source_row: int      # the row of the user's dataset it copies
    pass_name: str       # gold | wrong | empty
    answer: str          # the policy's answer before formatting ("" for the empty pass)
    prompt: str          # the user prompt, marker included
    prefix: str = ""     # raw text sent before the formatted answer (the length probe's padding)
    raw: bool = False    # sent as is, not in the prompt's answer format (the echo probe)
    top: bool = False    # a grader's own model call scores it at the top (gold and its second copy)
    kind: str = ""       # which malformed answer it is


@dataclass(frozen=True)
class Rehearsal:
    nonce: str
    cases: tuple[Case, ...]
    rows: tuple[dict, ...]   # the rehearsal dataset rows, in case order

    def case_in(self, text: str) -> Case | None:
        """The case whose marker ``text`` carries (the last one, if it carries several)."""
        found = [m for m in _FIND.finditer(text) if m.group(1) == self.nonce]
        if not found:
            return None
        number = int(found[-1].group(2))
        return self.cases[number] if number < len(self.cases) else None

    def jsonl(self) -> str:
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in self.rows)

    def passes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.pass_name for c in self.cases))


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def wrong_answer(truths: list[str], index: int) -> str:
    """Another row's ground truth; where every row has the same one, a value that is certainly not it."""
    mine = truths[index]
    for offset in range(1, len(truths)):
        other = truths[(index + offset) % len(truths)]
        if other.strip() != mine.strip():
            return other
    try:
        return _plain_number(float(mine) + 1)
    except ValueError:
        return f"not {mine}"


def _plain_number(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def build(source: list[tuple[int, dict]], with_gold: bool = True, probes: bool = True) -> Rehearsal:
    """Rehearsal rows for the (index, row) pairs of the user's dataset: the gold passes first, then
    wrong, empty, and (``probes``) every probe's answers.

    ``with_gold=False`` (rows without ground truth): only the wrong and empty passes, and the probes
    that need no ground truth.
    """
    nonce = secrets.token_hex(4)
    truths = [_text(row.get("ground_truth")) for _, row in source]
    cases: list[Case] = []
    rows: list[dict] = []

    def add(index: int, row: dict, pass_name: str, answer: str, **how: object) -> None:
        marker = _MARKER.format(nonce=nonce, number=len(cases))
        prompt = f"{_text(row.get('user_prompt')).rstrip()}\n\n{marker}"
        cases.append(Case(len(cases), index, pass_name, answer, prompt, **how))  # type: ignore[arg-type]
        rows.append({**row, "user_prompt": prompt})

    for pass_name in PASSES:
        if pass_name == "gold" and not with_gold:
            continue
        for position, (index, row) in enumerate(source):
            answer = {"gold": truths[position], "wrong": wrong_answer(truths, position), "empty": ""}[pass_name]
            add(index, row, pass_name, answer, top=pass_name == "gold")
    if probes:
        prompts = [_text(row.get("user_prompt")) for _, row in source]
        wrongs = [wrong_answer(truths, position) for position in range(len(source))]
        for answer in probe_answers(truths, wrongs, prompts, with_gold):
            index, row = source[answer.position]
            add(index, row, answer.probe, answer.text, prefix=answer.prefix, raw=answer.raw, top=answer.top,
                kind=answer.kind)
    return Rehearsal(nonce, tuple(cases), tuple(rows))
