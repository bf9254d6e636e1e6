"""Answers that do not commit to one answer: the gold among other candidates, in every position and in
several shapes (one line, one per line, several answer lines, one guess per answer format, the whole
answer space), and the gold glued into a longer token.

How a hedge is judged (probe_verdicts.py): a grader that reads one position (the first number after
`####`, the last `####` line) pays a hedge only when the gold happens to sit there, so a policy gains
nothing by hedging: over the rotations of one shape, what the hedges earn above the wrong answer adds
up to no more than what the gold earns above it. A grader that pays for the gold in two places (the
first or the last number, any `####` line, any format) pays twice, and a policy learns to hedge.
A glued token (`427` for 42) commits to one wrong value, so each is judged against the wrong answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from osmosis_workspace.core.records import dataclass
from osmosis_workspace.rehearse.answer_space import MAX_SPACE, AnswerSpace, Label, dump_like, far, is_far, number, plain
from osmosis_workspace.rehearse.answers import answer_format, is_code, other_formats

FILLERS = ("quartz", "basalt", "granite", "obsidian")


@dataclass(frozen=True)
class Hedge:
    shape: str           # which hedge (the sum is taken over one shape's rotations of one row)
    text: str
    raw: bool            # already in the prompt's format (several answer lines or formats)
    rule: str            # sum | wrong | below-gold


def _rotations(gold: str, others: list[str]) -> list[list[str]]:
    """The gold in each position among ``others`` (in their order)."""
    return [[*others[:k], gold, *others[k:]] for k in range(len(others) + 1)]


def _scalar_others(label: Label, wrong: str, space: AnswerSpace, count: int) -> list[str]:
    """``count`` candidates that are each wrong for ``label``: the wrong answer first, then the space's."""
    found: list[str] = []

    def fits(candidate: str) -> bool:
        if not candidate.strip() or "\n" in candidate or candidate in found:
            return False
        if label.kind == "number":
            value = number(candidate)
            return value is not None and is_far(value, label.value)  # type: ignore[arg-type]
        return candidate.strip().casefold() != label.text.strip().casefold()

    for candidate in [wrong, *space.values, *FILLERS]:
        if fits(candidate):
            found.append(candidate)
    value = label.value if label.kind == "number" else None
    while len(found) < count and value is not None:
        value = far(value)  # type: ignore[arg-type]
        candidate = plain(value, label.text)
        if fits(candidate):
            found.append(candidate)
    return found[:count]


def _one_per_format(instructions: str, parts: list[str]) -> str:
    formats = other_formats(instructions)
    return "\n".join(f.format(answer=p) for f, p in zip(formats, parts))


def _rotated(shape: str, gold: str, others: list[str], render, raw: bool) -> Iterator[Hedge]:
    for parts in _rotations(gold, others):
        yield Hedge(shape, render(parts), raw, "sum")


def hedges(label: Label, gold: str, wrong: str, space: AnswerSpace, instructions: str) -> Iterator[Hedge]:
    """Every hedge of one row (``gold`` as it is sent; ``wrong`` the row's wrong answer)."""
    mine = answer_format(instructions)
    lines = "\n".join

    def in_format(parts: list[str]) -> str:
        return lines(mine.format(answer=p) for p in parts)

    if is_code(instructions):
        yield from _rotated("several code blocks", gold, [wrong], in_format, True)
        return
    if label.kind in ("list", "object"):
        others = [wrong] + [t for t in _structured_others(label, wrong, space) if t != wrong][:1]
        yield from _rotated("two answers on one line", gold, others[:1], " or ".join, False)
        yield from _rotated("several answer lines", gold, others, in_format, True)
        yield from _rotated("one per answer format", gold, others, lambda p: _one_per_format(instructions, p), True)
        if label.kind == "list" and {repr(i) for i in space.items} - {repr(i) for i in label.parts}:
            yield Hedge("the whole answer space", dump_like(space.items[:MAX_SPACE], label.text), False, "below-gold")
        if label.kind == "list":
            glued = "".join(str(i) for i in space.items[:MAX_SPACE] if isinstance(i, str)).replace(" ", "")
            if glued and glued not in label.parts:
                yield Hedge("glued", dump_like([glued], label.text), False, "wrong")
        if label.kind == "object":
            yield from _field_hedges(label, space)
        return
    three = _scalar_others(label, wrong, space, 3)
    if not three:
        return
    yield from _rotated("two on one line", gold, three[:1], ", ".join, False)
    yield from _rotated("three with or", gold, three[:2], " or ".join, False)
    yield from _rotated("one per line", gold, three[:2], lines, False)
    yield from _rotated("several answer lines", gold, three[:2], in_format, True)
    formats = len(other_formats(instructions))
    yield from _rotated("one per answer format", gold, three[: formats - 1], lambda p: _one_per_format(instructions, p), True)
    rest = [v for v in space.values if v in _scalar_others(label, wrong, space, MAX_SPACE)][: MAX_SPACE - 1]
    if len(rest) >= 3:
        middle = len(rest) // 2
        for parts in ([gold, *rest], [*rest[:middle], gold, *rest[middle:]], [*rest, gold]):
            yield Hedge("the whole answer space", ", ".join(parts), False, "sum")
    yield from _glued(label, gold, three)
    if label.kind == "number":   # a range that holds the gold commits to nothing
        low, high = label.value - max(10.0, abs(label.value)), label.value + max(10.0, abs(label.value))  # type: ignore[operator]
        for text in (f"between {plain(low, label.text)} and {plain(high, label.text)}", f"{plain(low, label.text)} to {plain(high, label.text)}"):
            yield Hedge("a range holding it", text, False, "wrong")


def _glued(label: Label, gold: str, others: list[str]) -> Iterator[Hedge]:
    """The gold run together with another candidate into one token, each way round, where that token is
    itself a committed wrong answer (a number far from the label; a word that is not it)."""
    pieces = ["7", *others] if label.kind == "number" else others
    for piece in pieces:
        token = piece.strip().replace(" ", "")
        made = [gold.strip() + token, token + gold.strip()]
        if label.kind == "number":   # keep the ways round that make a number far from the label
            made = [m for m in made if (value := number(m)) is not None and is_far(value, label.value)]  # type: ignore[arg-type]
        if made:
            yield from (Hedge("glued", m, False, "wrong") for m in made)
            return


def _field_hedges(label: Label, space: AnswerSpace) -> Iterator[Hedge]:
    """Each field hedged over two values of the space (the gold's first, then second): as a list in the
    field, and as the key written twice (a JSON reader keeps the last; a lenient one reads both)."""
    fields = label.value  # type: ignore[assignment]
    others = {k: next((v for v in space.fields.get(k, []) if v != fields[k]), FILLERS[0]) for k in fields}  # type: ignore[union-attr,index]
    for first in (True, False):
        pairs = {k: [fields[k], others[k]] if first else [others[k], fields[k]] for k in fields}  # type: ignore[index]
        yield Hedge("every field as a list", dump_like(pairs, label.text), False, "sum")
    for first in (True, False):
        parts = []
        for k in fields:  # type: ignore[union-attr]
            values = (fields[k], others[k]) if first else (others[k], fields[k])  # type: ignore[index]
            parts += [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for v in values]
        yield Hedge("every key twice", "{" + ", ".join(parts) + "}", False, "sum")


def _structured_others(label: Label, wrong: str, space: AnswerSpace) -> list[str]:
    """A second wrong list or object beside ``wrong``: built from what the space offers."""
    if label.kind == "list":
        free = [i for i in space.items if i not in label.parts]
        if len(free) > len(label.parts):
            return [dump_like(free[len(label.parts): 2 * len(label.parts)], label.text)]
        return [dump_like([f"{FILLERS[0]}"], label.text)]
    return [dump_like({k: FILLERS[1] for k in label.value}, label.text)]  # type: ignore[union-attr]
