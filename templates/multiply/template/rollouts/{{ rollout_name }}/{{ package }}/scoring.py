"""The multiply task's scoring rule, one copy for every integration: plain functions, no SDK import.

The model is asked to end with `#### <product>`. Models drift, so the answer is also found in
`\boxed{...}`, after "the answer is", and at worst as the last number in the text. A reward is 1.0
when that number is within 0.01 of the label, else 0.0; nothing here raises on odd input.

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


def score(text: str | None, label: str | None) -> float:
    """1.0 when the answer in ``text`` is within 0.01 of ``label``, else 0.0 (also for bad input)."""
    if label is None:
        return 0.0
    expected = _to_float(str(label).strip())
    answer = extract_answer(text)
    if expected is None or answer is None:
        return 0.0
    return 1.0 if abs(answer - expected) <= TOLERANCE + _EPSILON else 0.0
