"""Checks: datasets (contract section 4). Rules DAT001-DAT025 are declared in dataset_rules.py (the data
checks, DAT026-DAT030, are in data_rules.py, DAT031-DAT032, of code tasks' tests and rehearse's columns, are in
code_tasks.py).

The reading is done by osmosis_workspace.readers.datasets (one module per format, streaming, never loading a
file whole); this module owns the rules, maps the readers' finding kinds to them, and turns the
"first 20 of a kind" cap into one summarising diagnostic per kind.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from osmosis_workspace.check.families.code_tasks import CODE_TESTS
from osmosis_workspace.check.families.data_rules import KINDS as DATA_KINDS
from osmosis_workspace.check.families.dataset_rules import MIN_ROWS  # noqa: F401
from osmosis_workspace.check.families.dataset_rules import (  # noqa: F401  (re-exported: other modules import the rules from here)
    UNKNOWN_FORMAT,
    UNREADABLE,
    ENCODING,
    MALFORMED,
    NOT_OBJECT,
    MISSING_COLUMN,
    AMBIGUOUS_LABEL,
    NOT_STRING,
    EMPTY_VALUE,
    DIVERGENT_KEYS,
    TOO_FEW_ROWS,
    TOO_LARGE,
    BAD_METADATA,
    PARQUET_UNCHECKED,
    BLANK_LINE,
    DUPLICATE_COLUMN,
    NO_SYSTEM_PROMPT,
    BOM,
    CSV_BLANK_LINE,
    NONSTANDARD_SYNTAX,
    BLANK_VALUE,
    BOM_BREAKS,
    OUTSIDE_WORKSPACE,
    MISNAMED,
    RUN_CAPPED,
)
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.units import view
from osmosis_workspace.readers.datasets.extensions import ALIASES, suggested_name
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.check.registry import Rule
from osmosis_workspace.core.workspace import Workspace

FAMILY = "datasets"
# The platform's "5 GB"; read as decimal gigabytes, the stricter of the two readings.
MAX_BYTES = 5 * 1000**3
# What the platform reads (osmosis-ai platform/constants.py VALID_EXTENSIONS), in any letter case.
PLATFORM_SUFFIXES = (".jsonl", ".csv", ".parquet")


RUN_FINDINGS_CAP = 10_000  # dataset diagnostics kept per run

_BY_KIND: dict[str, Rule] = {
    "unknown-format": UNKNOWN_FORMAT,
    "unreadable": UNREADABLE,
    "encoding": ENCODING,
    "malformed": MALFORMED,
    "not-object": NOT_OBJECT,
    "missing-column": MISSING_COLUMN,
    "ambiguous-label": AMBIGUOUS_LABEL,
    "not-string": NOT_STRING,
    "empty-value": EMPTY_VALUE,
    "divergent-keys": DIVERGENT_KEYS,
    "too-few-rows": TOO_FEW_ROWS,
    "too-large": TOO_LARGE,
    "metadata": BAD_METADATA,
    "parquet-unchecked": PARQUET_UNCHECKED,
    "blank-line": BLANK_LINE,
    "csv-blank-line": CSV_BLANK_LINE,
    "csv-quoting": NONSTANDARD_SYNTAX,
    "non-standard-json": NONSTANDARD_SYNTAX,
    "null-value": EMPTY_VALUE,
    "blank-value": BLANK_VALUE,
    "bom-breaks": BOM_BREAKS,
    "duplicate-column": DUPLICATE_COLUMN,
    "no-system-prompt": NO_SYSTEM_PROMPT,
    "bom": BOM,
    "bad-tests": CODE_TESTS,
    **DATA_KINDS,
}
# How the summarising diagnostic names what it counts: (one, many).
_NOUNS = {
    "encoding": ("byte that is not UTF-8", "bytes that are not UTF-8"),
    "malformed": ("malformed row", "malformed rows"),
    "not-object": ("row that is not an object", "rows that are not objects"),
    "not-string": ("value that is not a string", "values that are not strings"),
    "empty-value": ("empty value", "empty values"),
    "null-value": ("null value", "null values"),
    "blank-value": ("whitespace-only value", "whitespace-only values"),
    "csv-quoting": ("irregularly quoted record", "irregularly quoted records"),
    "non-standard-json": ("line with NaN or Infinity", "lines with NaN or Infinity"),
    "divergent-keys": ("row whose keys differ from the first row's", "rows whose keys differ from the first row's"),
    "metadata": ("invalid metadata value", "invalid metadata values"),
    "bad-tests": ("label whose tests do not parse", "labels whose tests do not parse"),
    "blank-line": ("blank line", "blank lines"),
    "csv-blank-line": ("blank line", "blank lines"),
}


def _scan(path: Path, suffix: str, size: int, findings: Findings) -> int | None:
    """Run the format's reader; the row count, or None when it could not be judged."""
    if suffix == ".jsonl":
        from osmosis_workspace.readers.datasets.jsonl import scan_file

        return scan_file(path, size, findings)
    if suffix == ".csv":
        from osmosis_workspace.readers.datasets.csvfile import scan_csv

        with open(path, "rb") as fh:
            return scan_csv(fh, findings)  # None: stopped at an over-long line
    from osmosis_workspace.readers.datasets.parquetfile import scan_parquet

    return scan_parquet(path, size, findings)


_LINK_HINT = "Replace the link with the dataset file itself, or point it at a file that exists (`ls -l` shows where it points)."


def _broken_link(path: Path) -> str | None:
    """Why ``path``, a link that never reaches a file, cannot be read; None for anything else.

    Told apart by the errno of stat (ELOOP, ENOENT) rather than Path.resolve, which raises on a
    loop only before Python 3.13."""
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except OSError as err:
        if err.errno == errno.ELOOP:
            return _loop_message(path)
        if err.errno == errno.ENOENT:
            return f"is a broken link: it points to {os.readlink(path)}, which does not exist"
        raise
    return None


def _loop_message(path: Path) -> str:
    """The loop spelled out as the links are written (a.jsonl -> b.jsonl -> a.jsonl)."""
    seen = [os.path.normpath(path)]
    chain = [path.name]
    here = seen[0]
    while os.path.islink(here) and len(chain) <= 40:  # 40: the kernel's own limit on link hops
        written = os.readlink(here)
        here = os.path.normpath(os.path.join(os.path.dirname(here), written))
        chain.append(written)
        if here in seen:
            if len(chain) == 2:
                return "is a symlink loop: it points to itself"
            return f"is a symlink loop ({' -> '.join(chain)}): the links point at each other and never reach a file"
        seen.append(here)
    return "is a symlink loop: following its links never reaches a file"


def findings_of(path: Path, keep_order: bool = False) -> Findings:
    """Every finding for the dataset at ``path``, by kind (the format is chosen by extension);
    ``keep_order`` for a file DAT029 compares (its profile then keeps each distinct prompt's line)."""
    findings = Findings(keep_order=keep_order)
    suffix = path.suffix.lower()
    if suffix == ".json":
        findings.add("unknown-format", "the platform does not read .json datasets (it reads .jsonl, .csv and .parquet)",
                     hint=f"Convert the array to JSON lines, one object a line: jq -c '.[]' {path.name} > {path.stem}.jsonl")
        return findings
    if suffix not in PLATFORM_SUFFIXES:
        shown = f"`{path.suffix}`" if path.suffix else "no extension"
        findings.add("unknown-format", f"{shown} is not a dataset format; use .jsonl, .csv or .parquet")
        return findings
    try:
        broken = _broken_link(path)
        if broken is not None:
            findings.add("unreadable", broken, hint=_LINK_HINT)
            return findings
        if not path.is_file():
            findings.add("unreadable", "not a regular file")
            return findings
        size = path.stat().st_size
        if size > MAX_BYTES:
            findings.add("too-large", f"the file is {size / 1000**3:.1f} GB; the platform accepts at most 5 GB")
        rows = _scan(path, suffix, size, findings)
    except OSError as err:
        findings.add("unreadable", f"cannot read the file: {err.strerror or err}")
        return findings
    from osmosis_workspace.readers.datasets.outlier import first_row_outlier

    first_row_outlier(findings, rows)
    if findings.profile is not None:  # the data checks (DAT026-DAT028, DAT030): at most one finding each (two for DAT028)
        findings.profile.report(findings)
    if rows is not None and rows < MIN_ROWS:
        findings.add("too-few-rows", f"the dataset has {rows} row{'s' if rows != 1 else ''}; the platform needs at least {MIN_ROWS}")
    return findings


def to_diagnostics(findings: Findings, display: str) -> list[Diagnostic]:
    """The findings as diagnostics at ``display``, one summarising diagnostic per capped kind."""
    out = [_BY_KIND[f.kind].at(display, f.message, line=f.line, column=f.column, hint=f.hint)
           for f in findings.shown]
    for kind, first in findings.first_hidden.items():
        rest = findings.hidden(kind)
        shown = findings.counts[kind] - rest
        where = "" if not first else (f" at line {first}" if rest == 1 else f", from line {first} on")
        one, many = _NOUNS.get(kind, ("more finding", "more findings"))
        listed = "the first is listed" if shown == 1 else f"the first {shown} are listed"
        message = f"{rest} more {one if rest == 1 else many}{where} ({listed})"
        out.append(_BY_KIND[kind].at(display, message, line=first))
    return sorted(out, key=Diagnostic.sort_key)


def check_dataset_file(path: Path, display: str) -> list[Diagnostic]:
    """Check one dataset file; diagnostics carry ``display`` as their path."""
    return to_diagnostics(findings_of(Path(path)), display)


def _misnamed(path: Path, display: str) -> list[Diagnostic]:
    """DAT020 for a file whose name is nearly a dataset's; nothing for notes and READMEs
    (osmosis_workspace.readers.datasets.extensions says which is which)."""
    suggestion = suggested_name(path.name)
    if suggestion is None:
        return []
    message = f"{path.name} looks like a dataset but is not named as one (the platform reads .jsonl, .csv, .parquet); did you mean {suggestion}?"
    hint = f"Rename it to {suggestion} (if it is not a dataset, give it a name that does not look like one)."
    return [MISNAMED.at(display, message, hint=hint)]


# Not datasets whatever their stem: notes, code, pictures (a config naming "multiply" and a
# data/multiply.md beside it is documentation).
_NOT_DATA = frozenset({".md", ".rst", ".py", ".sh", ".ipynb", ".png", ".jpg", ".jpeg", ".svg", ".pdf", ".html", ".toml", ".yaml", ".yml"})


def _named_without_file(ws: Workspace) -> dict[str, str]:
    """Platform dataset names the configs use for which data/ holds no file the SDK reads, each with
    the first config naming it (the file the upload would start from, `data/<name>.<ext>`, is missing)."""
    from osmosis_workspace.check.config_refs import workspace_configs

    readable = {p.name.rpartition(".")[0] for p in ws.data_files if p.suffix.lower() in PLATFORM_SUFFIXES}
    named: dict[str, str] = {}
    for config in workspace_configs(ws):
        value = config.experiment_str("dataset")
        if value and "/" not in value and "\\" not in value and not value.lower().endswith(PLATFORM_SUFFIXES) and value not in readable:
            named.setdefault(value, ws.rel(config.path))
    return named


def _named_unreadable(path: Path, display: str, named: dict[str, str]) -> list[Diagnostic]:
    """DAT001 (an error, not DAT020's warning) for data/<name>.<other> or data/<name> when a config
    names the platform dataset <name> and no .jsonl/.csv/.parquet of it exists: the upload of this
    file, the one the config's dataset comes from, is refused."""
    stem, dot, ext = path.name.rpartition(".")
    stem, suffix = (stem, "." + ext.lower()) if dot and stem else (path.name, "")
    if stem not in named or suffix in _NOT_DATA or path.name.startswith("."):
        return []
    suggestion = stem + (ALIASES.get(suffix) or ".jsonl")
    return [UNKNOWN_FORMAT.at(
        display, f"{named[stem]} names dataset {stem!r}, and its file here is {'extensionless' if not suffix else suffix}, a format the SDK does not "
        "read (.jsonl, .csv, .parquet): `osmosis dataset upload` and `eval run --dataset-file` refuse it",
        hint=f"Convert or rename it to {suggestion} (the format its rows are in: .jsonl, .csv or .parquet).")]


def outside_finding(display: str, why: str | None = None) -> Diagnostic:
    """DAT019 for a dataset that links out of the workspace (doctor and validate alike)."""
    return OUTSIDE_WORKSPACE.at(display, why or "links to a file outside the workspace; not checked")


_PROFILES = "dataset_profiles"  # Workspace.memo key: real path -> the rows' Profile, for paired files only


def _keep_profile(ws: Workspace, path: Path, findings: Findings) -> None:
    """Keep the profile of a file an eval/training pair names, for DAT029 (dataset_overlap.py)."""
    if findings.profile is not None and findings.keep_order:
        ws.memo(_PROFILES, dict)[os.path.realpath(path)] = findings.profile


def profile_of(ws: Workspace, path: Path):  # noqa: ANN201  (a Profile, or None: parquet, unreadable, outside)
    """The rows' profile of a paired file: the one check_data_folder kept, else read now."""
    kept = ws.memo(_PROFILES, dict)
    key = os.path.realpath(path)
    if key not in kept:
        kept[key] = None if ws.outside(path) else findings_of(path, keep_order=True).profile
    return kept[key]


@workspace_check(FAMILY)
def check_data_folder(ws: Workspace) -> list[Diagnostic]:
    """Every dataset file under data/ (links out of the workspace are reported, not followed), and
    any other file there whose name is nearly a dataset's."""
    from osmosis_workspace.check.config_refs import paired_files

    found: list[Diagnostic] = []
    datasets = set(ws.data_files)
    entries = ws.data_entries
    # what the configs say, as values an editor's edit run compares (check/units.view): renaming a
    # config's rollout changes neither, and this check keeps its findings
    named = view(ws, "datasets-named-without-file", _named_without_file)
    paired = paired_files(ws)
    for done, path in enumerate(entries):
        if len(found) >= RUN_FINDINGS_CAP:
            left = sum(1 for p in entries[done:] if p in datasets)
            found.append(RUN_CAPPED.at("data", f"{len(found):,} dataset findings reached the cap of one run; "
                                       f"{left:,} more dataset file{'s' if left != 1 else ''} not checked"))
            break
        display = ws.rel(path)  # under the root: the path below it (by string, as rel's fast path)
        if path not in datasets:
            found.extend(_named_unreadable(path, display, named) or _misnamed(path, display))
        elif ws.outside(path):
            found.append(outside_finding(display))
        elif paired and os.path.realpath(path) in paired:
            findings = findings_of(path, keep_order=True)
            _keep_profile(ws, path, findings)  # DAT029 compares the rows of paired files
            found.extend(to_diagnostics(findings, display))
        else:  # the file alone decides: doctor's cache keeps its findings while it is unchanged
            found.extend(ws.remember(f"dataset:{display}", [path], "", lambda: check_dataset_file(path, display)))
    return found

