"""Issue 20, point 7: `python -m pytest` at a fresh workspace's root needs only what the workspace's
dev group declares (the README: `uv sync`, or `pip install --group dev` without the SDK).

Read statically, for every bundled template: the modules the rollout's tests import at load time,
followed through the rollout's own package, must be the standard library, the rollout's own code, or
a distribution of the root `[dependency-groups] dev`. calculator-remote's policy tests use httpx,
which before only arrived with osmosis-ai."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES = [("blank", ()), ("calculator-remote", ()), ("llm-judge", ()), ("multiply", ()),
         ("multiply", ("integration=openai-agents",)), ("multiply", ("task=single-answer",)), ("code", ())]


def _module_files(root: Path, dotted: str) -> set[Path]:
    """The files importing ``dotted`` (under ``root``) loads: each package's __init__ and the module."""
    parts, files = dotted.split("."), set()
    for i in range(1, len(parts) + 1):
        target = root.joinpath(*parts[:i])
        files |= {p for p in (target.with_suffix(".py"), target / "__init__.py") if p.is_file()}
    return files


def _imports(path: Path, rollout: Path, own: set[str]) -> tuple[set[str], set[Path]]:
    """Third-party candidates (top-level names) and the rollout's own files ``path`` loads at import time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names, local = set(), set()
    for node in tree.body:  # module level only: what importing the file runs
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                local |= _module_files(rollout, alias.name) if top in own else set()
                names |= set() if top in own else {top}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the file's own package
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                dotted = ".".join(base.relative_to(rollout).parts + tuple((node.module or "").split(".")))
                dotted = dotted.strip(".")
            else:
                dotted = node.module or ""
            top = dotted.split(".")[0]
            if top in own:
                local |= _module_files(rollout, dotted)
                local |= set().union(*(_module_files(rollout, f"{dotted}.{a.name}") for a in node.names))
            elif dotted:
                names.add(top)
    return names, local


def _needs(rollout: Path) -> set[str]:
    own = {p.name for p in rollout.iterdir() if p.is_dir() and (p / "__init__.py").is_file()} | {"tests"}
    todo = list(rollout.rglob("test_*.py"))
    seen: set[Path] = set()
    needs: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        names, local = _imports(path, rollout, own)
        needs |= names - set(sys.stdlib_module_names) - {"__future__"}
        todo += list(local)
    return needs


@pytest.mark.parametrize("template, data", CASES, ids=lambda v: v if isinstance(v, str) else "-".join(v) or "default")
def test_the_dev_group_covers_what_the_tests_import(tmp_path, template, data):
    ws = tmp_path / "ws"
    args = ["init", str(ws), "--template", template, "--defaults", "--no-git"]
    for answer in data:
        args += ["--data", answer]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    dev = tomllib.loads((ws / "pyproject.toml").read_text())["dependency-groups"]["dev"]
    declared = {re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].replace("-", "_").lower() for req in dev}
    [rollout] = [p for p in (ws / "rollouts").iterdir() if p.is_dir()]
    needs = _needs(rollout)
    assert "pytest" in declared and needs - declared == set(), (template, needs, declared)
    if template == "calculator-remote":
        assert "httpx" in needs  # the case this guards: its policy tests fake the endpoint with httpx
