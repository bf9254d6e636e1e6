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

import dataclasses
import os
import posixpath
import re
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from generator.check.registry import workspace_check
from generator.core.diagnostics import Diagnostic
from generator.check.registry import Rule, family_rules
from generator.core.resources import SKILL_NAMES
from generator.check.settings import extra_skills  # bad values there are SET findings, not ours
from generator.core.workspace import Workspace

MAX_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
MAX_COMPATIBILITY_LENGTH = 500
MAX_BODY_LINES = 500
ALLOWED_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")

_F = "skills"


_rule = family_rules(_F)


# --- the skill folder and its front matter (what `agentskills validate` also judges) ---------------
SKILL_MD_MISSING = _rule(
    "SKL001", "skill-md-missing", "error", "A skill folder has no SKILL.md.",
    "Agents discover a skill only through its SKILL.md; without it the folder is ignored.",
    "Add SKILL.md with `name` and `description` front matter, or remove the folder.",
    ".agents/skills/my-skill/ holding only notes.md", source="skills-ref; contract §5")
SKILL_MD_LOWERCASE = _rule(
    "SKL002", "skill-md-lowercase", "warning", "The skill file is named skill.md instead of SKILL.md.",
    "The reference validator accepts skill.md, but agents that look for SKILL.md on case-sensitive "
    "file systems will not find it.",
    "Rename skill.md to SKILL.md (`git mv skill.md SKILL.md`).", ".agents/skills/x/skill.md", source="ours")
SKILL_MD_UNREADABLE = _rule(
    "SKL003", "skill-md-unreadable", "error", "SKILL.md cannot be read as UTF-8 text.",
    "Agents and the reference validator read SKILL.md as UTF-8; other encodings fail to load.",
    "Re-save SKILL.md as UTF-8.", "a SKILL.md saved as Latin-1 with accented letters", source="skills-ref; contract §5")
FRONT_MATTER_MISSING = _rule(
    "SKL004", "front-matter-missing", "error", "SKILL.md does not start with `---` YAML front matter.",
    "The skill's name and description live in the front matter; agents cannot index a skill without them.",
    "Start SKILL.md with `---`, then `name:` and `description:` lines, then a closing `---` line "
    "(no blank line or byte-order mark before the first `---`).",
    "# My skill\\n(no front matter)", source="skills-ref; contract §5")
FRONT_MATTER_UNCLOSED = _rule(
    "SKL005", "front-matter-unclosed", "error", "The front matter has no closing `---`.",
    "Without the closing delimiter the whole file would be read as YAML.",
    "Add a line `---` after the last front-matter key.", "---\\nname: x\\ndescription: y\\n# Body", source="skills-ref; contract §5")
FRONT_MATTER_INVALID_YAML = _rule(
    "SKL006", "front-matter-invalid-yaml", "error", "The front matter is not valid YAML.",
    "Unparsable front matter makes the skill invisible to agents.",
    "Fix the YAML at the reported line; quote values that contain `: ` or start with a special "
    "character (e.g. `description: \"Use when: ...\"`).",
    "description: Use when: the dataset changes", source="skills-ref; contract §5")
FRONT_MATTER_STRICT_YAML = _rule(
    "SKL007", "front-matter-strict-yaml", "error",
    "The front matter uses YAML the reference parser refuses: flow style, anchors/aliases, tags or duplicate keys.",
    "The Agent Skills reference validator parses front matter with strictyaml, which rejects these "
    "features; a skill using them is invalid there.",
    "Use block style (one `key: value` a line, `- item` lists), no `&anchor`/`*alias`/`!!tag`, each key once.",
    "metadata: {author: me}", source="skills-ref; contract §5")
FRONT_MATTER_NOT_MAPPING = _rule(
    "SKL008", "front-matter-not-mapping", "error", "The front matter is not a YAML mapping of keys to values.",
    "Fields are read by key; a list, a bare string or empty front matter holds no fields.",
    "Write the front matter as `key: value` lines: at least `name:` and `description:`.",
    "---\\n- name\\n---", source="skills-ref; contract §5")
FRONT_MATTER_DELIMITERS = _rule(
    "SKL009", "front-matter-delimiters", "warning",
    "A front-matter `---` delimiter is not on a line of its own.",
    "The reference validator splits at the first two `---` anywhere in the file, so a `---` inside "
    "a value (or text beside a delimiter) silently cuts the front matter short; other tools split "
    "by lines and read something else.",
    "Put each `---` on its own line and avoid `---` inside front-matter values (quote or reword them).",
    "description: plan --- then train", source="ours")
UNKNOWN_KEY = _rule(
    "SKL010", "unknown-front-matter-key", "error", "The front matter has a key the Agent Skills format does not define.",
    f"Only {', '.join(ALLOWED_KEYS)} are allowed; validators reject others.",
    "Remove the key, or move it under `metadata:` (a string -> string map).", "version: 1", source="skills-ref; contract §5")
NAME_MISSING = _rule(
    "SKL011", "name-missing", "error", "The front matter has no `name`.",
    "Agents identify and invoke a skill by its name.", "Add `name: <folder-name>` to the front matter.",
    "---\\ndescription: ...\\n---", source="skills-ref; contract §5")
NAME_EMPTY = _rule(
    "SKL012", "name-empty", "error", "`name` is empty or not a string.",
    "An empty or structured name cannot identify the skill.", "Set `name:` to the skill's folder name.",
    "name:", source="skills-ref; contract §5")
NAME_TOO_LONG = _rule(
    "SKL013", "name-too-long", "error", f"`name` is longer than {MAX_NAME_LENGTH} characters.",
    f"The format limits names to {MAX_NAME_LENGTH} characters.", "Shorten the name (and rename the folder to match).", source="skills-ref; contract §5")
NAME_NOT_LOWERCASE = _rule(
    "SKL014", "name-not-lowercase", "error", "`name` has uppercase letters.",
    "Skill names are lowercase so that they match folder names on every file system.",
    "Use lowercase letters, digits and hyphens (and rename the folder to match).", "name: Plan-Training", source="skills-ref; contract §5")
NAME_BAD_CHARACTERS = _rule(
    "SKL015", "name-invalid-characters", "error", "`name` has characters other than letters, digits and hyphens.",
    "Names become folder names and command names; spaces, underscores and punctuation break them.",
    "Use only lowercase letters, digits and single hyphens, e.g. `plan-training`.", "name: plan_training", source="skills-ref; contract §5")
NAME_HYPHENS = _rule(
    "SKL016", "name-hyphens", "error", "`name` starts or ends with a hyphen or contains `--`.",
    "The format forbids leading, trailing and consecutive hyphens.", "Use single hyphens between words.",
    "name: plan--training", source="skills-ref; contract §5")
NAME_FOLDER_MISMATCH = _rule(
    "SKL017", "name-folder-mismatch", "error", "`name` differs from the skill's folder name.",
    "Agents load a skill by folder and refer to it by name; the format requires both to be the same.",
    "Make `name:` equal to the folder name, or rename the folder.", ".agents/skills/plan/ with name: plan-training", source="skills-ref; contract §5")
DESCRIPTION_MISSING = _rule(
    "SKL018", "description-missing", "error", "The front matter has no `description`.",
    "Agents decide when to use a skill from its description alone.",
    "Add `description:` saying what the skill does and when to use it.", source="skills-ref; contract §5")
DESCRIPTION_EMPTY = _rule(
    "SKL019", "description-empty", "error", "`description` is empty or not a string.",
    "An empty description gives the agent no reason to load the skill.",
    "Write one or two sentences: what the skill does and when to use it.", "description: ''", source="skills-ref; contract §5")
DESCRIPTION_TOO_LONG = _rule(
    "SKL020", "description-too-long", "error", f"`description` is longer than {MAX_DESCRIPTION_LENGTH} characters.",
    "Descriptions are always in the agent's context; the format caps their length.",
    "Shorten the description; move detail into the body or references/.", source="skills-ref; contract §5")
COMPATIBILITY_NOT_STRING = _rule(
    "SKL021", "compatibility-not-string", "error", "`compatibility` is a list or mapping, not a string.",
    "The format defines compatibility as free text.", "Write compatibility as one string.",
    "compatibility:\\n  - python>=3.10", source="skills-ref; contract §5")
COMPATIBILITY_TOO_LONG = _rule(
    "SKL022", "compatibility-too-long", "error", f"`compatibility` is longer than {MAX_COMPATIBILITY_LENGTH} characters.",
    f"The format caps compatibility at {MAX_COMPATIBILITY_LENGTH} characters.", "Shorten it to the essentials.", source="skills-ref; contract §5")
METADATA_NOT_MAP = _rule(
    "SKL023", "metadata-not-string-map", "warning", "`metadata` is not a map of string keys to string values.",
    "The format defines metadata as string -> string; tools flatten or drop anything else "
    "(the reference validator turns nested values into their Python text).",
    "Write `metadata:` as indented `key: value` lines with plain text values.", "metadata:\\n  tags:\\n    - a", source="contract §5")
BODY_TOO_LONG = _rule(
    "SKL024", "body-too-long", "warning", f"The SKILL.md body is longer than {MAX_BODY_LINES} lines.",
    "The whole body is loaded into the agent's context when the skill is used; long bodies crowd it out.",
    "Move detailed material into references/ files and link to them from the body.", source="contract §5")
LINK_TARGET_MISSING = _rule(
    "SKL025", "link-target-missing", "warning", "A relative link in SKILL.md points to a file that does not exist.",
    "Agents follow these links to load references on demand; a dead link loses that material. The skill "
    "is still valid (the Agent Skills format does not check links), so this is advice. `{baseDir}` is "
    "read as the skill folder; footnotes `[^1]: ...` are not links.",
    "Create the linked file or fix the link's path (relative to the skill folder).",
    "[configs](references/config.md) with no references/config.md", source="contract §5")
LINK_ESCAPES_SKILL = _rule(
    "SKL026", "link-escapes-skill", "warning",
    "A link in SKILL.md points outside the skill's folder (and not into a sibling skill).",
    "A skill is copied and installed as one folder; files outside it may not be there for the agent. "
    "Links into a sibling skill (`../other-skill/SKILL.md`) are fine when that skill exists beside it.",
    "Copy the material into the skill (e.g. references/) and link to that copy.", "[x](../../docs/notes.md)", source="ours")
FRONT_MATTER_LINE_SEPARATOR = _rule(
    "SKL034", "front-matter-unicode-line-break", "warning",
    "The front matter holds U+0085, U+2028 or U+2029 (Unicode line breaks).",
    "YAML 1.1 and 1.2 parsers disagree on whether these characters end a line, so tools may read "
    "different keys and values from the same text; our verdict can differ from the reference validator's.",
    "Replace the character with a normal newline or a space.", "description: plan\u2028train", source="ours")

# --- the workspace's wiring (ours only) -------------------------------------------------------------
BUNDLED_SKILL_MISSING = _rule(
    "SKL027", "bundled-skill-missing", "error", "A skill the workspace must bundle is missing from .agents/skills/.",
    "The bundled skills walk agents through plan -> rollout -> evaluate -> debug -> train; without "
    "one that stage has no guidance.",
    "Run `osmosis doctor --fix` to restore it from the installed bundle.", ".agents/skills/debug-rollouts/ deleted",
    fixable=True, source="ours")
CLAUDE_LINK_MISSING = _rule(
    "SKL028", "claude-link-missing", "error", "A skill in .agents/skills/ has no .claude/skills/<name> link.",
    "Claude Code loads skills from .claude/skills/; without the link it never sees the skill.",
    "Run `osmosis doctor --fix`, or `ln -s ../../.agents/skills/<name> .claude/skills/<name>`.", fixable=True, source="contract §1")
CLAUDE_LINK_ABSOLUTE = _rule(
    "SKL029", "claude-link-absolute", "error", "A .claude/skills/<name> link uses an absolute path.",
    "An absolute link breaks in every other clone of the repository (and in CI).",
    "Run `osmosis doctor --fix`, or relink: `ln -sfn ../../.agents/skills/<name> .claude/skills/<name>`.",
    fixable=True, source="contract §1")
CLAUDE_LINK_BROKEN = _rule(
    "SKL030", "claude-link-broken", "error", "A .claude/skills/<name> link points to nothing.",
    "Claude Code finds no skill behind a broken link.",
    "Run `osmosis doctor --fix` to relink it to ../../.agents/skills/<name>, or remove the link.", fixable=True, source="contract §1")
CLAUDE_LINK_WRONG_TARGET = _rule(
    "SKL031", "claude-link-wrong-target", "error",
    "A .claude/skills/<name> entry is not a link to .agents/skills/<name>.",
    ".agents/skills/ is the canonical copy; a link elsewhere shows Claude Code a different skill.",
    "Relink it: `ln -sfn ../../.agents/skills/<name> .claude/skills/<name>`.", source="contract §1")
CLAUDE_SKILL_COPY = _rule(
    "SKL032", "claude-skill-copy", "warning", "A .claude/skills/<name> entry is a copied folder, not a link.",
    "A copy drifts from .agents/skills/, so different agents follow different instructions.",
    "Keep the skill in .agents/skills/<name>, delete the copy, and link it: "
    "`ln -s ../../.agents/skills/<name> .claude/skills/<name>`.", source="contract §1")
SKILL_PATH_ESCAPES = _rule(
    "SKL033", "skill-path-escapes-workspace", "error", "A skill folder or link leads outside the workspace.",
    "The platform and CI see only the repository; anything outside it is missing there. "
    "Checks never follow paths out of the workspace.",
    "Move the skill into .agents/skills/ and use a relative link inside the repository.", source="ours")


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
    from generator.core.bounded import Unreadable, read_capped
    from generator.core.workspace import MAX_TEXT_BYTES

    try:  # capped like configs: the whole text is parsed, front matter and all
        text = read_capped(skill_md, MAX_TEXT_BYTES).decode("utf-8")
    except UnicodeDecodeError as err:
        found.append(SKILL_MD_UNREADABLE.at(file_display, f"{skill_md.name} is not UTF-8 text (byte {err.start})"))
        return found
    except Unreadable as err:
        found.append(SKILL_MD_UNREADABLE.at(file_display, f"{skill_md.name} {err}"))
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


# --- YAML, read the way strictyaml reads it ----------------------------------------------------------
@dataclasses.dataclass
class _Field:
    value: Any  # str, list or dict (of the same), as strictyaml would give
    line: int
    column: int


def _position(mark: Any) -> tuple[int, int]:
    """File line/column of a pyyaml mark inside the front matter (which starts after the first `---`)."""
    if mark is None:
        return 1, 1
    return mark.line + 1, mark.column + 1 + (3 if mark.line == 0 else 0)


# YAML 1.1 (pyyaml) breaks lines at NEL, LS and PS; YAML 1.2 (strictyaml) reads them as ordinary
# characters. Swap them for private-use stand-ins while parsing and back in the values.
_YAML11_BREAKS = str.maketrans({"\x85": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"})
_YAML11_RESTORE = str.maketrans({"\ue085": "\x85", "\ue028": "\u2028", "\ue029": "\u2029"})


class _StrictYamlError(Exception):
    """A YAML feature strictyaml refuses (flow style, anchors, aliases, tags, duplicate keys)."""

    def __init__(self, what: str, mark: Any):
        super().__init__(what)
        self.what, self.mark = what, mark


def _load_front_matter(front: str, display: str) -> tuple[dict[str, _Field], Diagnostic | None]:
    """The front matter's top-level fields (with the key's position), or the one problem that stops reading it."""
    simple = _read_simple(front)
    return (simple, None) if simple is not None else _read_yaml(front, display)


def _read_yaml(front: str, display: str) -> tuple[dict[str, _Field], Diagnostic | None]:
    import yaml  # lazily: only for front matter the fast path leaves alone

    try:
        events = yaml.parse(front.translate(_YAML11_BREAKS), Loader=yaml.BaseLoader)
        top = _single_document(events)
        if not isinstance(top, _Mapping):
            kind = "empty" if top is None else ("a list" if isinstance(top, list) else "a bare value")
            line, column = _position(getattr(top, "mark", None))
            return {}, FRONT_MATTER_NOT_MAPPING.at(
                display, f"the front matter is {kind}, not `key: value` lines", line=line, column=column)
        return {key: _Field(value, *_position(mark)) for key, (value, mark) in top.items()}, None
    except _StrictYamlError as err:
        line, column = _position(err.mark)
        return {}, FRONT_MATTER_STRICT_YAML.at(
            display, f"the front matter uses a {err.what}, which the Agent Skills reference parser rejects",
            line=line, column=column)
    except (yaml.YAMLError, RecursionError) as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        line, column = _position(mark)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        return {}, FRONT_MATTER_INVALID_YAML.at(
            display, f"the front matter is not valid YAML: {problem}", line=line, column=column)


# The fast path: front matter made only of `key: value` lines (and one level of `metadata:`
# entries) whose values are unquoted text with no YAML syntax in it, or quoted text with no escapes.
# That is what nearly every SKILL.md looks like, and reading it needs no YAML parser. Anything else
# goes to pyyaml; a property test checks that both readings agree wherever the fast path answers.
_SIMPLE_VALUE = r"""(?:[A-Za-z0-9(][^#:'"\t\r]*?|"[^"\\\r\t]*"|'[^'\r\t]*')"""
_SIMPLE_LINE = re.compile(rf"^(?P<indent> *)(?P<key>[A-Za-z][A-Za-z0-9_-]*):(?: (?P<value>{_SIMPLE_VALUE}))? *$")
_IGNORABLE_LINE = re.compile(r"^ *(?:#[ -~]*)?$")
_NOT_SIMPLE_TEXT = re.compile(r"[^\n -~]")  # tabs, CR, control and non-ASCII characters: pyyaml's call


def _read_simple(front: str) -> dict[str, _Field] | None:
    """Fields of plain-text front matter, or None when it holds anything else (pyyaml then decides)."""
    if _NOT_SIMPLE_TEXT.search(front):
        return None
    lines = front.split("\n")
    if lines[0].strip():  # text on the opening `---` line
        return None
    fields: dict[str, _Field] = {}
    parent: str | None = None  # the top-level key whose indented entries follow
    child_indent = 0
    for number, line in enumerate(lines[1:], start=2):
        if _IGNORABLE_LINE.match(line):
            continue
        match = _SIMPLE_LINE.match(line)
        if match is None:
            return None
        key, raw, indent = match["key"], match["value"], len(match["indent"])
        if indent:
            if parent is None or (child_indent and indent != child_indent):
                return None
            child_indent = indent
            entries = fields[parent].value
            if raw is None or key in entries:
                return None
            entries[key] = _unquote(raw)
            continue
        if key in fields:
            return None
        if raw is None:  # only `metadata:` may open a block here; empty values go to pyyaml
            if key != "metadata":
                return None
            parent, child_indent = key, 0
            fields[key] = _Field({}, number, 1)
            continue
        parent = None
        fields[key] = _Field(_unquote(raw), number, 1)
    if any(isinstance(f.value, dict) and not f.value for f in fields.values()):
        return None  # `metadata:` with nothing under it is an empty string to YAML
    return fields or None


def _unquote(raw: str) -> str:
    return raw[1:-1] if raw[:1] in ("'", '"') else raw.rstrip()


class _Mapping(dict):
    """The top-level mapping: key -> (value, key mark)."""


class _Scalar(str):
    mark: Any = None


def _single_document(events: Any) -> Any:
    """The one document's data from a pyyaml event stream (None when there is none).

    Built from parser events rather than composed nodes: one pass, and the events still show the
    anchors, tags and flow style that strictyaml refuses.
    """
    import yaml

    top = None
    for event in events:
        if isinstance(event, yaml.DocumentStartEvent):
            if top is not None:
                raise yaml.composer.ComposerError(
                    "expected a single document in the stream", None, "but found another document", event.start_mark)
            top = _node(events, next(events), top_level=True)
    return top


def _node(events: Any, event: Any, top_level: bool = False) -> Any:
    import yaml

    if isinstance(event, yaml.AliasEvent):
        raise _StrictYamlError("alias `*...`", event.start_mark)
    if getattr(event, "anchor", None) is not None:
        raise _StrictYamlError("anchor `&...`", event.start_mark)
    if getattr(event, "tag", None) is not None:
        raise _StrictYamlError("tag `!...`", event.start_mark)
    if isinstance(event, yaml.ScalarEvent):
        value = _Scalar(event.value.translate(_YAML11_RESTORE))
        value.mark = event.start_mark
        return value
    if event.flow_style:
        kind = "mapping `{...}`" if isinstance(event, yaml.MappingStartEvent) else "list `[...]`"
        raise _StrictYamlError(f"flow-style {kind}", event.start_mark)
    if isinstance(event, yaml.SequenceStartEvent):
        items = []
        for item in iter(lambda: next(events), None):
            if isinstance(item, yaml.SequenceEndEvent):
                return items
            items.append(_node(events, item))
    mapping: dict[str, Any] = _Mapping() if top_level else {}
    mapping_mark = event.start_mark
    merged: dict[str, Any] = {}
    for key_event in iter(lambda: next(events), None):
        if isinstance(key_event, yaml.MappingEndEvent):
            break
        key = _node(events, key_event)
        if not isinstance(key, str):
            raise _StrictYamlError("non-string key", key_event.start_mark)
        if key == "<<" and key_event.style is None:  # a plain `<<` is YAML's merge key, as for strictyaml
            value_event = next(events)
            for source in _merge_sources(_node(events, value_event), mapping_mark, value_event.start_mark):
                for name, item in source.items():
                    merged.setdefault(name, item)
            continue
        if key in mapping:
            raise _StrictYamlError(f"duplicate key {str(key)!r}", key_event.start_mark)
        value = _node(events, next(events))
        mapping[str(key)] = (_plain(value), key.mark) if top_level else _plain(value)
    # Keys written out in the mapping win over merged ones. At the top level strictyaml's data
    # leaves merged keys out altogether (checked against skills-ref), so the verdicts agree.
    for name, item in merged.items() if not top_level else ():
        mapping.setdefault(name, item)
    if top_level:
        mapping.mark = mapping_mark  # type: ignore[attr-defined]
    return mapping


def _merge_sources(value: Any, mapping_mark: Any, value_mark: Any) -> list[dict]:
    """What a merge key's value merges in: a mapping, or a list of them; anything else is the
    error YAML (and so the reference parser) raises."""
    import yaml

    sources = value if isinstance(value, list) else [value]
    if not all(isinstance(s, dict) for s in sources):
        found = "scalar" if isinstance(value, str) else "list of other values"
        raise yaml.constructor.ConstructorError(
            "while constructing a mapping", mapping_mark,
            f"expected a mapping or list of mappings for merging, but found {found}", value_mark)
    return sources


def _plain(value: Any) -> Any:
    """Drop the position bookkeeping: plain str, list and dict, as strictyaml's data."""
    if isinstance(value, _Scalar):
        return str(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --- fields -----------------------------------------------------------------------------------------
def _field_findings(data: dict[str, _Field], folder_name: str, display: str) -> list[Diagnostic]:
    found = []
    for key, field in data.items():
        if key not in ALLOWED_KEYS:
            found.append(UNKNOWN_KEY.at(
                display, f"unknown front-matter key {key!r}; allowed: {', '.join(ALLOWED_KEYS)}",
                line=field.line, column=field.column))
    if "name" not in data:
        found.append(NAME_MISSING.at(display, "the front matter has no `name`", line=1, column=1,
                                     hint=f"add `name: {folder_name}`"))
    else:
        found.extend(_name_findings(data["name"], folder_name, display))
    if "description" not in data:
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


def _name_findings(field: _Field, folder_name: str, display: str) -> list[Diagnostic]:
    at = {"line": field.line, "column": field.column}
    raw = field.value
    if not isinstance(raw, str) or not raw.strip():
        return [NAME_EMPTY.at(display, f"`name` is {_describe(raw)}", **at, hint=f"set `name: {folder_name}`")]
    # The reference compares NFKC-normalised, stripped text, and allows Unicode letters.
    name = unicodedata.normalize("NFKC", raw.strip())
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
        if valid != unicodedata.normalize("NFKC", folder_name):
            problems.append((NAME_FOLDER_MISMATCH, f"differs from the folder name {folder_name!r}"))
        hint = (f"set `name: {folder_name}`" if folder_ok
                else f"use {valid!r} (and rename the folder to match)")
        found.append(problems[0][0].at(display, f"`name` {name!r} " + "; it ".join(p[1] for p in problems), **at, hint=hint))
    elif unicodedata.normalize("NFKC", folder_name) != name:
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
            found.append(dataclasses.replace(BUNDLED_SKILL_MISSING.at(
                f".agents/skills/{name}", f"the skill {name!r} required by [tool.osmosis] extra-skills is missing",
                hint=f"add .agents/skills/{name}/SKILL.md, or drop it from extra-skills"), fixable=False))
    found.extend(_claude_link_findings(Path(root), present))
    return found


def _claude_link_findings(ws_root: Path, present: set[str]) -> list[Diagnostic]:
    """Each .claude/skills/<name> must be a relative link to ../../.agents/skills/<name> (``ws_root`` resolved)."""
    root = str(ws_root)
    agents = ws_root / ".agents" / "skills"
    claude = ws_root / ".claude" / "skills"
    entries = set()
    if claude.is_dir() and not claude.is_symlink():
        # Plain files (a README, .gitkeep) are not skills: Claude Code ignores them, so do we.
        entries = {p.name for p in claude.iterdir() if not p.name.startswith(".") and (p.is_dir() or p.is_symlink())}
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
                found.append(dataclasses.replace(CLAUDE_LINK_BROKEN.at(
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
