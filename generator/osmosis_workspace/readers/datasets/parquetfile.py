"""Parquet datasets: checked from the footer (schema, row count, column statistics), and the
``metadata`` column row by row, as the platform's validator reads it.

pyarrow is optional and imported only here, only when a parquet file is checked. Without it the
file's magic bytes are still checked and a ``parquet-unchecked`` finding says how to enable the
rest. Of the data pages only the metadata column's are read, a batch at a time; every other value
check relies on the writer's statistics (null counts; an empty string shows as the minimum of a
string column), so a file written without statistics gets the schema check only.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.readers.datasets.columns import ColumnSpec, MetadataChecker
from osmosis_workspace.readers.datasets.capped import Findings

MAGIC = b"PAR1"
INSTALL_HINT = "pip install 'osmosis-workspace[parquet]' (adds pyarrow) to check parquet datasets"


def _has_magic(path: Path, size: int) -> bool:
    if size < 2 * len(MAGIC):
        return False
    with open(path, "rb") as fh:
        head = fh.read(len(MAGIC))
        fh.seek(size - len(MAGIC))
        return head == MAGIC and fh.read(len(MAGIC)) == MAGIC


def _import_parquet():
    """pyarrow.parquet, or None when it is not installed (or fails to import)."""
    try:
        import pyarrow.parquet as pq
    except Exception:  # noqa: BLE001  a broken pyarrow install is "not installed" for our purposes
        return None
    return pq


def _type_problem(field_type, want: str) -> str | None:
    """Why a column of ``field_type`` cannot hold ``want`` ("string" or "object"); None when it can."""
    import pyarrow.types as pt

    if pt.is_dictionary(field_type):
        field_type = field_type.value_type
    is_string = pt.is_string(field_type) or pt.is_large_string(field_type) or str(field_type) == "string_view"
    if want == "string":
        return None if is_string else f"has type {field_type}, not string"
    # metadata: the platform takes a struct, or a string of JSON text (osmosis-ai dataset.py)
    if pt.is_struct(field_type) or is_string:
        return None
    return f"has type {field_type}, not a struct or a string of JSON text"


def _problem_free_string(field_type) -> bool:
    return _type_problem(field_type, "string") is None


FOOTER_CAP = 16 << 20  # thousands of row groups fit in a few MB; pyarrow's parse takes ~20x the bytes
STAT_GROUPS = 20_000  # row groups whose statistics are read


def _footer_size(path: Path, size: int) -> int:
    """The footer's length as the file's last 8 bytes state it (read before pyarrow parses it)."""
    with open(path, "rb") as fh:
        fh.seek(size - 8)
        return int.from_bytes(fh.read(4), "little")


def _cast_hint(name: str) -> str:
    # the rule's default hint shows JSON quoting, which means nothing for a typed parquet column
    return f"store the column as strings: with pandas, df[{name!r}] = df[{name!r}].astype(str) before to_parquet"


def scan_parquet(path: Path, size: int, findings: Findings) -> int | None:
    """Check the footer; returns the row count, or None when the file could not be read."""
    if not _has_magic(path, size):
        findings.add("malformed", "not a parquet file (no PAR1 magic bytes at its start and end)")
        return None
    pq = _import_parquet()
    if pq is None:
        findings.add("parquet-unchecked", "parquet columns not checked: pyarrow is not installed", hint=INSTALL_HINT)
        return None
    footer = _footer_size(path, size)
    if FOOTER_CAP < footer <= size - 12:  # a length past the file's own is a broken footer: pyarrow says so
        findings.add("parquet-unchecked", f"parquet columns not checked: its footer (the file's index of row groups) is "
                     f"{footer / (1 << 20):.0f} MB, more than the {FOOTER_CAP >> 20} MB osmosis reads",
                     hint="write it with fewer, larger row groups (pyarrow: row_group_size of 100,000 rows or more)")
        return None
    try:
        parquet = pq.ParquetFile(path)
        schema = parquet.schema_arrow
        meta = parquet.metadata
    except Exception as err:  # noqa: BLE001  pyarrow raises several types for a broken footer
        findings.add("malformed", f"unreadable parquet footer: {err}")
        return None
    spec = ColumnSpec.from_columns(list(schema.names), None, findings)
    types: dict[str, object] = {}
    for field in schema:  # not schema.field(name): that raises when a name is duplicated
        types.setdefault(field.name, field.type)
    for name in (*spec.nonempty, *spec.strings):
        problem = _type_problem(types[name], "string")
        if problem:
            findings.add("not-string", f"column `{name}` {problem}: the platform accepts it and turns each value into "
                         "Python's text of it, which may not be the spelling you compare with", hint=_cast_hint(name))
    if spec.metadata:
        problem = _type_problem(types[spec.metadata], "object")
        if problem:
            findings.add("metadata", f"column `{spec.metadata}` {problem}")
        else:
            if _problem_free_string(types[spec.metadata]):  # read as a dictionary: each distinct text once
                parquet = pq.ParquetFile(path, read_dictionary=[spec.metadata])
            _check_metadata_rows(parquet, spec.metadata, findings)
    _check_statistics(meta, schema, spec, findings)
    return meta.num_rows


class _Recorder:
    """Stands in for Findings while one distinct value is checked: what it found, to replay per row."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str, str | None]] = []

    def add(self, kind: str, message: str, line=None, column=None, hint=None, detail=None) -> None:  # noqa: ANN001
        self.found.append((kind, message, hint))


_MEMO_VALUES = 50_000  # distinct metadata texts remembered; a dictionary page holds far fewer
_MEMO_TEXT = 1 << 16  # longer texts are checked each time (rare, and the memo would hold them)


def _check_metadata_rows(parquet, name: str, findings: Findings) -> None:
    """Every row's metadata, one record batch at a time (the platform reads them all, too).

    A text seen before finds what it found then (the checker's key-path types only grow, so the same
    value meets the same verdict), so each distinct value is parsed once: 2M rows of a dictionary-
    encoded column are a handful of checks and a loop over indices, not 2M JSON parses."""
    import pyarrow as pa

    checker = MetadataChecker(findings)
    memo: dict[str, list[tuple[str, str, str | None]]] = {}

    def check_text(value: object, row: int) -> None:
        if not isinstance(value, str) or len(value) > _MEMO_TEXT:
            checker.check(value, None, prefix=f"row {row}: ")
            return
        found = memo.get(value)
        if found is None:
            recorder = _Recorder()
            checker.findings = recorder  # type: ignore[assignment]
            try:
                checker.check(value, None)
            finally:
                checker.findings = findings
            found = recorder.found
            if len(memo) < _MEMO_VALUES:
                memo[value] = found
        for kind, message, hint in found:
            findings.add(kind, f"row {row}: {message}", hint=hint)

    row = 0
    try:
        for batch in parquet.iter_batches(columns=[name], batch_size=65536):
            column = batch.column(0)
            if pa.types.is_dictionary(column.type):
                values = column.dictionary.to_pylist()
                for index in column.indices.to_pylist():
                    row += 1
                    check_text(None if index is None else values[index], row)
                continue
            for value in column.to_pylist():
                row += 1
                check_text(value, row)
    except Exception as err:  # noqa: BLE001  pyarrow raises several types for a broken page
        findings.add("malformed", f"unreadable `{name}` column: {err}")


def _check_statistics(meta, schema, spec: ColumnSpec, findings: Findings) -> None:
    """Nulls and empty strings in the checked columns, from row-group statistics where written
    (of the first STAT_GROUPS row groups: the rest are said to be left out)."""
    if meta.num_row_groups > STAT_GROUPS:
        findings.add("parquet-unchecked", f"null and empty values checked in the first {STAT_GROUPS:,} of "
                     f"{meta.num_row_groups:,} row groups; the other {meta.num_row_groups - STAT_GROUPS:,} were left out",
                     hint="write it with fewer, larger row groups (pyarrow: row_group_size of 100,000 rows or more)")
    leaf = {meta.schema.column(i).path: i for i in range(meta.num_columns)}
    for name in (*spec.nonempty, *spec.strings):  # metadata is read row by row
        index = leaf.get(name)
        if index is None:  # nested (struct/map metadata): several leaves, no single null count
            continue
        nulls = empties = 0
        for g in range(min(meta.num_row_groups, STAT_GROUPS)):
            try:
                stats = meta.row_group(g).column(index).statistics
                if stats is None:
                    continue
                if stats.has_null_count:
                    nulls += stats.null_count
                if name in spec.nonempty and stats.has_min_max and stats.min in ("", b""):
                    empties += 1
            except Exception:  # noqa: BLE001  statistics of a type pyarrow cannot decode: no evidence either way
                continue
        if nulls:
            count = f"column `{name}` has {nulls} null value{'s' if nulls != 1 else ''}"
            hint = f"give every row a string: with pandas, fill or drop the nulls of df[{name!r}] before to_parquet"
            if name in spec.nonempty:
                findings.add("null-value", f"{count}: the platform reads a null as missing and fails the run at that row", hint=hint)
            else:
                findings.add("not-string", f"{count}: the platform accepts them and sends those rows without a system message", hint=hint)
        if empties:
            findings.add("empty-value", f"column `{name}` has empty strings (in {empties} of {meta.num_row_groups} row groups)")
