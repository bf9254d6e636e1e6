"""Helpers for the rollout-template tests: a CLI runner, doctor as data, loading rendered modules."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.cli import app

# The templates these tests own (multiply, with its integrations, is tested with osmosis init's own
# tests and on the real SDK in tests/sdk_real).
TEMPLATES = ("calculator-remote", "llm-judge", "blank", "code")
# The rollout each template names by default (blank's default is a neutral name).
ROLLOUT = {t: ("my-rollout" if t == "blank" else t) for t in TEMPLATES}


def cli(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def doctor(workspace: Path) -> dict:
    """`osmosis doctor --format json` on ``workspace``, parsed."""
    result = cli("doctor", workspace, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def load_rollout_module(path: Path, monkeypatch):
    """Import a rendered rollout module the way the platform does: its folder first on sys.path.

    Sibling modules (grading, tools, judge, rewards) share names across templates, so any cached
    copy is dropped first and afterwards.
    """
    siblings = {p.stem for p in path.parent.glob("*.py")}
    for name in siblings:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(path.parent))
    spec = importlib.util.spec_from_file_location(f"rollout_{path.parent.name.replace('-', '_')}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def concrete_subclasses(module, base) -> list[type]:
    """Classes defined in ``module`` that subclass ``base`` and are not abstract (what the platform looks for)."""
    return [
        obj for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, base) and obj is not base
        and obj.__module__ == module.__name__ and not getattr(obj, "__abstractmethods__", None)
    ]


def first_row(workspace: Path, rollout: str) -> dict:
    line = (workspace / "data" / f"{rollout}.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return json.loads(line)
