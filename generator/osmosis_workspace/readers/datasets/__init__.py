"""The readers behind the dataset checks (osmosis_workspace.check.families.datasets).

Each format module streams one file and records what it finds as :class:`findings.Finding` values
keyed by a short *kind*; osmosis_workspace.check.families.datasets maps kinds to rule codes. Keeping rules out of
here lets the readers run in worker processes and be tested without the registry.

Nothing here reads a whole file into memory: see jsonl.py (blocks of lines, split over processes
for large files), jsonarray.py (one array element at a time), csvfile.py (rows as the csv module
yields them) and parquetfile.py (the footer only).
"""
