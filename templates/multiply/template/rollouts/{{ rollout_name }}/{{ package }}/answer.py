"""Grading for the multiply task on Strands samples: finds the answer text in a sample's messages.

A Strands message is `{"role": ..., "content": ...}` where content is a string or a list of content
blocks (`{"text": ...}`, `{"toolUse": ...}`, ...). The Harbor template runs the same Strands agent in
each sandbox, so its samples are read by this same file. The scoring rule itself is in scoring.py,
shared by every multiply template. No SDK import here either, so the tests run anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring import extract_answer, score

__all__ = ["extract_answer", "last_assistant_text", "score"]


def _field(item: Any, key: str) -> Any:
    # Recorded messages are dicts; live SDK objects may expose attributes instead.
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _text(content: Any) -> str:
    """Text of a message's content: a string, one text block, or a list of blocks (tool blocks add nothing)."""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(_text(block) for block in content)
    text = _field(content, "text") if content is not None else None
    return text if isinstance(text, str) else ""


def last_assistant_text(messages: Iterable[Any] | None) -> str:
    """The text of the last assistant message that has any text ("" when there is none)."""
    try:
        items = list(messages or [])
    except TypeError:
        return ""
    for message in reversed(items):
        if _field(message, "role") == "assistant":
            text = _text(_field(message, "content"))
            if text.strip():
                return text
    return ""
