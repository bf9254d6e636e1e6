"""Start-up cost: `osmosis doctor` must not import copier, pydantic (typer 0.29 would), jsonschema or
the reporters it does not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
sys.argv = ["osmosis", *sys.argv[1:]]
from osmosis_workspace.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_after(cwd: Path, *args: str, probe: str = PROBE) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", probe, *args], cwd=cwd, capture_output=True, text=True, env=env)
    return set(json.loads(out.stderr.strip().splitlines()[-1]))


def test_doctor_imports_stay_light(make_workspace):
    ws = make_workspace()
    loaded = modules_after(ws, "doctor", "--format", "json")
    for heavy in ("copier", "pydantic", "jsonschema", "osmosis_workspace.scaffold.render", "osmosis_workspace.check.fix"):
        assert heavy not in loaded, heavy
    assert "osmosis_workspace.report.json" in loaded
    assert not {"osmosis_workspace.report.sarif", "osmosis_workspace.report.text", "osmosis_workspace.report.github"} & loaded


def test_validate_imports_only_the_families_it_needs(make_workspace):
    ws = make_workspace()
    loaded = modules_after(ws, "validate", "data/multiply.jsonl")
    assert "osmosis_workspace.check.families.datasets" in loaded
    assert "pydantic" not in loaded and "copier" not in loaded


def test_cold_doctor_on_a_template_leaves_dataclasses_inspect_and_orjson_unloaded(make_workspace):
    """Issue 40: core/records.py builds a record's Fields only when asked, and readers/datasets/decode.py
    reads a small dataset without orjson (which imports dataclasses, inspect, uuid and platform): a
    quarter of what a cold run on a fresh workspace spent importing."""
    ws = make_workspace()
    # as the console script starts (entry.main: the plain forms skip typer, which imports inspect itself)
    loaded = modules_after(ws, "doctor", "--no-cache", probe=PROBE.replace("osmosis_workspace.cli import", "osmosis_workspace.entry import"))
    assert "osmosis_workspace.readers.datasets.jsonl" in loaded  # the dataset was read
    assert not {"inspect", "dataclasses", "orjson", "uuid", "platform"} & loaded


def test_cold_doctor_leaves_ipaddress_unbuilt_and_a_later_use_gets_the_real_module(make_workspace):
    """cli/fast.py stands in for `ipaddress` (urllib.parse imports it; a doctor run never uses it)."""
    ws = make_workspace()
    probe = PROBE.replace("osmosis_workspace.cli import", "osmosis_workspace.entry import").replace(
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)",
        "kind = type(sys.modules['ipaddress']).__name__\n"
        "import urllib.parse\n"
        "host = urllib.parse.urlsplit('http://[::1]:8/').hostname\n"
        "from ipaddress import ip_address\n"
        "print(json.dumps([kind, host, str(ip_address('::1')), type(sys.modules['ipaddress']).__name__,\n"
        "                  urllib.parse.ipaddress.IPv4Address is sys.modules['ipaddress'].IPv4Address]), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", probe, "doctor", "--no-cache"], cwd=ws, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert json.loads(out.stderr.strip().splitlines()[-1]) == ["_Deferred", "::1", "::1", "module", True]
