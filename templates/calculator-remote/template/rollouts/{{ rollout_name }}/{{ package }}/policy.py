"""The policy: the rollout's OpenAI-compatible chat-completions endpoint, called with httpx.

During a rollout the SDK hands the workflow a per-rollout base URL and key
(``get_rollout_context().chat_completions_url`` / ``.api_key``); the platform serves the model
being trained there, and `osmosis eval run` serves the config's ``model_path``. Requests stream
(server-sent events), which both endpoints accept; a plain JSON answer is read as well.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any, Self

import httpx

from .agent import Message

# The endpoint already knows which model serves this rollout; this is the alias the SDK's own
# integrations send in the request's `model` field.
MODEL_ALIAS = "osmosis-rollout"


class PolicyError(RuntimeError):
    """The endpoint refused the request or answered something that is not a completion."""


class ChatCompletionsPolicy:
    """``await policy(messages, tools)`` returns the policy's next assistant message."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float = 300.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not base_url:
            raise PolicyError("no chat-completions URL: run the workflow inside a rollout")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.params = dict(params or {})
        self._client = httpx.AsyncClient(headers=headers, timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self._client.aclose()

    async def __call__(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        body = {
            **self.params,
            "model": MODEL_ALIAS,
            "messages": messages,
            "tools": tools,
            "stream": True,
        }
        async with self._client.stream("POST", self.url, json=body) as response:
            if response.status_code >= 400:
                detail = (await response.aread()).decode("utf-8", "replace")[:500]
                raise PolicyError(f"chat completions answered HTTP {response.status_code}: {detail}")
            if response.headers.get("content-type", "").startswith("text/event-stream"):
                return await message_from_events(response.aiter_lines())
            try:
                payload = json.loads(await response.aread())
            except ValueError as err:
                raise PolicyError(f"chat completions answered non-JSON: {err}") from err
            return message_from_completion(payload)


def message_from_completion(payload: Any) -> Message:
    """The assistant message of a non-streamed completion."""
    choice = _first_choice(payload)
    message = choice.get("message") if isinstance(choice.get("message"), Mapping) else {}
    return _assistant(message.get("content"), message.get("tool_calls") or [])


async def message_from_events(lines: AsyncIterator[str]) -> Message:
    """The assistant message assembled from a streamed completion's `data:` events."""
    chunks: list[Any] = []
    event = ""
    async for line in lines:
        if not line:
            event = ""  # a blank line ends the event
            continue
        if line.startswith(":"):
            continue  # keep-alive comment
        if line.startswith("event:"):
            event = line[6:].strip()
            continue
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            break
        try:
            chunk = json.loads(data)
        except ValueError as err:
            raise PolicyError(f"unreadable stream event: {data[:200]!r}") from err
        if event == "error" or (isinstance(chunk, Mapping) and "error" in chunk):
            raise PolicyError(f"chat completions stream failed: {json.dumps(chunk)[:500]}")
        chunks.append(chunk)
    return merge_chunks(chunks)


def merge_chunks(chunks: Iterable[Any]) -> Message:
    """Join streamed deltas: text is concatenated, tool calls are assembled by their index."""
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    seen = False
    for chunk in chunks:
        if not isinstance(chunk, Mapping) or not chunk.get("choices"):
            continue  # e.g. a usage-only chunk
        seen = True
        delta = _first_choice(chunk).get("delta") or {}
        if isinstance(delta.get("content"), str):
            text.append(delta["content"])
        for position, part in enumerate(delta.get("tool_calls") or []):
            index = part.get("index", position)
            call = calls.setdefault(index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            call["id"] = part.get("id") or call["id"]
            function = part.get("function") or {}
            call["function"]["name"] += function.get("name") or ""
            call["function"]["arguments"] += function.get("arguments") or ""
    if not seen:
        raise PolicyError("the stream ended without a completion")
    return _assistant("".join(text), [calls[i] for i in sorted(calls)])


def _first_choice(payload: Any) -> Mapping[str, Any]:
    choices = payload.get("choices") if isinstance(payload, Mapping) else None
    if not choices or not isinstance(choices[0], Mapping):
        raise PolicyError(f"the completion has no choices: {json.dumps(payload)[:300]}")
    return choices[0]


def _assistant(content: Any, tool_calls: list[Any]) -> Message:
    message: Message = {"role": "assistant", "content": content if isinstance(content, str) else ""}
    if tool_calls:
        message["tool_calls"] = [dict(call) for call in tool_calls]
    return message
