"""The package's folders are its architecture: imports run one way between the wings, with no circle.

cli -> (scaffold | lsp -> check | rehearse) -> (readers | report) -> core. docs/ARCHITECTURE.md draws the same picture.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "osmosis_workspace"

# wing -> the wings it may import (besides itself)
ALLOWED = {
    "core": set(),
    "readers": {"core"},
    "report": {"core"},
    "check": {"core", "readers", "report"},
    "scaffold": {"core", "readers"},
    # the one wing that runs workspace code (`osmosis rehearse`); doctor and validate never reach it
    "rehearse": {"core", "readers"},
    # `osmosis lsp`: doctor's findings in an editor; the one wing that imports pygls
    "lsp": {"core", "readers", "report", "check"},
    "cli": {"core", "readers", "report", "check", "scaffold", "rehearse", "lsp"},
}
MAX_LINES = 450  # "about 400": a module past this is two modules


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "_bundled" in path.parts:
            continue
        parts = ["osmosis_workspace", *path.relative_to(PACKAGE).with_suffix("").parts]  # generator/ is the source root
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("osmosis_workspace"):
                for alias in node.names:
                    child = f"{node.module}.{alias.name}"
                    edges[name].add(child if child in modules else node.module)
            elif isinstance(node, ast.Import):
                edges[name].update(a.name for a in node.names if a.name.startswith("osmosis_workspace"))
    return edges


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else None


def test_every_module_lives_in_a_wing():
    loose = [m for m in _modules() if m.count(".") >= 1 and _wing(m) is None and m not in ("osmosis_workspace.__main__", "osmosis_workspace.entry")]
    assert loose == [], f"modules outside core/readers/report/check/scaffold/rehearse/lsp/cli: {loose}"


def test_imports_run_one_way_between_wings():
    modules = _modules()
    wrong = sorted(
        f"{src} -> {dst}"
        for src, targets in _imports(modules).items()
        for dst in targets
        if _wing(src) and _wing(dst) and _wing(dst) != _wing(src) and _wing(dst) not in ALLOWED[_wing(src)]
    )
    assert wrong == [], wrong


def test_no_import_circle():
    modules = _modules()
    edges = _imports(modules)
    # a package's __init__ importing its own submodules is how Python loads packages, not a circle
    graph = {m: {t for t in edges.get(m, ()) if t in modules and not t.startswith(m + ".")} for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    assert circles == [], circles


def test_no_module_is_two_modules():
    long = {m: n for m, p in _modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_only_the_scaffold_wing_imports_copier():
    importers = sorted(
        name
        for name, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "copier")
        or (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "copier" for a in node.names))
    )
    assert importers and all(_wing(m) == "scaffold" for m in importers), importers


def test_doctor_and_validate_never_reach_the_wing_that_runs_code():
    """Only `cli/rehearse.py` imports the rehearse wing: the static commands cannot run a workspace."""
    importers = sorted(src for src, targets in _imports(_modules()).items()
                       if any(t.startswith("osmosis_workspace.rehearse") for t in targets) and not src.startswith("osmosis_workspace.rehearse"))
    assert importers == ["osmosis_workspace.cli.rehearse"], importers


def test_only_the_lsp_wing_imports_pygls_and_only_cli_lsp_imports_it():
    """pygls and lsprotocol are an optional extra: doctor and validate must run without them."""
    modules = _modules()
    importers = sorted(
        name
        for name, path in modules.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("pygls", "lsprotocol"))
        or (isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("pygls", "lsprotocol") for a in node.names))
    )
    assert importers and all(_wing(m) == "lsp" or m == "osmosis_workspace.cli.lsp" for m in importers), importers
    wing = sorted(src for src, targets in _imports(modules).items()
                  if any(t.startswith("osmosis_workspace.lsp") for t in targets) and not src.startswith("osmosis_workspace.lsp"))
    assert wing == ["osmosis_workspace.cli.lsp"], wing
