"""Helpers for the integration tests: run this checkout's `osmosis` as a real program, and break a
workspace in a known way. (Not named conftest: tests import it.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "osmosis tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "osmosis tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


def checkout_env(extra_path: Path | None = None) -> dict[str, str]:
    """The environment for child processes: this checkout importable, a git identity, no colour."""
    env = {**os.environ, **GIT_IDENTITY, "NO_COLOR": "1"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    if extra_path is not None:
        env["PATH"] = f"{extra_path}{os.pathsep}{env['PATH']}"
    return env


def osmosis(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd, env=checkout_env(),
                          capture_output=True, text=True)


def rollout_name(ws: Path) -> str:
    (name,) = [p.name for p in (ws / "rollouts").iterdir() if p.is_dir()]
    return name


def break_eval_config(ws: Path) -> Path:
    """Give the eval config a key the contract forbids (unknown keys are errors); returns the file."""
    config = ws / "configs" / "eval" / f"{rollout_name(ws)}.toml"
    text = config.read_text(encoding="utf-8")
    assert "[evaluation]" in text
    config.write_text(text.replace("[evaluation]", "[evaluation]\nlimitt = 3", 1), encoding="utf-8")
    return config


def doctor_codes(ws: Path) -> set[str]:
    """The codes `osmosis doctor --format json` reports, straight from the tool."""
    proc = osmosis("doctor", ".", "--format", "json", cwd=ws)
    assert proc.returncode in (0, 1), proc.stderr
    return {d["code"] for d in json.loads(proc.stdout)["diagnostics"]}
