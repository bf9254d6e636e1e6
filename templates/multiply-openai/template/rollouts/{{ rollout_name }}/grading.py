"""Grading for the multiply task on OpenAI Agents SDK samples.

An OpenAI-Agents sample holds Responses-API items, not chat messages: the answer is the text of the
`output_text` parts of the last assistant `message` item. This module imports neither osmosis_ai
nor agents, so its tests run anywhere (`python -m pytest`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

TOLERANCE = 0.01  # the task's rule: within 0.01 of the ground truth earns the reward

# A signed decimal, allowing thousands separators ("1,234.5") and a leading dot (".5").
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _field(item: Any, key: str) -> Any:
    # Persisted items are dicts; items still in memory may be pydantic models.
    if isinstance(item, Mapping):
        return item.get(key)
    return getattr(item, key, None)


def answer_text(items: Iterable[Any] | None) -> str:
    """The text of the last assistant message among Responses-API items ("" when there is none)."""
    for item in reversed(list(items or [])):
        if _field(item, "role") != "assistant" or _field(item, "type") not in (None, "message"):
            continue
        content = _field(item, "content")
        if isinstance(content, str):
            return content
        texts = [
            _field(part, "text")
            for part in content or []
            if _field(part, "type") == "output_text"
        ]
        return "".join(t for t in texts if isinstance(t, str))
    return ""


def _numbers(text: str) -> list[float]:
    found = []
    for match in _NUMBER.finditer(text):
        token = match.group(0)
        if not any(ch.isdigit() for ch in token):
            continue
        try:
            value = float(token.replace(",", ""))
        except ValueError:
            continue
        if math.isfinite(value):
            found.append(value)
    return found


def extract_answer(text: str | None) -> float | None:
    """The number after the last `####`, else the last number in the text, else None."""
    if not text:
        return None
    marker = text.rfind("####")
    if marker != -1:
        after = _numbers(text[marker + 4 :])
        if after:
            return after[0]
    numbers = _numbers(text)
    return numbers[-1] if numbers else None


def reward(text: str | None, ground_truth: str | None) -> float:
    """1.0 when the answer is within TOLERANCE of the ground truth, else 0.0 (never raises)."""
    answer = extract_answer(text)
    if answer is None or ground_truth is None:
        return 0.0
    try:
        expected = float(str(ground_truth).replace(",", "").strip())
    except ValueError:
        return 0.0
    if not math.isfinite(expected):
        return 0.0
    return 1.0 if abs(answer - expected) <= TOLERANCE else 0.0
