"""Module-level reading of parsed rollout code (osmosis_workspace.readers.pyast): the classes a module defines,
including those inside module-level if/try, and where a name is bound."""

from __future__ import annotations

import ast

from osmosis_workspace.core.paths import is_file, is_inside
from osmosis_workspace.readers.pyast import ClassRef, Module, Resolver, _FromImport, _PackageOf


def binding_site(binding: object) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the statement behind a module binding."""
    node = binding.stmt if isinstance(binding, _FromImport) else binding
    if isinstance(node, ast.stmt):
        return node.lineno, node.col_offset + 1
    return None, None


def module_classes(module: Module) -> list[ClassRef]:
    """Classes defined at the top level of ``module`` (including inside module-level if/try)."""
    seen: list[ClassRef] = []

    def walk(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                seen.append(ClassRef(module, stmt))
            elif isinstance(stmt, ast.If):
                walk(stmt.body)
                walk(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                walk(stmt.body)
                walk(stmt.orelse)
                walk(stmt.finalbody)
            elif isinstance(stmt, ast.With | ast.AsyncWith):
                walk(stmt.body)

    if module.tree is not None:
        walk(module.tree.body)
    return seen


def imported_module(resolver: Resolver, module: Module, stmt: ast.ImportFrom, name: str | None = None) -> Module | str | None:
    """The rollout's module ``from X import name`` in ``module`` reads from (the submodule ``name``
    for ``from . import name``), X's dotted name when it is not the rollout's, or None."""
    target = resolver._import_target(module, stmt)
    if isinstance(target, _PackageOf):
        sub = resolver._sibling(target.folder, name) if name else None
        init = target.folder / "__init__.py"
        return sub or (resolver.module(init) if is_file(init) and is_inside(resolver.root, init) else None)
    return target


def local_module(resolver: Resolver, module: Module, dotted: str) -> Module | None:
    """The rollout's own module an absolute ``import dotted`` in ``module`` reads, if any."""
    return resolver._local_module(module, dotted)


def submodule(resolver: Resolver, package: Module, name: str) -> Module | None:
    """``package``'s submodule ``name`` when ``package`` is an ``__init__.py``."""
    if package.path.name != "__init__.py":
        return None
    return resolver._sibling(package.path.parent, name)


def answers_any_name(module: Module) -> bool:
    """Whether ``module`` may bind names no statement shows: a star import or a module ``__getattr__``."""
    if "__getattr__" in module.bindings:
        return True
    return any(any(a.name == "*" for a in n.names) for n in module.nodes(ast.ImportFrom)) if module.tree else True


def imported_modules(resolver: Resolver, module: Module, limit: int = 400) -> list[Module]:
    """The rollout's modules ``module`` imports, directly or through each other (parsed ones only)."""
    seen, todo, found = {id(module)}, [module], []
    while todo and len(found) < limit:
        current = todo.pop()
        if current.tree is None:
            continue
        for node in current.nodes(ast.Import, ast.ImportFrom):
            targets: list[object] = []
            if isinstance(node, ast.Import):
                targets = [local_module(resolver, current, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [imported_module(resolver, current, node, a.name) for a in node.names]
                targets += [submodule(resolver, t, a.name) for t in targets[:1] if isinstance(t, Module) for a in node.names]
            for target in targets:
                if isinstance(target, Module) and id(target) not in seen:
                    seen.add(id(target))
                    found.append(target)
                    todo.append(target)
    return found


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def guarded_imports(module: Module) -> set[int]:
    """ids of the import statements inside a ``try`` whose handlers catch a failed import: the code
    already expects the name may be missing, so its absence is no finding."""
    guarded: set[int] = set()
    for node in module.nodes(ast.Try):
        names = set()
        for handler in node.handlers:
            caught = handler.type
            if caught is None:
                names.add("BaseException")
            for leaf in ast.walk(caught) if caught is not None else ():
                if isinstance(leaf, ast.Name):
                    names.add(leaf.id)
                elif isinstance(leaf, ast.Attribute):
                    names.add(leaf.attr)
        if names & _IMPORT_ERRORS:
            guarded |= {id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Import | ast.ImportFrom)}
    return guarded
