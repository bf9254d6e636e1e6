"""Broken rollouts, each made from a fresh rollout the way a user breaks one (broken.py), all rehearsed in
one `osmosis rehearse --jobs 2` run: each fails, for its own reason, named in one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from broken import BREAKS
from conftest import rehearse, synced
from generator.cli import app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def broken_workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("broken") / "ws"
    names = list(BREAKS)
    runner = CliRunner()
    done = runner.invoke(app, ["init", str(ws), "--template", "blank", "--defaults", "--data", f"rollout_name={names[0]}"])
    assert done.exit_code == 0, done.output
    for name in names[1:]:
        done = runner.invoke(app, ["rollout", "new", name, "--template", "blank", "--defaults", "--workspace", str(ws)])
        assert done.exit_code == 0, done.output
    synced(ws)
    for name, broken in BREAKS.items():
        broken.apply(ws, name)
    return ws


@pytest.fixture(scope="module")
def verdicts(broken_workspace):
    code, report, stderr = rehearse(broken_workspace, "--rows", "0-1", "--jobs", "2")
    assert report is not None, stderr[-4000:]
    assert code == 1
    return {r["rollout"]: r for r in report["rollouts"]}


def test_every_broken_rollout_fails_for_its_own_reason(verdicts):
    assert set(verdicts) == set(BREAKS)
    table = []
    for name, broken in BREAKS.items():
        result = verdicts[name]
        headline = result["headline"]
        table.append(f"{name}: {headline}")
        assert not result["ok"], name
        assert "\n" not in headline, headline
        assert all(word in headline.lower() for word in broken.reason), (name, headline)
        first_failing = next(v["name"] for v in result["verdicts"] if v["holds"] is False)
        assert first_failing == broken.verdict, (name, result["verdicts"])
    assert len({r["headline"] for r in verdicts.values()}) == len(BREAKS), "two cases share a reason"
    print("\n" + "\n".join(table))


def test_a_failure_in_user_code_points_at_its_file_and_line(verdicts):
    for name, filename in (("import-error", "workflow.py"), ("workflow-crash", "workflow.py"), ("grader-raises", "grading.py")):
        where = verdicts[name]["failure"]["where"]
        assert where.startswith(f"rollouts/{name}/") and where.split(":")[0].endswith(filename), where
        assert int(where.rsplit(":", 1)[1]) > 0


def test_the_grader_that_raises_fails_only_the_rows_it_raises_on(verdicts):
    rows = verdicts["grader-raises"]["rows"]
    failed = {(r["pass"], r["source_row"]) for r in rows if r["status"] != "success"}
    assert failed == {("gold", 1), ("wrong", 1)}   # the empty answer scores 0 before the label is read
