"""The reward: does the number after the final answer's `####` equal the row's ground truth?"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

TOLERANCE = 1e-6

_AFTER_MARKER = re.compile(r"####\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")


def last_assistant_text(messages: Iterable[Any] | None) -> str:
    """The content of the last assistant message that has text ("" when there is none)."""
    for message in reversed(list(messages or [])):
        if isinstance(message, Mapping) and message.get("role") == "assistant":
            content = message.get("content")
            if isinstance(content, str) and content.strip():
                return content
    return ""


def extract_solution(text: str | None) -> float | None:
    """The number after the last `####`, or None."""
    matches = _AFTER_MARKER.findall(text or "")
    if not matches:
        return None
    value = float(matches[-1])
    return value if math.isfinite(value) else None


def compute_reward(text: str | None, ground_truth: str | None) -> float:
    """1.0 when the answer equals the ground truth (to TOLERANCE), else 0.0; never raises."""
    answer = extract_solution(text)
    if answer is None or ground_truth is None:
        return 0.0
    try:
        expected = float(str(ground_truth).strip())
    except ValueError:
        return 0.0
    if not math.isfinite(expected):
        return 0.0
    return 1.0 if abs(answer - expected) <= TOLERANCE * max(1.0, abs(expected)) else 0.0
