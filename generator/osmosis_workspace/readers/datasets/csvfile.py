"""CSV datasets: a header row naming the columns, then one record a row (RFC 4180 quoting).

Read with the csv module in strict mode over lines decoded a chunk at a time, so a quoted field
may span lines and line numbers are those of the file. The platform's reader is not strict: where
the strict one refuses a record for its quoting (text after a closing quote, a quote never closed),
that record is read again leniently from the same lines, as the platform reads it, and the
finding is a warning. Each record goes, as a dict, through the one row hook
(:meth:`rows.RowChecker.take`); every value is a string, so of the row rules only emptiness and the
JSON text of a ``metadata`` column can fail. A blank line is an error here
(unlike JSON lines): the platform's reader takes it for a row of no fields. A byte-order mark is
an error when it hides a column the platform looks for: its reader keeps the mark in the first name.

Memory is bounded however many lines a record spans: a field is capped at the csv module's default
limit, which `osmosis dataset upload` validates with (it refuses the file at a longer field), and
the lines a record spans at MAX_RECORD; past either, the finding is at the record's line and the
rest of the file is not read (the upload's check stops at that record too).
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from osmosis_workspace.core.diagnostics import plural
from osmosis_workspace.readers.datasets import blocks
from osmosis_workspace.readers.datasets.blocks import BLOCK_SIZE, MAX_LINE, text_chunks
from osmosis_workspace.readers.datasets.columns import LABEL, METADATA, TRUTH, USER, ColumnSpec, shown
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.rows import RowChecker

# The csv module's default, which the SDK's upload check (`_validate_csv`, a plain csv.reader) keeps:
# a longer field fails `osmosis dataset upload` with "field larger than field limit (131072)".
FIELD_LIMIT = 131_072
# The lines one record may span, counted with a str's overhead: one field of a million newlines
# made 32 MB of text cost 950 MB as separate lines.
MAX_RECORD = 16 << 20
_LINE_OVERHEAD = 64


class _LineTooLong(Exception):
    """A physical line longer than MAX_LINE: not held in memory; the scan stops there."""


class _Stop(Exception):
    """The scan ends here: ``args`` are the finding's message and line."""


class _Record:
    """The lines of the record being read (to read it again leniently), bounded by MAX_RECORD."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.size = 0
        self.start = 1

    def begin(self, start: int) -> None:
        self.lines.clear()
        self.size, self.start = 0, start

    def add(self, line: str) -> None:
        self.size += len(line) + _LINE_OVERHEAD
        if self.size > MAX_RECORD:
            raise _Stop(f"a record spans more than {MAX_RECORD >> 20} MB of lines (a quoted field left open?); "
                        "not checked (nor the rest of the file)", self.start)
        self.lines.append(line)


@contextmanager
def _field_limit(limit: int):
    before = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(before)


def _lines(fh: BinaryIO, findings: Findings, block_size: int, taken: _Record) -> Iterator[str]:
    """The file's lines, each with its ``\\n`` (a lone ``\\r`` is not a line end, as for JSON lines).

    Each line is also added to ``taken``, which the scan begins afresh at every record: so it
    holds the record's own lines, to read again leniently."""
    carry = ""
    for text in text_chunks(fh, findings, block_size):
        if carry:
            text, carry = carry + text, ""
        for line in io.StringIO(text, newline="\n"):  # lazily, not a list of the chunk's lines
            if line.endswith("\n"):
                taken.add(line)
                yield line
            else:
                carry = line
        if len(carry) > blocks.MAX_LINE:
            raise _LineTooLong
    if carry:
        taken.add(carry)
        yield carry


def scan_csv(fh: BinaryIO, findings: Findings, block_size: int = BLOCK_SIZE) -> int | None:
    """Check the header and every record; returns the number of rows (None when the scan stopped
    at a line too long to hold)."""
    taken = _Record()
    lines = _lines(fh, findings, block_size, taken)
    reader = csv.reader(lines, strict=True)
    with _field_limit(FIELD_LIMIT):
        try:
            return _scan(reader, findings, taken, lines)
        except _LineTooLong:
            findings.add("malformed", f"line is longer than {MAX_LINE >> 20} MB; not checked (nor the rest of the file)", reader.line_num + 1)
        except _Stop as stop:
            findings.add("malformed", *stop.args)
        return None


def _lenient(err: csv.Error, taken: _Record, lines: Iterator[str]) -> tuple[list[str], str, int] | None:
    """The record the platform's lenient reader makes of what the strict reader refused, why we
    still warn, and how many more lines it read; None for errors the lenient reader makes too.

    It reads the refused record's lines again, then further lines from the same source while the
    record's quoted field is open, so the strict reader goes on at the next record."""
    if "expected after" in str(err):
        problem = ("a quoted field has text after its closing quote: the platform's reader accepts it and appends that "
                   "text to the field, but strict CSV readers reject the row")
    elif "unexpected end of data" in str(err):
        problem = "a quoted field is never closed: the platform's reader accepts it and takes the rest of the file into that field"
    else:
        return None
    before = len(taken.lines)
    reader = csv.reader(itertools.chain(list(taken.lines), lines))
    try:
        record = next(reader, [])
    except csv.Error:  # the lenient reader refuses it too (e.g. a lone CR): the strict error stands
        return None
    return record, problem, reader.line_num - before


def _scan(reader, findings: Findings, taken: _Record, lines: Iterator[str]) -> int:
    header: list[str] | None = None
    checker: RowChecker | None = None
    rows = done = 0
    extra = 0  # lines the lenient re-reads took, which the strict reader's line_num does not count
    while True:
        start = done + 1
        taken.begin(start)
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            if "field larger than field limit" in str(err):
                raise _Stop(f"a field is longer than {FIELD_LIMIT} characters: `osmosis dataset upload` refuses the file "
                            "there (its CSV reader's field limit); not checked further", start) from None
            lenient = _lenient(err, taken, lines)
            if lenient is None:
                message = f"not valid CSV: {err}"
                if "new-line character seen in unquoted field" in str(err):
                    message = "not valid CSV: a line ends with a lone carriage return (\\r); use \\n or \\r\\n line endings"
                findings.add("malformed", message, start)
                done = reader.line_num + extra
                continue
            record, problem, more = lenient
            extra += more
            findings.add("csv-quoting", problem, start, hint='quote the whole field and double any quote inside it ("")')
        done = reader.line_num + extra
        if not record:
            findings.add("csv-blank-line", "blank line: the platform reads it as a row with no fields", start)
            continue
        if header is None:
            header = record
            for i, name in enumerate(header, 1):
                if not name.strip():
                    findings.add("malformed", f"header field {i} has no name", start)
            if findings.counts.get("bom") and header[0] in (USER, TRUTH, LABEL, METADATA):
                findings.drop("bom")
                findings.add("bom-breaks", f"file starts with a UTF-8 byte-order mark, which the platform reads as part of the first "
                             f"column's name: it sees {shown(chr(0xFEFF) + header[0])}, not `{header[0]}`", start, 1)
            spec = ColumnSpec.from_columns(header, start, findings)
            checker = RowChecker(findings, spec)
            continue
        if len(record) != len(header):
            findings.add("malformed", f"row has {plural(len(record), 'field')}, the header has {len(header)}", start)
            continue
        rows += 1
        checker.take(dict(zip(header, record)), start)
    if checker is not None:
        checker.finish()
    return rows
