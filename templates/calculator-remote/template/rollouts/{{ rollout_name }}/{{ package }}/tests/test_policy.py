import asyncio
import json

import httpx
import pytest

from ..policy import ChatCompletionsPolicy, PolicyError, merge_chunks

MESSAGES = [{"role": "user", "content": "What is 2 + 3?"}]
TOOLS = [{"type": "function", "function": {"name": "add", "parameters": {"type": "object"}}}]


def sse(*chunks, done=True):
    events = [": ping\n\n"] + [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks]
    return "".join(events) + ("data: [DONE]\n\n" if done else "")


def delta(**fields):
    return {"choices": [{"index": 0, "delta": fields, "finish_reason": None}]}


def ask(handler, **kwargs):
    seen = []

    def record(request):
        seen.append(request)
        return handler(request)

    async def call():
        policy = ChatCompletionsPolicy(
            "http://endpoint/v1/rollouts/r1/",
            "key-1",
            transport=httpx.MockTransport(record),
            **kwargs,
        )
        async with policy:
            return await policy(MESSAGES, TOOLS)

    return asyncio.run(call()), seen


def streamed(text):
    return lambda request: httpx.Response(200, headers={"content-type": "text/event-stream"}, text=text)


def test_request_goes_to_the_rollout_endpoint_with_its_key_tools_and_sampling():
    reply, seen = ask(streamed(sse(delta(role="assistant", content="#### 5"))), params={"temperature": 0.5})
    assert reply == {"role": "assistant", "content": "#### 5"}
    (request,) = seen
    assert str(request.url) == "http://endpoint/v1/rollouts/r1/chat/completions"
    assert request.headers["authorization"] == "Bearer key-1"
    body = json.loads(request.content)
    assert body["messages"] == MESSAGES and body["tools"] == TOOLS
    assert body["stream"] is True and body["temperature"] == 0.5


def test_streamed_tool_calls_are_assembled_from_their_pieces():
    text = sse(
        delta(role="assistant", content=""),
        delta(
            tool_calls=[
                {
                    "index": 0,
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "add", "arguments": '{"a": 2'},
                }
            ]
        ),
        delta(tool_calls=[{"index": 0, "function": {"arguments": ', "b": 3}'}}]),
        delta(
            tool_calls=[
                {
                    "index": 1,
                    "id": "c2",
                    "function": {"name": "multiply", "arguments": '{"a": 1, "b": 1}'},
                }
            ]
        ),
    )
    reply, _ = ask(streamed(text))
    assert reply["content"] == ""
    assert reply["tool_calls"] == [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'},
        },
        {
            "id": "c2",
            "type": "function",
            "function": {"name": "multiply", "arguments": '{"a": 1, "b": 1}'},
        },
    ]


def test_a_plain_json_completion_is_read_too():
    completion = {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "#### 5"},
                "finish_reason": "stop",
            }
        ]
    }
    reply, _ = ask(lambda request: httpx.Response(200, json=completion))
    assert reply == {"role": "assistant", "content": "#### 5"}


@pytest.mark.parametrize(
    "handler, message",
    [
        (lambda request: httpx.Response(401, text="Unauthorized"), "HTTP 401"),
        (
            streamed('event: error\ndata: {"error": {"message": "boom"}}\n\ndata: [DONE]\n\n'),
            "boom",
        ),
        (streamed(sse(done=False)), "without a completion"),
        (streamed("data: {not json\n\n"), "unreadable"),
        (lambda request: httpx.Response(200, json={"choices": []}), "no choices"),
    ],
)
def test_endpoint_failures_raise_a_policy_error(handler, message):
    with pytest.raises(PolicyError, match=message):
        ask(handler)


def test_no_endpoint_outside_a_rollout():
    with pytest.raises(PolicyError):
        ChatCompletionsPolicy("", None)


def test_usage_only_chunks_are_ignored():
    assert merge_chunks(
        [delta(content="#### "), delta(content="5"), {"choices": [], "usage": {"total_tokens": 3}}]
    ) == {"role": "assistant", "content": "#### 5"}
