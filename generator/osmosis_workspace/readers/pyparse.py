"""One Python module of a rollout, parsed and never run: its tree, its top-level bindings, its nodes
by type. `pyast.Resolver` follows names across a rollout's modules from here."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.records import dataclass, field

# A file larger than this is not a hand-written rollout module; parsing it could take seconds.
MAX_SOURCE_BYTES = 2_000_000


@dataclass(frozen=True)
class ParseError:
    message: str
    line: int | None
    column: int | None
    newer_syntax: bool = False  # this interpreter is older than 3.12 and the line looks like 3.12 syntax


@dataclass
class Module:
    """One parsed file. ``tree`` is None when it could not be read or parsed (see ``error``)."""

    path: Path
    tree: ast.Module | None
    error: ParseError | None = None
    bindings: dict[str, object] = field(default_factory=dict)  # top-level name -> binding statement
    _by_kind: dict[type, list[ast.AST]] | None = field(default=None, repr=False, compare=False)

    def nodes(self, *kinds: type) -> list[ast.AST]:
        """The tree's nodes of ``kinds`` (all with none), in `ast.walk` order. The tree is walked once
        per module: a rollout's checks ask this of the same few modules dozens of times."""
        if self._by_kind is None:
            self._by_kind = {}
            if self.tree is not None:
                every = list(ast.walk(self.tree))
                self._by_kind[ast.AST] = every
                for node in every:
                    self._by_kind.setdefault(type(node), []).append(node)
        if not kinds or kinds == (ast.AST,):
            return self._by_kind.get(ast.AST, [])
        if len(kinds) == 1:
            return self._by_kind.get(kinds[0], [])
        wanted = set(kinds)
        return [n for n in self._by_kind.get(ast.AST, []) if type(n) in wanted]


@dataclass(frozen=True)
class _Import:
    """An ``import dotted`` binding."""

    dotted: str


@dataclass(frozen=True)
class _FromImport:
    """A ``from M import name`` binding."""

    stmt: ast.ImportFrom
    name: str


def parse_source(source: bytes | str, path: Path) -> Module:
    """Parse ``source``; never raises. Syntax errors become ``Module.error`` with 1-based positions."""
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as err:
        line = err.lineno if err.lineno and err.lineno > 0 else None
        column = err.offset if line and err.offset and err.offset > 0 else None
        return Module(path, None, ParseError(f"syntax error: {err.msg}", line, column, _newer_syntax(err)))
    except (ValueError, UnicodeDecodeError) as err:  # null bytes, undecodable source
        return Module(path, None, ParseError(f"cannot be parsed: {err}", None, None))
    except (RecursionError, MemoryError):  # pathologically nested source
        return Module(path, None, ParseError("cannot be parsed: the source is too deeply nested", None, None))
    module = Module(path, tree)
    _collect_bindings(module, tree.body)
    return module


# Python 3.12 syntax an older interpreter (doctor runs on 3.10+, the platform on 3.12) cannot parse:
# PEP 695 type parameters and `type` aliases, and PEP 701 f-strings (quotes reused inside them).
_PEP_695 = lazy_compile(r"^\s*(?:type\s+[A-Za-z_]\w*\s*[\[=]|(?:async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)")


def _newer_syntax(err: SyntaxError) -> bool:
    if sys.version_info >= (3, 12):
        return False
    return "f-string" in (err.msg or "") or bool(_PEP_695.match(err.text or ""))


def parse_file(path: Path) -> Module:
    """Parse the file at ``path`` (bytes, so PEP 263 coding cookies are honoured); never raises."""
    from osmosis_workspace.core.bounded import Unreadable, read_capped

    try:  # a FIFO would block a plain read, /dev/zero would never end it
        source = read_capped(path, MAX_SOURCE_BYTES)
    except Unreadable as err:
        return Module(path, None, ParseError(str(err), None, None))
    return parse_source(source, path)


def parse_buffer(text: str, path: Path) -> Module:
    """An editor's unsaved text for ``path`` (`osmosis lsp`), held to the cap its file would be."""
    if len(text) > MAX_SOURCE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        return Module(path, None, ParseError(f"is larger than {MAX_SOURCE_BYTES} bytes, so it was not read", None, None))
    return parse_source(text, path)


def _collect_bindings(module: Module, body: list[ast.stmt]) -> None:
    """Record what each top-level name is bound to, in order, so the last binding wins.

    Bodies of module-level ``if``/``try``/``with`` blocks count: their statements run at import.
    """
    for stmt in body:
        if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            module.bindings[stmt.name] = stmt
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                # `import a.b` binds `a` (to package a); `import a.b as c` binds `c` to `a.b`.
                if alias.asname:
                    module.bindings[alias.asname] = _Import(alias.name)
                else:
                    top = alias.name.split(".")[0]
                    module.bindings[top] = _Import(top)
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name != "*":
                    module.bindings[alias.asname or alias.name] = _FromImport(stmt, alias.name)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    module.bindings[target.id] = stmt
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            module.bindings[stmt.target.id] = stmt
        elif isinstance(stmt, ast.If):
            _collect_bindings(module, stmt.body)
            _collect_bindings(module, stmt.orelse)
        elif isinstance(stmt, ast.Try):
            _collect_bindings(module, stmt.body)
            _collect_bindings(module, stmt.orelse)
            _collect_bindings(module, stmt.finalbody)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            _collect_bindings(module, stmt.body)
