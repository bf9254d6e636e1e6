"""Which files in data/ are datasets by name, and "did you mean .jsonl" for the ones that nearly are.

The platform picks a dataset's parser by its extension, lower-cased, so a file is a dataset when it
ends in .jsonl, .csv or .parquet in any letter case (.json is checked too, to say it is rejected). Anything else in data/ is not checked, and is not reported
either when nothing suggests it was meant as a dataset: a README.md, notes.txt, a generating script
or .gitkeep belong there legitimately. (A config naming such a file gets DAT001, unknown format.)

A name that *nearly* is a dataset's is reported (DAT020, a warning) with the name it should have:

- an extension added on saving: ``x.jsonl.txt`` -> ``x.jsonl`` (only ``.txt``: ``x.jsonl.gz`` or
  ``x.csv.bak`` are deliberate, and renaming would not make them readable);
- a typo one edit away (a letter added, dropped, changed, or two swapped): ``x.jsnol``, ``x.cvs``;
  real formats one edit away (``.tsv``, ``.jsonc``, ``.bson``...) are not typos and are left alone;
- another name for the same format: ``.ndjson`` -> ``.jsonl``, ``.pq`` -> ``.parquet``.
"""

from __future__ import annotations

from osmosis_workspace.core.workspace import DATASET_SUFFIXES

_READ = (".jsonl", ".csv", ".parquet")  # only suggest what the platform reads (not .json)

ALIASES = {".ndjson": ".jsonl", ".jsonlines": ".jsonl", ".pq": ".parquet", ".parq": ".parquet"}
# Extensions an editor or "Save as" appends to a file that already had one.
ADDED_ON_SAVING = frozenset({".txt"})
# Formats of their own within one edit of a dataset extension: renaming would not make them one.
OTHER_FORMATS = frozenset({".tsv", ".psv", ".css", ".csh", ".jsonc", ".json5", ".hjson", ".bson"})


def suggested_name(name: str) -> str | None:
    """The dataset file name ``name`` most likely meant, or None when it is one already or does
    not look like a mistyped one."""
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem or not ext:
        return None  # no extension, or a dotfile such as .gitkeep
    written = "." + ext
    suffix = written.lower()
    if suffix in DATASET_SUFFIXES:
        return None  # the platform lower-cases the extension: x.JSONL is a dataset
    if suffix in ADDED_ON_SAVING:
        inner = "." + stem.rpartition(".")[2].lower()
        return stem[: -len(inner)] + inner if "." in stem and inner in _READ else None
    if suffix in ALIASES:
        return stem + ALIASES[suffix]
    if suffix in OTHER_FORMATS or len(ext) < 3:
        return None
    close = [s for s in _READ if _one_edit(suffix, s)]
    return stem + close[0] if close else None


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one insertion, deletion, substitution or swap of neighbours."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i, j = diff[0], diff[-1]
        return len(diff) == 2 and j == i + 1 and (a[i], a[j]) == (b[j], b[i])
    if abs(len(a) - len(b)) != 1:
        return False
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
