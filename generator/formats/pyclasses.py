"""Module-level reading of parsed rollout code (generator.formats.pyast): the classes a module defines,
including those inside module-level if/try, and where a name is bound."""

from __future__ import annotations

import ast

from generator.formats.pyast import ClassRef, Module, _FromImport


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
