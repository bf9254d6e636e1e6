"""Static reading of a rollout's Python modules: which classes derive from the SDK's bases.

Nothing here imports or runs the user's code: modules are parsed with :mod:`ast` and names are
resolved by following the module's own top-level bindings (imports, class definitions, plain
aliases), the way Python would at import time. Imports of sibling modules (``from .base import X``,
``from base import X`` where ``base.py`` sits in the rollout folder) are followed, never past the
rollout folder. Anything that cannot be resolved statically is treated as unknown, not guessed.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from osmosis_workspace.core.paths import is_file, real_path
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.tool_folders import TOOL_FOLDERS, is_tool_folder
from osmosis_workspace.readers.pyparse import (  # noqa: F401  Module, ParseError: re-exported, the checks name them from here
    MAX_SOURCE_BYTES, Module, ParseError, _FromImport, _Import, parse_buffer, parse_file, parse_source,
)

# The SDK classes our checks care about, and the method each one leaves abstract.
SDK_PACKAGE = "osmosis_ai"
WORKFLOW, GRADER, LOOP = "AgentWorkflow", "Grader", "RolloutAgentLoop"
REQUIRED_METHOD = {WORKFLOW: "run", GRADER: "grade", LOOP: "run"}

# Real rollouts chain a handful of aliases and base classes; these caps keep generated or hostile
# sources from costing more than a moment (deeper chains are simply left unresolved).
MAX_ALIAS_CHAIN = 20
MAX_ANCESTORS = 64


@dataclass(frozen=True)
class Ext:
    """A name from outside the rollout, by dotted path (``osmosis_ai.rollout.AgentWorkflow``)."""

    dotted: str

    @property
    def sdk_class(self) -> str | None:
        parts = self.dotted.split(".")
        if parts[0] == SDK_PACKAGE and len(parts) > 1 and parts[-1] in REQUIRED_METHOD:
            return parts[-1]
        return None


@dataclass(frozen=True, eq=False)
class ClassRef:
    module: Module
    node: ast.ClassDef

    @property
    def key(self) -> int:
        """Identity of the class statement (nodes live as long as the Resolver caching them)."""
        return id(self.node)

    @property
    def name(self) -> str:
        return self.node.name


@dataclass(frozen=True)
class ModuleRef:
    module: Module


Resolved = Ext | ClassRef | ModuleRef | None


@dataclass(frozen=True)
class _PackageOf:
    """The package folder named by ``from . import x`` (resolved per imported name)."""

    folder: Path


class Resolver:
    """Resolves names in the modules of one rollout folder, parsing each sibling module at most once."""

    def __init__(self, root: Path, overlays: dict[Path, str] | None = None):
        try:
            self._real_root: Path | None = root.resolve()
        except (OSError, RuntimeError):  # a loop: nothing is inside it (core/paths.py's is_inside)
            self._real_root = None
        self.root = self._real_root or real_path(root)
        # an editor's unsaved buffers (`osmosis lsp`), read instead of their files
        self._overlays = {real_path(p): text for p, text in (overlays or {}).items()}
        self._modules: dict[Path, Module] = {}
        self._siblings: dict[tuple[Path, str], Path | None] = {}
        self._real: dict[Path, Path] = {}  # resolving a path is most of a lookup's cost
        self._bases: dict[int, list[Resolved]] = {}
        self._kinds: dict[int, set[str]] = {}
        self._lookups: dict[tuple[int, str], Resolved] = {}
        self._mros: dict[int, list[ClassRef]] = {}

    # -- modules -----------------------------------------------------------------------------

    def module(self, path: Path) -> Module:
        if (key := self._real.get(path)) is None:
            key = self._real[path] = real_path(path)
        if key not in self._modules:
            text = self._overlays.get(key)
            self._modules[key] = parse_file(path) if text is None else parse_buffer(text, path)
        return self._modules[key]

    def _inside(self, path: Path) -> bool:
        """``is_inside(root, path) and not in_tool_folder_of(root, path)`` with the root resolved once and
        the path once (the two resolved both, each time: most of a rollout's import lookups' cost).
        A tool's folder (the rollout's .venv) is never read: doctor's cache key leaves it out."""
        if self._real_root is None:
            return False
        try:
            parts = path.resolve().relative_to(self._real_root).parts
        except (ValueError, OSError, RuntimeError):
            return False
        return not (parts and parts[0] in TOOL_FOLDERS and is_tool_folder(os.path.join(self._real_root, parts[0])))

    def _sibling(self, base: Path, dotted: str) -> Module | None:
        """The module ``dotted`` relative to folder ``base``, if it is a file inside the rollout."""
        if not dotted:
            return None
        key = (base, dotted)
        if key not in self._siblings:  # asked for the same names from every module: look once
            target = base.joinpath(*dotted.split("."))
            self._siblings[key] = next((c for c in (target.with_suffix(".py"), target / "__init__.py")
                                        if is_file(c) and self._inside(c)), None)
        found = self._siblings[key]
        return None if found is None else self.module(found)

    def _local_module(self, module: Module, dotted: str) -> Module | None:
        """The rollout's own module for an absolute import of ``dotted`` from ``module``: the
        rollout folder is on sys.path when it runs, and so is a script's own folder."""
        if dotted.split(".")[0] == SDK_PACKAGE:  # never a local copy or test double of the SDK
            return None
        return self._sibling(module.path.parent, dotted) or self._sibling(self.root, dotted)

    def _import_target(self, module: Module, stmt: ast.ImportFrom) -> Module | _PackageOf | str | None:
        """What ``from X import ...`` in ``module`` imports from: the rollout's module X, the
        package folder (``from . import``), X's dotted name for an outside import, or None."""
        if stmt.level:
            base = module.path.parent
            for _ in range(stmt.level - 1):
                base = base.parent
            if not self._inside(base):
                return None
            if stmt.module is None:
                return _PackageOf(base)
            return self._sibling(base, stmt.module)
        name = stmt.module or ""
        return self._local_module(module, name) or name

    # -- names -------------------------------------------------------------------------------

    def resolve(self, module: Module, expr: ast.AST, _seen: frozenset = frozenset()) -> Resolved:
        """What ``expr`` (a Name or dotted Attribute) means in ``module``'s top-level scope."""
        attrs: list[str] = []
        while isinstance(expr, ast.Attribute):  # a loop, not recursion: chains can be long
            attrs.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        found = self.lookup(module, expr.id, _seen)
        for attr in reversed(attrs):
            if isinstance(found, Ext):
                found = Ext(f"{found.dotted}.{attr}")
            elif isinstance(found, ModuleRef):
                found = self.lookup(found.module, attr, _seen)
            else:
                return None
        return found

    def lookup(self, module: Module, name: str, _seen: frozenset = frozenset()) -> Resolved:
        if _seen:
            return self._lookup(module, name, _seen)
        memo = (id(module), name)
        if memo not in self._lookups:
            self._lookups[memo] = self._lookup(module, name, _seen)
        return self._lookups[memo]

    def _lookup(self, module: Module, name: str, _seen: frozenset) -> Resolved:
        marker = (id(module), name)
        if marker in _seen or len(_seen) > MAX_ALIAS_CHAIN:  # `X = X`, circular sibling imports
            return None
        _seen = _seen | {marker}
        binding = module.bindings.get(name)
        if binding is None:
            return None
        if isinstance(binding, ast.ClassDef):
            return ClassRef(module, binding)
        if isinstance(binding, _Import):
            found = self._local_module(module, binding.dotted)
            return ModuleRef(found) if found is not None else Ext(binding.dotted)
        if isinstance(binding, _FromImport):
            target = self._import_target(module, binding.stmt)
            if isinstance(target, str):
                return Ext(f"{target}.{binding.name}")
            if isinstance(target, _PackageOf):  # `from . import base`
                sub = self._sibling(target.folder, binding.name)
                if sub is not None:
                    return ModuleRef(sub)
                init = target.folder / "__init__.py"
                return self.lookup(self.module(init), binding.name, _seen) if init.is_file() and self._inside(init) else None
            if target is None:
                return None
            # `from pkg import sub` names a submodule when pkg/__init__.py does not bind it.
            if target.path.name == "__init__.py" and binding.name not in target.bindings:
                sub = self._sibling(target.path.parent, binding.name)
                if sub is not None:
                    return ModuleRef(sub)
            return self.lookup(target, binding.name, _seen)
        if isinstance(binding, ast.Assign | ast.AnnAssign) and isinstance(binding.value, ast.Name | ast.Attribute):
            return self.resolve(module, binding.value, _seen)
        return None

    def unparsable_imports(self, module: Module) -> list[Module]:
        """The rollout's modules that ``module`` imports, directly or through other rollout
        modules, and that could not be parsed: importing ``module`` fails on each of them."""
        seen = {real_path(module.path)}
        todo, broken = [module], []
        while todo:
            current = todo.pop()
            for binding in current.bindings.values():
                target: object = None
                if isinstance(binding, _Import):
                    target = self._local_module(current, binding.dotted)
                elif isinstance(binding, _FromImport):
                    target = self._import_target(current, binding.stmt)
                    if isinstance(target, _PackageOf):
                        target = self._sibling(target.folder, binding.name)
                    elif isinstance(target, Module) and target.path.name == "__init__.py" \
                            and binding.name not in target.bindings:
                        target = self._sibling(target.path.parent, binding.name) or target
                if not isinstance(target, Module) or real_path(target.path) in seen:
                    continue
                seen.add(real_path(target.path))
                if target.error is not None:
                    broken.append(target)
                else:
                    todo.append(target)
        return broken

    def value_site(self, module: Module, name: str, _seen: frozenset = frozenset()) -> tuple[Module, ast.Assign | ast.AnnAssign] | None:
        """The module-level assignment that gives ``name`` in ``module`` its value (``x = Call(...)``),
        following imports from the rollout's own modules and plain aliases (``y = x``)."""
        marker = (id(module), name)
        if marker in _seen or len(_seen) > MAX_ALIAS_CHAIN:
            return None
        _seen = _seen | {marker}
        binding = module.bindings.get(name)
        if isinstance(binding, ast.Assign | ast.AnnAssign):
            if isinstance(binding.value, ast.Name):
                return self.value_site(module, binding.value.id, _seen)
            return module, binding
        if isinstance(binding, _FromImport):
            target = self._import_target(module, binding.stmt)
            if isinstance(target, Module):
                return self.value_site(target, binding.name, _seen)
        return None

    # -- classes -----------------------------------------------------------------------------

    def bases(self, cls: ClassRef) -> list[Resolved]:
        if cls.key not in self._bases:
            self._bases[cls.key] = [self.resolve(cls.module, base) for base in cls.node.bases]
        return self._bases[cls.key]

    def sdk_kinds(self, cls: ClassRef) -> set[str]:
        """The SDK classes ``cls`` derives from, directly or through local classes."""
        if cls.key not in self._kinds:
            kinds: set[str] = set()
            for ancestor in self.mro(cls):
                for base in self.bases(ancestor):
                    if isinstance(base, Ext) and base.sdk_class:
                        kinds.add(base.sdk_class)
            self._kinds[cls.key] = kinds
        return self._kinds[cls.key]

    def mro(self, cls: ClassRef) -> list[ClassRef]:
        """``cls`` and its local ancestors, depth-first left to right (close enough to the C3 order
        for finding which definition of a method wins in ordinary single-chain hierarchies)."""
        if cls.key in self._mros:
            return self._mros[cls.key]
        order: list[ClassRef] = []
        seen: set[int] = set()
        stack = [cls]
        while stack and len(order) < MAX_ANCESTORS:
            current = stack.pop()
            if current.key in seen:
                continue
            seen.add(current.key)
            order.append(current)
            stack.extend(reversed([b for b in self.bases(current) if isinstance(b, ClassRef)]))
        self._mros[cls.key] = order
        return order

    def member(self, cls: ClassRef, name: str) -> tuple[ClassRef, ast.stmt] | None:
        """The statement defining attribute ``name`` in the nearest class of ``cls``'s local MRO."""
        for owner in self.mro(cls):
            found = class_member(owner.node, name)
            if found is not None:
                return owner, found
        return None

    def is_abstract(self, cls: ClassRef, kind: str) -> str | None:
        """Why ``cls`` is an abstract intermediate for SDK class ``kind``, or None if it is concrete."""
        if self.declares_abc(cls):
            return f"{cls.name} is declared abstract (ABC)"
        method = REQUIRED_METHOD[kind]
        found = self.member(cls, method)
        if found is None:
            return f"{cls.name} does not define {method}()"
        owner, stmt = found
        if self._is_abstractmethod(owner.module, stmt):
            return f"{cls.name}.{method}() is an @abstractmethod"
        for node in cls.node.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and self._is_abstractmethod(cls.module, node):
                return f"{cls.name}.{node.name}() is an @abstractmethod"
        return None

    def declares_abc(self, cls: ClassRef) -> bool:
        for base in self.bases(cls):
            if isinstance(base, Ext) and base.dotted in ("abc.ABC",):
                return True
        for kw in cls.node.keywords:
            if kw.arg == "metaclass":
                meta = self.resolve(cls.module, kw.value)
                if isinstance(meta, Ext) and meta.dotted == "abc.ABCMeta":
                    return True
        return False

    def _is_abstractmethod(self, module: Module, stmt: ast.stmt) -> bool:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            return False
        for deco in stmt.decorator_list:
            found = self.resolve(module, deco)
            if isinstance(found, Ext) and found.dotted == "abc.abstractmethod":
                return True
        return False


def class_member(node: ast.ClassDef, name: str) -> ast.stmt | None:
    """The last statement in the class body binding ``name`` (def, assignment or annotated value)."""
    found: ast.stmt | None = None
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
            found = stmt
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            found = stmt
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id == name
            and stmt.value is not None
        ):
            found = stmt
    return found


