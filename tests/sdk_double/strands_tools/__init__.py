"""TEST DOUBLE of the third-party `strands-agents-tools` package: the `calculator` tool only.

The real tool evaluates expressions with sympy; this one evaluates + - * / ** and parentheses over
numbers with Python's ast, enough for the templates' tests. Not the real package.
"""

from __future__ import annotations

import ast
import operator

from strands import tool

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos}


def _eval(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left), _eval(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.operand))
    raise ValueError("only numbers and + - * / ** ( ) are supported")


@tool
def calculator(expression: str, precision: int = 10) -> str:
    """Evaluate an arithmetic expression."""
    return str(round(_eval(ast.parse(expression, mode="eval")), precision))
