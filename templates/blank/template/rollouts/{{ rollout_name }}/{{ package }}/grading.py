"""How an answer is scored. Plain Python (no SDK imports) so tests/ can check it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


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
            if text.strip():
                return text
    return ""


def score(answer: str, label: str | None) -> float:
    """The reward in [0, 1]. TODO(osmosis): replace exact matching with your task's scoring."""
    if not answer.strip() or label is None:
        return 0.0
    return 1.0 if answer.strip().casefold() == label.strip().casefold() else 0.0
