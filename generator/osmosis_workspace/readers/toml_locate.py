"""Line and column of TOML tables, keys and values, which tomllib does not report.

``TomlDoc.parse(text)`` parses with tomllib (the authority on validity) and, when that succeeds,
scans the same text once to record where each table header, key and value starts. The scanner may
assume the text is valid TOML, which keeps it small: it only has to find token boundaries.

Paths are tuples of keys, with integer indexes for array elements and arrays of tables, e.g.
``("secrets", "required", 1)``. Lines and columns are 1-based; columns count characters.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.records import dataclass, field

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

Path_ = tuple  # a key path: str keys and int indexes
Pos = tuple[int, int]  # (line, column), 1-based

_TOMLLIB_AT = lazy_compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOMLLIB_END = lazy_compile(r"\s*\(at end of document\)\s*$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR_END = re.compile(r"[,\]}\n#\r]")


@dataclass(frozen=True)
class TomlSyntaxError:
    message: str  # tomllib's message without its "(at line L, column C)" suffix
    line: int | None
    column: int | None


@dataclass
class Locator:
    """Where things are in one TOML text."""

    headers: dict[Path_, Pos] = field(default_factory=dict)  # [table] / [[array]] headers
    keys: dict[Path_, Pos] = field(default_factory=dict)  # the key that names a value or table
    values: dict[Path_, Pos] = field(default_factory=dict)  # where a value starts

    def key(self, path: Path_) -> Pos | None:
        """Where ``path`` is named: its key, else its table header, else its nearest located parent."""
        path = tuple(path)
        while path:
            for table in (self.keys, self.headers):
                if path in table:
                    return table[path]
            if isinstance(path[-1], int) and path in self.values:
                return self.values[path]
            path = path[:-1]
        return None

    def value(self, path: Path_) -> Pos | None:
        """Where the value at ``path`` starts (a table's header), else where it is named."""
        path = tuple(path)
        if path in self.values:
            return self.values[path]
        if path in self.headers:
            return self.headers[path]
        return self.key(path)

    def table(self, path: Path_) -> Pos | None:
        """Where the table at ``path`` is declared (header, or key of an inline/dotted table)."""
        path = tuple(path)
        if not path:
            return None
        return self.headers.get(path) or self.key(path)


@dataclass
class TomlDoc:
    """One TOML text: its data (None when it does not parse), the syntax error, and a locator."""

    text: str
    data: dict[str, Any] | None
    error: TomlSyntaxError | None
    locator: Locator

    @classmethod
    def parse(cls, text: str) -> "TomlDoc":
        """Parse ``text``. Several checks read each config, so the result is cached by text and
        shared: callers must not mutate it."""
        return _parse(text)

    @classmethod
    def _parse_uncached(cls, text: str) -> "TomlDoc":
        from osmosis_workspace.core.bounded import MAX_NESTING, toml_too_deep

        # tomllib recurses per level: a deep text is a finding on its file, not a RecursionError
        if (at := toml_too_deep(text)) is not None:
            return cls(text, None, TomlSyntaxError(f"values nested more than {MAX_NESTING} deep (arrays, inline tables or dotted keys)", *at), Locator())
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            return cls(text, None, syntax_error(str(err), text), Locator())
        except ValueError as err:  # an integer of more than 4,300 digits
            from osmosis_workspace.core.bounded import value_error_message

            return cls(text, None, syntax_error(value_error_message(err, text), text), Locator())
        try:
            locator = locate(text)
        except Exception:  # noqa: BLE001  positions are a convenience; never lose the findings
            locator = Locator()
        return cls(text, data, None, locator)

    def first_line(self) -> str:
        return self.text.split("\n", 1)[0].rstrip("\r")


# Large enough that a workspace of a few thousand configs parses each one once per run (several
# families read every config); bounded so a long-lived process does not grow without limit.
@lru_cache(maxsize=4096)
def _parse(text: str) -> TomlDoc:
    return TomlDoc._parse_uncached(text)


def syntax_error(message: str, text: str) -> TomlSyntaxError:
    """tomllib's error as a message plus a position (its suffix parsed)."""
    match = _TOMLLIB_AT.search(message)
    if match:
        text_message, line, column = message[: match.start()], int(match.group(1)), int(match.group(2))
        if text_message == "Cannot overwrite a value":
            # tomllib points past the value; the key that repeats starts the line
            source = text.split("\n")[line - 1] if line <= text.count("\n") + 1 else ""
            column = len(source) - len(source.lstrip()) + 1
            text_message = "this key is already set earlier (each key once per table)"
        if text_message == "Illegal character '\\n'" and (opened := unclosed_string(text)) and opened[0][0] == line:
            return TomlSyntaxError(_unclosed(opened[1]), *opened[0])
        return TomlSyntaxError(text_message, line, column)
    match = _TOMLLIB_END.search(message)
    if match:
        if (opened := unclosed_string(text)) is not None:
            return TomlSyntaxError(_unclosed(opened[1]), *opened[0])
        lines = text.split("\n")
        return TomlSyntaxError(message[: match.start()] + " at end of file", len(lines), len(lines[-1]) + 1)
    return TomlSyntaxError(message, None, None)


# tomllib's own words for a missing closing quote are `Illegal character '\n'` (a one-line string
# runs into the end of its line) or a complaint at the end of the document: neither says "quote".
def _unclosed(quote: str) -> str:
    if len(quote) == 3:
        return f"a {quote} string opened here is never closed: add the closing {quote}"
    return (f"a string opened here is not closed: add its closing {quote} on the same line "
            '(text over several lines goes in triple quotes """...""")')


def unclosed_string(text: str) -> tuple[Pos, str] | None:
    """Where the first string that never closes opens, and its quote: a one-line string reaching the
    end of its line, or a triple-quoted one reaching the end of the text. One pass, comments skipped."""
    i, n, line, line_start = 0, len(text), 1, 0
    while i < n:
        char = text[i]
        if char == "\n":
            line, line_start = line + 1, i + 1
        elif char == "#":
            end = text.find("\n", i)
            i = n if end == -1 else end
            continue
        elif char in "\"'":
            start = (line, i - line_start + 1)
            triple = text.startswith(char * 3, i)
            quote = char * 3 if triple else char
            j = i + len(quote)
            while j < n:
                if char == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j):
                    break
                if text[j] == "\n" and not triple:
                    return start, quote
                j += 1
            else:
                return start, quote
            skipped = text[i:j]
            line += skipped.count("\n")
            if "\n" in skipped:
                line_start = i + skipped.rindex("\n") + 1
            i = j + len(quote)
            continue
        i += 1
    return None


def locate(text: str) -> Locator:
    """Positions of every header, key and value in ``text`` (which must be valid TOML)."""
    return _Scanner(text).run()


class _Scanner:
    def __init__(self, text: str):
        self.s = text
        self.i = 0
        self.n = len(text)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.loc = Locator()
        self.aot_counts: dict[Path_, int] = {}

    def pos(self, index: int) -> Pos:
        line = bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    # -- whitespace and comments -------------------------------------------------------------
    def skip_ws(self, newlines: bool = False) -> None:
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c in " \t" or (newlines and c in "\r\n"):
                self.i += 1
            elif c == "#" and newlines:
                end = s.find("\n", self.i)
                self.i = n if end < 0 else end
            else:
                return

    def skip_line(self) -> None:
        end = self.s.find("\n", self.i)
        self.i = self.n if end < 0 else end + 1

    # -- the document -----------------------------------------------------------------------
    def run(self) -> Locator:
        table: Path_ = ()
        while True:
            self.skip_ws(newlines=True)
            if self.i >= self.n:
                return self.loc
            start = self.i
            if self.s.startswith("[[", start):
                self.i += 2
                names = [name for name, _ in self.keypath()]
                path = self.with_indexes(names[:-1]) + (names[-1],)
                index = self.aot_counts.get(path, 0)
                self.aot_counts[path] = index + 1
                self.loc.headers.setdefault(path, self.pos(start))
                table = path + (index,)
                self.loc.headers[table] = self.pos(start)
                self.skip_line()
            elif self.s[start] == "[":
                self.i += 1
                table = self.with_indexes([name for name, _ in self.keypath()])
                self.loc.headers.setdefault(table, self.pos(start))
                self.skip_line()
            else:
                self.keyvalue(table)
                self.skip_line()

    def with_indexes(self, names: list[str]) -> Path_:
        """A header's key path with the current element of each array of tables it passes through:
        `[agents.model]` after the second `[[agents]]` is ("agents", 1, "model")."""
        path: Path_ = ()
        for name in names:
            path += (name,)
            if path in self.aot_counts:
                path += (self.aot_counts[path] - 1,)
        return path

    def keypath(self) -> list[tuple[str, int]]:
        """A dotted key: each part with the index it starts at."""
        parts = []
        while True:
            self.skip_ws()
            parts.append((self.simple_key(), self.i_start))
            self.skip_ws()
            if self.i < self.n and self.s[self.i] == ".":
                self.i += 1
                continue
            return parts

    def simple_key(self) -> str:
        s, start = self.s, self.i
        self.i_start = start
        if s[start] == '"':
            end = self._basic_string_end(start)
            self.i = end
            return tomllib.loads("k = " + s[start:end])["k"]
        if s[start] == "'":
            end = s.index("'", start + 1) + 1
            self.i = end
            return s[start + 1 : end - 1]
        match = _BARE_KEY.match(s, start)
        self.i = match.end()
        return match.group(0)

    def keyvalue(self, table: Path_) -> None:
        parts = self.keypath()
        path = table
        for name, start in parts:
            path = path + (name,)
            self.loc.keys.setdefault(path, self.pos(start))
        self.skip_ws()
        self.i += 1  # "="
        self.skip_ws()
        self.value(path)

    # -- values -------------------------------------------------------------------------------
    def value(self, path: Path_) -> None:
        s, start = self.s, self.i
        self.loc.values[path] = self.pos(start)
        c = s[start]
        if s.startswith('"""', start):
            self.i = self._multiline_end(start, '"""', escapes=True)
        elif s.startswith("'''", start):
            self.i = self._multiline_end(start, "'''", escapes=False)
        elif c == '"':
            self.i = self._basic_string_end(start)
        elif c == "'":
            self.i = s.index("'", start + 1) + 1
        elif c == "[":
            self.i += 1
            index = 0
            while True:
                self.skip_ws(newlines=True)
                if s[self.i] == "]":
                    self.i += 1
                    return
                self.value(path + (index,))
                index += 1
                self.skip_ws(newlines=True)
                if s[self.i] == ",":
                    self.i += 1
        elif c == "{":
            self.i += 1
            while True:
                self.skip_ws(newlines=True)
                if s[self.i] == "}":
                    self.i += 1
                    return
                if s[self.i] == ",":
                    self.i += 1
                    continue
                self.keyvalue(path)
        else:
            match = _SCALAR_END.search(s, start)
            self.i = self.n if match is None else match.start()

    def _basic_string_end(self, start: int) -> int:
        s, j = self.s, start + 1
        while True:
            c = s[j]
            if c == "\\":
                j += 2
            elif c == '"':
                return j + 1
            else:
                j += 1

    def _multiline_end(self, start: int, quotes: str, *, escapes: bool) -> int:
        s, j = self.s, start + 3
        while True:
            if escapes and s[j] == "\\":
                j += 2
            elif s.startswith(quotes, j):
                end = j + 3
                # up to two quote characters may close the content right before the delimiter
                while end < self.n and s[end] == quotes[0] and end - j < 5:
                    end += 1
                return end
            else:
                j += 1
