"""`.json` datasets: one top-level array of objects, read one element at a time.

Memory stays bounded by streaming rather than loading: the decoded text is held a chunk at a time
and each element is parsed from it with the standard library's ``raw_decode``; an element cut by
a chunk boundary is retried with the next chunk appended. So a minified one-line file of any size
is fine; a single element larger than ``MAX_ELEMENT`` characters is reported rather than held.

A syntax error ends the scan: unlike JSON lines there is no line structure to pick up from, so
later elements cannot be told apart from the rest of the broken one. Findings up to that point
stand; the row count is then not judged.
"""

from __future__ import annotations

import json
import re
from typing import BinaryIO

from osmosis_workspace.readers.datasets.blocks import BLOCK_SIZE, text_chunks
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.jsonl import reject_constant
from osmosis_workspace.readers.datasets.jsonmsg import json_error
from osmosis_workspace.readers.datasets.rows import RowChecker

MAX_ELEMENT = 64 << 20
_SPACE = re.compile(r"[ \t\n\r]*")


class _Cursor:
    """The decoded text in view, with the line and column of a moving mark for positions in it."""

    def __init__(self, fh: BinaryIO, findings: Findings, block_size: int):
        self.chunks = text_chunks(fh, findings, block_size)
        self.buf, self.pos, self.eof = "", 0, False
        self.mark, self.line, self.col = 0, 1, 1

    def where(self, p: int) -> tuple[int, int]:
        """Line and column of buffer position ``p`` (positions must be asked for in order)."""
        buf, mark = self.buf, self.mark
        newlines = buf.count("\n", mark, p)
        if newlines:
            self.line += newlines
            self.col = p - buf.rfind("\n", mark, p)
        else:
            self.col += p - mark
        self.mark = p
        return self.line, self.col

    def more(self) -> bool:
        """Append the next chunk, dropping what lies before ``pos``; False at the end of the file."""
        chunk = next(self.chunks, None)
        if chunk is None:
            self.eof = True
            return False
        self.where(self.pos)
        self.buf = self.buf[self.pos :] + chunk
        self.pos = self.mark = 0
        return True

    def skip_space(self) -> bool:
        """Move ``pos`` past whitespace; False when the file ends first."""
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return True
            if not self.more():
                return False


def scan_json_array(fh: BinaryIO, findings: Findings, block_size: int = BLOCK_SIZE, max_element: int = MAX_ELEMENT) -> tuple[int, bool]:
    """Check every element; returns (rows, whether the whole file was read as one array)."""
    cur = _Cursor(fh, findings, block_size)
    checker = RowChecker(findings)
    decode = json.JSONDecoder(parse_constant=reject_constant).raw_decode

    def broken(message: str, p: int, hint: str | None = None) -> tuple[int, bool]:
        checker.finish()
        line, col = cur.where(p)
        findings.add("malformed", message, line, col, hint)
        return rows, False

    rows = 0
    if not cur.skip_space():
        return broken("the file is empty; a .json dataset is an array of objects", cur.pos)
    if cur.buf[cur.pos] != "[":
        hint = "write one array `[{...}, {...}]`, or rename the file to .jsonl if it holds one object a line"
        return broken(f"a .json dataset is an array of objects, but the file starts with `{cur.buf[cur.pos]}`", cur.pos, hint)
    cur.pos += 1
    if not cur.skip_space():
        return broken("the array is not closed (no `]`)", cur.pos)
    if cur.buf[cur.pos] != "]":
        while True:
            line, col = cur.where(cur.pos)
            while True:
                try:
                    obj, end = decode(cur.buf, cur.pos)
                except json.JSONDecodeError as err:
                    # Cut by the chunk boundary, or broken? Only the former fails at the very end
                    # (or reports where an unterminated string began).
                    cut = err.pos >= len(cur.buf) - 8 or err.msg.startswith("Unterminated string")
                    if cut and not cur.eof:
                        if len(cur.buf) - cur.pos > max_element:
                            size = f"{max_element >> 20} MB" if max_element >= 1 << 20 else f"{max_element} characters"
                            return broken(f"array element is larger than {size} of text (or broken)", cur.pos)
                        if cur.more():
                            continue
                    at = max(err.pos, cur.pos)
                    return broken(json_error(err, *cur.where(at)), at)
                except (ValueError, RecursionError) as err:
                    return broken(f"not valid JSON: {err}", cur.pos)
                if end == len(cur.buf) and not cur.eof and cur.more():
                    continue  # a number or literal at the very end may go on in the next chunk
                break
            if checker.take(obj, line, col):
                rows += 1
            cur.pos = end
            if not cur.skip_space():
                return broken("the array is not closed (no `]`)", cur.pos)
            if cur.buf[cur.pos] == "]":
                break
            if cur.buf[cur.pos] != ",":
                return broken(f"expected `,` or `]` after an array element, found `{cur.buf[cur.pos]}`", cur.pos)
            cur.pos += 1
            if not cur.skip_space():
                return broken("the array is not closed (no `]`)", cur.pos)
    checker.finish()
    cur.pos += 1
    if cur.skip_space():
        return broken("there is more after the array's closing `]`", cur.pos)
    return rows, True
