"""Checks: workspace layout (contract section 1): required folders and files, names, git, schemas.

Cheap by design: only stat calls and small reads. Git is found by walking up for ``.git`` (no
gitpython here; the git family inspects the repository itself).

Workspace name: the root pyproject's ``[project] name`` when there is one (that is what `osmosis
init` writes and what a clone keeps), else the workspace folder's name (what the user sees).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import replace
from osmosis_workspace.core.names import NAME_RULE_TEXT, name_problem
from osmosis_workspace.core.paths import is_inside
from osmosis_workspace.check.registry import rule
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.access import listing
from osmosis_workspace.core.workspace import AGENT_FILES, REQUIRED_FOLDERS, Workspace

FAMILY = "layout"

# `@AGENTS.md` (Claude Code's import), `@./AGENTS.md`, or a plain mention of the root AGENTS.md;
# `configs/AGENTS.md` alone does not count: it is not the workspace contract.
_AGENTS_POINTER = re.compile(r"(?<![\w/.-])(?:@?\./)?@?AGENTS\.md")

MISSING_FOLDER = rule(
    "LAY001", "missing-folder", FAMILY, "error",
    summary="A required workspace folder (rollouts/, configs/eval/, configs/training/, data/) is missing.",
    why="The platform and the bundled skills look for rollouts, configs and datasets in these exact places.",
    fix="Create the folder (`osmosis doctor --fix` does), or run `osmosis init` to scaffold a workspace.",
    example="a workspace without configs/training/",
    fixable=True,
    source="osmosis_ai/platform/cli/workspace_directory_contract.py",
)
MISSING_AGENT_FILE = rule(
    "LAY002", "missing-agent-file", FAMILY, "error",
    summary="An agent instruction file (AGENTS.md, CLAUDE.md, configs/AGENTS.md) is missing.",
    why="AI coding agents load these files to learn the workspace contract; without them they edit blind.",
    fix="Restore it from the bundled template with `osmosis doctor --fix`.",
    example="a workspace without CLAUDE.md",
    fixable=True,
    source="osmosis_ai/templates/catalog.py; contract §1",
)
MISSING_ROOT_PYPROJECT = rule(
    "LAY003", "missing-root-pyproject", FAMILY, "error",
    summary="The workspace root has no pyproject.toml.",
    why="The root project names the workspace and holds `[tool.osmosis]` settings; tools and agents expect it.",
    fix='Add pyproject.toml with `[project]` name = "<workspace-name>" (see `osmosis init`).',
    example="a workspace root holding rollouts/ and configs/ but no pyproject.toml",
    source="contract §1",
)
INVALID_ROOT_PYPROJECT = rule(
    "LAY004", "invalid-root-pyproject", FAMILY, "error",
    summary="The root pyproject.toml is not valid TOML.",
    why="Nothing can read the workspace name or its `[tool.osmosis]` settings from a file that does not parse.",
    fix="Fix the TOML syntax at the reported line.",
    example='[project]\nname = "demo',
    source="contract §1",
)
INVALID_WORKSPACE_NAME = rule(
    "LAY005", "invalid-workspace-name", FAMILY, "error",
    summary=f"The workspace name breaks the naming rule: {NAME_RULE_TEXT}.",
    why="The platform identifies the workspace by this name; it rejects names outside the rule.",
    fix='Rename it in pyproject.toml `[project] name` (e.g. "my-workspace").',
    example='[project]\nname = "My_Workspace"',
    source="ours",
)
INVALID_ROLLOUT_NAME = rule(
    "LAY006", "invalid-rollout-name", FAMILY, "warning",
    summary=f"A rollout folder name breaks the naming convention ({NAME_RULE_TEXT}; `default` is reserved).",
    why="`osmosis rollout init` names rollouts so (lowercase letters, digits, hyphens); osmosis-ai's config loader accepts any one-segment name, so this is advice.",
    fix="Rename the folder under rollouts/ (and the `rollout` value in its configs) to a valid name.",
    example="rollouts/Multiply_v2/",
    source="osmosis_ai/templates/init.py; ours",
)
ROLLOUT_OUTSIDE = rule(
    "LAY010", "rollout-outside-workspace", FAMILY, "error",
    summary="A folder under rollouts/ is a symlink to a folder outside the workspace.",
    why="The platform syncs only the repository, so the linked code is not there; doctor does not read outside the workspace either.",
    fix="Move the rollout's files into rollouts/<rollout>/ and commit them, instead of linking to them.",
    example="rollouts/multiply -> ../../shared/multiply",
    source="ours",
)
ROLLOUT_NAME_LIKE_OPTION = rule(
    "LAY013", "rollout-name-like-option", FAMILY, "warning",
    summary="A rollout folder's name starts with `-`, so a command line reads it as an option.",
    why="Scripts and CI steps pass rollout names as arguments (`osmosis rehearse NAME`, `eval run`); "
        "a name like `--no-probes` becomes a flag there unless every caller puts it after `--`.",
    fix="Rename the folder under rollouts/ (and the `rollout` value in its configs) to a name that starts with a letter.",
    example="rollouts/--no-probes/",
    source="ours",
)
NOT_IN_GIT = rule(
    "LAY007", "not-a-git-repository", FAMILY, "error",
    summary="The workspace is not inside a git work tree.",
    why="The platform syncs the workspace from its git repository's default branch; without git nothing reaches it.",
    fix="Run `git init` in the workspace root, commit, and push it to the repository connected to the platform.",
    example="a workspace created with `osmosis init --no-git`",
    source="osmosis_ai/platform/cli/workspace_directory_contract.py",
)
CLAUDE_WITHOUT_AGENTS = rule(
    "LAY008", "claude-md-without-agents", FAMILY, "warning",
    summary="CLAUDE.md does not point Claude Code at AGENTS.md.",
    why="Claude Code reads CLAUDE.md, not AGENTS.md; without a pointer it misses the workspace contract.",
    fix="Add a line `@AGENTS.md` to CLAUDE.md (`osmosis doctor --fix --unsafe-fixes` appends it).",
    example="# Notes\nBe careful.",
    # unsafe: the import puts all of AGENTS.md into every Claude Code session, which the user may have left out on purpose
    fixable="unsafe",
    source="contract §1",
)
STALE_SCHEMA = rule(
    "LAY009", "stale-workspace-schema", FAMILY, "warning",
    summary="A workspace JSON Schema under .osmosis/schemas/ is missing or differs from this osmosis version's.",
    why="Editors validate configs live against these files; a stale schema accepts or flags the wrong things.",
    fix="Refresh them with `osmosis doctor --fix` (or `osmosis schema --write .osmosis/schemas`).",
    example=".osmosis/schemas/eval.schema.json from an older osmosis",
    fixable=True,
    source="ours",
)


@workspace_check(FAMILY)
def check_required_paths(ws: Workspace) -> list[Diagnostic]:
    found = []
    for rel in REQUIRED_FOLDERS:
        path = ws.root / rel
        if ws.hidden(path):
            continue
        if path.is_symlink() and not path.exists():
            # A dangling link: --fix leaves links alone, so this one is the user's to repair.
            found.append(replace(
                MISSING_FOLDER.at(rel, f"{rel} is a broken link", hint=f"Point the link at a folder, or remove it and create {rel}/."),
                fixable=False,
            ))
        elif not path.exists():
            found.append(MISSING_FOLDER.at(rel, f"required folder {rel}/ is missing"))
        elif not path.is_dir():
            # Not safe to repair: something the user made sits where the folder belongs.
            found.append(replace(
                MISSING_FOLDER.at(rel, f"{rel} must be a folder but is a file", hint=f"Move the file away and create {rel}/."),
                fixable=False,
            ))
    for rel in AGENT_FILES:
        path = ws.root / rel
        if ws.hidden(path):
            continue
        if not path.is_file():
            what = "is not a file" if path.exists() else "is missing"
            diag = MISSING_AGENT_FILE.at(rel, f"{rel} {what}")
            found.append(diag if not path.exists() else replace(diag, fixable=False))
    if ws.git_root is None:
        found.append(NOT_IN_GIT.at(None, f"{ws.root.name}/ is not inside a git work tree"))
    return found


@workspace_check(FAMILY)
def check_root_pyproject(ws: Workspace) -> list[Diagnostic]:
    path = ws.root / "pyproject.toml"
    if os.path.lexists(path) and not path.is_file():  # a folder, a FIFO, a device, a dangling link: one finding, here
        return [INVALID_ROOT_PYPROJECT.at("pyproject.toml", "pyproject.toml is not a regular file (a folder, a FIFO, "
                                          "a device or a broken link), so it was not read",
                                          hint="replace it with the workspace's pyproject.toml (a regular file)")]
    if not path.is_file():
        return [MISSING_ROOT_PYPROJECT.at("pyproject.toml", "the workspace root has no pyproject.toml")] + _folder_name(ws)
    text = ws.read_text(path)
    if text is None:
        return [INVALID_ROOT_PYPROJECT.at("pyproject.toml", f"pyproject.toml {ws.unread_reason(path)}", hint=ws.unread_hint(path))]
    doc = TomlDoc.parse(text)
    if doc.data is None:
        err = doc.error
        return [INVALID_ROOT_PYPROJECT.at("pyproject.toml", f"pyproject.toml: {err.message}", line=err.line, column=err.column)]
    project = doc.data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    if name is None:
        return _folder_name(ws)
    line, column = doc.locator.value(("project", "name")) or (None, None)
    if not isinstance(name, str):
        return [INVALID_WORKSPACE_NAME.at("pyproject.toml", "[project] name must be a string", line=line, column=column)]
    problem = name_problem(name, kind="workspace")
    if problem:
        return [INVALID_WORKSPACE_NAME.at("pyproject.toml", problem, line=line, column=column)]
    return []


def _folder_name(ws: Workspace) -> list[Diagnostic]:
    problem = name_problem(ws.root.name, kind="workspace")
    if problem is None:
        return []
    return [INVALID_WORKSPACE_NAME.at(
        None, f"{problem} (taken from the folder name: pyproject.toml has no [project] name)",
        hint='Set a valid `[project] name` in pyproject.toml (it takes precedence over the folder name).',
    )]


@workspace_check(FAMILY)
def check_rollout_names(ws: Workspace) -> list[Diagnostic]:
    found = []
    for folder in ws.rollout_dirs:
        if folder.name.startswith("-"):   # one root cause: this, not LAY006's naming advice as well
            found.append(ROLLOUT_NAME_LIKE_OPTION.at(
                f"rollouts/{folder.name}", f"rollout folder {folder.name!r} starts with '-': a command line takes it for an option"))
            continue
        problem = name_problem(folder.name, kind="rollout")
        if problem:
            found.append(INVALID_ROLLOUT_NAME.at(f"rollouts/{folder.name}", problem))
    base = ws.root / "rollouts"
    linked = [p for p in listing(base) if p.is_symlink() and ws.outside(p)]
    for link in linked:
        found.append(ROLLOUT_OUTSIDE.at(
            f"rollouts/{link.name}", f"rollouts/{link.name} links to {os.readlink(link)!r}, outside the workspace; not checked"))
    return found


@workspace_check(FAMILY)
def check_claude_md(ws: Workspace) -> list[Diagnostic]:
    path = ws.root / "CLAUDE.md"
    if not path.is_file():
        return []  # LAY002 says it is missing
    text = ws.read_text(path)
    if text is None:
        return [CLAUDE_WITHOUT_AGENTS.at("CLAUDE.md", f"CLAUDE.md {ws.unread_reason(path)}; whether it points to AGENTS.md is unknown")]
    if _AGENTS_POINTER.search(text):
        return []
    return [CLAUDE_WITHOUT_AGENTS.at("CLAUDE.md", "CLAUDE.md neither imports (@AGENTS.md) nor mentions AGENTS.md")]


@workspace_check(FAMILY)
def check_workspace_schemas(ws: Workspace) -> list[Diagnostic]:
    from osmosis_workspace.core.schemas import KINDS, WORKSPACE_SCHEMA_DIR, schema_bytes, schema_filename

    if not ws.opted_in:
        return []  # our convention, not the platform's: see Workspace.opted_in
    found = []
    for kind in KINDS:
        rel = f"{WORKSPACE_SCHEMA_DIR}/{schema_filename(kind)}"
        current = _read_inside(ws.root, ws.root / rel)
        if current is None and ws.outside(ws.root / rel):
            # --fix never writes through a link out of the workspace, so this one is not fixable
            found.append(replace(STALE_SCHEMA.at(
                rel, f"{rel} links outside the workspace, so it was not read",
                hint="Replace the link with a real .osmosis/schemas/ folder, then run `osmosis doctor --fix`."), fixable=False))
        elif current is None:
            found.append(STALE_SCHEMA.at(rel, f"{rel} is missing"))
        elif _normalise(current) != _normalise(schema_bytes(kind)):
            found.append(STALE_SCHEMA.at(rel, f"{rel} differs from the {kind} schema of this osmosis version"))
    return found


def _normalise(data: bytes) -> bytes:
    # git's autocrlf may check the file out with CRLF line ends; that is not a stale schema.
    return data.replace(b"\r\n", b"\n")


def _read_inside(root: Path, path: Path) -> bytes | None:
    """The file's bytes, or None when missing, unreadable or (via a symlink) outside the workspace."""
    if not is_inside(root, path):
        return None
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError:
        return None
