"""Checks: Agent Skills (contract section 5).

A skill folder's SKILL.md is judged the way the reference validator (`skills-ref`, command
`agentskills validate`) judges it, so that our valid/invalid verdict agrees with it: the same
front-matter split (the text between the first two `---`), the same YAML subset (strictyaml, which
reads every scalar as a string and refuses flow style, anchors, tags and duplicate keys) and the
same name/description/compatibility limits. Plain `key: value` front matter (nearly every skill) is
read by a small exact reader without any YAML import; anything else goes to pyyaml's BaseLoader,
which also keeps every scalar a string, and we reject strictyaml's forbidden features from the
parser's events ourselves. tests/skills/ checks the agreement on a corpus and by property tests.

On top of that verdict we add findings the reference does not make: warnings (body length, odd
delimiters, metadata shape, relative body links whose file is missing or lies outside the skill),
and the workspace wiring (bundled skills present, `.claude/skills` links). Spec validity alone
decides a skill's errors: a dead or outward link is portability advice, not an invalid skill.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from osmosis_workspace.check.families.skill_rules import (
    ALLOWED_KEYS, BODY_TOO_LONG, BUNDLED_SKILL_MISSING, CLAUDE_LINK_ABSOLUTE, CLAUDE_LINK_BROKEN,
    CLAUDE_LINK_MISSING, CLAUDE_LINK_WRONG_TARGET, CLAUDE_SKILL_COPY, COMPATIBILITY_NOT_STRING,
    COMPATIBILITY_TOO_LONG, DESCRIPTION_EMPTY, DESCRIPTION_MISSING, DESCRIPTION_TOO_LONG, FRONT_MATTER_DELIMITERS,
    FRONT_MATTER_LINE_SEPARATOR, FRONT_MATTER_MISSING, FRONT_MATTER_UNCLOSED, LINK_ESCAPES_SKILL,
    LINK_TARGET_MISSING, MAX_BODY_LINES, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH,
    METADATA_NOT_MAP, NAME_BAD_CHARACTERS, NAME_EMPTY, NAME_FOLDER_MISMATCH, NAME_HYPHENS, NAME_MISSING,
    NAME_NOT_LOWERCASE, NAME_TOO_LONG, SKILL_MD_LOWERCASE, SKILL_MD_MISSING, SKILL_MD_UNREADABLE,
    SKILL_PATH_ESCAPES, UNKNOWN_KEY,
)
from osmosis_workspace.check.families.skill_yaml import _Field, _load_front_matter
from osmosis_workspace.check.registry import Rule, workspace_check
from osmosis_workspace.check.settings import extra_skills  # bad values there are SET findings, not ours
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import replace
from osmosis_workspace.core.suggest import closest
from osmosis_workspace.core.resources import SKILL_NAMES
from osmosis_workspace.core.paths import is_dir
from osmosis_workspace.core.access import access_denied, listing
from osmosis_workspace.core.workspace import FILE_PERMISSIONS_HINT, Workspace


# --- file-level -------------------------------------------------------------------------------------
def check_skill_dir(path: Path, display: str) -> list[Diagnostic]:
    """Everything wrong with one skill folder (or its SKILL.md, given directly).

    ``display`` names the folder in diagnostics; findings inside the file carry ``<display>/SKILL.md``.
    """
    path = Path(path)
    if path.is_file() and path.name.lower() == "skill.md":
        path = path.parent
        display = posixpath.dirname(display.rstrip("/")) or "."
    display = display.rstrip("/") or "."
    if not path.is_dir():
        return [SKILL_MD_MISSING.at(display, f"{display} is not a folder; a skill is a folder holding SKILL.md")]
    found: list[Diagnostic] = []
    skill_md = path / "SKILL.md"
    if not skill_md.is_file():
        skill_md = path / "skill.md"
        if not skill_md.is_file():
            return [SKILL_MD_MISSING.at(display, f"the skill folder {display} has no SKILL.md")]
        found.append(SKILL_MD_LOWERCASE.at(f"{display}/skill.md", "the skill file is named skill.md; name it SKILL.md"))
    file_display = f"{display}/{skill_md.name}"
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    try:  # capped like configs: the whole text is parsed, front matter and all
        text = read_capped(skill_md, MAX_TEXT_BYTES).decode("utf-8")
    except UnicodeDecodeError as err:
        found.append(SKILL_MD_UNREADABLE.at(file_display, f"{skill_md.name} is not UTF-8 text (byte {err.start})"))
        return found
    except Unreadable as err:
        hint = FILE_PERMISSIONS_HINT if access_denied(skill_md) is not None else None
        found.append(SKILL_MD_UNREADABLE.at(file_display, f"{skill_md.name} {err}", hint=hint))
        return found
    found.extend(check_skill_text(text, _folder_name(path), file_display, skill_dir=path))
    return found


def check_skill_text(text: str, folder_name: str, display: str, skill_dir: Path | None = None) -> list[Diagnostic]:
    """Findings for SKILL.md ``text`` of a skill in a folder called ``folder_name``.

    Never raises on any text. Body links are checked only when ``skill_dir`` is given.
    """
    # The reference validator's split, reproduced exactly so that our verdicts agree with it.
    if not text.startswith("---"):
        hint = "remove the byte-order mark before `---`" if text.startswith("\ufeff---") else None
        return [FRONT_MATTER_MISSING.at(display, "SKILL.md does not start with `---` front matter", line=1, column=1,
                                        hint=hint)]
    parts = text.split("---", 2)
    if len(parts) < 3:
        return [FRONT_MATTER_UNCLOSED.at(display, "the front matter opened on line 1 is never closed with `---`",
                                         line=1, column=1)]
    front, body = parts[1], parts[2]
    found = _delimiter_findings(text, front, display)
    odd_break = re.search("[\x85\u2028\u2029]", front)
    if odd_break:
        line, column = _line_column(text, 3 + odd_break.start())
        found.append(FRONT_MATTER_LINE_SEPARATOR.at(
            display, f"the front matter holds the Unicode line break U+{ord(odd_break.group()):04X}",
            line=line, column=column))
    data, problem = _load_front_matter(front, display)
    if problem is not None:
        return found + [problem]
    found.extend(_field_findings(data, folder_name, display))
    body_line, body_column = _line_column(text, 6 + len(front))  # just after the closing `---`
    found.extend(_body_findings(body, body_line, body_column, display, skill_dir))
    return found


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _folder_name(path: Path) -> str:
    # abspath, not resolve: `.` has the name of the current folder, and a link keeps its own name.
    return Path(os.path.abspath(path)).name


def _delimiter_findings(text: str, front: str, display: str) -> list[Diagnostic]:
    found = []
    first_line = text[: text.find("\n")] if "\n" in text else text
    if first_line.rstrip() != "---":
        found.append(FRONT_MATTER_DELIMITERS.at(
            display, "the opening `---` shares its line with other text", line=1, column=4))
    close_at = 3 + len(front)  # offset of the closing `---`
    line_start = text.rfind("\n", 0, close_at) + 1
    line_end = text.find("\n", close_at)
    if text[line_start: len(text) if line_end < 0 else line_end].strip() != "---":
        line, column = _line_column(text, close_at)
        found.append(FRONT_MATTER_DELIMITERS.at(
            display, "the front matter ends at a `---` that is not on a line of its own "
                     "(the reference validator stops reading the front matter there)",
            line=line, column=column))
    return found


# --- fields -----------------------------------------------------------------------------------------
def _field_findings(data: dict[str, _Field], folder_name: str, display: str) -> list[Diagnostic]:
    found = []
    meant: set[str] = set()  # `descripton:` is one finding (a misspelt key), not also "no description"
    for key, field in data.items():
        if key not in ALLOWED_KEYS:
            guess = closest(key, ALLOWED_KEYS)
            if guess is not None and guess not in data:
                meant.add(guess)
            found.append(UNKNOWN_KEY.at(
                display, f"unknown front-matter key {key!r}" + (f"; did you mean {guess!r}?" if guess else f"; allowed: {', '.join(ALLOWED_KEYS)}"),
                line=field.line, column=field.column))
    if "name" not in data:
        if "name" not in meant:
            found.append(NAME_MISSING.at(display, "the front matter has no `name`", line=1, column=1,
                                         hint=f"add `name: {folder_name}`"))
    else:
        found.extend(_name_findings(data["name"], folder_name, display))
    if "description" not in data:
        if "description" not in meant:
            found.append(DESCRIPTION_MISSING.at(display, "the front matter has no `description`", line=1, column=1))
    else:
        field = data["description"]
        at = {"line": field.line, "column": field.column}
        if not isinstance(field.value, str) or not field.value.strip():
            found.append(DESCRIPTION_EMPTY.at(display, f"`description` is {_describe(field.value)}", **at))
        elif len(field.value) > MAX_DESCRIPTION_LENGTH:
            found.append(DESCRIPTION_TOO_LONG.at(
                display, f"`description` is {len(field.value)} characters long; the limit is {MAX_DESCRIPTION_LENGTH}",
                **at))
    if "compatibility" in data:
        field = data["compatibility"]
        at = {"line": field.line, "column": field.column}
        if not isinstance(field.value, str):
            found.append(COMPATIBILITY_NOT_STRING.at(display, f"`compatibility` is {_describe(field.value)}", **at))
        elif len(field.value) > MAX_COMPATIBILITY_LENGTH:
            found.append(COMPATIBILITY_TOO_LONG.at(
                display, f"`compatibility` is {len(field.value)} characters long; the limit is "
                         f"{MAX_COMPATIBILITY_LENGTH}", **at))
    if "metadata" in data:
        field = data["metadata"]
        value = field.value
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            what = "a map with non-text values" if isinstance(value, dict) else _describe(value)
            found.append(METADATA_NOT_MAP.at(display, f"`metadata` is {what}, not a string -> string map",
                                             line=field.line, column=field.column))
    return found


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping, not a string"
    if isinstance(value, list):
        return "a list, not a string"
    return "empty" if not value.strip() else "text"


def _nfkc(text: str) -> str:
    """NFKC-normalised ``text``: ASCII is its own NFKC form, so unicodedata loads only for other text."""
    if text.isascii():
        return text
    import unicodedata

    return unicodedata.normalize("NFKC", text)


def _name_findings(field: _Field, folder_name: str, display: str) -> list[Diagnostic]:
    at = {"line": field.line, "column": field.column}
    raw = field.value
    if not isinstance(raw, str) or not raw.strip():
        return [NAME_EMPTY.at(display, f"`name` is {_describe(raw)}", **at, hint=f"set `name: {folder_name}`")]
    # The reference compares NFKC-normalised, stripped text, and allows Unicode letters.
    name = _nfkc(raw.strip())
    found = []
    if len(name) > MAX_NAME_LENGTH:
        found.append(NAME_TOO_LONG.at(
            display, f"`name` is {len(name)} characters long; the limit is {MAX_NAME_LENGTH}", **at))
    # One wrong name is one finding: its problems are listed together under the first one's code,
    # and the folder mismatch is left out when the fix (a valid name) is the same.
    problems: list[tuple] = []
    if name != name.lower():
        problems.append((NAME_NOT_LOWERCASE, "has uppercase letters"))
    if name.startswith("-") or name.endswith("-"):
        problems.append((NAME_HYPHENS, "starts or ends with a hyphen"))
    if "--" in name:
        problems.append((NAME_HYPHENS, "contains `--`"))
    bad = sorted({c for c in name if not (c.isalnum() or c == "-")})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        problems.append((NAME_BAD_CHARACTERS, f"has characters other than letters, digits and hyphens: {shown}"))
    if problems:
        valid = _valid_name(name)
        folder_ok = _valid_name(folder_name) == folder_name
        if valid != _nfkc(folder_name):
            problems.append((NAME_FOLDER_MISMATCH, f"differs from the folder name {folder_name!r}"))
        hint = (f"set `name: {folder_name}`" if folder_ok
                else f"use {valid!r} (and rename the folder to match)")
        found.append(problems[0][0].at(display, f"`name` {name!r} " + "; it ".join(p[1] for p in problems), **at, hint=hint))
    elif _nfkc(folder_name) != name:
        found.append(NAME_FOLDER_MISMATCH.at(
            display, f"`name` {name!r} differs from the folder name {folder_name!r}", **at,
            hint=f"set `name: {folder_name}` or rename the folder to {name!r}"))
    return found


# --- body ---------------------------------------------------------------------------------------------
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)")
_REFERENCE_DEF = re.compile(r"^ {0,3}\[(?!\^)[^\]]+\]:\s*(<[^>\n]*>|\S+)")  # `[^1]: ...` is a footnote
# A placeholder that skill runners replace with the skill's folder (Claude Code and others).
_BASE_DIR = "{baseDir}"
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def _body_findings(body: str, first_line: int, first_column: int, display: str,
                   skill_dir: Path | None) -> list[Diagnostic]:
    found = []
    lines = body.strip().splitlines()
    if len(lines) > MAX_BODY_LINES:
        found.append(BODY_TOO_LONG.at(
            display, f"the SKILL.md body is {len(lines)} lines long; keep it under {MAX_BODY_LINES}"))
    if skill_dir is not None:
        found.extend(_link_findings(body, first_line, first_column, display, skill_dir))
    return found


def _link_findings(body: str, first_line: int, first_column: int, display: str, skill_dir: Path) -> list[Diagnostic]:
    found = []
    root = os.path.abspath(skill_dir)
    fence: str | None = None
    for index, line in enumerate(body.split("\n")):
        if "`" not in line and "~" not in line and (fence is not None or "[" not in line):
            continue  # no fence mark, and inside a fence or no link: the passes below find nothing
        offset = first_column - 1 if index == 0 else 0  # the body's first line starts after `---`
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        # Blank out code spans (same length, so columns stay right): links in code are examples.
        visible = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        matches = list(_INLINE_LINK.finditer(visible))
        definition = _REFERENCE_DEF.match(visible)
        if definition:
            matches.append(definition)
        for match in matches:
            target = match.group(1)
            column = match.start(1) + 1 + offset
            if target.startswith("<"):
                target, column = target[1:-1], column + 1
            problem = _link_problem(target, root)
            if problem:
                rule_, message = problem
                found.append(rule_.at(display, message, line=first_line + index, column=column))
    return found


def _link_problem(target: str, root: str) -> tuple[Rule, str] | None:
    if not target or target.startswith("#") or target.startswith("//") or _SCHEME.match(target):
        return None  # anchors and URLs are not files
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if not path:
        return None
    base_dir = path == _BASE_DIR or path.startswith(_BASE_DIR + "/")
    if base_dir:
        path = "." + path[len(_BASE_DIR):]
    elif path.startswith("/") or os.path.isabs(path):
        return LINK_ESCAPES_SKILL, f"the link {target!r} is an absolute path; link relative to the skill folder"
    joined = os.path.normpath(os.path.join(root, path))
    if os.path.commonpath([root, joined]) != root and not _in_sibling_skill(joined, root):
        return LINK_ESCAPES_SKILL, f"the link {target!r} points outside the skill folder, not into a skill beside it"
    if not os.path.exists(joined):
        where = " ({baseDir} is the skill folder)" if base_dir else ""
        return LINK_TARGET_MISSING, f"the link {target!r} points to a file that does not exist{where}"
    return None


def _in_sibling_skill(path: str, root: str) -> bool:
    """Whether ``path`` lies in another skill folder beside the skill at ``root`` (one that has a SKILL.md)."""
    parent = os.path.dirname(root)
    if os.path.commonpath([parent, path]) != parent or path == parent:
        return False
    sibling = os.path.join(parent, os.path.relpath(path, parent).split(os.sep, 1)[0])
    return any(os.path.isfile(os.path.join(sibling, name)) for name in ("SKILL.md", "skill.md"))


def _valid_name(name: str) -> str:
    """A spelling of ``name`` that the name rule accepts ('Plan_Training' -> 'plan-training'), for hints."""
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9-]", "-", name.lower())).strip("-")


# --- workspace ------------------------------------------------------------------------------------------
def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([root, path]) == root


@workspace_check("skills")
def check_skills(ws: Workspace) -> list[Diagnostic]:
    """Every skill in .agents/skills/, the bundled ones present, and their .claude/skills/ links."""
    found: list[Diagnostic] = []
    root = os.path.realpath(ws.root)
    skill_dirs = [d for d in ws.skill_dirs if not d.name.startswith(".")]  # .git, editor caches: not skills
    for skill_dir in skill_dirs:
        display = f".agents/skills/{skill_dir.name}"
        if skill_dir in ws.unreadable:
            continue  # the access check's finding (LAY012)
        if ws.outside(skill_dir):  # a linked skill folder, or .agents/ itself linked in from elsewhere
            found.append(SKILL_PATH_ESCAPES.at(display, f"{display} leads outside the workspace through a symlink; not checked"))
            continue
        escaping = [f for f in (skill_dir / "SKILL.md", skill_dir / "skill.md") if f.is_symlink() and ws.outside(f)]
        if escaping:
            file_display = f"{display}/{escaping[0].name}"
            found.append(SKILL_PATH_ESCAPES.at(file_display, f"{file_display} is a link to a file outside the workspace; not checked"))
            continue
        found.extend(check_skill_dir(skill_dir, display))
    present = {d.name for d in skill_dirs}
    for name in SKILL_NAMES if ws.opted_in else ():  # our bundle is our convention (Workspace.opted_in)
        if name not in present:
            found.append(BUNDLED_SKILL_MISSING.at(
                f".agents/skills/{name}", f"the bundled skill {name!r} is missing from .agents/skills/"))
    for name in extra_skills(ws):
        if name not in present and name not in SKILL_NAMES:
            found.append(replace(BUNDLED_SKILL_MISSING.at(
                f".agents/skills/{name}", f"the skill {name!r} required by [tool.osmosis] extra-skills is missing",
                hint=f"add .agents/skills/{name}/SKILL.md, or drop it from extra-skills"), fixable=False))
    found.extend(_claude_link_findings(Path(root), present))
    return found


def _claude_link_findings(ws_root: Path, present: set[str]) -> list[Diagnostic]:
    """Each .claude/skills/<name> must be a relative link to ../../.agents/skills/<name> (``ws_root`` resolved)."""
    root = str(ws_root)
    agents = ws_root / ".agents" / "skills"
    claude = ws_root / ".claude" / "skills"
    if any(access_denied(p) for p in (claude.parent, claude, agents.parent, agents) if is_dir(p)):
        return []  # the access check's finding (LAY012): what the links are cannot be known
    entries = set()
    if is_dir(claude) and not claude.is_symlink():
        # Plain files (a README, .gitkeep) are not skills: Claude Code ignores them, so do we.
        entries = {p.name for p in listing(claude) if not p.name.startswith(".") and (p.is_dir() or p.is_symlink())}
    found = []
    for name in sorted(present | entries):
        link = claude / name
        display = f".claude/skills/{name}"
        relink = f"`ln -sfn ../../.agents/skills/{name} {display}` (from the workspace root)"
        canonical = name in present
        if not link.is_symlink():
            if not link.exists():
                found.append(CLAUDE_LINK_MISSING.at(
                    display, f"{display} is missing, so Claude Code does not see the skill {name!r}",
                    hint=f"run `osmosis doctor --fix`, or {relink}"))
            elif not link.is_dir():
                found.append(CLAUDE_LINK_WRONG_TARGET.at(
                    display, f"{display} is a file, not a link to .agents/skills/{name}",
                    hint=f"remove the file, then {relink}"))
            elif canonical:
                found.append(CLAUDE_SKILL_COPY.at(
                    display, f"{display} is a copied folder, not a link to .agents/skills/{name}",
                    hint=f"move any edits into .agents/skills/{name}, delete the copy, then {relink}"))
            else:
                found.append(CLAUDE_SKILL_COPY.at(
                    display, f"{display} is a folder with no .agents/skills/{name}: the skill lives only in .claude/",
                    hint=f"move it: `git mv {display} .agents/skills/{name}`, then {relink}"))
            continue
        target = os.readlink(link)
        lexical = os.path.normpath(os.path.join(claude, target))
        if not _inside(lexical, root) or (os.path.exists(link) and not _inside(os.path.realpath(link), root)):
            found.append(SKILL_PATH_ESCAPES.at(
                display, f"{display} links to {target!r}, outside the workspace",
                hint=f"keep the skill in .agents/skills/{name}, then {relink}"))
        elif not os.path.exists(link):
            if canonical or name in SKILL_NAMES:  # --fix relinks it (restoring a bundled skill first)
                found.append(CLAUDE_LINK_BROKEN.at(
                    display, f"{display} links to {target!r}, which does not exist",
                    hint=f"run `osmosis doctor --fix`, or {relink}"))
            else:
                found.append(replace(CLAUDE_LINK_BROKEN.at(
                    display, f"{display} links to {target!r}, which does not exist",
                    hint=f"remove the broken link: `rm {display}`"), fixable=False))
        elif not canonical or os.path.realpath(link) != os.path.realpath(agents / name):
            found.append(CLAUDE_LINK_WRONG_TARGET.at(
                display, f"{display} links to {target!r}, not to .agents/skills/{name}", hint=f"relink it: {relink}"))
        elif os.path.isabs(target):
            found.append(CLAUDE_LINK_ABSOLUTE.at(
                display, f"{display} is an absolute link ({target}); it breaks in other clones",
                hint=f"run `osmosis doctor --fix`, or {relink}"))
    return found
