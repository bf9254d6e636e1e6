"""The benchmark harness runs end to end in a tiny mode and reports every row (no timing asserts)."""

from __future__ import annotations

import json
import subprocess
import sys

from integration_helpers import REPO, checkout_env

GROUPS = ("1", "2", "3", "4", "5")


def test_bench_quick_tiny_has_every_row(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick", "--runs", "1", "--warmup", "0",
         "--scales", "1,3", "--dataset-mb", "1", "--parquet-rows", "2000", "--json", str(out)],
        cwd=tmp_path, env=checkout_env(), capture_output=True, text=True, timeout=600,
    )
    # 0 = every target met, 1 = a target missed (timings in a tiny run mean little); 2 = a row broke
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    table = proc.stdout
    for needle in ("osmosis doctor (fresh multiply workspace)", "check-jsonschema",
                   "osmosis doctor, 1 rollout", "osmosis doctor, 3 rollouts",
                   "osmosis init --template multiply", "copier run_copy",
                   "osmosis dataset validate bench-1mb.jsonl", "jq -c", "osmosis dataset validate bench-2000.parquet",
                   "pyarrow.parquet.read_schema",
                   "osmosis --help", "osmosis validate configs/eval/", "python -c pass"):
        assert needle in table, f"{needle!r} missing from:\n{table}"
    assert "ERROR" not in table

    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["runs"] == 1 and data["quick"] is True
    rows = data["rows"]
    assert {r["group"].split(" ", 1)[0] for r in rows} == set(GROUPS)
    for r in rows:
        assert r["error"] is None, r
        assert r["subject"]["median_s"] > 0 and r["reference"]["median_s"] > 0, r
        assert r["subject"]["peak_rss_mib"] > 0 and r["reference"]["peak_rss_mib"] > 0, r
        assert r["ratio"] > 0
        # each table line shows its row's label and the verdict the JSON records
        line = next(line for line in table.splitlines() if r["label"] in line)
        assert line.rstrip().endswith(r["verdict"])
    assert sum(r["group"].startswith("3") for r in rows) == 2  # one JSONL size + the parquet file


def test_bench_rejects_bad_arguments(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "run.py"), "--scales", "10,100"],
                          cwd=tmp_path, env=checkout_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--scales must start with 1" in proc.stderr
    assert "Traceback" not in proc.stderr
