"""The grader corpus judged in-process, on exactly the answers the scripted model sends (inprocess.py):
at least 90% of the gameable graders fail rehearse and no honest one does. test_corpus_sdk.py runs the
same corpus through the real SDK's `eval run`."""

from __future__ import annotations

from corpus.graders import CASES
from corpus_run import assert_held, rows_of, score_of, settings_of
from inprocess import rehearse_in_process


def test_the_probes_catch_the_gameable_corpus_and_pass_the_honest_one():
    results = {}
    for case in CASES:
        judgement = rehearse_in_process(score_of(case), rows_of(case), settings_of(case), name=case.name)
        results[case.name] = (judgement.ok, judgement.headline)
    assert_held(results, "in-process")


def test_the_corpus_is_what_the_issue_asks_for():
    assert sum(not c.honest for c in CASES) >= 25 and sum(c.honest for c in CASES) >= 10
    assert len({c.pattern for c in CASES}) == len(CASES)
