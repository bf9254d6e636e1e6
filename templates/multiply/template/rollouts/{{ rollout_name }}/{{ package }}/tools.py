"""The agent's tool, as a plain function: each integration wraps it (Strands `tool`, OpenAI Agents
`function_tool`), and its tests need no SDK. Its docstring and type hints become the tool spec the
model sees."""

from __future__ import annotations


def multiply(a: float, b: float) -> float:
    """Multiply two numbers and return the product rounded to 4 decimal places."""
    return round(float(a) * float(b), 4)
