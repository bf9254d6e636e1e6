"""Gameable graders on the real SDK: one multiply workspace, one rollout per grader (gameable.py), all
rehearsed in one `osmosis rehearse --jobs 2` run: the base verdicts hold (gold, wrong and empty cannot
tell these graders from the template's), and each fails rehearse with its probe named."""

from __future__ import annotations

import pytest
from conftest import rehearse, synced
from gameable import GAMEABLE
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.rehearse.probes import PROBES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    ws = tmp_path_factory.mktemp("gameable") / "ws"
    names = list(GAMEABLE)
    runner = CliRunner()
    done = runner.invoke(app, ["init", str(ws), "--template", "multiply", "--defaults", "--data", f"rollout_name={names[0]}"])
    assert done.exit_code == 0, done.output
    for name in names[1:]:
        done = runner.invoke(app, ["rollout", "new", name, "--template", "multiply", "--defaults", "--workspace", str(ws)])
        assert done.exit_code == 0, done.output
    synced(ws, rollouts=True)
    for name, gameable in GAMEABLE.items():
        gameable.apply(ws, name)
    code, report, stderr = rehearse(ws, "--rows", "0-1", "--jobs", "2")
    assert report is not None, stderr[-4000:]
    return code, {r["rollout"]: r for r in report["rollouts"]}


def test_each_gameable_grader_fails_rehearse_with_its_probe_named(probed):
    code, results = probed
    assert code == 1 and set(results) == set(GAMEABLE)
    table = []
    for name, gameable in GAMEABLE.items():
        result = results[name]
        holds = {v["name"]: v["holds"] for v in result["verdicts"]}
        table.append(f"{name}: {result['headline']}")
        assert not result["ok"], name
        assert holds["runs"] and holds["gold rewarded"] and holds["discriminates"], (name, result["verdicts"])
        failing = [v["name"] for v in result["verdicts"] if v["holds"] is False]
        assert gameable.probe in failing, (name, result["headline"], failing)   # (another probe may fail first)
        assert result["headline"].startswith(tuple(f"{p}: row " for p in failing)), (name, result["headline"])
        assert "\n" not in result["headline"] and ("hint: " in result["headline"] or "the grader raised on " in result["headline"])
    print("\n" + "\n".join(table))


def test_the_crash_is_on_the_non_ascii_answer_and_the_figures_say_so(probed):
    [malformed] = [v for v in probed[1]["ascii-only"]["verdicts"] if v["name"] == "malformed"]
    failed = {f["kind"] for f in malformed["figures"] if not f["holds"]}
    assert failed == {"non-ASCII"}, malformed["figures"]
    assert "(non-ASCII): the grader raised on " in malformed["detail"] and "scoring.py:" in malformed["detail"]


def test_every_probe_reports_its_figures_in_json(probed):
    noisy = probed[1]["noisy"]
    for verdict in noisy["verdicts"]:
        if verdict["name"] in PROBES and verdict["name"] not in ("partly right", "code"):   # a number has no parts
            assert verdict["figures"] and {"row", "source_row", "reward", "gold", "wrong", "sent", "rule"} <= set(verdict["figures"][0])
