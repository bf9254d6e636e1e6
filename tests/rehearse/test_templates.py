"""Every bundled template and integration rehearses green on the real SDK (Harbor: preflight only, with
the sandbox reason), and so does a workspace laid out like the platform's own template."""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sdk_harness as h
from conftest import rehearse

from osmosis_workspace.rehearse.probes import TABLE

pytestmark = pytest.mark.slow
CASES = Path(__file__).resolve().parents[1] / "cases" / "workspace_template"


def test_every_bundled_template_rehearses_green(synced_scenarios):
    # Two rehearsals at a time: each is mostly one process importing its SDK and framework.
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(zip([s.id for s in h.SCENARIOS],
                        pool.map(lambda s: rehearse(synced_scenarios[s.id], "--rows", "0-2"), h.SCENARIOS)))
    table = {}
    for scenario in h.SCENARIOS:
        code, report, stderr = done[scenario.id]
        assert report is not None, f"{scenario.id}: no JSON (exit {code})\n{stderr[-3000:]}"
        [result] = report["rollouts"]
        table[scenario.id] = (code, result["headline"])
        assert code == 0 and result["ok"], f"{scenario.id}: {result}"
        if scenario.eval_run:
            holds = {v["name"]: v["holds"] for v in result["verdicts"]}
            # every verdict and probe of the table, in its order; preflight shows only when it fails (or for Harbor)
            assert list(holds) == [e.name for e in TABLE if e.name != "preflight"], result
            # No false alarm: every verdict and every probe built for the template's rows holds.
            # (a probe the rows cannot build, or one only reported, shows "-": never a failure)
            optional = ("echo", "glued", "partly right", "near miss", "invariance", "code")
            assert {n: h for n, h in holds.items() if h is not True and n not in optional} == {}, (scenario.id, result["verdicts"])
            assert all(holds[n] is not False for n in optional), (scenario.id, result["verdicts"])
            base = [r for r in result["rows"] if r["pass"] in ("gold", "wrong", "empty")]
            assert len(base) == 9 and len(result["rows"]) > 9
            assert {r["status"] for r in result["rows"]} == {"success"}, result["rows"]
            assert result["model_calls"]["policy"] >= len(result["rows"])
            assert result["means"] == {"gold": 1.0, "wrong": 0.0, "empty": 0.0}, (scenario.id, result["means"])
        else:
            assert result["headline"].startswith("preflight only: Harbor") and "rows" not in result
            [preflight] = [v for v in result["verdicts"] if v["name"] == "preflight"]
            assert preflight["holds"] is True and "HarborBackend built" in preflight["detail"], preflight
    print("\n" + "\n".join(f"{sid}: exit {code}: {headline}" for sid, (code, headline) in table.items()))
    # llm-judge: the judge's calls reached the scripted model (gold and wrong are judged; an empty answer
    # scores 0 unjudged), and its own SCORE line was answered: its word-overlap fallback would have given
    # the wrong answers a part score, and the means above would not be 1, 0, 0. Every probe's answer
    # (none is empty) is judged too.
    [judge] = done["llm-judge"][1]["rollouts"]
    probes = sum(1 for v in judge["verdicts"] for f in v.get("figures", []) if f["sent"].strip())
    assert judge["model_calls"]["judge"] == 6 + probes, judge["model_calls"]
    assert any("plumbing, not its judgement" in n for n in judge["notes"])
    assert (synced_scenarios["llm-judge"] / ".osmosis" / "evals" / "rehearse" / "judge" / "index.jsonl").is_file()


def test_a_workspace_laid_out_like_the_platforms_template_rehearses_green(synced_scenarios, tmp_path):
    """tests/cases/workspace_template (the platform's layout: a plain root project, a rollout that is
    its own project, a config naming a platform dataset) with its placeholder rollout filled in by a
    working one, and the rows given with --dataset-file as the config names no local file."""
    ws = tmp_path / "platform-ws"
    shutil.copytree(CASES, ws)
    source = synced_scenarios["multiply-openai-agents"]
    shutil.rmtree(ws / "rollouts" / "my-rollout")
    shutil.copytree(source / "rollouts" / "mul-openai", ws / "rollouts" / "my-rollout",
                    ignore=shutil.ignore_patterns(".venv", "__pycache__"))
    # The platform's template is a git repository with no lock at the root: a plain `uv sync` makes its .venv.
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    done = subprocess.run([h.uv_binary(), "sync"], cwd=ws, capture_output=True, text=True, timeout=900,
                          env={**env, "UV_PYTHON": h.find_python312(), "UV_PYTHON_DOWNLOADS": "never"})
    assert done.returncode == 0, done.stderr[-3000:]
    h.seed_bytecode(ws / ".venv")   # (the rollout's environment is left for rehearse to make)
    code, report, stderr = rehearse(ws, "my-rollout", "--dataset-file", str(source / "data" / "mul-openai.jsonl"),
                                    "--rows", "0-2")
    assert report is not None, stderr[-3000:]
    [result] = report["rollouts"]
    assert code == 0 and result["ok"], result
    assert result["config"] == "configs/eval/my-rollout.toml"


def test_a_harbor_rollout_the_sdk_rejects_fails_its_preflight(synced_scenarios):
    """HarborBackend validates its arguments when the entrypoint is imported, as eval run and submit import
    it: a queue depth of 0 is refused there, before any sandbox, and rehearse names the line."""
    harbor = next(s for s in h.SCENARIOS if not s.eval_run)
    ws = synced_scenarios[harbor.id]
    [main] = list((ws / "rollouts").glob("*/main.py"))
    text = main.read_text(encoding="utf-8")
    anchor = "    orchestrator=TrialQueue(n_concurrent=N_CONCURRENT),\n"
    assert anchor in text, "the Harbor template changed"
    main.write_text(text.replace(anchor, anchor + "    max_queue_depth=0,\n"), encoding="utf-8")
    try:
        code, report, stderr = rehearse(ws, "--rows", "0")
    finally:
        main.write_text(text, encoding="utf-8")
    assert report is not None, stderr[-3000:]
    [result] = report["rollouts"]
    assert code == 1 and not result["ok"]
    line = text[: text.index(anchor)].count("\n")   # the `HarborBackend(` call opens on the line before
    assert result["headline"].startswith("preflight failed: the SDK's import of the entrypoint failed: ValueError: max_queue_depth")
    assert result["headline"].endswith(f"at rollouts/{main.parent.name}/main.py:{line}"), result["headline"]
