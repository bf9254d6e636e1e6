"""MAJOR 5 (issue 14): a CSV record spanning many quoted newlines stays bounded in memory.

Before the fix a 40 MB file of one record took about 1 GB (one field of a million newlines: the
field limit was 32 MB and each line was held as its own string) or grew with the file (many small
quoted fields, each spanning a line: 1.3 GB for 50 MB, 2.5 GB for 100 MB). The check runs in a
subprocess so that its peak RSS (ru_maxrss) is its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SIZE = 40 << 20
RSS_CAP_MB = 200  # a fifth of the file's size; the old reader needed over 1,000 MB here
# Peak RSS of this process's own memory: /proc's VmHWM starts afresh at exec. (ru_maxrss does not on
# Linux: a child forked from a large pytest process reports the parent's size, 375 MB in a full run.)
PROBE = (
    "import json, resource, sys\n"
    "from pathlib import Path\n"
    "from osmosis_workspace.check.families.datasets import check_dataset_file\n"
    "found = check_dataset_file(Path(sys.argv[1]), 'data/big.csv')\n"
    "try:\n"
    "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
    "    rss_mb = int(hwm.split()[1]) / 1024\n"
    "except OSError:\n"
    "    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
    "print(json.dumps({'rss_mb': rss_mb, 'found': [[d.code, d.line, d.message] for d in found]}))\n"
)
SHAPES = {
    "one-field-of-many-lines": ('"', "ab\n", '",x\n'),
    "many-quoted-fields-across-lines": ("", '"a\nb",', "x\n"),
}


def _write(path: Path, opening: str, unit: str, closing: str) -> None:
    chunk = unit * (1 << 20 // len(unit))
    with open(path, "w") as out:
        out.write("user_prompt,ground_truth\n" + opening)
        for _ in range(SIZE // len(chunk)):
            out.write(chunk)
        out.write(closing + "".join(f"q{i},a{i}\n" for i in range(10)))


@pytest.mark.parametrize("shape", SHAPES)
def test_a_record_of_many_quoted_lines_is_a_finding_in_bounded_memory(tmp_path, shape):
    path = tmp_path / "big.csv"
    _write(path, *SHAPES[shape])
    done = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rss_mb"] < RSS_CAP_MB, result["rss_mb"]
    malformed = [f for f in result["found"] if f[0] == "DAT004"]
    assert malformed and malformed[0][1] == 2, result["found"]  # at the record's first line
    assert "not checked" in malformed[0][2] or "osmosis dataset upload" in malformed[0][2]


def test_a_field_over_the_uploads_limit_is_an_error_and_one_under_is_not(tmp_path):
    """`osmosis dataset upload` validates with csv's default field limit (131,072 characters)."""
    from osmosis_workspace.check.families.datasets import check_dataset_file

    rows = "".join(f"q{i},a{i}\n" for i in range(10))
    for length, refused in ((131_072, False), (131_073, True)):
        path = tmp_path / f"f{length}.csv"
        field = ("x\n" * (length // 2)) + ("y" if length % 2 else "")
        path.write_text(f'user_prompt,ground_truth\n"{field}",x\n{rows}')
        found = [d for d in check_dataset_file(path, path.name) if d.code == "DAT004"]
        assert bool(found) == refused, (length, found)
        if refused:
            assert found[0].line == 2 and "131072 characters" in found[0].message and found[0].severity.value == "error"
