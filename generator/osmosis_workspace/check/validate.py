"""`osmosis validate` and `osmosis dataset validate`: check named files without a whole workspace.

Each path is classified (config, dataset, skill, entrypoint) and handed to its family's file-level
function (docs/ARCHITECTURE.md). A folder is walked with narrower rules than a named file, so that
`osmosis validate .` checks what doctor would and not every JSON or Python file it passes.
Cross-references (does the config's rollout exist?) are made when a workspace root can be found.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_file, is_inside, system_file, walk
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.tool_folders import PRUNED
from osmosis_workspace.core.workspace import CONFIG_KINDS, DATASET_SUFFIXES, NotAWorkspace, Workspace, find_root

# kind -> (module, function); imported only when a path of that kind is validated.
FILE_FUNCTIONS: dict[str, tuple[str, str]] = {
    "config": ("osmosis_workspace.check.families.configs", "check_config_file"),
    "dataset": ("osmosis_workspace.check.families.datasets", "check_dataset_file"),
    "skill": ("osmosis_workspace.check.families.skills", "check_skill_dir"),
    "entrypoint": ("osmosis_workspace.check.families.entrypoints", "check_entrypoint_file"),
    "unreadable": ("osmosis_workspace.check.families.access", "check_unreadable_path"),
}
# Folders a walk never enters: tooling, caches, and .claude/skills (links to .agents/skills).
SKIP_DIRS = frozenset({".git", ".osmosis", ".claude", "venv", "node_modules", "__pycache__", *PRUNED})
MAX_WALK = 20_000
WHAT_WE_CHECK = "a .toml config, a dataset (.jsonl, .csv, .parquet), a skill folder (with SKILL.md) or a .py entrypoint"


@dataclass(frozen=True)
class Target:
    path: Path
    kind: str  # a key of FILE_FUNCTIONS
    config_kind: str | None = None


def _config_kind(path: Path, forced: str | None) -> str | None:
    if forced:
        return forced
    if path.parent.name in CONFIG_KINDS and path.parent.parent.name == "configs":
        return path.parent.name
    return None


def classify_file(path: Path, forced_kind: str | None) -> Target:
    """What a file the user named is; an unknown kind is a usage error."""
    if path.suffix == ".toml":
        kind = _config_kind(path, forced_kind)
        if kind is None:
            raise UserError(
                f"{path}: not under configs/eval/ or configs/training/, so its config kind is unknown",
                hint="pass --kind eval or --kind training",
            )
        return Target(path, "config", kind)
    if path.suffix.lower() in DATASET_SUFFIXES:
        return Target(path, "dataset")
    if path.name == "SKILL.md":
        return Target(path.parent, "skill")
    if path.suffix == ".py":
        return Target(path, "entrypoint")
    raise UserError(f"{path}: cannot tell what this file is; osmosis validate checks {WHAT_WE_CHECK}{_did_you_mean(path)}")


def _did_you_mean(path: Path) -> str:
    """"; did you mean x.jsonl?" for a nearly-dataset name (x.jsnol, x.ndjson), as doctor's DAT020 says."""
    from osmosis_workspace.readers.datasets.extensions import suggested_name

    suggestion = suggested_name(path.name)
    return f"; did you mean {suggestion}?" if suggestion else ""


def _walk(folder: Path, forced_kind: str | None) -> list[Target]:
    """The checkable things under ``folder``: skill folders whole; configs only in configs/<kind>/
    (any .toml but pyproject.toml with --kind); datasets only below a data/ folder; entrypoints
    only as main.py."""
    found: list[Target] = []

    def denied(err: OSError) -> None:  # a folder the walk may not enter is a finding, not a silent gap
        if isinstance(err, PermissionError) and err.filename:
            found.append(Target(Path(err.filename), "unreadable"))

    for visited, (here, dirs, files) in enumerate(walk(folder, onerror=denied), 1):
        if visited > MAX_WALK:  # a link to `/` or a home folder: say so instead of walking it all
            raise UserError(f"{folder}: more than {MAX_WALK} folders to walk; name the files or a narrower folder")
        base = Path(here)
        if "SKILL.md" in files:
            found.append(Target(base, "skill"))
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        in_data = "data" in base.relative_to(folder.parent).parts
        for name in sorted(files):
            path = base / name
            if path.suffix == ".toml" and name != "pyproject.toml":
                kind = _config_kind(path, forced_kind)
                if kind:
                    found.append(Target(path, "config", kind))
            elif path.suffix.lower() in DATASET_SUFFIXES and in_data:
                found.append(Target(path, "dataset"))
            elif name == "main.py":
                found.append(Target(path, "entrypoint"))
    return found


def collect(paths: list[Path], forced_kind: str | None, only: str | None) -> list[Target]:
    targets: list[Target] = []
    for path in paths:
        # A link that leads nowhere (a loop, a dangling link) exists as a link: the dataset check
        # reports it as a finding, as doctor does, rather than calling it missing.
        try:
            path.lstat()
        except PermissionError:  # below a folder that cannot be entered: the finding says so
            targets.append(Target(path, "unreadable"))
            continue
        except OSError:
            pass
        if not path.exists() and not (path.is_symlink() and path.suffix.lower() in DATASET_SUFFIXES):
            raise UserError(f"{path} does not exist")
        if path.is_dir():
            _refuse_link_out(path)
            if only is None and is_file(path / "SKILL.md"):
                targets.append(Target(path, "skill"))
                continue
            walked = _walk(path, forced_kind)
            if only:
                walked = [t for t in walked if t.kind in (only, "unreadable")]
            if not walked:
                wanted = f"{only} files" if only else WHAT_WE_CHECK
                raise UserError(f"{path}: found nothing to check (looked for {wanted})")
            targets += walked
            continue
        if only == "dataset" and path.suffix.lower() not in DATASET_SUFFIXES:
            raise UserError(f"{path} is not a dataset file (expected .jsonl, .csv or .parquet){_did_you_mean(path)}")
        targets.append(classify_file(path, forced_kind))
    return list(dict.fromkeys(targets))


def _refuse_link_out(folder: Path) -> None:
    """A folder inside a workspace that is a link out of it is not walked (doctor never follows one)."""
    if not folder.is_symlink():
        return
    try:
        root = find_root(folder.parent)
    except NotAWorkspace:
        return
    if not is_inside(root, folder):
        raise UserError(f"{folder} links outside the workspace (to {os.path.realpath(folder)}); it was not walked",
                        hint="name the folder it points to if you mean to check that")


def file_function(kind: str) -> Callable | None:
    """The family's file-level function, or None while that family does not provide it yet."""
    module_name, attr = FILE_FUNCTIONS[kind]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, attr, None)


class _Workspaces:
    """The workspace (if any) holding each target, found once per root."""

    def __init__(self) -> None:
        self.by_root: dict[Path, Workspace] = {}

    def of(self, path: Path) -> Workspace | None:
        if os.path.islink(path):
            # the workspace the link is in, not the one it leads to (find_root resolves its start,
            # which also raises on a symlink loop)
            path = path.parent
        try:
            root = find_root(path)
        except NotAWorkspace:
            return None
        return self.by_root.setdefault(root, Workspace(root))


def _display(path: Path, ws: Workspace | None) -> str:
    if ws is not None:
        # A link that leads nowhere is shown where it is: resolving it fails (or, on a loop, raises).
        real = path.parent.resolve() / path.name if os.path.islink(path) else path.resolve()
        try:
            return real.relative_to(ws.root.resolve()).as_posix()
        except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
            pass
    return path.as_posix()


def _run(target: Target, fn: Callable, ws: Workspace | None, display: str) -> list[Diagnostic]:
    from osmosis_workspace.check.pipeline.run import CheckCrashed

    # One rule with doctor: nothing is read through a link out of the workspace (`data/x.csv ->
    # /proc/self/environ` would print a CI job's secrets as "column names"), nor, outside any
    # workspace, from a file the system generates.
    # (a file in a tool's folder, named on the command line, is read: validate keeps no cache)
    if ws is not None and ws.where(target.path) == "out" and target.kind != "config":  # a config says so itself (CFG)
        return [linked_out(target.kind, display)]
    if (generated := system_file(target.path)) is not None:
        return [linked_out(target.kind, display, f"leads to {generated}, a file the system generates; not read")]
    try:
        if target.kind == "config":
            found = list(fn(target.path, target.config_kind, ws, display)) + _config_secrets(target.path, ws, display)
            if ws is not None and ws.where(target.path) != "out":
                from osmosis_workspace.check.families.gitsync import check_config_pins  # git only when asked

                found += check_config_pins(ws, ws.root / display, target.config_kind)
            return _directive_follows_folder(target, found)
        return list(fn(target.path, display))
    except PermissionError as err:  # a path the walk could not see ahead: still a finding, not a crash
        from osmosis_workspace.check.families.access import from_error

        if ws is None or (found := from_error(ws, err)) is None:
            raise CheckCrashed(f"the {target.kind} check crashed on {display}: {type(err).__name__}: {err}") from err
        return [found]
    except Exception as err:  # noqa: BLE001  a bug in a check: exit 3 with the culprit named
        raise CheckCrashed(f"the {target.kind} check crashed on {display}: {type(err).__name__}: {err}") from err


def linked_out(kind: str, display: str, why: str | None = None) -> Diagnostic:
    """The finding doctor makes for a path that leads out of the workspace through a link: validate
    (the pre-commit hook hands it changed files) reads no more outside the workspace than doctor does."""
    if kind == "dataset":
        from osmosis_workspace.check.families.datasets import outside_finding

        return outside_finding(display, why)
    message = f"{display} {why or 'leads outside the workspace through a symlink; not checked'}"
    if kind == "skill":
        from osmosis_workspace.check.families.skill_rules import SKILL_PATH_ESCAPES

        return SKILL_PATH_ESCAPES.at(display, message)
    if kind == "config":
        from osmosis_workspace.check.families.config_rules import CONFIG_OUTSIDE

        return CONFIG_OUTSIDE.at(display, message)
    from osmosis_workspace.check.families.layout import ROLLOUT_OUTSIDE

    return ROLLOUT_OUTSIDE.at(display, message)


def _with_markers(target: Target, found: list[Diagnostic], display: str) -> list[Diagnostic]:
    """Conflict markers (LAY111) in what validate was named, as doctor reports them: the one finding
    in a conflicted file (its parse or syntax errors only repeat it)."""
    if target.kind == "unreadable":
        return found
    from osmosis_workspace.check.families.leftovers import drop_explained, file_marker_findings

    return drop_explained(file_marker_findings(target.path, display) + found)


def _directive_follows_folder(target: Target, found: list[Diagnostic]) -> list[Diagnostic]:
    """Without CFG022 when --kind differs from the config's folder: the `#:schema` line is right for
    the folder the file is in (`doctor --fix` writes it so and would not "fix" it); the findings of
    the other kind's rules already say the file does not fit --kind."""
    folder_kind = _config_kind(target.path, None)
    if folder_kind is None or folder_kind == target.config_kind:
        return found
    return [d for d in found if d.code != "CFG022"]


def _config_secrets(path: Path, ws: Workspace | None, display: str) -> list[Diagnostic]:
    """Credentials in a config: doctor reports them as its own family, so check_config_file does
    not; validate (the pre-commit hook on a changed config) must catch them too."""
    from osmosis_workspace.check.families.secrets import check_config_secrets
    from osmosis_workspace.readers.toml_locate import TomlDoc

    if ws is not None:
        text = ws.read_text(path)
    else:
        try:
            text = path.read_text(encoding="utf-8") if path.is_file() else None
        except (OSError, UnicodeDecodeError):
            text = None
    return check_config_secrets(TomlDoc.parse(text), display) if text is not None else []


def _filtered(found: list[Diagnostic], target: Target, ws: Workspace | None) -> list[Diagnostic]:
    """Apply the workspace's [tool.osmosis] select/ignore and inline suppressions, as doctor does."""
    if ws is None:
        return found
    from osmosis_workspace.check import suppress
    from osmosis_workspace.check.pipeline.selection import selection_for
    from osmosis_workspace.check.settings import load_settings, refuse_unknown_codes

    refuse_unknown_codes(ws)
    settings, _ = load_settings(ws)
    selection = selection_for((), (), settings)
    kept = [d for d in found if selection.keeps(d)]
    if target.path.suffix in suppress.SUFFIXES and is_file(target.path):
        text = ws.read_text(target.path.resolve()) if is_inside(ws.root, target.path) else None
        marks = suppress.parse(text, ws.rel(target.path.resolve())) if text is not None else []
        kept, notes = suppress.apply(kept, marks, selection.active_selector)
        kept += [d for d in notes if selection.keeps(d)]
    return kept


RUN_FINDINGS_CAP = 10_000  # findings one run keeps; past it the remaining files are counted, not checked


def validate_command(
    paths: list[Path],
    format: str = "text",
    kind: str | None = None,
    strict: bool | None = None,
    only: str | None = None,
    output_format: str = "full",
) -> int:
    from osmosis_workspace.check.doctor import check_format, check_output_format, emit, load_rules
    from osmosis_workspace.report import REPORTERS, Group, Report

    fmt = check_format(format, tuple(REPORTERS), "findings")
    output_format = check_output_format(output_format)
    if kind is not None and kind not in CONFIG_KINDS:
        raise UserError(f"--kind {kind}: must be one of {', '.join(CONFIG_KINDS)}")
    if not paths:
        raise UserError("name at least one file or folder to validate")
    started = time.perf_counter()
    targets = collect(list(paths), kind, only)
    if REPORTERS[fmt].describes_rules:
        load_rules()  # the report lists every rule, so the table must be complete

    workspaces = _Workspaces()
    groups: list[Group] = []
    everything: list[Diagnostic] = []
    files: dict[str, tuple[Path, Workspace | None]] = {}  # display -> file, for `--output-format full`
    file_strict: bool | None = None
    for index, target in enumerate(targets):
        if len(everything) >= RUN_FINDINGS_CAP:  # 100,000 one-line datasets made 400,000 findings (668 MB)
            left = len(targets) - index
            groups.append(Group(f"({left:,} more file{'s' if left != 1 else ''})",
                                note=f"not checked: {len(everything):,} findings reached the cap of one run; fix those and run again"))
            break
        ws = workspaces.of(target.path)
        display = _display(target.path, ws)
        fn = file_function(target.kind)
        if fn is None:
            groups.append(Group(display, note=f"skipped: the {target.kind} checks are not available in this version of osmosis"))
            continue
        found = sorted(_filtered(_with_markers(target, _run(target, fn, ws, display), display), target, ws), key=Diagnostic.sort_key)
        if ws is not None and file_strict is None:
            from osmosis_workspace.check.settings import load_settings

            file_strict = load_settings(ws)[0].strict
        groups.append(Group(display, found))
        files[display] = (target.path, ws)
        files[f"{display}/SKILL.md"] = (target.path / "SKILL.md", ws)  # a skill folder's findings are in its SKILL.md
        everything += found

    only_ws = next(iter(workspaces.by_root.values())) if len(workspaces.by_root) == 1 else None
    from osmosis_workspace.check.families import all_rules

    report = Report(
        rules=all_rules() if REPORTERS[fmt].describes_rules else [],  # only such a format needs every rule
        diagnostics=sorted(everything, key=Diagnostic.sort_key),
        groups=groups,
        workspace=str(only_ws.root) if only_ws else None,
        strict=strict if strict is not None else bool(file_strict),
        verbose=True,  # name every file checked, passing ones included: the user listed them
        color=True,
        files_checked=sum(1 for g in groups if not g.note),
        elapsed=time.perf_counter() - started,
        path_prefix=only_ws.repo_prefix if only_ws else "",
        command="osmosis doctor",
        output_format=output_format,
    )
    if fmt == "text" and output_format == "full":
        from osmosis_workspace.check.source_lines import files_source

        report.source = files_source(files)
    emit(report, fmt, None)
    return report.exit_code
