"""Grading for the multiply task on Strands samples.

A sample's messages are chat messages whose `content` is a string or a list of content blocks
(`{"text": ...}`). This module imports no SDK, so its tests run anywhere (`python -m pytest`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

TOLERANCE = 0.01  # the task's rule: within 0.01 of the ground truth earns the reward

# A signed decimal, allowing thousands separators ("1,234.5") and a leading dot (".5").
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        text = content.get("text")
        return text if isinstance(text, str) else ""
    if isinstance(content, (list, tuple)):
        return "".join(_text(block) for block in content)
    return ""


def answer_text(messages: Iterable[Any] | None) -> str:
    """The text of the last assistant message ("" when there is none)."""
    for message in reversed(list(messages or [])):
        if isinstance(message, Mapping) and message.get("role") == "assistant":
            text = _text(message.get("content"))
            if text:
                return text
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
