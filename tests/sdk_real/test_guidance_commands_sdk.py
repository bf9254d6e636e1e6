"""Issue 38, point 1, the other half of tests/skills/test_guidance_commands.py: the command shapes of
the guidance that reach the platform's CLI (osmosis-ai) or uv run here, for real, against a fresh
workspace of each bundled template after the `uv sync` the guidance asks for first.

Without a login, a key or an `origin`, each paid or networked command must be refused by the
platform CLI itself, in its own words (an error envelope under `--json`), never by uv or an argument
parser; `eval run` must stop at its question (what it would spend). Plain `osmosis ...` in the
guidance is the platform's CLI there (AGENTS.md: `uv run osmosis ...` when `osmosis` is the checker),
so it runs as the workspace's `.venv/bin/osmosis`. A shape whose outcome does not depend on the
template (it names none of the workspace's files, or it is the platform's own command) runs once, in
the first: each run costs the SDK's start-up, and the suite's time is shared."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import sdk_harness as h

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "skills"))
import test_guidance_commands as guide  # noqa: E402

TEMPLATES = guide.TEMPLATES
REFUSALS = {"AUTH_REQUIRED", "VALIDATION", "INTERACTIVE_REQUIRED", "NOT_FOUND"}


def _names_files(line: str) -> bool:
    """Whether the line's outcome depends on the template: it names the workspace's files and runs them
    (tests, ruff). The platform's own commands (`uv run osmosis ...`) answer alike in every workspace
    (a refusal without a key, the question before a paid run), so they run once, in the first."""
    return bool(re.search(r"\b(configs|data|rollouts)/", line)) and not re.match(r"(uv run )?osmosis\b", line)


def _cases() -> list[tuple[str, str]]:
    """(template, shape) to run: shapes whose concrete lines are the same command with the same
    expectation (`rollouts/<rollout>` and `rollouts/my-task` both become the rendered rollout) run once."""
    out, seen = [], set()
    for shape, expected in sorted(guide.KNOWN.items()):
        if not expected.startswith("sdk:"):
            continue
        line = guide.concrete(shape)
        for template in TEMPLATES if _names_files(line) else TEMPLATES[:1]:
            if (template, line, expected) not in seen:
                seen.add((template, line, expected))
                out.append((template, shape))
    return out


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> dict[str, Path]:
    """A fresh workspace per template (`osmosis init`, git, no remote), its root `uv sync`ed."""
    if os.environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")
    base = tmp_path_factory.mktemp("guidance-sdk")
    out = {}
    for template in TEMPLATES:
        ws = base / template
        h.osmosis("init", ws, "--template", template, "--defaults", "--data", f"rollout_name={guide.ROLLOUT}")
        done = subprocess.run([h.uv_binary(), "sync"], cwd=ws, capture_output=True, text=True, timeout=1800,
                              env=h.uv_environment(h.find_python312()))
        assert done.returncode == 0, done.stderr[-3000:]
        h.seed_bytecode(ws / ".venv")   # the SDK's bytecode from the store (sdk_harness), not compiled again
        out[template] = ws
    return out


def _environment(home: Path) -> dict[str, str]:
    """No key, no login: a home of its own, and none of the model keys of this machine."""
    env = h.uv_environment(h.find_python312())
    for name in list(env):
        if name.endswith("_API_KEY") or name.startswith("OSMOSIS_"):
            env.pop(name)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               LITELLM_LOCAL_MODEL_COST_MAP="True", GIT_TERMINAL_PROMPT="0")
    return env


def _rows(ws: Path, line: str) -> tuple[int, int] | None:
    """(the highest row `--rows` asks for, the rows the file has), for a `--rows A-B` line."""
    rows = re.search(r"--rows (\S+)", line)
    data = re.search(r"--dataset-file (\S+)", line)
    if not rows or not data:
        return None
    highest = max(int(n) for n in re.findall(r"\d+", rows.group(1)))
    return highest, sum(1 for row in (ws / data.group(1)).read_text(encoding="utf-8").splitlines() if row.strip())


def _envelope(stderr: str) -> dict:
    lines = [line for line in stderr.splitlines() if line.startswith("{")]
    assert lines, stderr[-3000:]
    return json.loads(lines[-1])["error"]


@pytest.mark.parametrize("template, shape", _cases())
def test_each_platform_and_uv_command_the_guidance_names_runs(synced, template, shape, tmp_path):
    ws = synced[template]
    line = guide.concrete(shape)
    words = shlex.split(line)
    argv = [h.uv_binary(), *words[1:]] if words[0] == "uv" else [str(ws / ".venv" / "bin" / "osmosis"), *words[1:]]
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(argv, cwd=ws, capture_output=True, text=True, timeout=900, env=_environment(home),
                          stdin=subprocess.DEVNULL)
    output = done.stdout + done.stderr
    assert "Failed to spawn" not in output and "No such option" not in output and "No such command" not in output, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    expected = guide.KNOWN[shape].split(":", 1)[1]
    json_mode = "--json" in words
    if expected == "ok":
        assert done.returncode == 0, output[-3000:]
    elif expected == "ran":  # a linter ran: clean (0) or findings (1), never a missing tool
        assert done.returncode in (0, 1) and re.search(r"formatted|All checks passed|Found \d+ error", output), output[-3000:]
    elif expected == "confirm":  # `eval run` stops before spending the user's key, and says what it would run
        assert done.returncode != 0, output[-3000:]
        asked = _rows(ws, line)
        if asked and asked[0] >= asked[1]:  # more rows than the file has: the SDK names the row (the skill says so)
            assert "VALIDATION" in output or "row" in output.lower(), output[-3000:]
        elif json_mode:
            error = _envelope(done.stderr)
            assert error["code"] == "INTERACTIVE_REQUIRED" and "rollouts x model" in error["details"]["prompt"], error
        else:
            assert "--yes" in output, output[-3000:]
    else:  # refused by the platform CLI itself: no login, no key, no origin
        assert done.returncode != 0 and "Usage:" not in output, output[-3000:]
        if json_mode:
            assert _envelope(done.stderr)["code"] in REFUSALS, output[-3000:]
        else:
            assert output.strip(), "refused without a word"
