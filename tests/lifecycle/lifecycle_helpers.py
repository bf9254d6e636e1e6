"""Helpers for `osmosis rollout new` and `osmosis update` tests: CLI, doctor, git, snapshots."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.cli import app


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def doctor_errors(workspace: Path) -> list[dict]:
    result = cli("doctor", workspace, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return [d for d in json.loads(result.stdout)["diagnostics"] if d["severity"] == "error"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def commit_all(cwd: Path, message: str = "edit") -> None:
    git(cwd, "add", "-A")
    git(cwd, "commit", "-qm", message)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` except .git, with its bytes (to prove nothing was written)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def merge_rollouts(workspace: Path) -> None:
    """Make rollouts managed files in the workspace's update policy (`.osmosis/template.json`; the
    default only ever adds to them), so template changes to a rollout are merged three ways; committed."""
    policy = workspace / ".osmosis" / "template.json"
    data = json.loads(policy.read_text(encoding="utf-8"))
    assert "rollouts/*" in data["additive"]
    data["additive"].remove("rollouts/*")
    data["overwriteManaged"].append("rollouts/*")
    policy.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    commit_all(workspace, "merge template changes into rollouts")
