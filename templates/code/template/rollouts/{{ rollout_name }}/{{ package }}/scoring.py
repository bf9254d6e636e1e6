"""The task's scoring rule: plain functions, no SDK import.

The label (the row's `ground_truth`) is JSON text naming the function and its hidden tests:

    {"function": "add", "tests": [{"input": [1, 2], "output": 3}, {"input": [-1, 1], "output": 0}]}

`input` lists the positional arguments; `output` is the JSON value the function must return
(tuples compare as lists; integers exactly, floats within 1e-9; true is not 1). The answer is the LAST fenced code
block of the model's text (```python ... ```, or a bare ``` fence). It runs in sandbox.py's child
process on the inputs only; the comparison happens here, in the grader's own process.

reward = tests passed / tests. No code block, a label that is not test cases, an answer over the
size cap: 0.0. Nothing here raises on odd input.
"""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass

from .sandbox import DEFAULT_LIMITS, Limits, Run, run_answer

MAX_LABEL_CHARS = 1_000_000
# A fence: three or more backticks (or tildes), an optional language, the code, the same fence.
_FENCE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<code>.*?)^[ \t]*(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
OTHER_LANGUAGES = {
    "bash",
    "sh",
    "shell",
    "console",
    "text",
    "txt",
    "json",
    "output",
    "javascript",
    "js",
    "c",
    "cpp",
    "java",
    "rust",
    "go",
    "sql",
    "yaml",
    "toml",
}


@dataclass(frozen=True)
class Tests:
    function: str
    inputs: list[list]
    outputs: list[object]


def extract_code(text: str | None) -> str | None:
    """The last fenced code block of ``text`` that is not marked as another language; None without one."""
    if not isinstance(text, str) or "```" not in text and "~~~" not in text:
        return None
    blocks = [m for m in _FENCE.finditer(text) if m.group("lang").lower() not in OTHER_LANGUAGES]
    return blocks[-1].group("code") if blocks else None


def parse_tests(label: str | None) -> Tests:
    """The label as test cases; ValueError saying what is wrong otherwise."""
    if not isinstance(label, str) or not label.strip():
        raise ValueError("the label is empty")
    if len(label) > MAX_LABEL_CHARS:
        raise ValueError(f"the label is over {MAX_LABEL_CHARS} characters")
    try:
        data = json.loads(label)
    except ValueError as err:
        raise ValueError(f"the label is not JSON ({err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("function"), str) or not _NAME.match(data["function"]):
        raise ValueError('the label must be an object {"function": NAME, "tests": [...]}, NAME a Python identifier')
    tests = data.get("tests")
    if not isinstance(tests, list) or not tests:
        raise ValueError('the label\'s "tests" must be a non-empty list')
    inputs, outputs = [], []
    for i, case in enumerate(tests):
        if not isinstance(case, dict) or not isinstance(case.get("input"), list) or "output" not in case:
            raise ValueError(f'test {i} must be an object {{"input": [ARGS...], "output": VALUE}}')
        inputs.append(case["input"])
        outputs.append(case["output"])
    return Tests(data["function"], inputs, outputs)


def same(got: object, want: object) -> bool:
    """JSON values equal as the tests mean it: integers exactly, floats within 1e-9, booleans only booleans."""
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    if isinstance(got, int) and isinstance(want, int):
        return got == want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(want, list):
        return (
            isinstance(got, list) and len(got) == len(want) and all(same(g, w) for g, w in zip(got, want, strict=True))
        )
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    return type(got) is type(want) and got == want


@dataclass
class Report:
    reward: float
    passed: int
    total: int
    run: Run | None
    reason: str = ""


def grade_code(
    code: str | None, label: str | None, limits: Limits = DEFAULT_LIMITS, cancel: threading.Event | None = None
) -> Report:
    """Run ``code`` against the label's tests; the share passed. Blocking: see sandbox.run_answer."""
    try:
        tests = parse_tests(label)
    except ValueError as err:
        return Report(0.0, 0, 0, None, str(err))
    total = len(tests.inputs)
    if not code or not code.strip():
        return Report(0.0, 0, total, None, "no code block in the answer")
    run = run_answer(code, tests.function, tests.inputs, limits, cancel)
    passed = sum(1 for ok, got, want in zip(run.ok, run.values, tests.outputs, strict=True) if ok and same(got, want))
    return Report(passed / total, passed, total, run, "; ".join(run.notes[:5]))


def score(
    text: str | None, label: str | None, limits: Limits = DEFAULT_LIMITS, cancel: threading.Event | None = None
) -> float:
    """The reward of an answer ``text`` (its last code block) against ``label``'s tests, in [0, 1]."""
    return grade_code(extract_code(text), label, limits, cancel).reward
