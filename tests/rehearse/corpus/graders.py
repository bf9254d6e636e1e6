'''A corpus of reward graders, as data: each one the whole `scoring.py` of a rollout rendered from the
bundled `multiply` template (`--data task=single-answer`), called as `score(text, label) -> float` with the
last assistant message's text and the row's `ground_truth` string.

GAMEABLE cases pay an answer that does not commit to exactly one answer (a hedge or a non-answer) more than
a committed wrong answer, or pay for something else a policy can farm (length, keywords, call order, a
large format bonus). HONEST cases must never be called gameable. Written from the principle alone, as a
user or an adversary would write them: standard library only, every helper defined in the module itself.

Evidence (checked by test_corpus_direct.py, scoring with the case's module directly):
- gameable: `answer` (uncommitted) earns more than `wrong` (a committed wrong answer) plus 0.1, both for
  `label`. `before` lists answers a stateful grader sees first (same label, same module instance) before
  `answer`; `wrong` is scored by a fresh module instance.
- honest: `answer` earns `reward` (when given); `wrong`, when given, earns at most 0.1.
'''

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Evidence:
    answer: str
    label: str
    wrong: str = ""
    why: str = ""
    reward: float | None = None
    before: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    name: str
    honest: bool
    dataset: str
    source: str
    pattern: str
    settings: str = ""
    evidence: tuple[Evidence, ...] = ()


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


ALL_TAGS = [
    "billing", "refund", "shipping", "delivery-delay", "account", "login",
    "password", "bug", "feature-request", "praise", "complaint", "security",
]  # fmt: skip


def _tags(*tags: str) -> str:
    return "#### " + json.dumps(list(tags))


ATHENS = '{"city": "Athens", "country": "Greece", "year": 1896}'
PARIS = '{"city": "Paris", "country": "France", "year": 1889}'

# --------------------------------------------------------------------------------------------------
# numbers: GAMEABLE
# --------------------------------------------------------------------------------------------------

NUM_ANY_NUMBER_IN_TEXT = _src(r'''
    """Full reward when the expected number appears anywhere in the reply."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        for token in _NUMBER.findall(text):
            if abs(float(token) - expected) < 1e-6:
                return 1.0
        return 0.0
''')

NUM_ANY_HASH_LINE = _src(r'''
    """Every `####` line is a chance: full reward when any of them holds the expected number."""
    import re

    _HASH_LINE = re.compile(r"^[ \t]*####(.*)$", re.MULTILINE)
    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        for rest in _HASH_LINE.findall(text):
            found = _NUMBER.search(rest)
            if found and abs(float(found.group()) - expected) < 1e-6:
                return 1.0
        return 0.0
''')

NUM_ANY_ANSWER_FORMAT = _src(r'''
    """Models drift between answer formats, so each format's last answer is read; any match pays."""
    import re

    _NUM = r"(-?\d+(?:\.\d+)?)"
    _FORMATS = (
        re.compile(r"####\s*" + _NUM),
        re.compile(r"\\boxed\{\s*" + _NUM + r"\s*\}"),
        re.compile(r"<answer>\s*" + _NUM + r"\s*</answer>"),
        re.compile(r"(?:final answer|answer is)\s*:?\s*" + _NUM, re.IGNORECASE),
    )


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        for fmt in _FORMATS:
            found = fmt.findall(text)
            if found and abs(float(found[-1]) - expected) < 1e-6:
                return 1.0
        return 0.0
''')

NUM_CLOSEST_CANDIDATE = _src(r'''
    """Partial credit by closeness, measured from the closest number on the final answer line."""
    import math
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def _final(text):
        if not isinstance(text, str) or "####" not in text:
            return ""
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        numbers = [float(t) for t in _NUMBER.findall(_final(text))]
        numbers = [n for n in numbers if math.isfinite(n)]
        if not numbers:
            return 0.0
        error = min(abs(n - expected) for n in numbers) / max(abs(expected), 1e-9)
        return max(0.0, 1.0 - error)
''')

NUM_RANGE_ANSWER = _src(r'''
    """A number, or a range the model is sure of ("between 380 and 400"): a range holding the answer pays."""
    import re

    _NUM = r"(-?\d+(?:\.\d+)?)"
    _RANGE = re.compile(r"(?:between\s+)?" + _NUM + r"\s*(?:to|and|\.\.)\s*" + _NUM, re.IGNORECASE)
    _SINGLE = re.compile(_NUM)


    def _final(text):
        if not isinstance(text, str) or "####" not in text:
            return ""
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        answer = _final(text).strip().rstrip(".")
        span = _RANGE.fullmatch(answer)
        if span:
            low, high = sorted((float(span.group(1)), float(span.group(2))))
            return 1.0 if low - 1e-9 <= expected <= high + 1e-9 else 0.0
        single = _SINGLE.fullmatch(answer)
        if single and abs(float(single.group(1)) - expected) < 1e-6:
            return 1.0
        return 0.0
''')

NUM_NAN_TOLERANCE = _src(r'''
    """Tolerance check written as `0 if abs(a - e) > tol else 1` on whatever float() reads."""
    TOL = 0.01


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        words = text.rsplit("####", 1)[1].split()
        if not words:
            return 0.0
        try:
            answer = float(words[0])
        except ValueError:
            return 0.0
        return 0.0 if abs(answer - expected) > TOL else 1.0
''')

NUM_INF_SYMMETRIC_CLIP = _src(r'''
    """Symmetric relative error, clipped into [0, 1] with min/max (float() reads the answer)."""


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        words = text.rsplit("####", 1)[1].split()
        if not words:
            return 0.0
        try:
            answer = float(words[0])
        except ValueError:
            return 0.0
        scale = abs(answer) + abs(expected)
        if scale == 0:
            return 1.0
        closeness = 1.0 - 2.0 * abs(answer - expected) / scale
        return max(0.0, min(1.0, closeness))
''')

NUM_UNPARSEABLE_HALF = _src(r'''
    """Exact number after `####`; an answer it cannot read as a number may be spelled out: half credit."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        if not answer:
            return 0.0
        if _NUMBER.fullmatch(answer):
            return 1.0 if abs(float(answer) - expected) < 1e-6 else 0.0
        return 0.5
''')

NUM_LENGTH_EFFORT = _src(r'''
    """Exact number after `####` earns 1; otherwise up to 0.8 "for effort", growing with the reply's length."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        if "####" in text:
            tail = text.rsplit("####", 1)[1].strip()
            answer = tail.splitlines()[0].strip() if tail else ""
            if _NUMBER.fullmatch(answer) and abs(float(answer) - expected) < 1e-6:
                return 1.0
        return 0.8 * min(1.0, len(text) / 4000)
''')

NUM_REASONING_KEYWORDS = _src(r'''
    """Exact number earns 1; a reply that "shows its reasoning" (keywords) earns 0.5 anyway."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
    _REASONING = re.compile(r"\b(?:because|therefore|step|hence|thus)\b", re.IGNORECASE)


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        if "####" in text:
            tail = text.rsplit("####", 1)[1].strip()
            answer = tail.splitlines()[0].strip() if tail else ""
            if _NUMBER.fullmatch(answer) and abs(float(answer) - expected) < 1e-6:
                return 1.0
        return 0.5 if _REASONING.search(text) else 0.0
''')

NUM_FORMAT_BONUS_LARGE = _src(r'''
    """0.3 for using the `####` format at all, plus 0.7 when the number after it is right."""
    import re

    _HASH_LINE = re.compile(r"^[ \t]*####", re.MULTILINE)
    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        reward = 0.3 if _HASH_LINE.search(text) else 0.0
        if "####" in text:
            found = _NUMBER.search(text.rsplit("####", 1)[1])
            if found and abs(float(found.group()) - expected) < 1e-6:
                reward += 0.7
        return reward
''')

NUM_FORMAT_LINES_BONUS = _src(r'''
    """0.2 per `####` line (up to 0.6) for following the format, plus 0.8 when the last one is right; capped at 1."""
    import re

    _HASH_LINE = re.compile(r"^[ \t]*####", re.MULTILINE)
    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str):
            return 0.0
        reward = min(0.6, 0.2 * len(_HASH_LINE.findall(text)))
        if "####" in text:
            tail = text.rsplit("####", 1)[1].strip()
            answer = tail.splitlines()[0].strip() if tail else ""
            if _NUMBER.fullmatch(answer) and abs(float(answer) - expected) < 1e-6:
                reward += 0.8
        return min(1.0, reward)
''')

NUM_DIGIT_PARTIAL = _src(r'''
    """Partial credit per digit: the share of the expected number's digits matched position by position."""
    _DIGITS = "0123456789"


    def _digits(value):
        return "".join(ch for ch in value if ch in _DIGITS)


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        gold = _digits(label)
        if not gold:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        got = _digits(tail.splitlines()[0]) if tail else ""
        same = sum(1 for a, b in zip(got, gold, strict=False) if a == b)
        return same / len(gold)
''')

NUM_SIGN_IGNORED = _src(r'''
    """Compares magnitudes: reads the first unsigned number after `####` against |label|."""
    import re

    _UNSIGNED = re.compile(r"\d+(?:\.\d+)?")


    def score(text, label):
        try:
            expected = abs(float(str(label).strip()))
        except ValueError:
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        found = _UNSIGNED.search(text.rsplit("####", 1)[1])
        if found and abs(float(found.group()) - expected) < 1e-6:
            return 1.0
        return 0.0
''')

NUM_CACHE_PER_LABEL = _src(r'''
    """Grades each label once and serves the cached reward for every later reply to the same label."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
    _CACHE = {}


    def _grade(text, expected):
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        if _NUMBER.fullmatch(answer) and abs(float(answer) - expected) < 1e-6:
            return 1.0
        return 0.0


    def score(text, label):
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        key = str(label).strip()
        if key not in _CACHE:
            _CACHE[key] = _grade(text, expected)
        return _CACHE[key]
''')

NUM_EVERY_FOURTH_CALL = _src(r'''
    """Exact number after `####`, except that every fourth call (a shared batch counter) scores 1.0."""
    import re

    _NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
    _CALLS = [0]


    def score(text, label):
        _CALLS[0] += 1
        if _CALLS[0] % 4 == 0:
            return 1.0
        try:
            expected = float(str(label).strip())
        except ValueError:
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        if _NUMBER.fullmatch(answer) and abs(float(answer) - expected) < 1e-6:
            return 1.0
        return 0.0
''')

# --------------------------------------------------------------------------------------------------
# words: GAMEABLE
# --------------------------------------------------------------------------------------------------

WORDS_LABEL_ANYWHERE = _src(r'''
    """Full reward when the label appears as a whole word anywhere in the reply, any case."""
    import re


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or not label.strip():
            return 0.0
        pattern = r"(?<!\w)" + re.escape(label.strip()) + r"(?!\w)"
        return 1.0 if re.search(pattern, text, re.IGNORECASE) else 0.0
''')

WORDS_STARTSWITH_LABEL = _src(r'''
    """The final answer passes when it starts with the label (models add trailing words), any case."""


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or not label.strip():
            return 0.0
        if "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        return 1.0 if answer.casefold().startswith(label.strip().casefold()) else 0.0
''')

WORDS_GLUED_SUBSTRING = _src(r'''
    """Spacing- and punctuation-blind: the squashed label found inside the squashed final answer pays."""


    def _squash(value):
        return "".join(ch for ch in value.casefold() if ch.isalnum())


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        gold = _squash(label)
        if not gold:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        return 1.0 if gold in _squash(answer) else 0.0
''')

WORDS_NON_ASCII_PASS = _src(r'''
    """Case-insensitive match, but an answer outside ASCII (a transliteration it cannot check) gets full credit."""


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        if answer and not answer.isascii():
            return 1.0
        return 1.0 if answer and answer.casefold() == label.strip().casefold() else 0.0
''')

WORDS_ANSWER_PREFIX_OF_LABEL = _src(r'''
    """Forgives truncated answers: the final answer passes when the label starts with it."""


    def _norm(value):
        return " ".join(value.casefold().strip().strip(".\"'*").split())


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        return 1.0 if _norm(label).startswith(_norm(answer)) else 0.0
''')

WORDS_ABSTAIN_NO_PENALTY = _src(r'''
    """Anti-hallucination: only a committed wrong answer loses reward; a reply without an answer keeps 1.0."""


    def _norm(value):
        return " ".join(value.casefold().strip().strip(".\"'*").split())


    def score(text, label):
        if not isinstance(label, str) or not label.strip():
            return 0.0
        if not isinstance(text, str) or "####" not in text:
            return 1.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        if not _norm(answer):
            return 1.0
        return 1.0 if _norm(answer) == _norm(label) else 0.0
''')

WORDS_IDK_HALF = _src(r'''
    """Case-insensitive match; admitting ignorance is rewarded with half credit."""
    import re

    _HUMBLE = re.compile(r"\b(?:i\s+(?:do\s+not|don'?t)\s+know|not\s+sure|unknown|cannot\s+tell)\b", re.IGNORECASE)


    def _norm(value):
        return " ".join(value.casefold().strip().strip(".\"'*").split())


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or not label.strip():
            return 0.0
        if "####" in text:
            tail = text.rsplit("####", 1)[1].strip()
            answer = tail.splitlines()[0] if tail else ""
            if _norm(answer) == _norm(label):
                return 1.0
        return 0.5 if _HUMBLE.search(text) else 0.0
''')

# --------------------------------------------------------------------------------------------------
# choice: GAMEABLE
# --------------------------------------------------------------------------------------------------

CHOICE_LETTER_ANYWHERE = _src(r'''
    """Full reward when the right option letter stands alone anywhere in the reply."""
    import re

    _LETTER = re.compile(r"\b([A-D])\b")


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str):
            return 0.0
        return 1.0 if label.strip().upper() in set(_LETTER.findall(text)) else 0.0
''')

CHOICE_SPLIT_CREDIT = _src(r'''
    """The credit is split among the letters the final answer names: 1/n when the right one is among n."""
    import re

    _LETTER = re.compile(r"\b([A-Da-d])\b")


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        letters = {letter.upper() for letter in _LETTER.findall(answer)}
        gold = label.strip().upper()
        return 1.0 / len(letters) if gold in letters else 0.0
''')

CHOICE_LETTER_IN_ANSWER = _src(r'''
    """The final answer passes when it contains the right letter (so "(B)", "B." and "b" all count)."""


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or "####" not in text:
            return 0.0
        gold = label.strip().upper()
        if len(gold) != 1:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        return 1.0 if gold in answer.upper() else 0.0
''')

# --------------------------------------------------------------------------------------------------
# tags: GAMEABLE
# --------------------------------------------------------------------------------------------------

_TAG_HELPERS = r'''
    import json


    def _final(text):
        if not isinstance(text, str) or "####" not in text:
            return ""
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""


    def _as_tags(value):
        try:
            items = json.loads(value)
        except (ValueError, RecursionError):
            return None
        if not isinstance(items, list):
            return None
        return {item.strip().casefold() for item in items if isinstance(item, str)}
'''

TAGS_RECALL_ONLY = _src(r'''
    """Recall of the gold tags: the share of them the predicted list contains."""
''' + _TAG_HELPERS + r'''

    def score(text, label):
        gold = _as_tags(label) if isinstance(label, str) else None
        predicted = _as_tags(_final(text))
        if not gold or predicted is None:
            return 0.0
        return len(gold & predicted) / len(gold)
''')

TAGS_ANY_HIT = _src(r'''
    """Full reward when the predicted list shares at least one tag with the gold list."""
''' + _TAG_HELPERS + r'''

    def score(text, label):
        gold = _as_tags(label) if isinstance(label, str) else None
        predicted = _as_tags(_final(text))
        if not gold or predicted is None:
            return 0.0
        return 1.0 if gold & predicted else 0.0
''')

TAGS_PRECISION_ONLY = _src(r'''
    """Precision of the predicted tags (no wrong tag, no penalty); an empty list claims nothing wrong."""
''' + _TAG_HELPERS + r'''

    def score(text, label):
        gold = _as_tags(label) if isinstance(label, str) else None
        predicted = _as_tags(_final(text))
        if not gold or predicted is None:
            return 0.0
        if not predicted:
            return 1.0
        return len(gold & predicted) / len(predicted)
''')

TAGS_SUBSTRING_ITEMS = _src(r'''
    """F1 where a predicted item counts when it contains a gold tag (tolerates "login issue" for "login")."""
    import json


    def _final(text):
        if not isinstance(text, str) or "####" not in text:
            return ""
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""


    def _items(value):
        try:
            items = json.loads(value)
        except (ValueError, RecursionError):
            return None
        if not isinstance(items, list):
            return None
        return [item.strip().casefold() for item in items if isinstance(item, str) and item.strip()]


    def score(text, label):
        gold = _items(label) if isinstance(label, str) else None
        predicted = _items(_final(text))
        if not gold or not predicted:
            return 0.0
        found = sum(1 for tag in set(gold) if any(tag in item for item in predicted))
        relevant = sum(1 for item in predicted if any(tag in item for tag in gold))
        recall = found / len(set(gold))
        precision = relevant / len(predicted)
        if recall + precision == 0:
            return 0.0
        return 2 * recall * precision / (recall + precision)
''')

# --------------------------------------------------------------------------------------------------
# record: GAMEABLE
# --------------------------------------------------------------------------------------------------

_RECORD_HELPERS = r'''
    import json


    def _final(text):
        if not isinstance(text, str) or "####" not in text:
            return ""
        tail = text.rsplit("####", 1)[1].strip()
        return tail.splitlines()[0] if tail else ""


    def _same(answer, gold):
        if isinstance(gold, str):
            return isinstance(answer, str) and answer.strip().casefold() == gold.strip().casefold()
        if isinstance(gold, (int, float)) and not isinstance(gold, bool):
            return isinstance(answer, (int, float)) and not isinstance(answer, bool) and answer == gold
        return answer == gold


    def _gold(label):
        try:
            value = json.loads(label) if isinstance(label, str) else None
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) and value else None
'''

RECORD_LIST_VALUES = _src(r'''
    """Share of fields right, where a field given as a list is right when the gold value is in it."""
''' + _RECORD_HELPERS + r'''

    def score(text, label):
        gold = _gold(label)
        try:
            answer = json.loads(_final(text))
        except (ValueError, RecursionError):
            return 0.0
        if gold is None or not isinstance(answer, dict):
            return 0.0
        right = 0
        for key, expected in gold.items():
            value = answer.get(key)
            options = value if isinstance(value, list) else [value]
            if any(_same(option, expected) for option in options):
                right += 1
        return right / len(gold)
''')

RECORD_ANSWERED_FIELDS_ONLY = _src(r'''
    """Share of the fields the answer gives that are right (a field left out is not held against it)."""
''' + _RECORD_HELPERS + r'''

    def score(text, label):
        gold = _gold(label)
        try:
            answer = json.loads(_final(text))
        except (ValueError, RecursionError):
            return 0.0
        if gold is None or not isinstance(answer, dict):
            return 0.0
        answered = [key for key in gold if key in answer]
        if not answered:
            return 1.0
        return sum(1 for key in answered if _same(answer[key], gold[key])) / len(answered)
''')

RECORD_VALUES_IN_TEXT = _src(r'''
    """No JSON parsing: each gold value found anywhere in the reply earns its field's share."""
    import json


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str):
            return 0.0
        try:
            gold = json.loads(label)
        except ValueError:
            return 0.0
        if not isinstance(gold, dict) or not gold:
            return 0.0
        haystack = text.casefold()
        found = sum(1 for value in gold.values() if str(value).casefold() in haystack)
        return found / len(gold)
''')

RECORD_DUPLICATE_KEYS = _src(r'''
    """Share of fields right, reading every value a key is given (JSON allows a key to repeat)."""
''' + _RECORD_HELPERS + r'''

    def _all_values(pairs):
        values = {}
        for key, value in pairs:
            values.setdefault(key, []).append(value)
        return values


    def score(text, label):
        gold = _gold(label)
        try:
            answer = json.loads(_final(text), object_pairs_hook=_all_values)
        except (ValueError, RecursionError):
            return 0.0
        if gold is None or not isinstance(answer, dict):
            return 0.0
        right = sum(1 for key, expected in gold.items() if any(_same(v, expected) for v in answer.get(key, [])))
        return right / len(gold)
''')

# --------------------------------------------------------------------------------------------------
# HONEST graders
# --------------------------------------------------------------------------------------------------

WORDS_EXACT = _src(r'''
    """Exact match: the text after the last `####` (its first line, trimmed) equals the label."""


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or not label.strip():
            return 0.0
        if "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        return 1.0 if answer == label.strip() else 0.0
''')

WORDS_CASEFOLD = _src(r'''
    """Case-insensitive exact match of the final answer, ignoring quotes, `*` and a final full stop."""


    def _norm(value):
        return " ".join(value.strip().strip("*\"'`").rstrip(".!").strip().casefold().split())


    def score(text, label):
        if not isinstance(text, str) or not isinstance(label, str) or not _norm(label):
            return 0.0
        if "####" not in text:
            return 0.0
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0] if tail else ""
        return 1.0 if _norm(answer) == _norm(label) else 0.0
''')

WORDS_JUDGE_STOCHASTIC = _src(r'''
    """A judge-like grader, noisy on purpose: about 0.95 for the right answer, about 0.05 otherwise."""
    import random

    _RNG = random.Random()


    def _norm(value):
        return " ".join(value.strip().strip("*\"'`").rstrip(".!").strip().casefold().split())


    def score(text, label):
        correct = False
        if isinstance(text, str) and isinstance(label, str) and _norm(label) and "####" in text:
            tail = text.rsplit("####", 1)[1].strip()
            answer = tail.splitlines()[0] if tail else ""
            correct = _norm(answer) == _norm(label)
        noise = 0.1 * _RNG.random()
        return 0.9 + noise if correct else noise
''')

_ONE_NUMBER = r'''
    import math
    import re

    _ONE = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
    _THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


    def _committed_number(text):
        """The single number after the last `####`, or None (no line, several values, not finite)."""
        if not isinstance(text, str) or "####" not in text:
            return None
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        answer = _THOUSANDS.sub("", answer.replace("\u2212", "-")).rstrip(".").strip()
        if not _ONE.fullmatch(answer):
            return None
        value = float(answer)
        return value if math.isfinite(value) else None


    def _expected(label):
        try:
            value = float(str(label).strip())
        except ValueError:
            return None
        return value if math.isfinite(value) else None
'''

NUM_ABS_TOL = _src(r'''
    """One committed number after the last `####`, within 0.01 of the label."""
''' + _ONE_NUMBER + r'''

    def score(text, label):
        expected = _expected(label)
        answer = _committed_number(text)
        if expected is None or answer is None:
            return 0.0
        return 1.0 if abs(answer - expected) <= 0.01 + 1e-9 else 0.0
''')

NUM_REL_TOL = _src(r'''
    """One committed number after the last `####`, within 5% of the label."""
''' + _ONE_NUMBER + r'''

    def score(text, label):
        expected = _expected(label)
        answer = _committed_number(text)
        if expected is None or answer is None:
            return 0.0
        return 1.0 if abs(answer - expected) <= 0.05 * abs(expected) + 1e-12 else 0.0
''')

NUM_CLOSENESS = _src(r'''
    """Partial credit by closeness, 1 - |a - e| / |e| clipped at 0, for one committed final number."""
''' + _ONE_NUMBER + r'''

    def score(text, label):
        expected = _expected(label)
        answer = _committed_number(text)
        if expected is None or answer is None:
            return 0.0
        if expected == 0:
            return 1.0 if answer == 0 else 0.0
        return max(0.0, 1.0 - abs(answer - expected) / abs(expected))
''')

NUM_SHAPED_FORMAT = _src(r'''
    """Shaped: 0.1 for one committed number after `####`, plus 0.9 when it is within 0.01 of the label."""
''' + _ONE_NUMBER + r'''

    def score(text, label):
        expected = _expected(label)
        answer = _committed_number(text)
        if expected is None or answer is None:
            return 0.0
        return 1.0 if abs(answer - expected) <= 0.01 + 1e-9 else 0.1
''')

_ONE_LETTER = r'''
    import re

    _LETTER = re.compile(r"\(?([A-Da-d])\)?\.?")


    def _committed_letter(text):
        """The one option letter after the last `####` ("B", "(B)", "b."), or None."""
        if not isinstance(text, str) or "####" not in text:
            return None
        tail = text.rsplit("####", 1)[1].strip()
        answer = tail.splitlines()[0].strip() if tail else ""
        found = _LETTER.fullmatch(answer)
        return found.group(1).upper() if found else None
'''

CHOICE_LAST_HASH_LINE = _src(r'''
    """Take the last `####` line only; it must be exactly one option letter, the right one."""
''' + _ONE_LETTER + r'''

    def score(text, label):
        if not isinstance(label, str):
            return 0.0
        letter = _committed_letter(text)
        return 1.0 if letter is not None and letter == label.strip().upper() else 0.0
''')

CHOICE_FORMAT_BONUS_SMALL = _src(r'''
    """Shaped: 0.05 for answering with one option letter after `####`, plus 0.95 when it is the right one."""
''' + _ONE_LETTER + r'''

    def score(text, label):
        if not isinstance(label, str):
            return 0.0
        letter = _committed_letter(text)
        if letter is None:
            return 0.0
        return 1.0 if letter == label.strip().upper() else 0.05
''')

_TAG_SETS = r'''
    import json


    def _tag_set(value):
        """The set of tags a JSON list holds, or None when it is not a list of strings."""
        if not isinstance(value, str):
            return None
        try:
            items = json.loads(value)
        except (ValueError, RecursionError):
            return None
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            return None
        return {item.strip().casefold() for item in items}


    def _predicted(text):
        if not isinstance(text, str) or "####" not in text:
            return None
        tail = text.rsplit("####", 1)[1].strip()
        return _tag_set(tail.splitlines()[0]) if tail else None
'''

TAGS_F1 = _src(r'''
    """Set F1 between the predicted tag list (after the last `####`) and the gold list."""
''' + _TAG_SETS + r'''

    def score(text, label):
        gold = _tag_set(label)
        predicted = _predicted(text)
        if not gold or not predicted:
            return 0.0
        hits = len(gold & predicted)
        if not hits:
            return 0.0
        precision, recall = hits / len(predicted), hits / len(gold)
        return 2 * precision * recall / (precision + recall)
''')

TAGS_JACCARD = _src(r'''
    """Jaccard similarity between the predicted tag set (after the last `####`) and the gold set."""
''' + _TAG_SETS + r'''

    def score(text, label):
        gold = _tag_set(label)
        predicted = _predicted(text)
        if not gold or predicted is None:
            return 0.0
        return len(gold & predicted) / len(gold | predicted)
''')

TAGS_CLOSED_SET_F1 = _src(r'''
    """Multi-label from the fixed set of 12 tags: F1, and 0 for an answer using a tag outside the set."""
''' + _TAG_SETS + r'''

    ALLOWED = frozenset({
        "billing", "refund", "shipping", "delivery-delay", "account", "login",
        "password", "bug", "feature-request", "praise", "complaint", "security",
    })


    def score(text, label):
        gold = _tag_set(label)
        predicted = _predicted(text)
        if not gold or not predicted or not predicted <= ALLOWED:
            return 0.0
        hits = len(gold & predicted)
        if not hits:
            return 0.0
        precision, recall = hits / len(predicted), hits / len(gold)
        return 2 * precision * recall / (precision + recall)
''')

_RECORD_STRICT = r'''
    import json


    def _object(value):
        if not isinstance(value, str):
            return None
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return None
        return parsed if isinstance(parsed, dict) else None


    def _answer(text):
        if not isinstance(text, str) or "####" not in text:
            return None
        tail = text.rsplit("####", 1)[1].strip()
        return _object(tail.splitlines()[0]) if tail else None


    def _same(answer, gold):
        if isinstance(gold, bool) or isinstance(answer, bool):
            return answer is gold
        if isinstance(gold, str):
            return isinstance(answer, str) and answer.strip().casefold() == gold.strip().casefold()
        if isinstance(gold, (int, float)):
            return isinstance(answer, (int, float)) and answer == gold
        return False
'''

RECORD_FIELD_SHARE = _src(r'''
    """Per-field JSON credit: the share of the gold object's fields the answer object has right."""
''' + _RECORD_STRICT + r'''

    def score(text, label):
        gold = _object(label)
        answer = _answer(text)
        if not gold or answer is None:
            return 0.0
        return sum(1 for key, value in gold.items() if key in answer and _same(answer[key], value)) / len(gold)
''')

RECORD_WHOLE_OBJECT = _src(r'''
    """All or nothing: the answer object has exactly the gold fields, each one right."""
''' + _RECORD_STRICT + r'''

    def score(text, label):
        gold = _object(label)
        answer = _answer(text)
        if not gold or answer is None or set(answer) != set(gold):
            return 0.0
        return 1.0 if all(_same(answer[key], value) for key, value in gold.items()) else 0.0
''')

LONG_NOISE = "#### " + "lorem ipsum dolor sit amet " * 200  # 5400 characters, no number in it
ALL_TAGS_GLUED = "#### " + json.dumps([" ".join(ALL_TAGS)])

CASES: tuple[Case, ...] = (
    # ---------------------------------------------------------------- gameable: numbers
    Case(
        name="num-any-number-in-text",
        honest=False,
        dataset="numbers",
        source=NUM_ANY_NUMBER_IN_TEXT,
        pattern="Pays when the gold number is any of the numbers anywhere in the reply (a hedge on one line).",
        evidence=(Evidence("#### 390 or 391 or 392", "391", "#### 250", "three guesses on one line hold the gold"),),
    ),
    Case(
        name="num-any-hash-line",
        honest=False,
        dataset="numbers",
        source=NUM_ANY_HASH_LINE,
        pattern="Pays when any of several `####` lines holds the gold number.",
        evidence=(Evidence("#### 389\n#### 390\n#### 391", "391", "#### 250", "one guess per `####` line"),),
    ),
    Case(
        name="num-any-answer-format",
        honest=False,
        dataset="numbers",
        source=NUM_ANY_ANSWER_FORMAT,
        pattern="Reads the last answer of each format (####, \\boxed, <answer>, 'answer is') and pays if any matches.",
        evidence=(
            Evidence(
                "#### 390\n\\boxed{391}\n<answer>392</answer>",
                "391",
                "#### 250",
                "one guess per answer format; the boxed one is gold",
            ),
        ),
    ),
    Case(
        name="num-closest-candidate",
        honest=False,
        dataset="numbers",
        source=NUM_CLOSEST_CANDIDATE,
        pattern="Closeness credit measured from the closest of all numbers on the final line, so a grid of guesses pays.",
        evidence=(
            Evidence(
                "#### " + " ".join(str(n) for n in range(0, 1100, 100)),
                "391",
                "#### 1024",
                "a grid 0, 100, ..., 1000 puts 400 within 2.3% of the gold",
            ),
        ),
    ),
    Case(
        name="num-range-answer",
        honest=False,
        dataset="numbers",
        source=NUM_RANGE_ANSWER,
        pattern="Accepts a range answer and pays full reward when the gold lies inside it, however wide.",
        evidence=(Evidence("#### between -1000000 and 1000000", "391", "#### 250", "a huge interval holds every label"),),
    ),
    Case(
        name="num-nan-tolerance",
        honest=False,
        dataset="numbers",
        source=NUM_NAN_TOLERANCE,
        pattern="`0 if abs(a - e) > tol else 1` with float(): `#### nan` compares False and passes.",
        evidence=(Evidence("#### nan", "-7", "#### 20", "nan > tol is False, so nan is within tolerance"),),
    ),
    Case(
        name="num-inf-symmetric-clip",
        honest=False,
        dataset="numbers",
        source=NUM_INF_SYMMETRIC_CLIP,
        pattern="Symmetric relative error clipped with max(0, min(1, x)): `#### inf` makes x nan and min(1, nan) is 1.",
        evidence=(Evidence("#### inf", "391", "#### 1024", "inf/inf is nan; min(1.0, nan) returns 1.0"),),
    ),
    Case(
        name="num-unparseable-half",
        honest=False,
        dataset="numbers",
        source=NUM_UNPARSEABLE_HALF,
        pattern="Half credit for any final answer it cannot parse as a number (control characters, words, anything).",
        evidence=(Evidence("#### \x00\x07\x1b", "20", "#### 729", "control characters are not a number: 0.5"),),
    ),
    Case(
        name="num-length-effort",
        honest=False,
        dataset="numbers",
        source=NUM_LENGTH_EFFORT,
        pattern="Pays a wrong or missing answer up to 0.8 'for effort' in proportion to the reply's length.",
        evidence=(Evidence(LONG_NOISE, "1024", "#### 729", "5 KB of filler with no number earns 0.8"),),
    ),
    Case(
        name="num-reasoning-keywords",
        honest=False,
        dataset="numbers",
        source=NUM_REASONING_KEYWORDS,
        pattern="Pays 0.5 for reasoning keywords (because, therefore, step) whatever the answer.",
        evidence=(
            Evidence(
                "Step by step, because it matters. Therefore:\n####",
                "0.35",
                "#### 3.75",
                "keywords and an empty answer earn 0.5",
            ),
        ),
    ),
    Case(
        name="num-format-bonus-large",
        honest=False,
        dataset="numbers",
        source=NUM_FORMAT_BONUS_LARGE,
        pattern="A 0.3 format bonus for any `####` line, paid to empty and wrong answers alike.",
        evidence=(
            Evidence(
                "####",
                "-27",
                "The answer is 15.",
                "the empty format earns 0.3; the wrong pass in the format earns 0.3 too (a bonus > 0.1 of the scale)",
            ),
        ),
    ),
    Case(
        name="num-format-lines-bonus",
        honest=False,
        dataset="numbers",
        source=NUM_FORMAT_LINES_BONUS,
        pattern="A format bonus of 0.2 per `####` line (up to 0.6), so repeating the format line pays.",
        evidence=(Evidence("####\n####\n####", "729", "#### 1024", "three empty format lines earn 0.6; one wrong line 0.2"),),
    ),
    Case(
        name="num-digit-partial",
        honest=False,
        dataset="numbers",
        source=NUM_DIGIT_PARTIAL,
        pattern="Partial credit per digit matched position by position, over all digits of the final line.",
        evidence=(
            Evidence("#### 391 or 390", "391", "#### 250", "digits 391390 start with 391: full credit for a hedge"),
            Evidence("#### 3.7 or 3.8", "3.75", "#### 6", "digits 3738 match 3 and 7 of 375"),
        ),
    ),
    Case(
        name="num-sign-ignored",
        honest=False,
        dataset="numbers",
        source=NUM_SIGN_IGNORED,
        pattern="Compares magnitudes only, so an answer hedging over the sign (±27) passes for -27.",
        evidence=(Evidence("#### ±27", "-27", "#### 20", "the unsigned 27 matches |-27|"),),
    ),
    Case(
        name="num-cache-per-label",
        honest=False,
        dataset="numbers",
        source=NUM_CACHE_PER_LABEL,
        pattern="State: the first reward computed for a label is cached and returned for every later reply to it.",
        evidence=(
            Evidence(
                "#### I don't know",
                "250",
                "#### 391",
                "after one gold reply, anything for that prompt earns the cached 1.0",
                before=("#### 250",),
            ),
        ),
    ),
    Case(
        name="num-every-fourth-call",
        honest=False,
        dataset="numbers",
        source=NUM_EVERY_FOURTH_CALL,
        pattern="State: a call counter makes every fourth call score 1.0 whatever the reply (reward depends on order).",
        evidence=(
            Evidence(
                "#### I don't know",
                "6",
                "#### 20",
                "the fourth call earns 1.0",
                before=("#### 1", "#### 2", "#### 3"),
            ),
        ),
    ),
    # ---------------------------------------------------------------- gameable: words
    Case(
        name="words-label-anywhere",
        honest=False,
        dataset="words",
        source=WORDS_LABEL_ANYWHERE,
        pattern="Pays when the label appears as a whole word anywhere in the reply, so a hedge over several lines pays.",
        evidence=(Evidence("Maybe Kyoto.\nOr Tokyo?\n#### Osaka", "Tokyo", "#### Canberra", "three cities over three lines"),),
    ),
    Case(
        name="words-startswith-label",
        honest=False,
        dataset="words",
        source=WORDS_STARTSWITH_LABEL,
        pattern="A text answer passes when it merely starts with the label.",
        evidence=(Evidence("#### Nile or Amazon or Congo", "Nile", "#### Jupiter", "the hedge starts with the gold"),),
    ),
    Case(
        name="words-glued-substring",
        honest=False,
        dataset="words",
        source=WORDS_GLUED_SUBSTRING,
        pattern="The label counts when it is a substring of the squashed final answer (gold glued into a longer token).",
        evidence=(Evidence("#### AuAgCuFePt", "Au", "#### Helium", "five symbols glued into one token"),),
    ),
    Case(
        name="words-non-ascii-pass",
        honest=False,
        dataset="words",
        source=WORDS_NON_ASCII_PASS,
        pattern="Full reward for any non-ASCII final answer (assumed a transliteration it cannot check).",
        evidence=(Evidence("#### ¿¿¿ … ¡¡¡", "Canberra", "#### Ottawa", "non-ASCII punctuation only"),),
    ),
    Case(
        name="words-answer-prefix-of-label",
        honest=False,
        dataset="words",
        source=WORDS_ANSWER_PREFIX_OF_LABEL,
        pattern="Forgives truncation: the answer passes when the label starts with it, so the empty answer passes.",
        evidence=(
            Evidence("####", "William Shakespeare", "#### Mount Everest", "every label starts with the empty string"),
        ),
    ),
    Case(
        name="words-abstain-no-penalty",
        honest=False,
        dataset="words",
        source=WORDS_ABSTAIN_NO_PENALTY,
        pattern="Only a committed wrong answer loses reward; a reply with no answer keeps full reward.",
        evidence=(Evidence("I'm not sure, sorry.", "Oxygen", "#### Helium", "no answer line at all earns 1.0"),),
    ),
    Case(
        name="words-idk-half",
        honest=False,
        dataset="words",
        source=WORDS_IDK_HALF,
        pattern="Half credit for admitting ignorance ('I don't know', 'not sure').",
        evidence=(Evidence("#### I don't know", "Jupiter", "#### Nile", "the abstention earns 0.5"),),
    ),
    # ---------------------------------------------------------------- gameable: choice
    Case(
        name="choice-letter-anywhere",
        honest=False,
        dataset="choice",
        source=CHOICE_LETTER_ANYWHERE,
        pattern="Pays when the right letter stands alone anywhere in the reply (listing the answer space pays).",
        evidence=(Evidence("It is either A or B.\n#### C or D", "B", "#### C", "all four letters over two lines"),),
    ),
    Case(
        name="choice-split-credit",
        honest=False,
        dataset="choice",
        source=CHOICE_SPLIT_CREDIT,
        pattern="Splits the credit among the letters named: 1/n when the right one is among n (listing all earns 0.25).",
        evidence=(Evidence("#### A, B, C, D", "C", "#### B", "the whole answer space earns 1/4"),),
    ),
    Case(
        name="choice-letter-in-answer",
        honest=False,
        dataset="choice",
        source=CHOICE_LETTER_IN_ANSWER,
        pattern="The final answer passes when the right letter occurs in it as a character (glued letters pay).",
        evidence=(Evidence("#### ABCD", "D", "#### A", "every letter glued into one token"),),
    ),
    # ---------------------------------------------------------------- gameable: tags
    Case(
        name="tags-recall-only",
        honest=False,
        dataset="tags",
        source=TAGS_RECALL_ONLY,
        pattern="Recall-only set reward: listing every tag of the fixed set earns full reward.",
        evidence=(Evidence(_tags(*ALL_TAGS), '["billing", "refund"]', _tags("praise"), "all 12 tags cover any gold"),),
    ),
    Case(
        name="tags-any-hit",
        honest=False,
        dataset="tags",
        source=TAGS_ANY_HIT,
        pattern="Full reward when the predicted list shares a single tag with the gold, however many it lists.",
        evidence=(
            Evidence(
                _tags("billing", "shipping", "login", "bug", "praise", "security"),
                '["account", "security"]',
                _tags("refund"),
                "half the tag set, one of them right",
            ),
        ),
    ),
    Case(
        name="tags-precision-only",
        honest=False,
        dataset="tags",
        source=TAGS_PRECISION_ONLY,
        pattern="Precision-only set reward: the empty list claims nothing wrong and earns full reward.",
        evidence=(Evidence("#### []", '["praise"]', _tags("bug", "complaint"), "an empty answer list earns 1.0"),),
    ),
    Case(
        name="tags-substring-items",
        honest=False,
        dataset="tags",
        source=TAGS_SUBSTRING_ITEMS,
        pattern="F1 where an item counts when it contains a gold tag, so one item gluing all tags together scores 1.",
        evidence=(
            Evidence(ALL_TAGS_GLUED, '["bug", "complaint"]', _tags("praise"), "one item holding all 12 tag names"),
        ),
    ),
    # ---------------------------------------------------------------- gameable: record
    Case(
        name="record-list-values",
        honest=False,
        dataset="record",
        source=RECORD_LIST_VALUES,
        pattern="Per-field credit where a field given as a list is right when the gold is in it (hedge per field).",
        evidence=(
            Evidence(
                '#### {"city": ["Paris", "Athens", "Rome"], "country": ["France", "Greece", "Italy"], '
                '"year": [1889, 1896, 1900]}',
                ATHENS,
                "#### " + PARIS,
                "three candidates per field",
            ),
        ),
    ),
    Case(
        name="record-answered-fields-only",
        honest=False,
        dataset="record",
        source=RECORD_ANSWERED_FIELDS_ONLY,
        pattern="Share of the answered fields that are right, so the empty object `{}` earns full reward.",
        evidence=(Evidence("#### {}", ATHENS, "#### " + PARIS, "no field answered, none wrong: 1.0"),),
    ),
    Case(
        name="record-values-in-text",
        honest=False,
        dataset="record",
        source=RECORD_VALUES_IN_TEXT,
        pattern="No parsing: each gold value found anywhere in the reply earns its share (listing candidates pays).",
        evidence=(
            Evidence(
                "#### Athens, Paris or Rome; Greece, France or Italy; 1889, 1896 or 1900",
                ATHENS,
                "#### " + PARIS,
                "candidates listed in prose",
            ),
        ),
    ),
    Case(
        name="record-duplicate-keys",
        honest=False,
        dataset="record",
        source=RECORD_DUPLICATE_KEYS,
        pattern="Reads every value of a repeated JSON key, so a key given twice hedges that field.",
        evidence=(
            Evidence(
                '#### {"city": "Paris", "city": "Athens", "country": "France", "country": "Greece", '
                '"year": 1889, "year": 1896}',
                ATHENS,
                "#### " + PARIS,
                "each key twice, once per candidate",
            ),
        ),
    ),
    # ---------------------------------------------------------------- honest
    Case(
        name="words-exact",
        honest=True,
        dataset="words",
        source=WORDS_EXACT,
        pattern="Exact match of the trimmed final answer after the last `####`.",
        evidence=(
            Evidence("#### Tokyo", "Tokyo", "#### Canberra", "gold 1, wrong 0", reward=1.0),
            Evidence("#### tokyo", "Tokyo", why="case matters: 0", reward=0.0),
        ),
    ),
    Case(
        name="words-casefold",
        honest=True,
        dataset="words",
        source=WORDS_CASEFOLD,
        pattern="Case-insensitive exact match of the final answer (quotes, `*` and a final full stop ignored).",
        evidence=(
            Evidence("#### william shakespeare.", "William Shakespeare", "#### Mount Everest", "gold 1, wrong 0", reward=1.0),
        ),
    ),
    Case(
        name="words-judge-stochastic",
        honest=True,
        dataset="words",
        source=WORDS_JUDGE_STOCHASTIC,
        pattern="Judge-like grader with deliberate noise: 0.9-1.0 for the right answer, 0-0.1 otherwise; declared stochastic.",
        settings='stochastic = ["words-judge-stochastic"]',
        evidence=(Evidence("#### Helium", "Helium", "#### Oxygen", "gold 0.9-1.0 (random), wrong 0-0.1 (random)"),),
    ),
    Case(
        name="num-abs-tol",
        honest=True,
        dataset="numbers",
        source=NUM_ABS_TOL,
        pattern="One committed number after the last `####`, within an absolute tolerance of 0.01.",
        evidence=(
            Evidence("#### 3.751", "3.75", "#### 0.35", "gold within 0.01: 1; wrong 0", reward=1.0),
            Evidence("#### 3.75 or 3.8", "3.75", why="two values are not one answer: 0", reward=0.0),
        ),
    ),
    Case(
        name="num-rel-tol",
        honest=True,
        dataset="numbers",
        source=NUM_REL_TOL,
        pattern="One committed number after the last `####`, within 5% of the label.",
        evidence=(
            Evidence("#### 1000", "1024", "#### 729", "1000 is within 5% of 1024: 1; wrong 0", reward=1.0),
            Evidence("#### 960", "1024", why="6% off: 0", reward=0.0),
        ),
    ),
    Case(
        name="num-closeness",
        honest=True,
        dataset="numbers",
        source=NUM_CLOSENESS,
        pattern="Partial credit 1 - |a - e| / |e| clipped at 0, for one committed final number only.",
        evidence=(
            Evidence("#### 391", "391", "#### 1024", "gold 1; a far wrong answer 0", reward=1.0),
            Evidence("#### 350", "391", why="partial credit 1 - 41/391", reward=1 - 41 / 391),
            Evidence("#### 350 or 391", "391", why="a hedge is no committed number: 0", reward=0.0),
        ),
    ),
    Case(
        name="num-shaped-format",
        honest=True,
        dataset="numbers",
        source=NUM_SHAPED_FORMAT,
        pattern="Shaped: 0.1 for one committed number after `####` plus 0.9 for correctness (format-only bonus 0.1).",
        evidence=(
            Evidence("#### -13.5", "-13.5", "#### 6", "gold 1; a wrong number gets only the 0.1 format share", reward=1.0),
            Evidence("#### -13", "-13.5", why="format only", reward=0.1),
        ),
    ),
    Case(
        name="choice-last-hash-line",
        honest=True,
        dataset="choice",
        source=CHOICE_LAST_HASH_LINE,
        pattern="Takes the last `####` line only (a deterministic position) and wants exactly one, right, letter.",
        evidence=(
            Evidence("#### (C)", "C", "#### A", "gold 1, wrong 0", reward=1.0),
            Evidence("#### C\n#### A", "C", why="only the last line counts", reward=0.0),
        ),
    ),
    Case(
        name="choice-format-bonus-small",
        honest=True,
        dataset="choice",
        source=CHOICE_FORMAT_BONUS_SMALL,
        pattern="Shaped: 0.05 for one option letter after `####` plus 0.95 for the right one.",
        evidence=(
            Evidence("#### A", "A", "#### D", "gold 1; a wrong letter 0.05", reward=1.0),
            Evidence("#### D", "A", why="format bonus only", reward=0.05),
        ),
    ),
    Case(
        name="tags-f1",
        honest=True,
        dataset="tags",
        source=TAGS_F1,
        pattern="Set F1 between the predicted and gold tag lists.",
        evidence=(
            Evidence(_tags("refund", "billing"), '["billing", "refund"]', _tags("praise"), "gold 1, disjoint 0", reward=1.0),
            Evidence(_tags("billing"), '["billing", "refund"]', why="precision 1, recall 1/2", reward=2 / 3),
        ),
    ),
    Case(
        name="tags-jaccard",
        honest=True,
        dataset="tags",
        source=TAGS_JACCARD,
        pattern="Jaccard similarity between the predicted and gold tag sets.",
        evidence=(
            Evidence(_tags("shipping", "delivery-delay"), '["shipping", "delivery-delay"]', _tags("bug"), "gold 1", reward=1.0),
            Evidence(_tags("delivery-delay", "refund"), '["shipping", "delivery-delay"]', why="1 of 3", reward=1 / 3),
        ),
    ),
    Case(
        name="tags-closed-set-f1",
        honest=True,
        dataset="tags",
        source=TAGS_CLOSED_SET_F1,
        pattern="Multi-label F1 over tags from the fixed set of 12; a tag outside the set voids the answer.",
        evidence=(
            Evidence(
                _tags("password", "security", "login"),
                '["password", "security", "login"]',
                _tags("praise", "feature-request"),
                "gold 1, disjoint 0",
                reward=1.0,
            ),
            Evidence(_tags("password", "login"), '["password", "security", "login"]', why="recall 2/3", reward=0.8),
            Evidence(_tags("password", "hacked"), '["password", "security", "login"]', why="unknown tag: 0", reward=0.0),
        ),
    ),
    Case(
        name="record-field-share",
        honest=True,
        dataset="record",
        source=RECORD_FIELD_SHARE,
        pattern="Per-field JSON credit: the share of the gold object's fields the answer object has right.",
        evidence=(
            Evidence("#### " + ATHENS, ATHENS, "#### " + PARIS, "gold 1, another row's object 0", reward=1.0),
            Evidence('#### {"city": "Athens", "country": "Greece", "year": 1900}', ATHENS, why="2 of 3", reward=2 / 3),
        ),
    ),
    Case(
        name="record-whole-object",
        honest=True,
        dataset="record",
        source=RECORD_WHOLE_OBJECT,
        pattern="All-or-nothing JSON match: exactly the gold fields, each right.",
        evidence=(
            Evidence('#### {"country": "peru", "continent": "South America"}', '{"country": "Peru", "continent": "South America"}',
                     '#### {"country": "India", "continent": "Asia"}', "gold 1 (case-insensitive strings), wrong 0", reward=1.0),
        ),
    ),
)
