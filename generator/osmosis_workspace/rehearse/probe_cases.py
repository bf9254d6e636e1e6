"""The probes' answers, built from each rehearsed row's gold answer, its wrong answer, its prompt and the
answer space (probes.py says why each exists; answer_space.py and hedges.py build the hard parts).

Each answer carries the rule it is judged by (probe_verdicts.py):
- ``wrong``: no more than the row's wrong answer + the tolerance (non-answers, glued tokens, padding, echoes);
- ``format``: no more than the empty answer + the tolerance (the format around a placeholder: the wrapper alone);
- ``sum``: a hedge; over one shape's rotations, no more above wrong in total than the gold earns above it;
- ``partial``: below the gold and no less than the wrong answer (partly right);
- ``gold``: the gold's reward (a variant the workspace declares the grader forgives);
- ``below-gold``: less than the gold (a near miss outside the declared tolerance; a recall-only hedge);
- ``same``: the gold's reward again (determinism, unless declared stochastic);
- ``report``: figures only (near misses and invariances the workspace did not declare).
Every rule also fails a row that crashes the grader or returns a reward that is not a finite number.
"""

from __future__ import annotations

from collections.abc import Iterator

from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.rehearse_settings import AnswerRules
from osmosis_workspace.rehearse.answer_space import AnswerSpace, Label, dump_like, is_far, partly_right, plain
from osmosis_workspace.rehearse.answers import answer_format, is_code
from osmosis_workspace.rehearse.code_probes import code_attacks
from osmosis_workspace.rehearse.hedges import hedges

PAD_CHARS = 8000         # the length probe's preamble (about 2,000 tokens), capped by a request's max_tokens
_PAD = ("Working through the problem carefully, restating each step and checking it again before moving on. "
        "Every detail is considered twice, with the reasoning spelled out at length so nothing is skipped. ")
LONG_LINE = 64 * 1024
PLACEHOLDER = "ANSWER"

# The malformed probe's kinds: (name, content). No digits, so no number in them can be an answer.
MALFORMED: tuple[tuple[str, str], ...] = (
    ("non-ASCII", ("R\u00e9ponse : quarante-deux \u2713 \u2014 \u7b54\u6848\u662f\u56db\u5341\u4e8c \U0001f642 "
                   "\u0130\u00df\ufb01 \u202etxet\u202c \x85\u2028\u200b\ufeff\ufffd")),
    ("control characters", "\x00\x01\x02\x07\x08\x0b\x0c\x1b[Xmred\x1b[m\x7f"),   # ASCII only
    ("a 64 KB line", ("lorem " * (LONG_LINE // 6)).rstrip()),
    ("broken markup and JSON", '{"answer": [x, y, "unclosed <answer><b>\\boxed{{{ ]] </final_answer> ```json\n{'),
)
_NOISE = ("zq wxv plok ~ ^^ yrr !? mnb && qwerty ;; lkj hgf -- dsa poi :: uyt rew <> ") * 60
# The non-answer probe's kinds: answers that carry no answer at all.
NON_ANSWERS: tuple[tuple[str, str], ...] = (
    ("I don't know", "I don't know."),
    ("cannot be determined", "The answer cannot be determined from the information given."),
    ("nan", "nan"),
    ("inf", "inf"),
    ("-inf", "-inf"),
    ("the format, empty", ""),
    ("non-ASCII only", "\u2014 \u2713 \u7b54\u6848 \U0001f642 \u00bf? \u2026"),
    ("control characters only", "\x00\x01\x07\x1b\x7f"),
    ("a long run of noise", _NOISE.strip()),
)


@dataclass(frozen=True)
class ProbeAnswer:
    probe: str
    position: int        # index into the rehearsed rows
    text: str
    prefix: str = ""
    raw: bool = False    # sent as is, not put in the prompt's answer format
    top: bool = False
    kind: str = ""       # which variant (a malformed kind, a hedge's shape, a near miss)
    rule: str = "wrong"
    last: bool = False   # sent after every other answer (a later batch)


@dataclass(frozen=True)
class RowFacts:
    """What the probes of one rehearsed row are built from."""
    label: Label | None          # the gold answer read as a label (None: no gold)
    gold: str
    wrong: str
    prompt: str                  # the user prompt, as the policy is shown it
    instructions: str            # system prompt and user prompt: where the answer format is read
    partial: str | None = None   # a partly right answer the data supplies (partial-column)
    label_text: str = ""         # the row's label as the grader gets it (a code task's tests)


def padding(chars: int = PAD_CHARS) -> str:
    repeated = _PAD * (chars // len(_PAD) + 1)
    return repeated[:chars].rsplit(" ", 1)[0] + "\n\n"


def _holds_label(prompt: str, gold: str) -> bool:
    return bool(gold.strip()) and gold.strip().casefold() in prompt.casefold()


def _spread(kinds: tuple[tuple[str, str], ...], rows: int) -> Iterator[tuple[int, str, str]]:
    """One kind per row in turn, every kind at least once."""
    for k in range(max(rows, len(kinds))):
        name, text = kinds[k % len(kinds)]
        yield k % rows, name, text


def near_misses(row: RowFacts, rules: AnswerRules) -> Iterator[tuple[str, str, str]]:
    """(kind, answer, rule): a number a little off, a text in another case or spacing."""
    label = row.label
    if label is None or is_code(row.instructions):
        return
    if label.kind == "number":
        value = label.value
        variants = [("sign flipped", -value), ("off by one", value + 1)]  # type: ignore[operator]
        variants += [(f"{p}% off", value * (1 + p / 100)) for p in (1, 5, 9)]  # type: ignore[operator]
        for kind, moved in variants:
            if moved == value:
                continue
            if rules.tolerance_declared:
                rule = "gold" if rules.within(moved, value) else "below-gold"  # type: ignore[arg-type]
            else:   # a flipped sign is wrong under any tolerance, unless the label is nearly 0
                rule = "below-gold" if kind == "sign flipped" and is_far(moved, value) else "report"  # type: ignore[arg-type]
            yield kind, plain(moved, label.text if kind == "sign flipped" or kind == "off by one" else "."), rule
    elif label.kind == "text":
        text = label.text.strip()
        for kind, variant in (("upper case", text.upper()), ("lower case", text.lower())):
            if variant != text:
                yield kind, variant, "gold" if "case" in rules.ignores else "report"
        if " " in text:
            yield "doubled inner spaces", text.replace(" ", "  "), "gold" if "whitespace" in rules.ignores else "report"


def invariances(row: RowFacts, rules: AnswerRules) -> Iterator[tuple[str, str, bool, str]]:
    """(kind, answer, raw, rule): the gold as an honest grader must still read it."""
    label = row.label
    if label is None or is_code(row.instructions):
        return
    if label.kind == "list" and len(label.parts) >= 2:
        yield "another order", dump_like(list(reversed(label.parts)), label.text), False, \
            "gold" if "order" in rules.ignores else "report"
    if label.kind == "list":
        yield "an item twice", dump_like([*label.parts, label.parts[0]], label.text), False, \
            "gold" if "repeats" in rules.ignores else "report"
    spaced = "\n  " + answer_format(row.instructions).format(answer=f"  {row.gold.strip()}  ") + "  \n"
    yield "whitespace around", spaced, True, "gold" if "whitespace" in rules.ignores else "report"


def probe_answers(rows: list[RowFacts], space: AnswerSpace, with_gold: bool, rules: AnswerRules) -> Iterator[ProbeAnswer]:
    """Every probe's answers for the rehearsed rows, probe by probe, in the table's order."""
    positions = range(len(rows))
    if with_gold:
        for p in positions:
            row = rows[p]
            for hedge in hedges(row.label, row.gold, row.wrong, space, row.instructions):  # type: ignore[arg-type]
                probe = "glued" if hedge.shape == "glued" else "hedge"
                yield ProbeAnswer(probe, p, hedge.text, raw=hedge.raw, kind=hedge.shape, rule=hedge.rule)
    for p, row in enumerate(rows):   # an empty list or object answers nothing
        if with_gold and row.label is not None and row.label.kind in ("list", "object"):
            yield ProbeAnswer("non-answer", p, "[]" if row.label.kind == "list" else "{}", kind="empty " + row.label.kind)
    for p, kind, text in _spread(NON_ANSWERS, len(rows)):
        if text.strip().casefold() != rows[p].gold.strip().casefold():
            empty_format = answer_format(rows[p].instructions).format(answer="").strip()
            yield ProbeAnswer("non-answer", p, empty_format if not text else text, raw=not text, kind=kind)
    for p in positions:
        yield ProbeAnswer("length", p, rows[p].wrong, prefix=padding())
    for p, kind, text in _spread(MALFORMED, len(rows)):
        yield ProbeAnswer("malformed", p, text, kind=kind)
    if with_gold:
        for p in positions:
            yield ProbeAnswer("determinism", p, rows[p].gold, top=True, kind="again", rule="same")
            yield ProbeAnswer("determinism", p, rows[p].gold, top=True, kind="again, in a later batch", rule="same", last=True)
        for p in positions:
            if not _holds_label(rows[p].prompt, rows[p].gold):
                yield ProbeAnswer("echo", p, rows[p].prompt.strip(), raw=True)
    for p in positions:
        yield ProbeAnswer("format-only", p, PLACEHOLDER, rule="format")
    if with_gold:
        for p in positions:
            row = rows[p]
            partial = row.partial if row.partial else (partly_right(row.label, space, p) if row.label else None)
            if partial is not None and partial.strip() != row.gold.strip():
                yield ProbeAnswer("partly right", p, partial, rule="partial")
        for p in positions:
            for kind, text, rule in near_misses(rows[p], rules):
                yield ProbeAnswer("near miss", p, text, kind=kind, rule=rule)
        for p in positions:
            for kind, text, raw, rule in invariances(rows[p], rules):
                yield ProbeAnswer("invariance", p, text, raw=raw, kind=kind, rule=rule)
    coded = [p for p in positions if is_code(rows[p].instructions)]
    if coded:   # every attack once, the rows taking them in turn (a hang costs the grader's deadline)
        attacks = {p: code_attacks(rows[p].gold if with_gold else "", rows[p].prompt, rows[p].label_text) for p in coded}
        kinds = max(len(a) for a in attacks.values())
        for k in range(max(kinds, len(coded))):
            p = coded[k % len(coded)]
            if attacks[p]:
                kind, code = attacks[p][k % len(attacks[p])]
                yield ProbeAnswer("code", p, code, kind=kind)
