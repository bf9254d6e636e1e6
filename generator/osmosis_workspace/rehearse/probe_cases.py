"""The probes' answers, built from each rehearsed row's ground truth and prompt (probes.py says why).

Each answer is content the scripted model writes in the prompt's answer format at request time
(``#### ...``), unless it is ``raw`` (the echo); the length probe's padding is a ``prefix`` before the
formatted answer, so the answer a grader should parse is the same wrong answer as the wrong pass.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass

PAD_CHARS = 8000         # the length probe's preamble (about 2,000 tokens), capped by a request's max_tokens
_PAD = ("Working through the problem carefully, restating each step and checking it again before moving on. "
        "Every detail is considered twice, with the reasoning spelled out at length so nothing is skipped. ")
LONG_LINE = 64 * 1024
PLACEHOLDER = "ANSWER"
RUN = 40                 # the enumeration's run of small numbers

# The malformed probe's kinds: (name, content). Spread over the rows, every kind at least once.
MALFORMED: tuple[tuple[str, str], ...] = (
    ("non-ASCII", ("R\u00e9ponse : quarante-deux \u2713 \u2014 \u7b54\u6848\u662f\u56db\u5341\u4e8c \U0001f642 "
                   "\u0130\u00df\ufb01 \u202etxet\u202c \x85\u2028\u200b\ufeff\ufffd")),
    ("control characters", "\x00\x01\x02\x07\x08\x0b\x0c\x1b[31mred\x1b[0m\x7f"),   # ASCII only
    ("a 64 KB line", ("lorem " * (LONG_LINE // 6)).rstrip()),
    ("broken markup and JSON", '{"answer": [1, 2, "unclosed <answer><b>\\boxed{{{ ]] </final_answer> ```json\n{'),
)


@dataclass(frozen=True)
class ProbeAnswer:
    probe: str
    position: int        # index into the rehearsed rows
    text: str
    prefix: str = ""
    raw: bool = False
    top: bool = False
    kind: str = ""       # the malformed probe's kind


def padding(chars: int = PAD_CHARS) -> str:
    repeated = _PAD * (chars // len(_PAD) + 1)
    return repeated[:chars].rsplit(" ", 1)[0] + "\n\n"


def _number(text: str) -> float | None:
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _like(value: float, gold: str) -> str:
    """``value`` written with as many decimals as ``gold`` has."""
    decimals = len(gold.strip().split(".", 1)[1]) if "." in gold.strip() else 0
    return f"{value:.{decimals}f}"


def _far(value: float) -> float:
    """A number off by a clear margin: 10% of it, at least 1."""
    return value + max(1.0, abs(value) * 0.1)


def enumeration(gold: str, others: list[str]) -> str:
    """Candidates listed the way a hedging policy lists them, the gold in the middle (neither first nor last,
    so a grader that takes the first or the last value of the answer is not fooled)."""
    value = _number(gold)
    if value is not None:
        nearby = [_like(value + d, gold) for d in (1, -1, 2, -2, 0.5, 10, -10)] + [_like(-value, gold), _like(value * 10, gold)]
        run = [str(n) for n in range(RUN)]
        pool = [*others, *nearby, *run]

        def same(c: str) -> bool:
            number = _number(c)
            return number is not None and abs(number - value) < 0.5
    else:
        pool = [*others, "yes", "no", "true", "false", "none", "A", "B", "C", "D", "0", "1", "42"]

        def same(c: str) -> bool:
            return c.strip().casefold() == gold.strip().casefold()
    candidates = list(dict.fromkeys(c for c in pool if c.strip() and "\n" not in c and not same(c)))
    middle = max(1, len(candidates) // 2)
    return ", ".join([*candidates[:middle], gold, *candidates[middle:]])


def _off(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        far = _far(float(value))
        return int(far) if isinstance(value, int) else far
    if isinstance(value, str):
        number = _number(value)
        return _like(_far(number), value) if number is not None else f"not {value}"
    return None if value is not None else "x"


def partly_right(gold: str, part: int = -1) -> str | None:
    """The label with one part wrong: one field of a JSON object, one item of a list (``part``, counted
    modulo their number: the rows of a rehearsal take the parts in turn, so each part is shown to count),
    or the number off by a clear margin. None when the label has no parts (a word, a sentence)."""
    number = _number(gold)
    if number is not None:
        return _like(_far(number), gold)
    try:
        parsed = json.loads(gold)
    except ValueError:
        return None
    compact = ", " not in gold and ": " not in gold
    separators = (",", ":") if compact else None
    if isinstance(parsed, dict) and len(parsed) >= 2:
        key = list(parsed)[part % len(parsed)]
        return json.dumps({**parsed, key: _off(parsed[key])}, ensure_ascii=False, separators=separators)
    if isinstance(parsed, list) and len(parsed) >= 2:
        index = part % len(parsed)
        return json.dumps([*parsed[:index], _off(parsed[index]), *parsed[index + 1:]], ensure_ascii=False, separators=separators)
    return None


def _holds_label(prompt: str, gold: str) -> bool:
    return bool(gold.strip()) and gold.strip().casefold() in prompt.casefold()


def probe_answers(truths: list[str], wrongs: list[str], prompts: list[str], with_gold: bool) -> Iterator[ProbeAnswer]:
    """Every probe's answers for the rehearsed rows, probe by probe, in the table's order."""
    rows = range(len(truths))
    if with_gold:
        for p in rows:
            yield ProbeAnswer("enumeration", p, enumeration(truths[p], [t for i, t in enumerate(truths) if i != p]))
    for p in rows:
        yield ProbeAnswer("length", p, wrongs[p], prefix=padding())
    for k in range(max(len(truths), len(MALFORMED))):
        kind, text = MALFORMED[k % len(MALFORMED)]
        yield ProbeAnswer("malformed", k % len(truths), text, kind=kind)
    if with_gold:
        for p in rows:
            yield ProbeAnswer("determinism", p, truths[p], top=True)
        for p in rows:
            if not _holds_label(prompts[p], truths[p]):
                yield ProbeAnswer("echo", p, prompts[p].strip(), raw=True)
    for p in rows:
        yield ProbeAnswer("format-only", p, PLACEHOLDER)
    if with_gold:
        for p in rows:
            partial = partly_right(truths[p], p)
            if partial is not None and partial.strip() != truths[p].strip():
                yield ProbeAnswer("partly right", p, partial)
