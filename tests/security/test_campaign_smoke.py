"""Issue 14's adversarial campaign in small: one case of every category (bench/adversarial/campaign.py
--quick --per-category 1), run on the installed CLI in subprocesses, must show no traceback, no hang,
no write outside the target, no code run from a template or a `.git`, no lost user data, no secret
printed and (where a case asks) no raw control character in the output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "bench" / "adversarial" / "campaign.py"
MUST_BE_ZERO = ("tracebacks", "hangs", "outside_writes", "code_ran", "data_lost", "secrets_printed", "raw_output",
                "over_memory")


def test_one_case_of_every_category_holds(tmp_path):
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(CAMPAIGN), "--quick", "--per-category", "1", "--jobs", "2",
                           "--timeout", "40", "--workdir", str(tmp_path / "work"), "--json", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=480)
    assert out.is_file(), done.stdout + done.stderr
    results = json.loads(out.read_text())["results"]
    ran = [r for r in results if not r["skipped"]]
    categories = {r["category"] for r in results}
    assert len(categories) >= 19 and len(ran) >= 19, (categories, done.stdout)
    assert not [r["id"] for r in results if r["harness_error"]], done.stdout
    bad = {col: [r["id"] for r in ran if r[col]] for col in MUST_BE_ZERO}
    assert bad == {col: [] for col in MUST_BE_ZERO}, done.stdout
