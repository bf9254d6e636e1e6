"""Reading a file in bounded blocks, so memory stays flat whatever the file's size.

Two shapes: lists of complete byte lines (JSON lines: each line is parsed on its own, as bytes,
which orjson reads directly) and decoded text chunks cut on character boundaries (JSON arrays may
be one enormous line; CSV rows are split by the csv module itself). A line is held whole only
up to MAX_LINE (an array element up to jsonarray.MAX_ELEMENT); beyond that it is reported, not read
into memory.
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Iterator
from io import BytesIO
from typing import BinaryIO

from osmosis_workspace.readers.datasets.capped import Findings

BLOCK_SIZE = 2 << 20  # 2 MB: with its lines, about 5 MB held at once (4 MB cost 7 MB more peak memory, no less CPU)
BOM = codecs.BOM_UTF8
# No dataset row is this long; a longer "line" is usually a whole JSON array in a .jsonl file.
MAX_LINE = 32 << 20
# Stands in for a line longer than MAX_LINE (compared by identity; a NUL byte is never valid JSON).
LONG_LINE = b"\x00 line longer than MAX_LINE"


def line_blocks(
    fh: BinaryIO, start: int, end: int, block_size: int = BLOCK_SIZE, max_line: int | None = None, ends: bool = False
) -> Iterator[list[bytes]]:
    """The lines of bytes ``[start, end)`` of ``fh`` (without their ``\\n``), a block's worth at a time.

    ``start`` and ``end`` must be line starts (or the end of the file), so adjacent ranges see
    every line exactly once. A line longer than ``max_line`` is not held: it is skipped and
    :data:`LONG_LINE` stands in its place. With ``ends`` each line keeps its ``\\n`` (all but
    a last line without one): the block is cut by ``BytesIO.readlines``, which finds line ends with
    memchr, at about half the instructions of ``bytes.split``'s byte-by-byte loop.
    """
    cut_lines = _readlines if ends else _split
    max_line = MAX_LINE if max_line is None else max_line
    fh.seek(start)
    pos, carry, skipping = start, b"", False
    while pos < end:
        data = fh.read(min(block_size, end - pos))
        if not data:
            break
        pos += len(data)
        if skipping:
            cut = data.find(b"\n")
            if cut < 0:
                continue
            lines = [LONG_LINE, *cut_lines(data[cut + 1 :])]
            skipping = False
        else:
            lines = cut_lines(data)
            if carry:
                lines[0] = carry + lines[0]  # cheaper than joining the whole block to the carry
        carry = lines.pop()
        if len(carry) > max_line:
            carry, skipping = b"", True
        if lines:
            yield lines
    if skipping:
        yield [LONG_LINE]
    elif carry:
        yield [carry]


def _split(data: bytes) -> list[bytes]:
    return data.split(b"\n")  # the last piece is what follows the last newline (maybe b"")


def _readlines(data: bytes) -> list[bytes]:
    lines = BytesIO(data).readlines()  # shares data's buffer: no copy
    if not lines or lines[-1][-1:] == b"\n":
        lines.append(b"")  # as split has it: the piece after the last newline
    return lines


def line_start_after(fh: BinaryIO, offset: int, block_size: int = 1 << 16) -> int:
    """The offset of the first line that starts at or after ``offset`` (the file size if none)."""
    if offset == 0:
        return 0
    fh.seek(offset - 1)
    pos = offset - 1
    while True:
        data = fh.read(block_size)
        if not data:
            return pos
        cut = data.find(b"\n")
        if cut >= 0:
            return pos + cut + 1
        pos += len(data)


# Decode errors are collected by a registered codec error handler (positions only), so a chunk with
# a bad byte is still decoded in one C call and every bad byte is found, not just the first.
_bad_bytes = threading.local()


def _record_bad_bytes(err: UnicodeDecodeError) -> tuple[str, int]:
    _bad_bytes.positions.append(err.start)
    return "\ufffd", err.end


codecs.register_error("osmosis-dataset-record", _record_bad_bytes)


def text_chunks(fh: BinaryIO, findings: Findings, block_size: int = BLOCK_SIZE) -> Iterator[str]:
    """The file decoded as UTF-8, chunk by chunk, with bad bytes replaced by U+FFFD and recorded as
    ``encoding`` findings at their line and (character) column. A leading BOM is skipped and
    recorded as a ``bom`` finding.
    """
    line, col = 1, 1  # where the next chunk starts
    carry, first = b"", True
    while True:
        data = fh.read(max(block_size, len(BOM)) if first else block_size)
        at_eof = not data
        if first:
            first = False
            if data.startswith(BOM):
                findings.add("bom", "file starts with a UTF-8 byte-order mark", 1, 1)
                data = data[len(BOM) :]
        data, carry = carry + data, b""
        if not data:
            if at_eof:
                return
            continue  # the first read held only the BOM
        if not at_eof:
            # Carry the last character to the next chunk if it may be incomplete (a lead byte
            # followed by at most three continuation bytes), so none is split between chunks.
            i = len(data) - 1
            while i >= 0 and len(data) - i <= 4 and 0x80 <= data[i] < 0xC0:
                i -= 1
            if i >= 0 and data[i] >= 0xC0:
                data, carry = data[:i], data[i:]
            if not data:
                continue
        _bad_bytes.positions = []
        text = data.decode("utf-8", "osmosis-dataset-record")
        for pos in _bad_bytes.positions:
            nl = data.rfind(b"\n", 0, pos)
            bad_line = line + data.count(b"\n", 0, pos)
            bad_col = (col if nl < 0 else 1) + len(data[nl + 1 : pos].decode("utf-8", "replace"))
            findings.add("encoding", f"byte 0x{data[pos]:02x} is not valid UTF-8", bad_line, bad_col)
        newlines = text.count("\n")
        col = (col + len(text)) if newlines == 0 else len(text) - text.rfind("\n")
        line += newlines
        yield text
