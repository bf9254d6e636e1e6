"""Generate generator/osmosis_workspace/core/sdk_exports.json from an installed osmosis-ai, read statically.

    python bench/sdk_exports.py SITE_PACKAGES/osmosis_ai [--out generator/osmosis_workspace/core/sdk_exports.json]

Nothing is imported: every module of the wheel is parsed with ast. Run it with Python 3.12 or newer
(the SDK's source uses 3.12 syntax), e.g. the interpreter of the venv holding the SDK.
For each release it records

* ``modules``: every module's importable names (one space-separated string per module), i.e. what ``from M import X`` finds at run time:
  module-level bindings (imports, defs, classes, assignments, also inside if/try/with; never the
  body of ``if TYPE_CHECKING:``), names of ``from M2 import *`` (M2's ``__all__`` or public names),
  the keys of a lazy ``_EXPORTS`` table served by a module ``__getattr__``, and the submodules of a
  package. A module whose ``__getattr__`` is not such a table is "open" (any name may resolve).
* ``origins``: for the ``osmosis_ai.rollout`` modules, where each re-exported public name is
  defined (``"mod:Name"``), so a call through any import path finds the definition's signature.
* ``signatures``: the parameters of each function and class (its own ``__init__``) defined in
  ``osmosis_ai.rollout``: positional names, required ones, keyword-only names, required ones,
  whether ``*args`` / ``**kwargs`` are taken.

The file holds one entry per release; running this for another release adds or replaces that
release's entry and leaves the others. Regenerate after a new osmosis-ai release:

    python3.12 -m venv /tmp/sdk && /tmp/sdk/bin/pip install osmosis-ai==X.Y.Z
    /tmp/sdk/bin/python bench/sdk_exports.py /tmp/sdk/lib/python3.12/site-packages/osmosis_ai
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

PACKAGE = "osmosis_ai"
SIGNATURE_PREFIX = "osmosis_ai.rollout"
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "generator" / "osmosis_workspace" / "core" / "sdk_exports.json"


def _version(package_dir: Path) -> str:
    for info in package_dir.parent.glob("osmosis_ai-*.dist-info"):
        for line in (info / "METADATA").read_text(encoding="utf-8").splitlines():
            if line.startswith("Version: "):
                return line.split(": ", 1)[1].strip()
    raise SystemExit(f"{package_dir}: no osmosis_ai-*.dist-info beside it")


def _modules(package_dir: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        rel = path.relative_to(package_dir.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


class _Reader:
    def __init__(self, modules: dict[str, Path]):
        self.paths = modules
        self.trees = {m: ast.parse(p.read_bytes(), filename=str(p)) for m, p in modules.items()}
        self.names: dict[str, dict[str, str]] = {}
        self.open: set[str] = set()

    def names_of(self, module: str, _stack: tuple = ()) -> dict[str, str]:
        if module in self.names:
            return self.names[module]
        if module in _stack or module not in self.trees:
            return {}
        is_package = self.paths[module].name == "__init__.py"
        found: dict[str, str] = {}
        self._body(module, is_package, self.trees[module].body, found, (*_stack, module))
        if is_package:
            for sub in self.trees:
                if sub.startswith(module + ".") and "." not in sub[len(module) + 1:]:
                    found.setdefault(sub.rsplit(".", 1)[1], "")
        self.names[module] = found
        return found

    def _body(self, module: str, is_package: bool, body: list[ast.stmt], found: dict[str, str], stack: tuple) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found[stmt.name] = ""
                if stmt.name == "__getattr__":
                    lazy = self._lazy_table(self.trees[module])
                    if lazy is None:
                        self.open.add(module)
                    else:
                        found.update(lazy)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    found[alias.asname or alias.name.split(".")[0]] = ""
            elif isinstance(stmt, ast.ImportFrom):
                source = _absolute(module, is_package, stmt)
                for alias in stmt.names:
                    if alias.name == "*":
                        star = self.names_of(source, stack)
                        public = self._all(source) or [n for n in star if not n.startswith("_")]
                        found.update({n: star.get(n) or f"{source}:{n}" for n in public})
                    else:
                        inside = source.split(".")[0] == PACKAGE
                        found[alias.asname or alias.name] = f"{source}:{alias.name}" if inside else ""
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    for node in ast.walk(target):
                        if isinstance(node, ast.Name):
                            found[node.id] = ""
            elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and isinstance(stmt.target, ast.Name):
                if not isinstance(stmt, ast.AnnAssign) or stmt.value is not None:
                    found[stmt.target.id] = ""
            elif isinstance(stmt, ast.If):
                if not _is_type_checking(stmt.test):
                    self._body(module, is_package, stmt.body, found, stack)
                self._body(module, is_package, stmt.orelse, found, stack)
            elif isinstance(stmt, ast.Try):
                for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                    self._body(module, is_package, part, found, stack)
            elif isinstance(stmt, ast.With | ast.AsyncWith):
                self._body(module, is_package, stmt.body, found, stack)

    def _all(self, module: str) -> list[str]:
        for stmt in self.trees.get(module, ast.Module(body=[])).body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
                if isinstance(stmt.value, ast.List | ast.Tuple):
                    return [e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return []

    @staticmethod
    def _lazy_table(tree: ast.Module) -> dict[str, str] | None:
        """The ``{"Name": ("module", "attr")}`` table a lazy ``__getattr__`` serves, if there is one."""
        for stmt in tree.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
            value = getattr(stmt, "value", None)
            if isinstance(target, ast.Name) and target.id == "_EXPORTS" and isinstance(value, ast.Dict):
                table = {}
                for key, item in zip(value.keys, value.values):
                    if isinstance(key, ast.Constant) and isinstance(item, ast.Tuple) and len(item.elts) == 2:
                        mod, attr = (e.value if isinstance(e, ast.Constant) else None for e in item.elts)
                        table[key.value] = f"{mod}:{attr}"
                return table
        return None


def _signature(args: ast.arguments, skip_self: bool) -> dict:
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    defaults_from = len(positional) - len(args.defaults)
    required = [n for i, n in enumerate(positional) if i < defaults_from]
    if skip_self and positional:
        positional, required = positional[1:], [n for n in required if n != positional[0]]
    kwonly = [a.arg for a in args.kwonlyargs]
    kw_required = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    sig: dict = {"pos": positional, "req": required, "kw": kwonly, "kwreq": kw_required}
    if args.vararg:
        sig["varargs"] = True
    if args.kwarg:
        sig["varkw"] = True
    posonly = [a.arg for a in args.posonlyargs]
    if posonly:
        sig["posonly"] = posonly[1:] if skip_self else posonly
    return sig


def _signatures(reader: _Reader) -> dict[str, dict]:
    found = {}
    for module, tree in reader.trees.items():
        if not (module == SIGNATURE_PREFIX or module.startswith(SIGNATURE_PREFIX + ".")):
            continue
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and not stmt.name.startswith("_"):
                found[f"{module}:{stmt.name}"] = _signature(stmt.args, skip_self=False)
            elif isinstance(stmt, ast.ClassDef) and not stmt.name.startswith("_"):
                init = next((s for s in stmt.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
                if init is not None:
                    found[f"{module}:{stmt.name}"] = _signature(init.args, skip_self=True)
    return dict(sorted(found.items()))


def release_table(package_dir: Path) -> tuple[str, dict]:
    reader = _Reader(_modules(package_dir))
    modules, origins = {}, {}
    signatures = _signatures(reader)
    callables = {key.split(":")[1] for key in signatures}
    for module in sorted(reader.trees):
        names = reader.names_of(module)
        modules[module] = " ".join(sorted(names))
        # where a rollout module's re-exported callables are defined, for their signatures
        if module.startswith(SIGNATURE_PREFIX):
            moved = {n: o for n, o in sorted(names.items()) if o.startswith(SIGNATURE_PREFIX) and o.split(":")[1] in callables}
            if moved:
                origins[module] = moved
    table = {"open": sorted(reader.open), "modules": modules, "origins": origins, "signatures": signatures}
    return _version(package_dir), table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package_dir", type=Path, help="an installed osmosis_ai folder (site-packages/osmosis_ai)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if not (args.package_dir / "__init__.py").is_file():
        print(f"{args.package_dir}: not an installed osmosis_ai package", file=sys.stderr)
        return 2
    version, table = release_table(args.package_dir)
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {"releases": {}}
    data["releases"][version] = table
    data["releases"] = dict(sorted(data["releases"].items()))
    args.out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n", encoding="utf-8")
    print(f"{version}: {len(table['modules'])} modules, {len(table['signatures'])} signatures -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
