"""What the scripted model says: an answer in the format the rollout's prompt asks for, or a judge's score.

Reading the format is a guess from the instructions the model is given (the system prompt and the
user's message); when no known format is asked for, the answer is the bare ground truth, which is
what an exact-match grader wants.
"""

from __future__ import annotations

import re

# Formats, most specific first: (pattern in the instructions, how the answer is written).
_FORMATS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"```\s*(?:python|py)\b|\bpython code block\b|\bfenced (?:python )?code block\b", re.IGNORECASE),
     "```python\n{answer}\n```"),
    (re.compile(r"####"), "#### {answer}"),
    (re.compile(r"\\boxed"), "\\boxed{{{answer}}}"),
    (re.compile(r"<answer>", re.IGNORECASE), "<answer>{answer}</answer>"),
    (re.compile(r"<final_answer>", re.IGNORECASE), "<final_answer>{answer}</final_answer>"),
    (re.compile(r"\bFinal Answer:", re.IGNORECASE), "Final Answer: {answer}"),
    (re.compile(r"[\"'`]Answer:", re.IGNORECASE), "Answer: {answer}"),
)

# A judge asks for a score on a labelled line: `SCORE: <points>`, `Rating: [[n]]`, `score: {n}`. A label
# followed by a placeholder is the format line; a bare "points:" elsewhere (a rubric heading) is not.
_SCORE_FORMAT = re.compile(r"\b(score|rating|grade|points|reward)\s*[:=]\s*(\[\[|<|\{)", re.IGNORECASE)
_SCORE_LINE = re.compile(r"\b(score|rating|grade)\s*[:=]\s*()", re.IGNORECASE)
_SCALES = (
    re.compile(r"\bfrom\s+(-?\d+(?:\.\d+)?)\s+to\s+(-?\d+(?:\.\d+)?)", re.IGNORECASE),
    re.compile(r"\bbetween\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)", re.IGNORECASE),
    re.compile(r"\b(-?\d+(?:\.\d+)?)\s*(?:-|to)\s*(\d+(?:\.\d+)?)\s+(?:points|scale)", re.IGNORECASE),
    re.compile(r"\b()out of\s+(\d+(?:\.\d+)?)", re.IGNORECASE),
)


def answer_format(instructions: str) -> str:
    """The template an answer is written in, e.g. ``"#### {answer}"``; ``"{answer}"`` when none is asked."""
    for pattern, template in _FORMATS:
        if pattern.search(instructions):
            return template
    return "{answer}"


# The formats a hedging policy writes its other guesses in, beside the one the prompt asks for.
_OTHER_FORMATS = ("#### {answer}", "\\boxed{{{answer}}}", "The answer is {answer}.", "{answer}")


def is_code(instructions: str) -> bool:
    return answer_format(instructions).startswith("```")


def other_formats(instructions: str) -> list[str]:
    """The prompt's format first, then the usual others (each once): a hedge over formats puts one guess in each."""
    mine = answer_format(instructions)
    return [mine, *[f for f in _OTHER_FORMATS if f != mine]]


def format_answer(instructions: str, answer: str) -> str:
    """``answer`` written the way ``instructions`` ask ("" stays "": the empty pass says nothing)."""
    if not answer:
        return ""
    return answer_format(instructions).format(answer=answer)


def _number(text: str) -> str:
    value = float(text)
    return str(int(value)) if value.is_integer() else text


def score_scale(prompt: str) -> tuple[str, str]:
    """The lowest and highest score a judge prompt allows (("0", "1") when it does not say)."""
    for pattern in _SCALES:
        found = pattern.search(prompt)
        if found:
            low = found.group(1) or "0"
            return _number(low), _number(found.group(2))
    return "0", "1"


def judge_reply(prompt: str, top: bool) -> str | None:
    """A judge's verdict in the format ``prompt`` asks for, at the top or the bottom of its scale.

    None when the prompt asks for no score line: the caller then answers as the policy would.
    """
    found = _SCORE_FORMAT.search(prompt) or _SCORE_LINE.search(prompt)
    if found is None:
        return None
    low, high = score_scale(prompt)
    value = high if top else low
    label = found.group(1)
    label = label.upper() if label.isupper() else label
    opener = found.group(2) or ""
    closer = {"[[": "]]", "<": "", "{": ""}.get(opener, "")
    shown = f"[[{value}]]" if opener == "[[" and closer else value
    return f"Scripted judge (osmosis rehearse).\n{label}: {shown}"
