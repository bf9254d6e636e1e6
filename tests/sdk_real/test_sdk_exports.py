"""generator/osmosis_workspace/core/sdk_exports.json is what bench/sdk_exports.py reads from the real wheel: the entry
for the release installed in the test environment is regenerated and must be the committed one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import sdk_harness as h

ROOT = Path(__file__).resolve().parents[2]


def test_committed_export_table_matches_the_installed_release(full_sdk_env, tmp_path):
    python = str(full_sdk_env.python)
    where = subprocess.run([python, "-c", "import osmosis_ai, os; print(os.path.dirname(osmosis_ai.__file__))"],
                           check=True, capture_output=True, text=True, env=h.sdk_child_environ()).stdout.strip()
    out = tmp_path / "exports.json"
    subprocess.run([python, str(ROOT / "bench" / "sdk_exports.py"), where, "--out", str(out)], check=True, capture_output=True,
                   env=h.sdk_child_environ())
    [(version, table)] = json.loads(out.read_text())["releases"].items()
    committed = json.loads((ROOT / "generator" / "osmosis_workspace" / "core" / "sdk_exports.json").read_text())["releases"]
    assert version in committed, f"osmosis-ai {version} is installed but has no table: run bench/sdk_exports.py"
    assert committed[version] == table
