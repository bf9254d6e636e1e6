"""Issue 29, point 3: every `uv run` command the adopted guidance prescribes works in the platform's
own workspace (tests/cases/workspace_template, adopted), for real: uv on Python 3.12, the root
project as the platform ships it (no ruff, no pytest), its rollout as `osmosis rollout init` made it
(no tests of its own, so one is added: the guidance says "when it has tests").

The set of command shapes the guidance holds is compared with the ones run here first: a new
prescription fails this test until it is run here too."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sdk_harness as h

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "lifecycle"))
from lifecycle_helpers import cli, commit_all, git  # noqa: E402

ROLLOUT = "my-rollout"
# each command shape the adopted guidance prescribes -> the concrete command run here and what "works" means
EVAL = f"eval run configs/eval/{ROLLOUT}.toml --dataset-file data/rows.jsonl --rows 0-1"
SHAPES = {
    "uv run osmosis ...": (f"uv run osmosis --json {EVAL}", "confirm"),
    "uv run osmosis --json ...": (f"uv run osmosis --json {EVAL}", "confirm"),
    "uv run --with 'osmosis-ai[eval]' osmosis --json eval run ...": (
        f"uv run --with osmosis-ai[eval] osmosis --json {EVAL}", "confirm"),
    "uv run --project rollouts/<rollout> --with pytest pytest rollouts/<rollout>": (
        f"uv run --project rollouts/{ROLLOUT} --with pytest pytest rollouts/{ROLLOUT}", "ok"),
    "uv run --with ruff ruff format rollouts/<rollout>": (f"uv run --with ruff ruff format rollouts/{ROLLOUT}", "ok"),
    "uv run --with ruff ruff format --check rollouts/<rollout>": (
        f"uv run --with ruff ruff format --check rollouts/{ROLLOUT}", "ran"),
    "uv run --with ruff ruff check rollouts/<rollout>": (f"uv run --with ruff ruff check rollouts/{ROLLOUT}", "ran"),
    # the platform commands configs/AGENTS.md names: here (no login, no origin) each must be refused by the
    # platform CLI itself, with its own error envelope, not by uv or an argument parser
    "uv run osmosis --json eval run": (f"uv run osmosis --json {EVAL}", "confirm"),
    "uv run osmosis dataset upload": ("uv run osmosis --json dataset upload data/rows.jsonl", "refused"),
    "uv run osmosis --json eval submit configs/eval/<rollout>.toml": (
        f"uv run osmosis --json eval submit configs/eval/{ROLLOUT}.toml", "refused"),
    "uv run osmosis --json train submit configs/training/<rollout>.toml": (
        f"uv run osmosis --json train submit configs/training/{ROLLOUT}.toml", "refused"),
    "uv run osmosis --json benchmark submit configs/benchmark/<name>.toml": (
        "uv run osmosis --json benchmark submit configs/benchmark/default.toml", "refused"),
}


def _shapes(ws: Path) -> set[str]:
    files = [ws / "AGENTS.md", ws / "configs" / "AGENTS.md", *sorted((ws / ".agents" / "skills").rglob("*.md"))]
    found = set()
    for path in files:
        for match in re.findall(r"uv run [^`|\n#]*", path.read_text(encoding="utf-8")):
            shape = re.sub(r"rollouts/(my-task|<r>)(?![\w-])", "rollouts/<rollout>", match.strip().rstrip(")"))
            found.add(" ".join(shape.split()))
    return found


@pytest.fixture(scope="module")
def adopted(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("adopted") / "workspace-template"
    shutil.copytree(REPO / "tests" / "cases" / "workspace_template", ws, symlinks=True)
    git(ws, "init", "-q")
    git(ws, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "add", "-A", "-f")
    git(ws, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "the platform's template")
    result = cli("update", ws, "--adopt")
    assert result.exit_code == 0, result.output
    (ws / "data" / "rows.jsonl").write_text("".join(json.dumps({"user_prompt": f"2*{i}", "ground_truth": str(2 * i)}) + "\n"
                                                    for i in range(1, 5)))
    tests = ws / "rollouts" / ROLLOUT / "tests"
    tests.mkdir()
    (tests / "test_layout.py").write_text("from pathlib import Path\n\n\ndef test_entrypoint_is_there():\n"
                                          "    assert (Path(__file__).parents[1] / 'main.py').is_file()\n")
    return ws


def test_the_guidance_prescribes_only_the_shapes_run_here(adopted):
    assert _shapes(adopted) == set(SHAPES)


@pytest.fixture(scope="module")
def runs(adopted) -> dict[str, subprocess.CompletedProcess]:
    """Each concrete command's run in the adopted workspace, made by the first shape that names it. Three
    shapes (`uv run osmosis ...`, its `--json` form and `... --json eval run`) are the one command
    `uv run osmosis --json eval run ...`: it runs once (each run pays the SDK's start-up, litellm's import
    among it) and each shape's test asserts on that run."""
    return {}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_prescribed_uv_run_command_works_there(adopted, runs, shape):
    if __import__("os").environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")
    command, works = SHAPES[shape]
    if command not in runs:
        env = h.uv_environment(h.find_python312())
        env.pop("OPENAI_API_KEY", None)
        argv = [h.uv_binary(), *command.split()[1:]]
        runs[command] = subprocess.run(argv, cwd=adopted, capture_output=True, text=True, timeout=1800, env=env)
    done = runs[command]
    output = done.stdout + done.stderr
    assert "Failed to spawn" not in output and "No such file" not in output, output[-3000:]
    if works == "confirm":  # the platform CLI itself answered: it stops before spending the user's key
        assert done.returncode == 1, output[-3000:]
        # the error envelope goes to stderr; uv's own progress lines come before it
        error = json.loads([line for line in done.stderr.splitlines() if line.startswith("{")][-1])["error"]
        assert error["code"] == "INTERACTIVE_REQUIRED" and "2 rollouts x model" in error["details"]["prompt"], error
    elif works == "refused":  # the platform CLI parsed the command and refused it for want of a login or origin
        assert done.returncode != 0, output[-3000:]
        error = json.loads([line for line in done.stderr.splitlines() if line.startswith("{")][-1])["error"]
        assert error["code"] in ("VALIDATION", "AUTH_REQUIRED", "INTERACTIVE_REQUIRED"), error
    elif works == "ok":
        assert done.returncode == 0, output[-3000:]
    else:  # a linter ran: clean (0) or findings (1), never a missing tool (2 and up)
        assert done.returncode in (0, 1) and re.search(r"formatted|All checks passed|Found \d+ error", output), output[-3000:]


def test_the_benchmark_reference_is_a_config_the_sdk_submits(adopted):
    """The working example stays one: osmosis-ai's own loader (what `benchmark submit` reads) takes it."""
    if __import__("os").environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")
    code = ("from pathlib import Path; from osmosis_ai.platform.cli.benchmark_config import load_benchmark_submit_config as f; "
            "c = f(Path('configs/benchmark/default.toml')); print(c.experiment.benchmark, c.tasks.task_set, len(c.agents))")
    done = subprocess.run([h.uv_binary(), "run", "python", "-c", code], cwd=adopted, capture_output=True, text=True,
                          timeout=1800, env=h.uv_environment(h.find_python312()))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["terminal-bench-2-1", "None", "1"]
