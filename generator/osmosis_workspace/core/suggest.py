""""Did you mean": the one way a misspelt key, setting or code finds the name that was meant.

Used for config keys (the JSON Schemas' properties), skill front matter, `[tool.osmosis]` settings and
rule codes, so every family answers a typo the same way. Besides spelling (difflib), it knows how
people name things differently from the schema: `learning-rate` for `learning_rate` (separators and
case), `learning_rate` for `lr` (initials), `epochs` or `temperature` for `total_epochs` and
`rollout_temperature` (the last words of exactly one known name).
"""

from __future__ import annotations

from collections.abc import Iterable

from osmosis_workspace.core.lazy_re import lazy_compile

_WORDS = lazy_compile(r"[^0-9A-Za-z]+")
_CAMEL = lazy_compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(name: str) -> list[str]:
    """`batchSize`, `Batch-Size` and `batch_size` are the words batch, size."""
    return [w for w in _WORDS.split(_CAMEL.sub("_", name).lower()) if w]


def _initials(name: str) -> str:
    return "".join(w[0] for w in _words(name))


def close_matches(word: str, options: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """``difflib.get_close_matches``'s answer, with difflib imported only when a name matches nothing (a
    clean run never asks). Faster on thousands of like names (a rollout misspelt among 2,000 that differ
    by a digit): the full ratio, difflib's costly step, is taken in the order of its upper bound
    (quick_ratio) and not at all once ``n`` answers beat every bound left."""
    import difflib
    import heapq

    if n <= 0 or not 0.0 <= cutoff <= 1.0:
        return difflib.get_close_matches(word, options, n=n, cutoff=cutoff)  # its ValueError
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounded = []
    for option in options:
        matcher.set_seq1(option)
        if matcher.real_quick_ratio() >= cutoff and (bound := matcher.quick_ratio()) >= cutoff:
            bounded.append((bound, option))
    bounded.sort(key=lambda item: item[0], reverse=True)
    best: list[tuple[float, str]] = []  # a heap of the n largest (score, option), as difflib ranks them
    for bound, option in bounded:
        if len(best) == n and bound < best[0][0]:
            break  # ratio <= quick_ratio: no option left can enter the n best
        matcher.set_seq1(option)
        if (score := matcher.ratio()) >= cutoff:
            if len(best) < n:
                heapq.heappush(best, (score, option))
            elif (score, option) > best[0]:
                heapq.heapreplace(best, (score, option))
    return [option for _, option in sorted(best, reverse=True)]


def closest(word: str, known: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The name of ``known`` that ``word`` most likely meant, or None when nothing is close.

    Tried in order, the first that gives one answer wins (two give none: a coin toss is no help): the
    same words (case, camelCase and `-`/`_`/`.` aside), a near-identical spelling, initials
    (`learning_rate` -> `lr`), the last words of one name (`epochs` -> `total_epochs`), then
    spelling (difflib, ``cutoff`` its similarity floor)."""
    names = [k for k in dict.fromkeys(known) if k != word]
    if not names or not word:
        return None
    words = _words(word)
    if not words:
        return None
    joined = "_".join(words)
    by_form = {"_".join(_words(k)): k for k in names}

    def spelt(floor: float) -> list[str]:
        return [by_form[g] for g in close_matches(joined, list(by_form), n=1, cutoff=floor)]

    for hits in (
        lambda: [k for k in names if "_".join(_words(k)) == joined],
        lambda: spelt(max(cutoff, 0.85)),  # `ignores` is `ignore`, before `per-file-ignores` by its last word
        lambda: [k for k in names if len(words) > 1 and _words(k) == [_initials(word)]],
        lambda: [k for k in names if len(_words(k)) > len(words) and _words(k)[-len(words):] == words],
        lambda: spelt(cutoff),
    ):
        found = hits()
        if len(found) == 1:
            return found[0]
        if len(found) > 1:  # `size` for `batch_size` or `max_size`: a guess would be a coin toss
            return None
    return None


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = 0.6, quote: str = "`") -> str:
    """"; did you mean `lr`?" for a message, or "" when :func:`closest` has nothing."""
    guess = closest(word, known, cutoff=cutoff)
    return f"; did you mean {quote}{guess}{quote}?" if guess else ""
