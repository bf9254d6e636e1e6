"""What a child prints is read back bounded (attack round on issue 28): rehearse read the SDK's and
uv's whole output into memory, so a rollout that logs a lot (here 600 MB, by a shell stand-in for the
SDK, as in test_rehearse_orphans.py) took more than that; and a byte that is not UTF-8 in the SDK's
output was a UnicodeDecodeError (exit 3). Only the tail is kept: the SDK's result and the failure are
its last lines."""

from __future__ import annotations

import json
import subprocess
import sys

SPAM = "head -c 600000000 /dev/zero | tr '\\0' 'x'; echo; printf 'bad \\377 byte\\n'; echo '{\"error\": \"last line\"}'"

PROBE = r"""
import json, resource, sys
from pathlib import Path
which, spam, run_dir = sys.argv[1], sys.argv[2], Path(sys.argv[3])
if which == "children":
    from osmosis_workspace.rehearse import children
    done = children.run(["sh", "-c", spam], run_dir, {"PATH": "/usr/bin:/bin"}, 120)
    out = done.stdout
else:
    from osmosis_workspace.rehearse import runner
    done = runner.run_eval(["sh", "-c", spam], run_dir, {"PATH": "/usr/bin:/bin"}, run_dir, 120)
    out = done.stdout
# VmHWM is this process's own peak: ru_maxrss keeps the parent's across fork and exec (a pytest
# worker of 500 MB made this probe look as large)
try:
    peak_kb = int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1])
except (OSError, StopIteration):
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"peak_mb": peak_kb / 1024,
                  "last": out.strip().splitlines()[-1], "size": len(out)}))
"""


def _probe(which: str, tmp_path) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, which, SPAM, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_preflights_child_output_is_read_bounded(tmp_path):
    found = _probe("children", tmp_path)
    assert found["last"] == '{"error": "last line"}'
    assert found["peak_mb"] < 500 and found["size"] <= 16 << 20, found


def test_the_sdks_output_is_read_bounded_and_any_bytes(tmp_path):
    found = _probe("runner", tmp_path)
    assert found["last"] == '{"error": "last line"}'
    assert found["peak_mb"] < 500 and found["size"] <= 16 << 20, found
