"""Limits on what a parser is given: nesting depth before a recursive parser sees the text, and a
size cap (with a file-type check) on every file that is read whole.

tomllib, like most parsers, recurses per nesting level: `a = [[[[...]]]]` 1,000 deep raised
RecursionError and lost the whole report. A FIFO or `/dev/zero` named like a source file made a
whole-file read block forever or fill memory. Both become a finding on that one file.
"""

from __future__ import annotations

import os
import re
import stat
from itertools import accumulate
from pathlib import Path

from osmosis_workspace.core.lazy_re import lazy_compile


MAX_NESTING = 100  # arrays and inline tables; real configs stay below 10

_TOKEN = re.compile(r"\"\"\"|'''|[\"'#\[\]{}\n.=,]")
_BASIC_END = re.compile(r'\\.|"|\n', re.DOTALL)
_MULTI_BASIC_END = lazy_compile(r'\\.|"""', re.DOTALL)


def toml_too_deep(text: str, limit: int = MAX_NESTING) -> tuple[int, int] | None:
    """(line, column) where ``text`` nests arrays, inline tables or dotted keys deeper than ``limit``; None when it does not.

    A linear scan that skips strings and comments; brackets are counted, not matched (a syntax error
    is tomllib's to report, afterwards)."""
    # Dotted keys nest too (`[a.b.c]`, `a.b.c = 1`, `{a.b = 1}`): tomllib builds those levels without
    # recursing, but every consumer that walks the result does. Dots count only in a key: from a line's
    # start, a `{` or an inline table's `,` up to its `=`, and in a table header.
    depth, line, line_start, pos = 0, 1, 0, 0
    opened: list[str] = []
    in_key, header, header_dots, key_dots = True, False, 0, 0
    while (match := _TOKEN.search(text, pos)) is not None:
        token, pos = match.group(), match.end()
        if token == "\n":
            line, line_start = line + 1, pos
            in_key, key_dots = not opened, 0
        elif token == ".":
            if in_key:
                key_dots += 1
                if header_dots + key_dots + depth > limit:
                    return line, match.start() - line_start + 1
        elif token == "=":
            in_key = False
        elif token == ",":
            in_key = bool(opened) and opened[-1] == "{"
        elif token in "[{":
            if token == "[" and in_key and not opened:  # a table header: its dots nest what follows
                header, header_dots = True, 0
                continue
            depth += 1
            opened.append(token)
            in_key = token == "{"
            if depth > limit:
                return line, match.start() - line_start + 1
        elif token in "]}":
            if header and not opened:
                header, header_dots, key_dots, in_key = False, key_dots, 0, False
                continue
            depth = max(depth - 1, 0)
            if opened:
                opened.pop()
        elif token == "#":
            end = text.find("\n", pos)
            pos = len(text) if end == -1 else end
        elif token == "'":
            end = text.find("'", pos)
            newline = text.find("\n", pos)
            pos = len(text) if end == -1 else (newline if -1 < newline < end else end + 1)
        elif token == "'''":
            end = text.find("'''", pos)
            stop = len(text) if end == -1 else end + 3
            line, line_start = _count_lines(text, pos, stop, line, line_start)
            pos = stop
        else:  # basic strings, with escapes
            ender = _MULTI_BASIC_END if token == '"""' else _BASIC_END
            while (end := ender.search(text, pos)) is not None and end.group().startswith("\\"):
                pos = end.end()
            stop = len(text) if end is None else (end.start() if end.group() == "\n" else end.end())
            line, line_start = _count_lines(text, pos, stop, line, line_start)
            pos = stop
    return None


def _count_lines(text: str, start: int, stop: int, line: int, line_start: int) -> tuple[int, int]:
    newlines = text.count("\n", start, stop)
    if newlines:
        return line + newlines, text.rfind("\n", start, stop) + 1
    return line, line_start


class Unreadable(Exception):
    """A file that cannot be parsed whole: not a regular file, larger than the cap, or an OS error."""


def read_capped(path: Path, cap: int) -> bytes:
    """The bytes of regular file ``path`` (links followed), at most ``cap``; `Unreadable` says why not.

    Opened non-blocking and checked with fstat before reading, so a FIFO, a device or a folder is
    refused without blocking, and `/dev/zero` is never read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise Unreadable(f"cannot be read: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("is not a regular file (a FIFO, a device or a folder), so it was not read")
        if info.st_size > cap:
            raise Unreadable(f"is larger than {cap} bytes, so it was not read")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > cap:  # it grew while being read
                raise Unreadable(f"is larger than {cap} bytes, so it was not read")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as err:
        raise Unreadable(f"cannot be read: {err.strerror or err}") from None
    finally:
        os.close(fd)


def read_head(path: Path, size: int) -> bytes:
    """Up to ``size`` bytes from the start of regular file ``path``; b"" for anything else (a FIFO,
    a device, a folder, an unreadable file), never blocking."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        return os.read(fd, size) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def toml_loads(text: str) -> dict:
    """`tomllib.loads`, with a text nested deeper than MAX_NESTING rejected as a TOMLDecodeError."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    if (at := toml_too_deep(text)) is not None:
        raise tomllib.TOMLDecodeError(f"values nested more than {MAX_NESTING} deep (arrays, inline tables or dotted keys) "
                                      f"(at line {at[0]}, column {at[1]})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as err:
        raise tomllib.TOMLDecodeError(value_error_message(err, text)) from None


# JSON: Python's json recurses per level too (a baseline nested 100,000 deep ended in RecursionError,
# exit 3). Files we write stay below 10; a dataset row's metadata may nest deeper, never near 500.
MAX_JSON_NESTING = 100
MAX_DATA_NESTING = 500  # a dataset row (json recurses past ~990 levels; orjson refuses 1,024)
_JSON_TOKEN = lazy_compile(r'[\[\]{}"]')
_JSON_STRING_END = lazy_compile(r'\\.|"', re.DOTALL)


_JSON_STRING = lazy_compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = lazy_compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_too_deep(text: str | bytes, limit: int = MAX_JSON_NESTING) -> int | None:
    """The offset where ``text`` opens an array or object deeper than ``limit``; None when it does not.
    Linear: strings are skipped, brackets counted, not matched (syntax is json's to report)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return None
    # The depth at each bracket outside strings, in C-level passes (a cache's 8 MB file took 0.35 s
    # token by token). Unclamped where the scan below clamps: a text that closes more than it opened
    # is malformed right there, and json stops at that point, before any deeper nesting after it.
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= limit:
        return None
    depth, pos = 0, 0
    while (match := _JSON_TOKEN.search(text, pos)) is not None:
        token, pos = match.group(), match.end()
        if token == '"':
            while (end := _JSON_STRING_END.search(text, pos)) is not None and end.group() != '"':
                pos = end.end()
            pos = len(text) if end is None else end.end()
        elif token in "[{":
            depth += 1
            if depth > limit:
                return match.start()
        else:
            depth = max(depth - 1, 0)
    return None


def json_loads(text: str | bytes, limit: int = MAX_JSON_NESTING, **options):
    """`json.loads` of a file someone else wrote (a baseline, a cache entry, a policy file, a journal): a
    text nested deeper than ``limit`` is a JSONDecodeError, as any malformed text, never RecursionError."""
    import json

    if (at := json_too_deep(text, limit)) is not None:
        doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise json.JSONDecodeError(f"arrays or objects nested more than {limit} deep", doc, at)
    try:
        return json.loads(text, **options)
    except RecursionError:  # a deep stack already in use: still one clear error
        raise json.JSONDecodeError("nested too deep to read", "", 0) from None


_LONG_NUMBER = lazy_compile(r"[0-9][0-9_]{4000,}")


def value_error_message(err: ValueError, text: str) -> str:
    """A parser's plain ValueError as a syntax error with a position: Python refuses to convert an
    integer of more than 4,300 digits (a guard against quadratic work), and tomllib lets that out."""
    match = _LONG_NUMBER.search(text)
    if match is None:
        return f"a value that cannot be read ({' '.join(str(err).split())[:120]})"
    line = text.count("\n", 0, match.start()) + 1
    column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    return f"a number of more than 4,300 digits, more than Python reads (at line {line}, column {column})"


def utf8_size_over(text: str, cap: int) -> bool:
    """Whether ``text`` is over ``cap`` bytes as UTF-8 (as a file would be); over by length, not encoded."""
    return len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap


def first_bad_utf8(path: Path) -> tuple[int, int] | None:
    """(line, column), 1-based, of the first byte of ``path`` that is not UTF-8; None if all are."""
    try:
        data = path.read_bytes()
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        start = err.start
        return data.count(b"\n", 0, start) + 1, start - (data.rfind(b"\n", 0, start) + 1) + 1
    except OSError:
        return None
    return None
