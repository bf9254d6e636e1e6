"""The agent's tool. Plain Python so it can be tested without the OpenAI Agents SDK."""

from __future__ import annotations


def multiply(a: float, b: float) -> float:
    """Multiply two numbers and return the product rounded to 4 decimal places."""
    return round(float(a) * float(b), 4)
