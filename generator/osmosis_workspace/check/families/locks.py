"""Dependencies family (DEP): the lockfile `uv sync` installs from, read statically.

`osmosis eval run` runs `uv sync --project rollouts/<rollout>`; the workspace root's `uv sync`
installs the SDK's CLI. Each installs what the project's `uv.lock` records when the lock still fits
its `pyproject.toml`, and re-resolves to whatever is newest that day when it does not. These rules
compare the two the way `uv lock --check` decides (requirements, dependency groups, constraints,
requires-python), without running uv: doctor runs nothing.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from osmosis_workspace.check.registry import family_rules, workspace_check
from osmosis_workspace.core import known_bad
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.known_bad import KNOWN_BAD
from osmosis_workspace.core.pep440 import Requirement, Specifier, Version, normalise_name
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.readers import uvlock
from osmosis_workspace.readers.toml_locate import TomlDoc

FAMILY = "dependencies"
_rule = family_rules(FAMILY)
_UV_SYNC = "Source: osmosis_ai/eval/local/runner.py (`uv sync --project rollouts/<rollout>`); uv's lock check."

MISSING = _rule(
    "DEP001", "lock-missing", "warning",
    summary="A project that `uv sync` installs has no `uv.lock`.",
    why="Without a lock, `uv sync` (and so `osmosis eval run`) resolves the newest versions the requirements "
        "admit on the day it runs: a set nobody tested, which can break overnight (litellm and mcp did on "
        "2026-11-25). The templates ship the lock their tests ran. " + _UV_SYNC,
    fix="Run `uv lock --project <folder>` and commit the uv.lock it writes.",
    example="rollouts/multiply/pyproject.toml without rollouts/multiply/uv.lock", source="ours; contract §2",
)
STALE = _rule(
    "DEP002", "lock-out-of-date", "warning",
    summary="The project's `uv.lock` was made for other requirements than its `pyproject.toml` now has.",
    why="uv takes a lock only while it matches the pyproject; otherwise `uv sync` re-resolves to the newest "
        "versions and rewrites it, so what runs is not the set the lock recorded. " + _UV_SYNC,
    fix="Run `uv lock --project <folder>` and commit the uv.lock.",
    example='dependencies = ["osmosis-ai[server,strands]>=0.3.1,<0.4", "numpy"]   # numpy not in uv.lock',
    source="ours; osmosis_ai/eval/local/runner.py",
)
KNOWN_BAD_PINS = _rule(
    "DEP003", "known-bad-resolution", "error",
    summary="The lock pins a combination of packages known to break every rollout run.",
    why="Each combination in generator/osmosis_workspace/core/known_bad.py was reproduced with the SDK's own `osmosis eval run` "
        "(for litellm >= 1.106 with mcp < 2.3, every tool call fails and every row ends in agent_error).",
    fix="Keep the combination out: add the constraint under [tool.uv] constraint-dependencies in the "
        "project's pyproject.toml, then run `uv lock --project <folder>`.",
    example='litellm 1.106.12 with mcp 1.30.0 in rollouts/multiply/uv.lock', source="ours; osmosis_ai/eval/local/runner.py",
)


def _requirement_key(entry: dict) -> tuple:
    """A lock requirement entry (`{ name, extras, specifier, ... }`) as comparable data."""
    spec = Specifier.parse(str(entry.get("specifier") or ""))
    return (normalise_name(str(entry.get("name", ""))), tuple(sorted(normalise_name(e) for e in entry.get("extras") or ())),
            _clauses(spec), "url" if any(k in entry for k in ("url", "git", "path", "editable", "directory")) else "")


def _clauses(spec: Specifier | None) -> frozenset:
    if spec is None:
        return frozenset({"?"})
    return frozenset((c.op, Version.parse(c.version) or c.version) for c in spec.clauses)


def _declared_key(text: str) -> tuple | None:
    req = Requirement.parse(text)
    if req is None:
        return None
    return (req.name, tuple(sorted(req.extras)), _clauses(req.specifier), "url" if req.url else "")


def _sourced(key: tuple) -> tuple:
    return key[:2] + (frozenset(), "url")  # a [tool.uv.sources] entry: uv records where, not a version


def _difference(pyproject: dict, recorded: dict, lock: uvlock.UvLock, sources: set[str]) -> str | None:
    """What the pyproject asks for that the lock was not made for, one phrase; None when they match."""
    project = pyproject.get("project") if isinstance(pyproject.get("project"), dict) else {}
    wanted: dict[str, list] = {"dependencies": list(project.get("dependencies") or [])}
    groups = pyproject.get("dependency-groups")
    for group, items in (groups.items() if isinstance(groups, dict) else ()):
        wanted[f"dependency group {group!r}"] = [i for i in items if isinstance(i, str)] if isinstance(items, list) else []
    uv = (pyproject.get("tool") or {}).get("uv") if isinstance(pyproject.get("tool"), dict) else None
    constraints = (uv or {}).get("constraint-dependencies") if isinstance(uv, dict) else None
    wanted["constraint-dependencies"] = list(constraints or [])
    dev = recorded.get("requires-dev") if isinstance(recorded.get("requires-dev"), dict) else {}
    have = {"dependencies": recorded.get("requires-dist") or [], "constraint-dependencies": lock.constraints,
            **{f"dependency group {g!r}": v for g, v in dev.items()}}
    for what in sorted(set(wanted) | set(have)):
        declared = {_declared_key(str(t)) for t in wanted.get(what, []) if isinstance(t, str)}
        declared = {_sourced(k) if k and k[0] in sources else k for k in declared}
        locked = {_requirement_key(e) for e in have.get(what, []) if isinstance(e, dict)}
        locked = {_sourced(k) if k[0] in sources or k[3] else k for k in locked}
        if None in declared:
            return None  # a requirement we cannot read: uv's own error, not a stale lock
        if declared != locked:
            now, then = {k[0] for k in declared - locked}, {k[0] for k in locked - declared}
            changes = [f"{n} changed" for n in sorted(now & then)] + [f"{n} added" for n in sorted(now - then)] + \
                [f"{n} removed" for n in sorted(then - now)]
            return f"{what}: {', '.join(changes)}"
    python = project.get("requires-python")
    if isinstance(python, str) and lock.requires_python is not None and \
            _clauses(Specifier.parse(python)) != _clauses(Specifier.parse(lock.requires_python)):
        return f"requires-python {python!r} (locked for {lock.requires_python!r})"
    return None


def _members(pyproject: dict) -> list[str]:
    uv = ((pyproject.get("tool") or {}).get("uv") or {}) if isinstance(pyproject.get("tool"), dict) else {}
    workspace = uv.get("workspace") if isinstance(uv, dict) else None
    members = workspace.get("members") if isinstance(workspace, dict) else None
    return [m for m in members if isinstance(m, str)] if isinstance(members, list) else []


def _read_toml(ws: Workspace, path: Path) -> dict | None:
    text = ws.read_text(path)
    # the parse the other families' checks of this pyproject share (read only); None for a broken one,
    # which is LAY004/ENT's finding, not this family's
    return None if text is None else TomlDoc.parse(text).data


def _project_findings(ws: Workspace, folder: Path, lock_folder: Path) -> list[Diagnostic]:
    pyproject = _read_toml(ws, folder / "pyproject.toml")
    project = pyproject.get("project") if pyproject else None
    if not isinstance(project, dict) or not isinstance(project.get("name"), str):
        return []  # nothing uv would sync, or a pyproject other checks report
    where = "." if lock_folder == ws.root else ws.rel(lock_folder)
    command = "uv lock" if where == "." else f"uv lock --project {where}"
    lock_path = lock_folder / "uv.lock"
    if not lock_path.exists():
        if not ws.opted_in:
            return []  # advice of ours: a workspace the platform made follows its own lock policy
        return [MISSING.at(ws.rel(lock_path), f"{ws.rel(folder / 'pyproject.toml')} has no uv.lock beside it: `uv sync` "
                           "installs the newest versions its requirements admit today, not a tested set",
                           hint=f"Run `{command}` and commit {ws.rel(lock_path)}.")]
    _, lock = uvlock.lock_in(ws, lock_path)  # one parse a run, shared with the SDK target (check/families/sdk_requirements.py)
    if lock is None:
        return [STALE.at(ws.rel(lock_path), "uv.lock is not a lock uv can read, so `uv sync` re-resolves and rewrites it",
                         hint=f"Run `{command}` and commit it.")]
    found = []
    recorded = lock.project(normalise_name(project["name"]))
    tool = pyproject.get("tool") if isinstance(pyproject.get("tool"), dict) else {}
    sources = set(((tool.get("uv") or {}).get("sources") or {}) if isinstance(tool.get("uv"), dict) else {})
    why = "the lock has no entry for this project" if recorded is None else _difference(pyproject, recorded, lock, {normalise_name(s) for s in sources})
    if why is not None:
        found.append(STALE.at(ws.rel(lock_path), f"uv.lock no longer matches {ws.rel(folder / 'pyproject.toml')} ({why}): "
                              "`uv sync` will re-resolve to the newest versions instead of the locked set",
                              hint=f"Run `{command}` and commit the uv.lock."))
    found += _known_bad(ws, lock, lock_path, command)
    return found


def _known_bad(ws: Workspace, lock: uvlock.UvLock, lock_path: Path, command: str) -> list[Diagnostic]:
    found = []
    pins = {name: pin for bad in KNOWN_BAD for name in bad.pins if (pin := lock.pin(name)) is not None}
    for bad, held in known_bad.breaks({name: pin.version for name, pin in pins.items()}):
        first = pins[next(iter(held))]
        found.append(KNOWN_BAD_PINS.at(
            ws.rel(lock_path), f"uv.lock pins {known_bad.describe(held)}: {bad.effect}", line=first.line, column=1,
            hint=f'Add "{bad.constraint}" to [tool.uv] constraint-dependencies in the pyproject.toml, then run `{command}`.'))
    return found


@workspace_check(FAMILY)
def check_locks(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    root = _read_toml(ws, ws.root / "pyproject.toml") or {}
    members = _members(root)
    found += _project_findings(ws, ws.root, ws.root)
    for folder in ws.rollout_dirs:
        # A workspace made by a pre-release build lists its rollouts as uv workspace members: their lock is the
        # root's, whose absence the root's own finding already reports.
        if not any(fnmatch.fnmatchcase(ws.rel(folder), m.rstrip("/")) for m in members):
            # one unit per rollout for doctor's cache: its own pyproject and lock, and whether the policy is ours
            found += ws.remember(f"locks:{folder.name}", [folder / "pyproject.toml", folder / "uv.lock"], f"opted-in={ws.opted_in}",
                                 lambda: _project_findings(ws, folder, folder))
        elif (ws.root / "uv.lock").exists():
            found += [d for d in _project_findings(ws, folder, ws.root) if d.code == STALE.code]
    return list(dict.fromkeys(found))
