"""The configs family's cross-file rules, which need the workspace: rollout folder, entrypoint, local
dataset, schema directive, file naming; and `doctor --fix` of schema directives.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from osmosis_workspace.check.families.config_rules import (
    CONFIG_NAME_MISMATCH,
    CONFIG_NOT_TOML,
    DATASET_NOT_FOUND,
    ENTRYPOINT_NOT_FOUND,
    ENTRYPOINT_NOT_PYTHON,
    ENTRYPOINT_OUTSIDE,
    ROLLOUT_NOT_FOUND,
    SCHEMA_DIRECTIVE,
)
from osmosis_workspace.check.families.config_steps import COUNTED_SUFFIXES, check_steps
from osmosis_workspace.core.dataset_names import local_copies, names_a_path
from osmosis_workspace.core.diagnostics import Diagnostic, quoted
from osmosis_workspace.core.paths import is_dir, unusable_path
from osmosis_workspace.core.tool_folders import in_tool_folder_of
from osmosis_workspace.core.schemas import CONFIG_KINDS, schema_directive, schema_filename
from osmosis_workspace.core.suggest import close_matches
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.readers.toml_locate import TomlDoc


def _show(value: Any, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if isinstance(value, str) else _plain(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cross_file(data: dict, kind: str, ws: Workspace, path: Path, doc: TomlDoc, display: str,
                bad_paths: set[tuple]) -> Iterator[Diagnostic]:  # fmt: skip
    loc = doc.locator
    if wants_directive(ws, path, doc, data):  # the `#:schema` line is our convention, not the platform's
        yield from _directive(doc, kind, ws, path, display)
    experiment = data.get("experiment")
    if not isinstance(experiment, dict):
        return
    rollout = experiment.get("rollout")
    rollout_ok = isinstance(rollout, str) and ("experiment", "rollout") not in bad_paths
    if rollout_ok:
        folder = ws.root / "rollouts" / rollout
        # a rollout that does not exist is CFG016's finding; renaming the file to it would be wrong
        if is_dir(folder) and _in_config_folder(ws, path, kind) and not _name_matches(path.stem, rollout):
            line, column = loc.value(("experiment", "rollout")) or (1, 1)
            yield CONFIG_NAME_MISMATCH.at(
                display, f"{path.name} is for rollout {quoted(rollout)}; expected {rollout}.toml or {rollout}-<variant>.toml",
                line=line, column=column,
            )
        if folder in ws.unreadable or ws.hidden(folder):
            folder = None  # what it holds cannot be known: the access check reports the folder (LAY011)
        elif not is_dir(folder):
            line, column = loc.value(("experiment", "rollout")) or (1, 1)
            existing = [p.name for p in ws.rollout_dirs]
            guess = close_matches(rollout, existing, n=1)
            message = f"rollout {quoted(rollout)}: rollouts/{rollout}/ does not exist"
            if guess:
                message += f"; did you mean {guess[0]!r}?"
            yield ROLLOUT_NOT_FOUND.at(display, message, line=line, column=column,
                                       hint=f"Existing rollouts: {', '.join(existing)}." if existing else None)
            folder = None
    else:
        folder = None
    entry = experiment.get("entrypoint")
    if isinstance(entry, str) and ("experiment", "entrypoint") not in bad_paths:
        yield from _entrypoint(entry, folder, rollout if rollout_ok else None, loc, display)
    dataset = experiment.get("dataset")
    if isinstance(dataset, str) and ("experiment", "dataset") not in bad_paths:
        yield from _dataset(dataset, ws, loc, display)
        if kind == "training":
            yield from check_steps(data, ws, loc, display, bad_paths)


def _in_config_folder(ws: Workspace, path: Path, kind: str) -> bool:
    try:
        return path.resolve().parent == (ws.root / "configs" / kind).resolve()
    except (OSError, RuntimeError):
        return False


def _name_matches(stem: str, rollout: str) -> bool:
    return stem == "default" or stem == rollout or stem.startswith(rollout + "-") or stem.startswith(rollout + "_")


def entrypoint_escapes(entry: str) -> bool:
    """Whether ``entry`` is absolute or climbs out of its folder, judged on the text alone."""
    text = entry.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return True
    normal = posixpath.normpath(text)
    return normal == ".." or normal.startswith("../")


def _entrypoint(entry: str, folder: Path | None, rollout: str | None, loc, display: str) -> Iterator[Diagnostic]:
    line, column = loc.value(("experiment", "entrypoint")) or (1, 1)
    if problem := unusable_path(entry):
        yield ENTRYPOINT_NOT_FOUND.at(display, f"entrypoint {_show(entry)} {problem}; no such file can exist",
                                      line=line, column=column)
        return
    if entrypoint_escapes(entry):
        yield ENTRYPOINT_OUTSIDE.at(display, f"entrypoint {_show(entry)} must be a path inside rollouts/{rollout or '<rollout>'}/",
                                    line=line, column=column)
        return
    if not entry.endswith(".py"):
        yield ENTRYPOINT_NOT_PYTHON.at(display, f"entrypoint {_show(entry)} is not a Python module (.py): submit cannot import it",
                                       line=line, column=column, hint='Name the rollout\'s Python entrypoint, e.g. entrypoint = "main.py".')
        return
    if folder is None:
        return  # the rollout is missing or invalid: that finding already says what to fix
    target = folder / entry
    try:
        inside = target.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        inside = False
    if not inside:
        yield ENTRYPOINT_OUTSIDE.at(display, f"entrypoint {_show(entry)} resolves outside rollouts/{rollout}/ (through a symlink)",
                                    line=line, column=column)
    elif in_tool_folder_of(folder, target):  # never read (core/tool_folders.py), so never a rollout's own file
        yield ENTRYPOINT_OUTSIDE.at(display, f"entrypoint {_show(entry)} lies in a tool's folder (a virtual environment or cache) "
                                    f"of rollouts/{rollout}/", line=line, column=column)
    elif not target.is_file():
        # by stem: every module shares ".py", which made "main.py" look close to "grading.py"
        stems = {p.stem: p.name for p in folder.glob("*.py")}
        guess = [stems[g] for g in close_matches(posixpath.splitext(entry)[0], sorted(stems), n=1)]
        message = f"entrypoint rollouts/{rollout}/{entry} does not exist"
        if guess:
            message += f"; did you mean {guess[0]!r}?"
        yield ENTRYPOINT_NOT_FOUND.at(display, message, line=line, column=column)


local_dataset = names_a_path  # the one definition lives in core/dataset_names.py (rehearse reads it too)


_NAME_HINT = ("`dataset` takes a platform dataset name: upload the file with `osmosis dataset upload data/<file>` (named "
              "after its stem) and write that name; `osmosis eval run CONFIG --dataset-file data/<file>` runs a local file.")


def _dataset(value: str, ws: Workspace, loc, display: str) -> Iterator[Diagnostic]:
    if not local_dataset(value):
        return
    line, column = loc.value(("experiment", "dataset")) or (1, 1)
    if problem := unusable_path(value):
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} {problem}; no such file can exist", line=line, column=column)
        return
    text = value.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} is an absolute path, but `dataset` takes a platform dataset name",
                                   line=line, column=column, hint=_NAME_HINT)
        return
    normal = posixpath.normpath(text)
    relative = normal if normal.startswith("data/") else ("data/" + normal if "/" not in normal else normal)
    target = ws.root / relative
    try:
        inside = target.resolve().is_relative_to((ws.root / "data").resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        inside = False
    if not inside:
        # data/x.jsonl that is a symlink out of the workspace *is* under data/ as written: say so.
        where = "links outside the workspace" if posixpath.normpath(relative).startswith("data/") else "is not under data/"
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} {where} (and `dataset` takes a platform dataset name, not a path)",
                                   line=line, column=column, hint=_NAME_HINT)
        return
    if not target.is_file():
        existing = [ws.rel(p) for p in ws.data_files]
        guess = close_matches(relative, existing, n=1)
        message = f"dataset file {relative} does not exist"
        if guess:
            message += f"; did you mean {guess[0]!r}?"
        yield DATASET_NOT_FOUND.at(display, message + " (and `dataset` takes a platform dataset name, not a path)",
                                   line=line, column=column, hint=_NAME_HINT)
        return
    stem = posixpath.splitext(posixpath.basename(relative))[0]
    yield DATASET_NOT_FOUND.at(
        display, f"dataset {_show(value)} is a file path, but `dataset` takes a platform dataset name: submit sends it to the "
        "platform as a name and `eval run` looks it up there", line=line, column=column,
        hint=f"Upload the file (`osmosis dataset upload {relative}` names it {stem!r}) and write dataset = \"{stem}\"; "
             f"`osmosis eval run CONFIG --dataset-file {relative}` runs the local file.")
    if target.resolve() not in ws.resolved_data_files:
        # doctor checks data/'s dataset files itself; only a file it does not list is checked here.
        from osmosis_workspace.check.families.datasets import check_dataset_file

        yield from check_dataset_file(target, ws.rel(target))


def wants_directive(ws: Workspace, path: Path, doc: TomlDoc, data: object) -> bool:
    """Whether this config opted into the `#:schema` line: the workspace follows our conventions and
    either says so in `[tool.osmosis]`, or the config already starts with a `#:schema` line, is a
    reference `default.toml` (ours carry the line), or runs a rollout osmosis made (its
    `.copier-answers.yml`). A config of the platform's own template in an adopted workspace never
    asked for the line, and the platform does not need it."""
    if not ws.opted_in:
        return False
    tool = ws.pyproject.get("tool")
    if isinstance(tool, dict) and "osmosis" in tool:
        return True
    if doc.first_line().strip().startswith("#:schema") or path.name == "default.toml":
        return True
    experiment = data.get("experiment") if isinstance(data, dict) else None
    rollout = experiment.get("rollout") if isinstance(experiment, dict) else None
    if not isinstance(rollout, str) or not _plain_name(rollout):
        return False
    return (ws.root / "rollouts" / rollout / ".copier-answers.yml").is_file()


def _directive(doc: TomlDoc, kind: str, ws: Workspace, path: Path, display: str) -> Iterator[Diagnostic]:
    expected = schema_directive(kind)
    schema_file = _real(ws.root / ".osmosis" / "schemas" / schema_filename(kind))
    first = doc.first_line().strip()
    match = re.match(r"^#:schema\s+(\S+)\s*$", first)
    if match is None:
        # The directive must be the first line for editors to see it.
        message = f"first line is not `{expected}`"
    else:
        target = match.group(1)
        if "://" not in target and _real(path.parent / target) == schema_file:
            return
        message = f"`#:schema {target}` does not point at the workspace's {schema_filename(kind)}"
    hint = f"Make the first line `{_relative_directive(path, schema_file)}` (`osmosis doctor --fix` does it)."
    yield SCHEMA_DIRECTIVE.at(display, message, line=1, column=1, hint=hint)


def _real(path: Path) -> Path:
    # os.path.realpath, unlike Path.resolve() before Python 3.13, does not raise on a symlink loop
    return Path(os.path.realpath(path))


def _relative_directive(config: Path, schema_file: Path) -> str:
    rel = os.path.relpath(schema_file, _real(config).parent)
    return "#:schema " + Path(rel).as_posix()


def plan_schema_directives(ws: Workspace) -> list[tuple[str, bytes, str]]:
    """`doctor --fix`: the right `#:schema` line first in every config that lacks it.

    A wrong `#:schema` first line is replaced; any other first line is kept below the new one.
    Files that do not parse are left alone (the directive is the least of their problems).
    Returns (path, new content, what changes) per file; writes nothing.
    """
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    if not ws.opted_in:
        return []
    changed = []
    for kind in CONFIG_KINDS:
        for path in ws.config_files(kind):
            if ws.outside(path) or not path.is_file():  # never write through a link out (CFG024), nor read a FIFO
                continue
            try:
                # exact bytes, not Workspace.read_text: universal newlines would turn CRLF files into LF;
                # capped as doctor caps its reads: a config doctor refuses to parse, --fix does not parse either
                text = read_capped(path, MAX_TEXT_BYTES).decode("utf-8")
            except (Unreadable, UnicodeDecodeError):
                continue
            doc = TomlDoc.parse(text)
            if doc.error is not None or path.is_symlink() or not wants_directive(ws, path, doc, doc.data) \
                    or not list(_directive(doc, kind, ws, path, "")):
                continue
            schema_file = _real(ws.root / ".osmosis" / "schemas" / schema_filename(kind))
            line = _relative_directive(path, schema_file)
            first, sep, rest = text.partition("\n")
            newline = "\r\n" if first.endswith("\r") else "\n"
            if first.strip().startswith("#:schema"):
                new = line + (newline if sep else "") + rest
            else:
                new = line + newline + text
            changed.append((ws.rel(path), new.encode("utf-8"), f"{ws.rel(path)}: first line set to `{line}`"))
    return changed


# -- CFG031: a config the SDK refuses for its name --------------------------------------------------


@workspace_check("configs")
def check_config_suffixes(ws: Workspace) -> list[Diagnostic]:
    """CFG031 for each file in configs/eval/ or configs/training/ meant as a config but not named *.toml."""
    return [CONFIG_NOT_TOML.at(ws.rel(path), f"{path.name} is not named *.toml: `eval run` and submit refuse it, and doctor checked nothing in it",
                               hint=f"Rename it to configs/{kind}/{stem}.toml.") for kind, path, stem in misnamed_configs(ws)]


def misnamed_configs(ws: Workspace) -> list[tuple[str, Path, str]]:
    """(kind, path, stem) of the files in configs/eval/ and configs/training/ meant as configs whose
    names do not end in `.toml`: a near miss of the suffix, or TOML text with an [experiment] table
    (notes and READMEs are neither). Benchmark configs are not path-checked by the SDK."""
    return ws.memo("misnamed_configs", lambda: _misnamed_configs(ws))


def _misnamed_configs(ws: Workspace) -> list[tuple[str, Path, str]]:
    from osmosis_workspace.readers.datasets.extensions import _one_edit

    found = []
    # the listing is the files' alone: an editor's edit run keeps it (check/live.py DISK_VIEWS); the text
    # of a candidate may be a buffer, so it is read each run
    for kind, path in ws.memo("misnamed-candidates", lambda: _not_toml(ws)):
        suffix = path.suffix
        near = suffix.lower() == ".toml" or (len(suffix) > 2 and _one_edit(suffix.lower(), ".toml"))
        if near or _experiment_toml(ws, path):
            found.append((kind, path, path.name[: -len(suffix)] if suffix else path.name))
    return found


def _not_toml(ws: Workspace) -> list[tuple[str, Path]]:
    """(kind, path) of the files in configs/eval/ and configs/training/ not named *.toml (dotfiles aside)."""
    found = []
    for kind in ("eval", "training"):
        base = ws.root / "configs" / kind
        if not is_dir(base) or base in ws.unreadable:
            continue
        try:
            entries = sorted(base.iterdir(), key=lambda p: p.name)[:500]  # Path order within one folder, cheaper
        except OSError:
            continue
        found += [(kind, path) for path in entries if path.suffix != ".toml" and not path.name.startswith(".") and path.is_file()]
    return found


def _experiment_toml(ws: Workspace, path: Path) -> bool:
    if path.suffix.lower() in (".md", ".py", ".json", ".yaml", ".yml") or ws.outside(path):
        return False
    text = ws.read_text(path)
    if not text or "[experiment]" not in text:
        return False
    data = TomlDoc.parse(text).data
    return isinstance(data, dict) and isinstance(data.get("experiment"), dict)


# -- what a config's findings are judged on (doctor's cache keeps them per config) -------------------


def judgement(ws: Workspace, path: Path, kind: str, ref) -> tuple[tuple[str, ...] | None, str]:
    """(judged_on, judged_with) of a config, kept for the snapshot per what they read of the config:
    its path, kind, and the rollout and dataset it names. The rest is the files' (folders, local
    copies, the opted-in setting of the root pyproject.toml), so an editor's edit run keeps the map
    (check/live.py DISK_VIEWS); a full run starts it afresh. judged_with is "" when judged_on is None."""
    known = ws.memo("config-judgement", dict)
    key = (str(path), kind) if ref is None else (str(path), kind, ref.experiment_str("rollout"), ref.experiment_str("dataset"))
    if key not in known:
        inputs = judged_on(ws, path, ref)
        known[key] = (None, "") if inputs is None else (tuple(inputs), judged_with(ws, kind, ref))
    return known[key]


def with_eval_names(item: tuple, findings: list[Diagnostic]) -> tuple[list[Diagnostic], tuple[str, ...]]:
    """check_configs' value of one config (path, ConfigRef or None, kind): its findings, and the rollouts it
    is an eval config of (its name, the rollout it names), which the rollouts-without-eval aggregate counts."""
    path, ref, kind = item
    if kind != "eval":
        return findings, ()
    rollout = ref.experiment_str("rollout") if ref is not None else None
    return findings, (path.stem,) if rollout is None else (path.stem, rollout)


def judged_on(ws: Workspace, path: Path, ref) -> list[str] | None:
    """What ``path``'s findings depend on besides their kind: the file; the root pyproject.toml and
    the schema files (whether, and which, `#:schema` line is wanted); the folder of the rollout it
    names (the folder, its entrypoint, its copier answers); the local dataset it names (a path: all
    of data/; a name: its copies data/<name>.jsonl|.parquet, whose rows a training config's steps
    are judged on). None when a name is no plain folder name: judged afresh each run. ``ref`` is the
    config's check.config_refs.ConfigRef (None when it does not parse: the file alone decides).
    Strings, not Paths: this runs for each of thousands of configs."""
    if ref is None:
        return [str(path)]
    root = str(ws.root)
    inputs = [str(path), f"{root}/pyproject.toml", f"{root}/.osmosis/schemas"]
    rollout, dataset = ref.experiment_str("rollout"), ref.experiment_str("dataset")
    if rollout is not None:
        if not _plain_name(rollout):
            return None
        inputs.append(f"{root}/rollouts/{rollout}")
    if dataset is not None:
        if names_a_path(dataset):
            inputs.append(f"{root}/data")
            # written outside data/ (`datasets/x.jsonl`): the path itself, which may be a link into data/
            normal = posixpath.normpath(dataset.replace("\\", "/"))
            if not normal.startswith("data/") and "/" in normal:
                if normal.startswith(("/", "../")) or re.match(r"^[A-Za-z]:", normal):
                    return None
                inputs.append(f"{root}/{normal}")
        elif copies := local_copies(dataset, COUNTED_SUFFIXES):  # what a training config's steps count
            inputs += [f"{root}/{rel}" for rel in copies]
        else:
            return None
    return inputs


def judged_with(ws: Workspace, kind: str, ref) -> str:
    """What else a config's findings are judged on (the ``extra`` of its unit): its kind, whether the
    workspace opted in, and, when the rollout it names is no folder, the rollouts there are (CFG016
    guesses among them and lists them, and adding one leaves the missing folder as absent as it was)."""
    extra = f"{kind}\0opted-in={ws.opted_in}"
    rollout = ref.experiment_str("rollout") if ref is not None else None
    if rollout is not None:
        folders = ws.memo("rollout-is-folder", dict)  # per name (4,000 configs name 2,000); edit runs keep it (live.py)
        if rollout not in folders:
            folders[rollout] = is_dir(ws.root / "rollouts" / rollout)
        if not folders[rollout]:
            extra += "\0rollouts=" + "/".join(p.name for p in ws.rollout_dirs)
    return extra


def _plain_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".") and "\0" not in name
