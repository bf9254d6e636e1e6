"""The grader corpus on the real SDK: one single-answer workspace rendered by our CLI, one rollout per
grader (its scoring.py replaced by the case's module, its data file by the case's rows, its settings in
the root pyproject.toml), all rehearsed in one `osmosis rehearse --jobs 3` run. At least 90% of the
gameable graders fail and no honest one does.

Each rollout costs the SDK a server start, so the suite runs a fixed sample (``SAMPLE``: honest graders
of every label kind, and gameable ones across the probes); OSMOSIS_CORPUS_ALL=1 runs all of them, as the
closing note's figure was taken. test_corpus.py judges every case in-process on the same answers."""

from __future__ import annotations

import json
import os

import pytest
from broken import package
from conftest import rehearse, synced
from corpus.datasets import DATASETS
from corpus.graders import CASES
from corpus_run import ROWS, assert_held
from typer.testing import CliRunner

from osmosis_workspace.cli import app

pytestmark = pytest.mark.slow
# eight rollouts (the suite's time is shared): an honest grader per label kind (words, number with a
# tolerance, list, record) and a gameable one per way of paying what it should not (a hedge over `####`
# lines, a label the answer merely starts with, recall over the whole answer space, a reward cached per
# prompt, which only a rehearsal row identical to its source row can reach)
SAMPLE = ("words-exact", "num-rel-tol", "tags-f1", "record-field-share",
          "num-any-hash-line", "words-startswith-label", "tags-recall-only", "num-cache-per-label")
CHOSEN = tuple(c for c in CASES if os.environ.get("OSMOSIS_CORPUS_ALL") == "1" or c.name in SAMPLE)


@pytest.fixture(scope="module")
def corpus_workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("corpus") / "ws"
    runner = CliRunner()
    first, *rest = [c.name for c in CHOSEN]
    done = runner.invoke(app, ["init", str(ws), "--template", "multiply", "--defaults", "--data", "task=single-answer",
                               "--data", f"rollout_name={first}"])
    assert done.exit_code == 0, done.output
    for name in rest:
        done = runner.invoke(app, ["rollout", "new", name, "--template", "multiply", "--defaults", "--data",
                                   "task=single-answer", "--workspace", str(ws)])
        assert done.exit_code == 0, done.output
    synced(ws, rollouts=True)
    settings = []
    for case in CHOSEN:
        (package(ws, case.name) / "scoring.py").write_text(case.source, encoding="utf-8")
        rows = DATASETS[case.dataset][:ROWS]
        (ws / "data" / f"{case.name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        settings.append(case.settings.strip())
    stochastic = [c.name for c in CHOSEN if "stochastic" in c.settings]
    if stochastic:
        with (ws / "pyproject.toml").open("a", encoding="utf-8") as fh:
            fh.write(f"\n[tool.osmosis.rehearse]\nstochastic = {json.dumps(stochastic)}\n")
    return ws


def test_the_probes_catch_the_gameable_corpus_and_pass_the_honest_one_on_the_real_sdk(corpus_workspace):
    code, report, stderr = rehearse(corpus_workspace, "--rows", f"0-{ROWS - 1}", "--jobs", "3", timeout=3000)
    assert report is not None, stderr[-4000:]
    results = {r["rollout"]: (r["ok"], r["headline"]) for r in report["rollouts"]}
    assert set(results) == {c.name for c in CHOSEN} >= set(SAMPLE)
    for r in report["rollouts"]:   # every row ran on the SDK: a verdict, never a crash of ours
        assert r["verdicts"][0]["name"] == "runs", r
    assert_held(results, "real SDK", CHOSEN)
