"""JSON lines: one object a line, checked at several hundred MB/s with flat memory.

The hot loop parses each line with orjson (a range under SMALL_BYTES with decode.loads: orjson's
answers without importing it for a line the standard library reads alike) and hands the row to the one row hook
(:meth:`rows.RowChecker.take`: the row rules' cheap tests, the full checks only for a row that fails
one, and the data checks' observation); only a line that fails to parse is decoded again with the
standard library, for its clearer message and exact column. The usual case goes a batch of
BATCH_LINES lines at a time (:meth:`rows.RowChecker.take_many`: parse, cheap tests and the profile's
block in C-level passes), falling back to that loop for a batch with anything unusual, so both ways
find the same.

Blank lines (empty or only whitespace) are not rows; each is reported as a warning, since some
readers skip them and others fail. A final newline at the end of the file is not a blank line.

Files of ``PARALLEL_MIN_BYTES`` or more are split at line starts into one byte range per CPU and
scanned by forked worker processes; their findings are merged in file order, with line numbers
shifted by the lines of the ranges before. Where fork is unavailable (Windows, macOS defaults)
the scan is serial: spawning fresh interpreters costs more than it saves for most datasets.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from osmosis_workspace.core.records import dataclass
from osmosis_workspace.readers.datasets.blocks import BLOCK_SIZE, BOM, LONG_LINE, MAX_LINE, line_blocks, line_start_after
from osmosis_workspace.readers.datasets import decode
from osmosis_workspace.readers.datasets.columns import ColumnSpec, loads_exact
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.jsonmsg import json_error
from osmosis_workspace.readers.datasets.profile import DIGEST_CAP
from osmosis_workspace.readers.datasets.rows import RowChecker

PARALLEL_MIN_BYTES = 64 << 20
SMALL_BYTES = 256 << 10  # a range this short is decoded without importing orjson (readers/datasets/decode.py)
PRESCAN_BYTES = 1 << 20  # how far to look for the first object row before splitting the file
BATCH_LINES = 128  # lines parsed at once by the fast path (their rows are held together: about 50 KB)


@dataclass
class RangeResult:
    findings: Findings
    lines: int  # lines seen in the range (rows, blank and bad lines)
    rows: int  # lines holding an object


class NonStandardConstant(ValueError):
    """`NaN`, `Infinity` or `-Infinity`: not JSON, though Python's json (the platform's reader) reads them."""

    def __init__(self, name: str):
        super().__init__(f"{name} is not valid JSON")
        self.name = name


def reject_constant(name: str) -> object:
    raise NonStandardConstant(name)


def _parse_slowly(line: bytes, lineno: int, findings: Findings) -> tuple[bool, object]:
    """Why ``line`` did not parse fast: (False, None) after recording a blank, encoding or syntax
    problem; (True, value) when the standard library reads it after all (orjson refuses a few
    things json accepts, such as integers beyond 64 bits)."""
    if line is LONG_LINE:
        findings.add(
            "malformed",
            f"line is longer than {MAX_LINE >> 20} MB; not checked",
            lineno,
            hint="JSON lines hold one row a line; a JSON array belongs in a .json file",
        )
        return False, None
    if line[-1:] == b"\n":  # the reader's lines keep their newline; a message's column is within the line
        line = line[:-1]
    if not line.strip():
        findings.add("blank-line", "blank line", lineno)
        return False, None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        column = len(line[: err.start].decode("utf-8", "replace")) + 1
        findings.add("encoding", f"byte 0x{line[err.start]:02x} is not valid UTF-8", lineno, column)
        return False, None
    try:
        return True, json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as err:
        findings.add("malformed", json_error(err, lineno, err.colno), lineno, err.colno)
    except NonStandardConstant as err:
        findings.add("non-standard-json", f"`{err.name}` is not JSON: the platform's reader (Python's json) accepts it, "
                     "but most JSON tools reject the line", lineno, hint=f'write it as a string ("{err.name}") or null')
        # the rest of the line is checked as the hint would have it, so the constant is one finding, not
        # also a "number, not a string" one on the same line
        return True, json.loads(text, parse_constant=str)
    except (ValueError, RecursionError) as err:
        findings.add("malformed", f"not valid JSON: {err}", lineno)
    return False, None


def scan_range(path: Path, start: int, end: int, spec: ColumnSpec | None, block_size: int = BLOCK_SIZE,
               digest_cap: int | None = None, keep_order: bool = False) -> RangeResult:
    """Check the lines of ``path`` that start in ``[start, end)``; line numbers count from 1 at ``start``.

    With ``spec`` None the first object row fixes the columns (and its column findings are recorded).
    Every row goes through the one row hook, :meth:`RowChecker.take` (osmosis_workspace.readers.datasets.rows).
    """
    findings = Findings(keep_order=keep_order)
    checker = RowChecker(findings, spec, digest_cap=digest_cap)
    take = checker.take
    if end - start >= SMALL_BYTES:
        import orjson

        loads = orjson.loads
    else:
        loads = decode.loads  # orjson's answers; orjson itself only for a line that needs it
    exact = spec is None or spec.metadata is not None
    base = rows = 0
    with open(path, "rb") as fh:
        for lines in _batches(line_blocks(fh, start, end, block_size, ends=True)):  # lines keep their \n
            objs = None
            if not exact:
                # The usual case in C-level passes (parse, cheap tests, the profile's blocks); a batch
                # with a line that does not parse goes line by line, one with a row that fails a cheap
                # test row by row: the same findings either way.
                try:
                    objs = list(map(loads, lines))
                except (ValueError, RecursionError):
                    pass
            if objs is None:
                rows += _one_by_one(lines, base, exact, checker, findings, loads)
                if exact and checker.spec is not None:
                    exact = checker.spec.metadata is not None
            elif checker.take_many(objs, base + 1):
                rows += len(objs)
            else:
                rows += sum(map(take, objs, range(base + 1, base + 1 + len(objs))))
            base += len(lines)
    checker.finish()
    return RangeResult(findings, base, rows)


def _batches(blocks: Iterator[list[bytes]]) -> Iterator[list[bytes]]:
    """The blocks' lines in batches of BATCH_LINES, a block's last few carried into the next: the batches,
    and so the profile's blocks (rows.BLOCK_ROWS), stay aligned from the first line to the last."""
    rest: list[bytes] = []
    for block in blocks:
        if rest:
            block = rest + block
        cut = len(block) - len(block) % BATCH_LINES
        for at in range(0, cut, BATCH_LINES):
            yield block[at : at + BATCH_LINES]
        rest = block[cut:]
    if rest:
        yield rest


def _one_by_one(lines: list[bytes], base: int, exact: bool, checker: RowChecker, findings: Findings,
                loads=decode.loads) -> int:
    """The lines after line ``base``, each parsed and taken alone; returns the rows among them."""
    take, rows = checker.take, 0
    for lineno, line in enumerate(lines, base + 1):
        try:
            # metadata rows (and the first, which may be one) keep integers beyond 64 bits exact
            obj = loads_exact(line) if exact else loads(line)
        except (ValueError, RecursionError):  # orjson's and json's decode errors both are ValueErrors
            parsed, obj = _parse_slowly(line, lineno, findings)
            if not parsed:
                continue
        if take(obj, lineno):
            rows += 1
            if exact and checker.spec is not None:
                exact = checker.spec.metadata is not None
    return rows


def _first_spec(path: Path, start: int, findings: Findings) -> ColumnSpec | None:
    """The column spec from the first object row within PRESCAN_BYTES, its findings recorded."""
    import orjson  # a large file's scan

    with open(path, "rb") as fh:
        fh.seek(start)
        lines = fh.read(PRESCAN_BYTES).split(b"\n")[:-1]  # the last piece may be cut short
    for lineno, line in enumerate(lines, 1):
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return ColumnSpec.from_columns(list(obj), lineno, findings)
    return None


def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover  (not on Linux)
        return os.cpu_count() or 1


def scan_file(path: Path, size: int, findings: Findings, parallel: bool | None = None) -> int:
    """Check every line of ``path``, recording into ``findings``; returns the number of rows.

    ``parallel`` None decides by file size and CPUs; True/False force it (tests use both).
    """
    with open(path, "rb") as fh:
        start = len(BOM) if fh.read(len(BOM)) == BOM else 0
    if start:
        findings.add("bom-breaks", "file starts with a UTF-8 byte-order mark: the platform reads line 1 as invalid JSON", 1, 1)
    workers = min(_workers(), 8)
    if parallel is None:
        parallel = size >= PARALLEL_MIN_BYTES and workers > 1 and sys.platform.startswith("linux")
    spec = _first_spec(path, start, findings) if parallel else None
    if not parallel or spec is None:
        result = scan_range(path, start, size, None, keep_order=findings.keep_order)
        findings.extend(result.findings)
        return result.rows

    import multiprocessing  # only large files pay for it

    with open(path, "rb") as fh:
        cuts = [start] + [line_start_after(fh, start + (size - start) * k // workers) for k in range(1, workers)] + [size]
    ranges = [(path, a, b, spec, BLOCK_SIZE, DIGEST_CAP // workers) for a, b in zip(cuts, cuts[1:]) if a < b]
    with multiprocessing.get_context("fork").Pool(len(ranges)) as pool:
        results = pool.starmap(scan_range, ranges)
    offset = rows = 0
    for result in results:
        findings.extend(result.findings, line_offset=offset)
        offset += result.lines
        rows += result.rows
    return rows
