"""Fixtures for doctor/validate tests: a private rule table with test checks, and tiny workspaces.

The real check families are registered too, but these tests swap in their own rules (codes in the
9xx range) so they test the machinery, not another engineer's checks.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import osmosis_workspace.check.families as checks_pkg
import osmosis_workspace.check.settings  # noqa: F401  (registers SET rules before we snapshot)
import osmosis_workspace.check.suppress  # noqa: F401
import osmosis_workspace.check.baseline  # noqa: F401
from osmosis_workspace.check import registry
from osmosis_workspace.cli import app

BAD = re.compile(r"^(.*?)\bbad\b", re.MULTILINE)


@pytest.fixture
def rules(monkeypatch):
    """Empty the rule and check tables (keeping the settings family) for one test; yields a helper
    object whose ``check(family)`` decorator registers a test check. Restored afterwards."""
    saved_rules, saved_checks = dict(registry.RULES), list(checks_pkg.CHECKS)
    registry.RULES.clear()
    registry.RULES.update({c: r for c, r in saved_rules.items() if r.family == "settings"})
    checks_pkg.CHECKS.clear()

    class Table:
        calls: list[str] = []

        def rule(self, code, family, severity="error", fixable=False, name=None):
            return registry.rule(
                code, name or f"test-{code.lower()}", family, severity,
                summary=f"Test rule {code}.", why="Because tests need it.", fix=f"Fix {code}.",
                example=f"example of {code}", fixable=fixable,
            )

        def check(self, family: str) -> Callable:
            def register(fn):
                def wrapped(ws):
                    self.calls.append(family)
                    return fn(ws)

                wrapped.__qualname__ = fn.__qualname__
                checks_pkg.CHECKS.append((family, wrapped))
                return fn

            return register

    table = Table()
    table.calls = []
    try:
        yield table
    finally:
        registry.RULES.clear()
        registry.RULES.update(saved_rules)
        checks_pkg.CHECKS[:] = saved_checks


@pytest.fixture
def standard(rules):
    """Three test rules and checks: LAY901 (error, fixable) for a missing data/ folder; CFG901
    (warning) at each `bad` word in a config, with line and column; SEC901 (info) for a file
    named NOTE in the root."""
    lay = rules.rule("LAY901", "layout", "error", fixable=True)
    cfg = rules.rule("CFG901", "configs", "warning")
    sec = rules.rule("SEC901", "secrets", "info")

    @rules.check("layout")
    def missing_data(ws):
        return [] if (ws.root / "data").is_dir() else [lay.at("data", "the data/ folder is missing")]

    @rules.check("configs")
    def bad_words(ws):
        found = []
        for kind in ("eval", "training"):
            for path in ws.config_files(kind):
                text = ws.read_text(path) or ""
                for number, line in enumerate(text.splitlines(), start=1):
                    col = line.find("bad")
                    if col >= 0:
                        found.append(cfg.at(ws.rel(path), "the word bad", line=number, column=col + 1))
        return found

    @rules.check("secrets")
    def note(ws):
        return [sec.at("NOTE", "a note")] if (ws.root / "NOTE").exists() else []

    return rules


@pytest.fixture
def mini_ws(tmp_path) -> Path:
    """A bare workspace: rollouts/, configs/{eval,training}/, data/, an empty pyproject."""
    root = tmp_path / "ws"
    for rel in ("rollouts", "configs/eval", "configs/training", "data"):
        (root / rel).mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "ws"\n', encoding="utf-8")
    return root


@pytest.fixture
def run():
    """``run(*args, env=None)`` -> click Result of `osmosis ARGS` through typer's runner."""
    def invoke(*args: str, env: dict | None = None):
        return CliRunner().invoke(app, [str(a) for a in args], env=env)

    return invoke


@pytest.fixture
def tool_osmosis(mini_ws):
    """``tool_osmosis(body)`` writes ``[tool.osmosis]`` with ``body`` into mini_ws's pyproject."""
    def write(body: str) -> None:
        (mini_ws / "pyproject.toml").write_text(f'[project]\nname = "ws"\n\n[tool.osmosis]\n{body}\n', encoding="utf-8")

    return write


@pytest.fixture
def three(make_workspace):
    """A workspace of three rollouts: multiply, and copies of it named second and third."""
    ws = make_workspace()
    for name in ("second", "third"):
        shutil.copytree(ws / "rollouts" / "multiply", ws / "rollouts" / name, ignore=shutil.ignore_patterns(".venv"))
    return ws
