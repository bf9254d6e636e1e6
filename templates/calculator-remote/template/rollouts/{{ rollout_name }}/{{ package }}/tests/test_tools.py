import json

import pytest

from ..tools import execute_tool_calls, run_tool, tool_specs


def call(name, arguments, call_id="call_1"):
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def test_specs_are_openai_function_tools_for_the_four_operations():
    specs = tool_specs()
    assert [s["function"]["name"] for s in specs] == ["add", "subtract", "multiply", "divide"]
    for spec in specs:
        assert spec["type"] == "function"
        params = spec["function"]["parameters"]
        assert params["type"] == "object" and params["required"] == ["a", "b"]
        assert set(params["properties"]) == {"a", "b"}


@pytest.mark.parametrize(
    "name, a, b, expected",
    [
        ("add", 25, 17, "42"),
        ("subtract", 100, 37, "63"),
        ("multiply", 12, 8, "96"),
        ("divide", 7.5, 2.5, "3"),
        ("divide", 1, 4, "0.25"),
    ],
)
def test_operations(name, a, b, expected):
    assert run_tool(name, {"a": a, "b": b}) == expected


def test_divide_by_zero_is_a_tool_error_not_a_crash():
    result = run_tool("divide", {"a": 1, "b": 0})
    assert result.startswith("Error:") and "zero" in result


@pytest.mark.parametrize(
    "name, arguments",
    [
        ("power", {"a": 1, "b": 2}),
        ("add", "{not json"),
        ("add", {"a": 1}),
        ("add", {"a": "x", "b": 2}),
        ("add", [1, 2]),
        ("add", {"a": True, "b": 1}),
        ("multiply", {"a": 1e308, "b": 1e308}),
        ("add", {"a": "nan", "b": 1}),
    ],
)
def test_bad_calls_return_error_text(name, arguments):
    assert run_tool(name, arguments).startswith("Error:")


def test_execute_tool_calls_answers_each_call_in_order():
    results = execute_tool_calls([call("add", {"a": 1, "b": 2}, "c1"), call("divide", {"a": 1, "b": 0}, "c2")])
    assert [r["tool_call_id"] for r in results] == ["c1", "c2"]
    assert all(r["role"] == "tool" for r in results)
    assert results[0]["content"] == "3"
    assert results[1]["content"].startswith("Error:")


def test_execute_tool_calls_survives_a_malformed_call():
    assert execute_tool_calls([{}])[0]["content"].startswith("Error: unknown tool")
