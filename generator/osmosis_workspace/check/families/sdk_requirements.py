"""Which `osmosis-ai` a rollout asks for, and the rules on that requirement (ENT016-ENT018): an upper
bound, a release on the index, the generation's Python floor.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.check.families.sdk_rules import FAMILY, PYTHON_BELOW_FLOOR, UNBOUNDED, UNSATISFIABLE
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.sdk_target import Declared, Target, python_floor_breach, read_target
from osmosis_workspace.core.diagnostics import Diagnostic, quoted
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.readers import uvlock
from osmosis_workspace.readers.toml_locate import TomlDoc


def rollout_target(ws: Workspace, folder: Path) -> Target:
    """The generation ``folder``'s code is judged against (computed once per snapshot)."""

    def compute() -> Target:
        pyprojects = [(folder / "pyproject.toml", ws.read_text(folder / "pyproject.toml")),
                      (ws.root / "pyproject.toml", ws.read_text(ws.root / "pyproject.toml"))]
        text, lock = uvlock.lock_in(ws, folder / "uv.lock")  # the parse the lock checks share
        return read_target(pyprojects, lock if lock is not None or text is None else uvlock.loose(text))

    return ws.memo(f"sdk-target:{folder}", compute)


def file_target(path: Path, requirement: str | None = None) -> Target:
    """The target for one entrypoint file: ``requirement`` when given, else the pyproject beside it."""
    from osmosis_workspace.check.sdk_target import target_for
    from osmosis_workspace.core.pep440 import Requirement

    if requirement is not None:
        parsed = Requirement.parse(requirement)
        return target_for([Declared(parsed, path, None, None)] if parsed else [])
    pyproject = path.parent / "pyproject.toml"
    lock = path.parent / "uv.lock"
    return read_target([(pyproject, _read(pyproject))], uvlock.read(lock))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() and path.stat().st_size < 1_000_000 else None
    except (OSError, UnicodeDecodeError):
        return None


@workspace_check(FAMILY)
def check_sdk_requirements(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for folder in ws.rollout_dirs:
        # one unit per rollout, over what rollout_target reads (doctor's cache reuses it when they are unchanged)
        found += ws.remember(f"sdk-requirements:{folder.name}", [folder / "pyproject.toml", folder / "uv.lock", ws.root / "pyproject.toml"], "",
                             lambda: _rollout_findings(ws, folder))
    root_target = read_target([(ws.root / "pyproject.toml", ws.read_text(ws.root / "pyproject.toml"))])
    if root_target.declared:
        found += requirement_findings(ws, root_target)
        found += _python_findings(ws, ws.root / "pyproject.toml", root_target, rollout=None)
    return list(dict.fromkeys(found))


def _rollout_findings(ws: Workspace, folder: Path) -> list[Diagnostic]:
    target = rollout_target(ws, folder)
    return requirement_findings(ws, target) + _python_findings(ws, folder / "pyproject.toml", target, rollout=folder.name)


def requirement_findings(ws: Workspace | None, target: Target) -> list[Diagnostic]:
    """ENT016/ENT017 for one target, at its (first) requirement string."""
    if not target.declared or target.url is not None:
        return []  # no requirement: ENT009; a direct URL: the version is not knowable here
    first = target.declared[0]
    path = ws.rel(first.pyproject) if ws else first.pyproject.as_posix()
    where = {"line": first.line, "column": first.column}
    if target.release is None and target.admitted:
        gens = ", ".join(g.label for g in target.admitted_generations)
        return [UNSATISFIABLE.at(
            path, f"no osmosis-ai release on the package index satisfies {target.requirement_text} (it admits only {gens}, removed from the index)",
            **where,
        )]
    if target.release is None and not target.unbounded:
        return [UNSATISFIABLE.at(path, f"no known osmosis-ai release satisfies {target.requirement_text}", **where)]
    if target.unbounded and not target.locked:
        today = f"it resolves to {target.release} ({target.generation.label}) today" if target.release and target.generation else "no release known to this check satisfies it yet"
        bare = not target.specifier.clauses
        what = "has no version bound" if bare else "has no upper bound"
        return [UNBOUNDED.at(
            path, f"{target.requirement_text} {what}: {today}, and to whatever a new major release brings later", **where,
            hint=f'Bound it to the generation the code fits, e.g. "{_suggested(first)}".',
        )]
    return []


def _suggested(declared: Declared) -> str:
    extras = f"[{','.join(declared.requirement.extras)}]" if declared.requirement.extras else ""
    return f"osmosis-ai{extras}>=0.3.1,<0.4"


def _python_findings(ws: Workspace, pyproject: Path, target: Target, *, rollout: str | None) -> list[Diagnostic]:
    if target.generation is None:
        return []
    text = ws.read_text(pyproject)
    doc = TomlDoc.parse(text) if text is not None else None
    project = doc.data.get("project") if doc is not None and doc.data is not None else None
    requires = project.get("requires-python") if isinstance(project, dict) else None
    if not isinstance(requires, str):
        return []
    floor = target.generation.python_floor
    below = python_floor_breach(requires, floor)
    if below is None:
        return []
    line, column = doc.locator.value(("project", "requires-python")) or (None, None)  # type: ignore[union-attr]
    whose = f"rollout {rollout!r}" if rollout else "the workspace"
    return [PYTHON_BELOW_FLOOR.at(
        ws.rel(pyproject),
        f"requires-python {quoted(requires)} admits Python {below}, but {whose} gets {target.describe()}, which needs Python >={floor[0]}.{floor[1]}",
        line=line, column=column, hint=f'Set requires-python = ">={floor[0]}.{floor[1]}".',
    )]
