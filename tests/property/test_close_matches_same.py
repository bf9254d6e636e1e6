"""core.suggest.close_matches gives difflib.get_close_matches's very answer (it only skips ratios that cannot
win): on many like names, duplicates, ties, every n and several cutoffs."""

from __future__ import annotations

import difflib
import random

from osmosis_workspace.core.suggest import close_matches


def _names(rng: random.Random) -> list[str]:
    alphabet = "abcmuly-_0123"
    kind = rng.randrange(3)
    if kind == 0:  # rollouts scaled as the bench makes them, some repeated
        return [f"multiply-{rng.randrange(0, 60):04d}" for _ in range(rng.randrange(0, 80))]
    if kind == 1:
        return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 9))) for _ in range(rng.randrange(0, 60))]
    return [rng.choice(["a", "ab", "ba", "abc", "acb", "b", ""]) for _ in range(rng.randrange(0, 20))]


def test_same_answer_as_difflib():
    rng = random.Random(37)
    for _ in range(1000):
        options = _names(rng)
        word = rng.choice([*options, "xmultiply-0002", "multiply-002", "ab", "", "mul"]) if options else "ab"
        word = word if rng.random() < 0.5 else word[: rng.randrange(len(word) + 1)] + rng.choice(["", "x", "0"])
        n, cutoff = rng.choice([1, 2, 3, 5]), rng.choice([0.0, 0.5, 0.6, 0.85, 1.0])
        assert close_matches(word, options, n=n, cutoff=cutoff) == difflib.get_close_matches(word, options, n=n, cutoff=cutoff), (word, options, n, cutoff)


def test_bad_arguments_refused_as_difflib_does():
    for n, cutoff in ((0, 0.6), (1, 1.5), (1, -0.1)):
        try:
            close_matches("a", ["a"], n=n, cutoff=cutoff)
        except ValueError:
            continue
        raise AssertionError(f"n={n} cutoff={cutoff} accepted")
