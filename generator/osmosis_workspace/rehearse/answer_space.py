"""What an answer can be, read from the rehearsed rows: each label's shape, the answer space (the values
and list items the labels use and the choices the prompts list), and from them the wrong answer of a
row and its partly right answer.

A policy optimising the reward learns whatever the reward pays for, so the probes need answers that
are really wrong (no overlap with the label where the space allows it) and really partly right (one
part replaced by another valid option, never by a decoration of the original that still contains it).
"""

from __future__ import annotations

import json
import math

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.readers.datasets.prompt_text import listed_options

MAX_SPACE = 40            # values an answer-space hedge lists at most


def number(text: str) -> float | None:
    """``text`` as a finite number, or None (nan and inf are not answers)."""
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def plain(value: float, like: str = "") -> str:
    """``value`` written plainly: as an integer when it is one and ``like`` has no decimals, else with up to
    six decimals and no trailing zeros."""
    if value.is_integer() and "." not in like:
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".") or "0"


def far(value: float) -> float:
    """A number no tolerance calls close to ``value``: off by its own size, at least 10."""
    return value + max(10.0, abs(value))


def is_far(value: float, other: float) -> bool:
    return abs(value - other) > max(1.0, 0.5 * abs(other))


@dataclass(frozen=True)
class Label:
    text: str
    kind: str                     # number | list | object | text
    value: object = None          # the parsed number, list or dict

    @property
    def parts(self) -> list:
        return list(self.value) if self.kind == "list" else []


def read_label(text: str) -> Label:
    value = number(text)
    if value is not None:
        return Label(text, "number", value)
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            parsed = json.loads(stripped)
        except ValueError:
            parsed = None
        if isinstance(parsed, list) and parsed and all(isinstance(i, (str, int, float, bool)) for i in parsed):
            return Label(text, "list", parsed)
        if isinstance(parsed, dict) and parsed:
            return Label(text, "object", parsed)
    return Label(text, "text", stripped)


def dump_like(value: object, like: str) -> str:
    """JSON written in the label's own style (compact or spaced)."""
    compact = ", " not in like and ": " not in like
    return json.dumps(value, ensure_ascii=False, separators=(",", ":") if compact else None)


def listed_choices(prompt: str) -> list[str]:
    """The closed set a prompt offers, read as doctor's DAT030 reads it (readers/datasets/prompt_text.py):
    lettered choices as their letters and texts, or a list after a lead-in; sorted, so a rehearsal is the
    same every run."""
    found = listed_options(prompt)
    return sorted(found) if found else []


@dataclass
class AnswerSpace:
    """Every value an answer may take, as the rows show it."""
    values: list[str] = field(default_factory=list)          # scalar labels and listed choices
    items: list[object] = field(default_factory=list)        # list labels' items and listed choices
    fields: dict[str, list[object]] = field(default_factory=dict)   # object labels: each field's values
    from_prompts: bool = False

    def describe(self) -> str:
        shown = self.items if self.items else self.values
        if self.fields:
            return "fields " + "; ".join(f"{k}: {len(v)} values" for k, v in list(self.fields.items())[:6])
        source = "the labels and the choices the prompts list" if self.from_prompts else "the labels"
        if any(len(str(v)) > 40 or "\n" in str(v) for v in shown):   # whole answers (code, prose): count them
            return f"{len(shown)} {'items' if self.items else 'values'} from {source}, each a whole answer"
        head = ", ".join(str(v) for v in shown[:8]) + (", ..." if len(shown) > 8 else "")
        return f"{len(shown)} {'items' if self.items else 'values'} from {source} ({head})"


def answer_space(labels: list[Label], prompts: list[str]) -> AnswerSpace:
    space = AnswerSpace()
    choices: list[str] = []
    for prompt in prompts:
        choices += listed_choices(prompt)
    space.from_prompts = bool(choices)
    for label in labels:
        if label.kind == "list":
            space.items += [i for i in label.parts if i not in space.items]
        elif label.kind == "object":
            for key, value in label.value.items():  # type: ignore[union-attr]
                known = space.fields.setdefault(key, [])
                if value not in known:
                    known.append(value)
        elif label.text.strip() not in space.values:
            space.values.append(label.text.strip())
    if any(label.kind == "list" for label in labels):
        space.items += [c for c in choices if c not in space.items]
    else:
        space.values += [c for c in choices if c not in space.values]
    return space


def _overlap(a: object, b: object) -> int:
    if isinstance(a, list) and isinstance(b, list):
        return len({json.dumps(i) for i in a} & {json.dumps(i) for i in b})
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(1 for k in a if k in b and a[k] == b[k])
    return 0


def wrong_answer(labels: list[Label], index: int, space: AnswerSpace) -> str:
    """An answer that is wrong for row ``index`` beyond any tolerance: another row's label where one is
    really wrong (a number far from it, a list or object sharing as little as the space allows, another
    text), else one made from the answer space."""
    mine = labels[index]
    others = [labels[(index + k) % len(labels)] for k in range(1, len(labels))]
    if mine.kind == "number":
        for other in others:
            if other.kind == "number" and is_far(other.value, mine.value):  # type: ignore[arg-type]
                return other.text
        return plain(far(mine.value), mine.text)  # type: ignore[arg-type]
    if mine.kind in ("list", "object"):
        same = [o for o in others if o.kind == mine.kind]
        best = min(same, key=lambda o: _overlap(mine.value, o.value), default=None)
        if best is not None and _overlap(mine.value, best.value) == 0 and best.text.strip() != mine.text.strip():
            return best.text
        made = _disjoint(mine, space)
        if made is not None:
            return made
        return best.text if best is not None else dump_like(["none"] if mine.kind == "list" else {}, mine.text)
    for other in others:
        if other.text.strip().casefold() != mine.text.strip().casefold():
            return other.text
    unused = [v for v in space.values if v.casefold() != mine.text.strip().casefold()]
    return unused[0] if unused else "quartz"


def _disjoint(label: Label, space: AnswerSpace) -> str | None:
    if label.kind == "list":
        free = [i for i in space.items if i not in label.parts]
        return dump_like(free[: len(label.parts)], label.text) if free else None
    changed = {}
    for key, value in label.value.items():  # type: ignore[union-attr]
        alternatives = [v for v in space.fields.get(key, []) if v != value]
        changed[key] = alternatives[0] if alternatives else _other_value(value)
    return dump_like(changed, label.text)


def _other_value(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        moved = far(float(value))
        return int(moved) if isinstance(value, int) else moved
    if isinstance(value, str):
        return "quartz" if value.casefold() != "quartz" else "basalt"
    return None if value is not None else "quartz"


def partly_right(label: Label, space: AnswerSpace, part: int) -> str | None:
    """The label with one part replaced by another valid option: a list item by another item of the space
    (or dropped where the space has no other; a one-item list gains a second), an object field by another value the field takes. ``part``
    picks which, modulo their number, so the rows take the parts in turn. None for a label without parts."""
    if label.kind == "list" and label.parts:
        items = label.parts
        index = part % len(items)
        free = [i for i in space.items if i not in items]
        if free and len(items) == 1:   # one item: keep it, and name one more that is not in the label
            return dump_like([*items, free[part % len(free)]], label.text)
        if free:
            return dump_like([*items[:index], free[part % len(free)], *items[index + 1:]], label.text)
        return dump_like([*items[:index], *items[index + 1:]], label.text) if len(items) >= 2 else None
    if label.kind == "object" and len(label.value) >= 2:  # type: ignore[arg-type]
        key = list(label.value)[part % len(label.value)]  # type: ignore[arg-type]
        alternatives = [v for v in space.fields.get(key, []) if v != label.value[key]]  # type: ignore[index]
        return dump_like({**label.value, key: alternatives[0] if alternatives else _other_value(label.value[key])},  # type: ignore[dict-item,index]
                         label.text)
    return None


def looks_like_tests(text: str) -> bool:
    """A label that holds test cases, not an answer: a JSON list of objects with input and output keys, or
    an object holding such a list, or lines of ``assert`` statements."""
    stripped = text.strip()
    if stripped.startswith("assert ") and "\n" in stripped:
        return True
    try:
        parsed = json.loads(stripped)
    except ValueError:
        return False
    if isinstance(parsed, dict):
        parsed = next((v for k, v in parsed.items() if k.lower() in ("tests", "test_cases", "cases")), None)
    if not isinstance(parsed, list) or not parsed:
        return False
    keys = {"input", "inputs", "args", "output", "expected", "expected_output"}
    return all(isinstance(case, dict) and len(keys & set(case)) >= 2 for case in parsed)
