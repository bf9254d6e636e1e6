"""The LLM-as-judge grader's logic: rubric, prompt, score parsing, clamping and the fallback.

The judge client is injected (anything with `async complete(prompt) -> str`), so the tests use a
scripted one. This module imports no SDK; the OpenAI client is imported only when the default judge
is actually called.
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

logger = logging.getLogger(__name__)

MAX_POINTS = 10

RUBRIC = """\
Score the ANSWER to the QUESTION from 0 to 10 points:
- Correctness (0-4): no false statements; agrees with the REFERENCE on the facts.
- Completeness (0-3): covers the key idea of the REFERENCE and gives a concrete example.
- Clarity (0-3): plain words a newcomer understands, two to four sentences, no padding.
An empty, off-topic or refusing answer scores 0."""

PROMPT = """\
You are a strict, fair grader.

{rubric}

QUESTION:
{question}

REFERENCE (a good answer, not the only one):
{reference}

ANSWER:
{answer}

Think briefly, then end your reply with one line of the form `SCORE: <points>`."""

_SCORE = re.compile(r"SCORE\s*[:=]\s*([-+]?\d+(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")


class JudgeClient(Protocol):
    async def complete(self, prompt: str) -> str: ...


def clamp(value: float) -> float:
    """``value`` limited to [0, 1]; NaN becomes 0."""
    if not math.isfinite(value):
        return 0.0 if math.isnan(value) else (1.0 if value > 0 else 0.0)
    return min(1.0, max(0.0, value))


def judge_prompt(question: str, answer: str, reference: str | None) -> str:
    return PROMPT.format(
        rubric=RUBRIC,
        question=question.strip() or "(none)",
        reference=(reference or "").strip() or "(none)",
        answer=answer.strip(),
    )


def parse_score(reply: str | None) -> float | None:
    """The judge's last `SCORE: n` (or `SCORE: n/m`) as a reward in [0, 1]; None when there is none."""
    matches = _SCORE.findall(reply or "")
    if not matches:
        return None
    points, out_of = matches[-1]
    scale = float(out_of) if out_of else MAX_POINTS
    if scale <= 0:
        return None
    return clamp(float(points) / scale)


def fallback_score(answer: str, reference: str | None) -> float:
    """Deterministic stand-in when the judge gives no usable score: word-overlap F1 with the reference."""
    answer_words = _WORD.findall(answer.lower())
    reference_words = _WORD.findall((reference or "").lower())
    if not answer_words or not reference_words:
        return 0.0
    common = 0
    pool = list(reference_words)
    for word in answer_words:
        if word in pool:
            pool.remove(word)
            common += 1
    if common == 0:
        return 0.0
    precision, recall = common / len(answer_words), common / len(reference_words)
    return clamp(2 * precision * recall / (precision + recall))


async def judge_answer(client: JudgeClient, question: str, answer: str, reference: str | None) -> float:
    """The reward for ``answer``: the judge's score, or the fallback when the judge fails or can't be parsed."""
    if not answer or not answer.strip():
        return 0.0
    try:
        reply = await client.complete(judge_prompt(question, answer, reference))
    except Exception as err:  # noqa: BLE001  a judge outage must not fail the rollout
        logger.warning("judge call failed (%s: %s); using the fallback score", type(err).__name__, err)
        return fallback_score(answer, reference)
    score = parse_score(reply if isinstance(reply, str) else None)
    if score is None:
        logger.warning("judge reply had no SCORE line; using the fallback score")
        return fallback_score(answer, reference)
    return score


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        text = content.get("text")
        return text if isinstance(text, str) else ""
    if isinstance(content, (list, tuple)):
        return "".join(_text(block) for block in content)
    return ""


def last_text(messages: Iterable[Any] | None, role: str) -> str:
    """The text of the last message with ``role`` that has any ("" when none)."""
    for message in reversed(list(messages or [])):
        if isinstance(message, Mapping) and message.get("role") == role:
            text = _text(message.get("content"))
            if text.strip():
                return text
    return ""


class OpenAIJudge:
    """The default judge: an OpenAI-compatible chat model, key from the environment (a [secrets] entry)."""

    def __init__(self, model: str, *, api_key_env: str = "OPENAI_API_KEY", base_url: str | None = None):
        self.model = model
        self.api_key_env = api_key_env
        self.base_url = base_url or None

    async def complete(self, prompt: str) -> str:
        # Imported here so that the tests never need the openai package.
        from openai import AsyncOpenAI

        api_key = os.environ.get(self.api_key_env)
        if not api_key:
            raise RuntimeError(f"the judge needs the {self.api_key_env} secret in the environment")
        client = AsyncOpenAI(api_key=api_key, base_url=self.base_url)
        response = await client.chat.completions.create(
            model=self.model, temperature=0, messages=[{"role": "user", "content": prompt}]
        )
        return response.choices[0].message.content or ""
