"""Path globs matched in linear time: `*` (within a folder), `?` (one character but `/`), `**` (anything,
`/` too) and `**/` (no folder, or any folders).

A glob comes from a committed file (`.osmosis/template.json`, `.osmosis/template-ignore`); as a backtracking regex, `"****...Q"`
against a long path took minutes. Here a glob is a small automaton whose live states are the bits of
an int, so each path character costs one pass of bit operations whatever the pattern holds.
"""

from __future__ import annotations

from functools import lru_cache

MAX_GLOB = 1024  # characters; a policy pattern is a path, and paths are shorter
# characters of one file's patterns together: each path is matched against every pattern (and each
# folder above it), so a thousand long ones took minutes; real policy files hold a few hundred bytes
MAX_GLOB_TOTAL = 16 << 10

# a character, `?`, `*`, `**`; `**/` is two: _OPT (reads nothing: on to the loop, or past it) and
# _DIRS (reads anything, leaves after a `/`; not skippable, or `a/**/b` would match `a/xb`)
_LIT, _ONE, _STAR, _ANY, _OPT, _DIRS = range(6)


def _tokens(glob: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(glob):
        if glob[i] == "*":
            j = i
            while j < len(glob) and glob[j] == "*":
                j += 1
            run, slash = j - i, glob.startswith("/", j)
            # as the regex this replaces read a run: `**` pairs from the left, so `**/` only when two
            # stars end at a `/`; three or more are `**`, which also swallows an even run's `**/`
            if run == 1:
                out.append((_STAR, ""))
            elif run == 2 and slash:
                j += 1
                if out[-2:] != [(_OPT, ""), (_DIRS, "")]:  # `**/**/` is `**/`: same language, fewer states
                    out += [(_OPT, ""), (_DIRS, "")]
            else:
                out.append((_ANY, ""))
                j += 1 if slash and run % 2 == 0 else 0
            i = j
        else:
            out.append((_ONE, "") if glob[i] == "?" else (_LIT, glob[i]))
            i += 1
    return out


class Glob:
    """One compiled glob; ``match(path)`` is the whole path against the whole glob."""

    def __init__(self, glob: str):
        self.tokens = _tokens(glob)
        self.accept = 1 << len(self.tokens)
        # states a token may skip without reading (every kind of star matches nothing too)
        self.skip = sum(1 << i for i, (kind, _) in enumerate(self.tokens) if kind in (_STAR, _ANY, _OPT))
        self.skip_loop = sum(1 << i for i, (kind, _) in enumerate(self.tokens) if kind == _OPT)
        self._masks: dict[str, tuple[int, int]] = {}

    def _masks_for(self, char: str) -> tuple[int, int]:
        """(advance, stay): the states that read ``char`` and move on, and those that read it and stay."""
        masks = self._masks.get(char)
        if masks is None:
            advance = stay = 0
            for i, (kind, lit) in enumerate(self.tokens):
                bit = 1 << i
                if (kind == _LIT and lit == char) or (kind == _ONE and char != "/") or (kind == _DIRS and char == "/"):
                    advance |= bit
                if (kind == _STAR and char != "/") or kind in (_ANY, _DIRS):
                    stay |= bit
            masks = self._masks[char] = (advance, stay)
        return masks

    def _closure(self, states: int) -> int:
        while True:
            more = states | ((states & self.skip) << 1) | ((states & self.skip_loop) << 2)
            if more == states:
                return states
            states = more

    def match(self, path: str) -> bool:
        states = self._closure(1)
        for char in path:
            advance, stay = self._masks_for(char)
            states = self._closure(((states & advance) << 1) | (states & stay))
            if not states:
                return False
        return bool(states & self.accept)


@lru_cache(maxsize=512)
def compile_glob(glob: str) -> Glob:
    return Glob(glob)


def glob_match(glob: str, path: str) -> bool:
    """Whether the whole ``path`` matches the whole ``glob``."""
    return compile_glob(glob).match(path)


def covers(glob: str, path: str) -> bool:
    """Whether ``glob`` matches ``path`` or one of the folders holding it: `rollouts/*` covers
    `rollouts/a/main.py`, as a path list naming folders means (the platform's `.osmosis/template.json`)."""
    compiled = compile_glob(glob)
    if compiled.match(path):
        return True
    cut = path.find("/")
    while cut != -1:
        if compiled.match(path[:cut]):
            return True
        cut = path.find("/", cut + 1)
    return False


MAX_IGNORE_RULES = 1000  # one file of opt-outs; each rule costs a pass over every path's folders


class IgnoreRules:
    """gitignore-style rules (the platform's `.osmosis/template-ignore`): `#` comments, `!` re-includes,
    a trailing `/` names folders only, a pattern with a `/` before its end is anchored at the root and
    one without matches at any depth, the last matching rule decides, and nothing below an excluded
    folder can be re-included. Globs as above; `[...]` classes are read as plain characters."""

    def __init__(self, text: str):
        self.rules: list[tuple[str, bool, bool]] = []  # (glob, re-include, folders only)
        self.chars = 0
        for raw in text.splitlines():
            line = raw.rstrip(" \t\r")
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            line = line[1:] if negate else line
            if line.startswith(("\\#", "\\!")):
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            if not line:
                continue
            if "/" in line:
                line = line.lstrip("/")
            else:
                line = "**/" + line
            if len(line) > MAX_GLOB:
                raise ValueError(f"a pattern of {len(line)} characters (at most {MAX_GLOB})")
            self.rules.append((line, negate, dir_only))
            self.chars += len(line)
            if self.chars > MAX_GLOB_TOTAL:
                raise ValueError(f"patterns of more than {MAX_GLOB_TOTAL} characters together")
            if len(self.rules) > MAX_IGNORE_RULES:
                raise ValueError(f"more than {MAX_IGNORE_RULES} patterns")

    def ignored(self, path: str) -> bool:
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            prefix, is_dir = "/".join(parts[:depth]), depth < len(parts)
            verdict = False
            for glob, negate, dir_only in self.rules:
                if (is_dir or not dir_only) and glob_match(glob, prefix):
                    verdict = not negate
            if verdict:
                return True  # a file, or a folder: nothing below it comes back
        return False
