"""CSV datasets: a header row naming the columns, then one record a row (RFC 4180 quoting).

Read with the csv module in strict mode over lines decoded a chunk at a time, so a quoted field
may span lines and line numbers are those of the file. The platform's reader is not strict: where
the strict one refuses a record for its quoting (text after a closing quote, a quote never closed),
that record is read again leniently from the same lines, as the platform reads it, and the
finding is a warning. Every value is a string, so the row check
is only for emptiness, plus the JSON text of a ``metadata`` column. A blank line is an error here
(unlike JSON lines): the platform's reader takes it for a row of no fields. A byte-order mark is
an error when it hides a column the platform looks for: its reader keeps the mark in the first name.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from generator.formats.datasets import blocks
from generator.formats.datasets.blocks import BLOCK_SIZE, MAX_LINE, text_chunks
from generator.formats.datasets.columns import LABEL, METADATA, TRUTH, USER, ColumnSpec, RowChecker, shown
from generator.formats.datasets.findings import Findings

# Prompts can be long; the csv module's default field limit (128 KiB) would call them errors.
FIELD_LIMIT = MAX_LINE


class _LineTooLong(Exception):
    """A physical line longer than MAX_LINE: not held in memory; the scan stops there."""


@contextmanager
def _field_limit(limit: int):
    before = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(before)


def _lines(fh: BinaryIO, findings: Findings, block_size: int, taken: list[str]) -> Iterator[str]:
    """The file's lines, each with its ``\\n`` (a lone ``\\r`` is not a line end, as for JSON lines).

    Each line is also appended to ``taken``, which the scan empties before every record: so it
    holds the record's own lines (bounded by the csv field limit), to read again leniently."""
    carry = ""
    for text in text_chunks(fh, findings, block_size):
        if carry:
            text, carry = carry + text, ""
        for line in io.StringIO(text, newline="\n"):  # lazily, not a list of the chunk's lines
            if line.endswith("\n"):
                taken.append(line)
                yield line
            else:
                carry = line
        if len(carry) > blocks.MAX_LINE:
            raise _LineTooLong
    if carry:
        taken.append(carry)
        yield carry


def scan_csv(fh: BinaryIO, findings: Findings, block_size: int = BLOCK_SIZE) -> int | None:
    """Check the header and every record; returns the number of rows (None when the scan stopped
    at a line too long to hold)."""
    taken: list[str] = []
    lines = _lines(fh, findings, block_size, taken)
    reader = csv.reader(lines, strict=True)
    with _field_limit(max(FIELD_LIMIT, csv.field_size_limit())):
        try:
            return _scan(reader, findings, taken, lines)
        except _LineTooLong:
            findings.add("malformed", f"line is longer than {MAX_LINE >> 20} MB; not checked (nor the rest of the file)", reader.line_num + 1)
            return None


def _lenient(err: csv.Error, taken: list[str], lines: Iterator[str]) -> tuple[list[str], str, int] | None:
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
    before = len(taken)
    reader = csv.reader(itertools.chain(list(taken), lines))
    try:
        record = next(reader, [])
    except csv.Error:  # the lenient reader refuses it too (e.g. a lone CR): the strict error stands
        return None
    return record, problem, reader.line_num - before


def _scan(reader, findings: Findings, taken: list[str], lines: Iterator[str]) -> int:
    header: list[str] | None = None
    checker: RowChecker | None = None
    required: list[int] = []
    rows = done = 0
    extra = 0  # lines the lenient re-reads took, which the strict reader's line_num does not count
    while True:
        start = done + 1
        taken.clear()
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
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
            required = [i for i, name in enumerate(header) if name in spec.nonempty]
            slow = spec.metadata is not None
            continue
        if len(record) != len(header):
            findings.add("malformed", f"row has {len(record)} fields, the header has {len(header)}", start)
            continue
        rows += 1
        if not slow:
            for i in required:
                value = record[i]
                if not value or value.isspace():
                    break
            else:
                continue
        checker.check(dict(zip(header, record)), start)
    return rows
