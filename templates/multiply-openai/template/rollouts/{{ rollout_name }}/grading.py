"""Grading for the multiply task on OpenAI Agents SDK samples: finds the answer text in a sample.

An OpenAI-Agents sample holds Responses-API items, not chat messages: the answer is the text of the
`output_text` parts of the last assistant `message` item that has any (refusals, reasoning and tool
items carry no answer). The scoring rule itself is in scoring.py, shared by every multiply template.
This module imports neither osmosis_ai nor agents, so its tests run anywhere (`python -m pytest`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring import extract_answer
from scoring import score as reward  # main.py grades with `reward(answer_text(...), label)`

__all__ = ["answer_text", "extract_answer", "reward"]


def _field(item: Any, key: str) -> Any:
    # Persisted items are dicts; items still in memory may be pydantic models.
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _output_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)):
        return ""
    texts = (_field(part, "text") for part in content if _field(part, "type") == "output_text")
    return "".join(t for t in texts if isinstance(t, str))


def answer_text(items: Iterable[Any] | None) -> str:
    """The text of the last assistant message among Responses-API items ("" when there is none)."""
    try:
        items = list(items or [])
    except TypeError:
        return ""
    for item in reversed(items):
        if _field(item, "role") != "assistant" or _field(item, "type") not in (None, "message"):
            continue
        text = _output_text(_field(item, "content"))
        if text.strip():
            return text
    return ""
