"""The task's scoring rule, one copy for every integration: plain functions, no SDK import.

The model is asked to end with `#### <answer>`. A numeric label (a product, a count) is
matched by number: models drift, so the answer is also found in `\boxed{...}`, after "the answer
is", and at worst as the last number in the text; 1.0 when it is within 0.01 of the label. Any other
label is matched as text: the answer after the last `####` (else in `\boxed{...}`, after "the answer
is", or the last line), compared with the label ignoring case, surrounding quotes, `*` and final
punctuation. Else 0.0; nothing here raises on odd input.

How the answer text is taken out of a sample depends on the agent framework: that part lives in
grading.py, which hands the text to `score` here.
"""

from __future__ import annotations

import math
import re

TOLERANCE = 0.01
_EPSILON = 1e-9  # 0.01 itself is not exact in binary floating point

# A signed decimal with optional thousands separators ("-1,234.5") or a bare fraction (".5").
# Every alternative needs a digit, so the pattern never matches the empty string; (?!\d) keeps
# "1,2345" from being read as 1,234 followed by 5.
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+")
_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_ANSWER_IS = re.compile(r"\b(?:final\s+)?answer\s*(?:is|:|=)", re.IGNORECASE)


def _to_float(token: str) -> float | None:
    try:
        value = float(token.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _first_number(text: str) -> float | None:
    match = _NUMBER.search(text)
    return _to_float(match.group(0)) if match else None


def _last_number(text: str) -> float | None:
    matches = _NUMBER.findall(text)
    return _to_float(matches[-1]) if matches else None


def extract_answer(text: str | None) -> float | None:
    """The model's final number, or None when the text holds no number."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = text.replace("\u2212", "-").replace("{,}", ",")  # Unicode minus; LaTeX thousands separator
    if "####" in text:
        found = _first_number(text.rsplit("####", 1)[1])
        if found is not None:
            return found
    boxed = _BOXED.findall(text)
    if boxed:
        found = _first_number(boxed[-1])
        if found is not None:
            return found
    said = list(_ANSWER_IS.finditer(text))
    if said:
        found = _first_number(text[said[-1].end() :])
        if found is not None:
            return found
    return _last_number(text)


def _normal(text: str) -> str:
    return " ".join(text.strip().strip("*\"'`").rstrip(".!").strip().casefold().split())


def extract_text_answer(text: str | None) -> str:
    """The model's final answer as text ("" when there is none)."""
    if not isinstance(text, str) or not text.strip():
        return ""
    if "####" in text:
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""
    boxed = _BOXED.findall(text)
    if boxed:
        return boxed[-1]
    said = list(_ANSWER_IS.finditer(text))
    if said:
        rest = text[said[-1].end() :].strip()
        return rest.splitlines()[0] if rest else ""
    return [line for line in text.splitlines() if line.strip()][-1]


def score(text: str | None, label: str | None) -> float:
    """1.0 when the answer in ``text`` matches ``label`` (a number within 0.01), else 0.0 (also for bad input)."""
    if label is None or not str(label).strip():
        return 0.0
    expected = _to_float(str(label).strip())
    if expected is None:  # a text label (a non-finite "number" such as nan never matches)
        if str(label).strip().lower() in ("nan", "inf", "-inf", "+inf", "infinity", "-infinity"):
            return 0.0
        answer_text = _normal(extract_text_answer(text))
        return 1.0 if answer_text and answer_text == _normal(str(label)) else 0.0
    answer = extract_answer(text)
    if answer is None:
        return 0.0
    return 1.0 if abs(answer - expected) <= TOLERANCE + _EPSILON else 0.0
