"""Calculator tools: their OpenAI function-calling specs and how a tool call is executed.

A bad call (unknown tool, bad JSON, missing or non-numeric arguments, division by zero) becomes
an error text the model reads in the tool result and can correct; it never raises out of the loop.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any


def add(a: float, b: float) -> float:
    return a + b


def subtract(a: float, b: float) -> float:
    return a - b


def multiply(a: float, b: float) -> float:
    return a * b


def divide(a: float, b: float) -> float:
    if b == 0:
        raise ZeroDivisionError("division by zero is undefined; check the divisor")
    return a / b


TOOLS: dict[str, tuple[Callable[[float, float], float], str]] = {
    "add": (add, "Add two numbers: a + b"),
    "subtract": (subtract, "Subtract two numbers: a - b"),
    "multiply": (multiply, "Multiply two numbers: a * b"),
    "divide": (divide, "Divide two numbers: a / b (b must not be zero)"),
}


def tool_specs() -> list[dict[str, Any]]:
    """The tools in OpenAI function-calling format, sent with every policy call."""
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "a": {"type": "number", "description": "First operand"},
                        "b": {"type": "number", "description": "Second operand"},
                    },
                    "required": ["a", "b"],
                },
            },
        }
        for name, (_, description) in TOOLS.items()
    ]


def _format(value: float) -> str:
    # Whole numbers print without ".0" so the model can copy them into its answer.
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _number(arguments: Mapping[str, Any], key: str) -> float:
    value = arguments.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"argument {key!r} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"argument {key!r} must be finite, got {value!r}")
    return number


def run_tool(name: str, arguments: Any) -> str:
    """The tool's result as text, or a text starting with "Error:" that the model can act on."""
    entry = TOOLS.get(name)
    if entry is None:
        return f"Error: unknown tool {name!r}; available: {', '.join(TOOLS)}"
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError as err:
            return f"Error: arguments are not valid JSON ({err.msg})"
    if not isinstance(arguments, Mapping):
        return "Error: arguments must be a JSON object with numbers a and b"
    try:
        result = entry[0](_number(arguments, "a"), _number(arguments, "b"))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as err:
        return f"Error: {err}"
    if not math.isfinite(result):
        return "Error: the result is too large to represent"
    return _format(result)


def execute_tool_calls(tool_calls: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Tool-result messages (role "tool"), one per OpenAI-format tool call, in order."""
    results = []
    for call in tool_calls:
        function = call.get("function") or {}
        content = run_tool(str(function.get("name", "")), function.get("arguments", "{}"))
        results.append({"role": "tool", "tool_call_id": str(call.get("id", "")), "content": content})
    return results
