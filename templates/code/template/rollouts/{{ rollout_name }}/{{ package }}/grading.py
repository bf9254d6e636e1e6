"""Grading without the SDK: the answer text of a sample's messages, and its reward.

The answer is the text of the last assistant message that has any; scoring.py takes its last
fenced code block and runs it against the label's tests.

Each integration records its own message shape, and this one reader takes all of them:
- Strands: `{"role": "assistant", "content": [{"text": ...}, {"toolUse": ...}]}`;
- OpenAI Agents: Responses-API items, `{"type": "message", "role": "assistant",
  "content": [{"type": "output_text", "text": ...}]}`, between `function_call` / `reasoning` items;
- plain chat: `{"role": "assistant", "content": "..."}`.
Tool calls, tool results, refusals and reasoning carry no answer. No SDK import, so the tests run
anywhere.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from .sandbox import DEFAULT_LIMITS, Limits
from .scoring import score

TEXT_PARTS = (None, "text", "output_text")  # part types that hold answer text


def _field(item: Any, key: str) -> Any:
    # Recorded messages are dicts; live SDK objects may expose attributes instead.
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(_text(part) for part in content)
    if content is None or _field(content, "type") not in TEXT_PARTS:
        return ""
    text = _field(content, "text")
    return text if isinstance(text, str) else ""


def last_answer_text(messages: Iterable[Any] | None) -> str:
    """The text of the last assistant message with text ("" when there is none)."""
    try:
        items = list(messages or [])
    except TypeError:
        return ""
    for item in reversed(items):
        if _field(item, "role") != "assistant" or _field(item, "type") not in (None, "message"):
            continue
        text = _text(_field(item, "content"))
        if text.strip():
            return text
    return ""


def reward(
    messages: Iterable[Any] | None,
    label: str | None,
    limits: Limits = DEFAULT_LIMITS,
    cancel: threading.Event | None = None,
) -> float:
    """The sample's reward: scoring.py's rule applied to its last answer (0.0 when there is none).

    Blocking (it runs the answer's code): call it in a thread (asyncio.to_thread), as grader.py does."""
    return score(last_answer_text(messages), label, limits, cancel)
