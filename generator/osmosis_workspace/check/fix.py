"""`osmosis doctor --fix` / `--unsafe-fixes` / `--diff`: repairs worked out first, then written at once.

Every repair is a *planner*: it looks at the workspace and returns `Fix`es (a rule code, one line
saying what changes, and the change itself) without writing. `apply_fixes` hands all of them to
`core/journal.py` in one go, so they land together or not at all, even under kill -9; `diff` shows
them as a unified diff instead. Planners run in order and see what the earlier ones planned (the
links to skills restored in the same run).

A fix is as safe as its rule says (`Rule.fixability`, ruff's classes). Safe: create what is missing,
refresh what osmosis owns (`.osmosis/schemas/`), repair links osmosis made, add to a file without
changing what it says. Never overwrite or delete a file the user wrote. Unsafe (only with
`--unsafe-fixes`): a change to a user's file that may not be what they meant.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from osmosis_workspace.core.journal import PREFIX, Change
from osmosis_workspace.core.paths import is_inside
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.resources import SKILL_NAMES, skills_dir, templates_dir
from osmosis_workspace.core.workspace import AGENT_FILES, REQUIRED_FOLDERS, Workspace

ANSWERS_FILE = ".copier-answers.yml"


@dataclass(frozen=True)
class Fix:
    code: str  # the rule it repairs
    what: str  # one line, as `--fix` lists it
    change: Change | None = None  # a file's new content or a link's new target
    folder: str | None = None  # or an empty folder to make

    @property
    def rel(self) -> str:
        return self.folder if self.folder is not None else self.change.rel  # type: ignore[union-attr]


Planner = Callable[[Workspace, list[Fix]], list[Fix]]


def plan_folders(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    root = ws.root
    return [Fix("LAY001", f"created folder {rel}/", folder=rel) for rel in REQUIRED_FOLDERS
            if not (root / rel).exists() and not (root / rel).is_symlink() and is_inside(root, root / rel)]


def _grouped(paths: list[str], depth: int) -> dict[str, int]:
    """Count paths by their first ``depth`` parts (`.agents/skills/x/a.md` -> `.agents/skills/x`)."""
    counts: dict[str, int] = {}
    for p in paths:
        key = "/".join(p.split("/")[:depth])
        counts[key] = counts.get(key, 0) + 1
    return counts


def plan_skills(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    """The bundled skills' missing files, copied back; a file the user changed is kept as it is."""
    from osmosis_workspace.core.assets import placement, skill_files

    if not ws.opted_in:
        return []  # our bundle is not forced on a workspace that did not opt in
    try:
        bundled = [n for n in SKILL_NAMES if (skills_dir() / n).is_dir()]
    except FileNotFoundError:
        return []
    missing = [(rel.as_posix(), data) for rel, data in skill_files(bundled) if placement(ws.root, rel, data, False) == "created"]
    counts = _grouped([rel for rel, _ in missing], 3)
    said: set[str] = set()
    fixes = []
    for rel, data in missing:
        folder = "/".join(rel.split("/")[:3])
        n = counts[folder]
        what = f"restored {n} missing file{'s' if n != 1 else ''} of skill {folder}/ from the bundle"
        # one line per skill: the other files of that skill are listed silently (what="")
        fixes.append(Fix("SKL027", "" if folder in said else what, Change(rel, content=data)))
        said.add(folder)
    return fixes


def plan_links(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    """`.claude/skills/<name>` -> `../../.agents/skills/<name>` for every skill, when missing, broken or absolute.
    A dangling link has nothing behind it to lose; a working one (even elsewhere) is the user's."""
    from osmosis_workspace.core.assets import AGENT_SKILLS, CLAUDE_SKILLS

    root = ws.root
    links = root / CLAUDE_SKILLS
    if not is_inside(root, links):
        return []
    skills = {p.name for p in (root / AGENT_SKILLS).iterdir() if p.is_dir() and not p.is_symlink()} \
        if (root / AGENT_SKILLS).is_dir() else set()
    skills |= {f.rel.split("/")[2] for f in planned if f.code == "SKL027"}  # restored in this same run
    fixes = []
    for name in sorted(skills):
        link, shown = links / name, f"{CLAUDE_SKILLS.as_posix()}/{name}"
        wanted = (Path("..") / ".." / AGENT_SKILLS / name).as_posix()
        if link.is_symlink():
            target = os.readlink(link)
            # An absolute link to the right skill breaks when the repository is cloned elsewhere.
            if not link.exists():
                code, verb = "SKL030", "repaired broken link"
            elif os.path.isabs(target) and link.resolve() == (root / AGENT_SKILLS / name).resolve():
                code, verb = "SKL029", "made relative the absolute link"
            else:
                continue
        elif link.exists():
            continue  # a real file or folder there is the user's (SKL031/SKL032 say so)
        else:
            code, verb = "SKL028", "linked"
        fixes.append(Fix(code, f"{verb} {shown} -> {wanted}", Change(shown, link=wanted)))
    return fixes


def plan_schemas(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    """`.osmosis/schemas/` is osmosis's own copy of `osmosis schema <kind>`: rewritten when it differs."""
    from osmosis_workspace.core.assets import placement, schema_files

    if not ws.opted_in:
        return []  # our convention (Workspace.opted_in); writing them would opt the workspace in
    fixes = []
    for rel, data in schema_files():
        outcome = placement(ws.root, rel, data, True)
        if outcome in ("created", "updated"):
            verb = "wrote" if outcome == "created" else "refreshed"
            fixes.append(Fix("LAY009", f"{verb} {rel.as_posix()}", Change(rel.as_posix(), content=data)))
    return fixes


def _answers(root: Path) -> dict:
    """The workspace template's answers (names in AGENTS.md), with the template's defaults beneath."""
    from osmosis_workspace.readers import yamlio

    answers: dict = {}
    try:
        questions = yamlio.safe_load((templates_dir() / "workspace" / "copier.yml").read_text(encoding="utf-8")) or {}
        answers.update({k: v.get("default") for k, v in questions.items() if not k.startswith("_") and isinstance(v, dict)})
    except (OSError, yamlio.YAMLError):
        pass
    answers["workspace_name"] = root.resolve().name
    try:
        saved = yamlio.safe_load((root / ANSWERS_FILE).read_text(encoding="utf-8")) or {}
        answers.update({k: v for k, v in saved.items() if not str(k).startswith("_")})
    except (OSError, yamlio.YAMLError, AttributeError):
        pass
    return answers


def plan_template_files(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    root, fixes = ws.root, []
    try:
        template = templates_dir() / "workspace" / "template"
    except FileNotFoundError:
        return []
    for rel in AGENT_FILES:
        dest = root / rel
        if dest.exists() or dest.is_symlink() or not is_inside(root, dest):
            continue
        static, jinja = template / rel, template / f"{rel}.jinja"
        if static.is_file():
            text = static.read_text(encoding="utf-8")
        elif jinja.is_file():
            # These root files use plain {{ answer }} substitutions; jinja2 alone renders them, so
            # --fix does not need copier.
            import jinja2

            try:
                text = jinja2.Environment(keep_trailing_newline=True, undefined=jinja2.StrictUndefined).from_string(
                    jinja.read_text(encoding="utf-8")
                ).render(**_answers(root))
            except jinja2.TemplateError as err:
                fixes.append(Fix("LAY002", f"could not restore {rel}: {err}"))
                continue
        else:
            continue
        fixes.append(Fix("LAY002", f"restored {rel} from the workspace template", Change(rel, content=text.encode("utf-8"))))
    return fixes


def plan_claude_pointer(ws: Workspace, planned: list[Fix]) -> list[Fix]:
    """LAY008 (unsafe): `@AGENTS.md` appended to a CLAUDE.md that does not point at AGENTS.md."""
    from osmosis_workspace.check.families.layout import check_claude_md
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    path = ws.root / "CLAUDE.md"
    if path.is_symlink() or not path.is_file() or not check_claude_md(ws):
        return []
    try:
        data = read_capped(path, MAX_TEXT_BYTES)  # exact bytes: the file's own line endings are kept
        data.decode("utf-8")
    except (Unreadable, UnicodeDecodeError):
        return []  # CLAUDE.md unreadable: the finding says so; nothing to append to
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    addition = (b"" if not data or data.endswith(b"\n") else nl) + b"@AGENTS.md" + nl
    return [Fix("LAY008", "CLAUDE.md: appended `@AGENTS.md`", Change("CLAUDE.md", content=data + addition))]


def _from_family(code: str, planner: Callable[[Workspace], list[tuple[str, bytes, str]]]) -> Planner:
    """A family module's planner ((path, new content, what) triples) as a Planner of Fixes."""
    def plan(ws: Workspace, planned: list[Fix]) -> list[Fix]:
        return [Fix(code, what, Change(rel, content=data)) for rel, data, what in planner(ws)]

    plan.__name__ = f"plan_{code}"
    return plan


def planners() -> tuple[Planner, ...]:
    from osmosis_workspace.check.families.config_crossrefs import plan_schema_directives
    from osmosis_workspace.check.families.secrets import plan_env_example

    return (plan_folders, plan_template_files, plan_skills, plan_links, plan_schemas,
            _from_family("CFG022", plan_schema_directives), _from_family("SEC005", plan_env_example),
            plan_claude_pointer)


def allowed_by(unsafe: bool, wanted: Callable[[str], bool] = lambda code: True) -> Callable[[str], bool]:
    """Which codes' fixes to make: the safe ones (and with ``unsafe`` the unsafe ones) that ``wanted`` names."""
    import osmosis_workspace.check.families  # noqa: F401  (declares every fixable rule)
    from osmosis_workspace.check.registry import RULES

    fixabilities = ("safe", "unsafe") if unsafe else ("safe",)
    return lambda code: code in RULES and RULES[code].fixability in fixabilities and wanted(code)


def plan(ws: Workspace, allowed: Callable[[str], bool]) -> list[Fix]:
    """Every fix ``allowed`` lets through, in order; writes nothing."""
    planned: list[Fix] = []
    for planner in planners():
        try:
            planned += [f for f in planner(ws, planned) if allowed(f.code)]
        except PermissionError as err:
            if _unreadable(ws, err):
                continue  # a path nobody may read is the report's finding (LAY011/LAY012); the other repairs run
            raise
    return planned


def apply_fixes(ws: Workspace, unsafe: bool = False, wanted: Callable[[str], bool] = lambda code: True) -> list[str]:
    """Make every allowed fix on ``ws`` through one journal; one line per change made.
    First takes back what a killed `init`, `rollout new` or `update` left (LAY112), so the other
    repairs see the workspace as it was."""
    from osmosis_workspace.core import journal
    from osmosis_workspace.core.errors import UserError

    allowed = allowed_by(unsafe, wanted)
    done: list[str] = []
    try:
        if allowed("LAY112"):
            done += journal.recover(ws.root)
            ws = Workspace(ws.root)
        fixes = plan(ws, allowed)
        journal.apply(ws.root, "doctor --fix", [f.change for f in fixes if f.change is not None],
                      folders=[f.folder for f in fixes if f.folder is not None])
    except OSError as err:  # a read-only workspace, a full disk: the user's to fix, not a bug
        where = f" {err.filename}" if err.filename else ""
        raise UserError(f"doctor --fix cannot write{where}: {err.strerror or err}",
                        hint=f"make the workspace writable; done before stopping: {len(done)} repair(s)") from None
    return done + [f.what for f in fixes if f.what]


def _unreadable(ws: Workspace, err: PermissionError) -> bool:
    """Whether the planner stopped at a path the access check reports, not at a read-only workspace."""
    if not err.filename:
        return False
    path = Path(str(err.filename))
    return path in ws.unreadable or ws.hidden(path)


# -- --diff ---------------------------------------------------------------------------------------


def _lines(data: bytes) -> list[str]:
    """The lines as git counts them: ended by \\n alone. str.splitlines also splits at a lone CR, form
    feed, U+2028 and their kin, which made a patch git could not apply and not what --fix writes."""
    text = data.decode("utf-8", "replace")
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]  # what follows the last \\n: "" for a file ending in one
    return lines if lines[-1] else lines[:-1]


def _hunks(old: list[str], new: list[str], a: str, b: str) -> str:
    out = []
    for line in difflib.unified_diff(old, new, a, b):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def diff(root: Path, fix: Fix) -> str:
    """``fix`` as a unified diff against the file (git's form for links: the target is the content)."""
    change = fix.change
    if change is None:
        return ""
    path = root / change.rel
    if change.link is not None:
        # git's extended header: without `diff --git` first, `git apply` ignores the mode line and
        # would write the link's target as a regular file's text
        old = [os.readlink(path)] if path.is_symlink() else []
        head = f"diff --git a/{change.rel} b/{change.rel}\n" + ("" if old else "new file mode 120000\n")
        return head + _hunks(old, [change.link], f"a/{change.rel}" if old else "/dev/null", f"b/{change.rel}")
    exists = path.is_file() and not path.is_symlink()
    old = _lines(path.read_bytes()) if exists else []
    return _hunks(old, _lines(change.content or b""), f"a/{change.rel}" if exists else "/dev/null", f"b/{change.rel}")


def interrupted_runs(root: Path) -> list[str]:
    """The undo folders killed writers left (what `--fix` takes back first, LAY112)."""
    try:
        return sorted(p.name for p in root.iterdir() if p.name.startswith(PREFIX) and p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def diff_command(ws: Workspace, unsafe: bool, wanted: Callable[[str], bool], stream: TextIO) -> int:
    """`doctor --diff`: what `--fix` (with ``unsafe``, `--unsafe-fixes`) would change, as a unified diff;
    nothing is written. Exit 1 when there is something to change, as ruff does, else 0."""
    import sys

    from osmosis_workspace.core.errors import EXIT_FINDINGS, EXIT_OK

    allowed = allowed_by(unsafe, wanted)
    taken_back = interrupted_runs(ws.root) if allowed("LAY112") else []
    fixes = plan(ws, allowed)
    for fix in fixes:
        stream.write(diff(ws.root, fix))
    for name in taken_back:
        print(f"would take back the interrupted run in {name}/ (LAY112) first", file=sys.stderr)
    for fix in fixes:
        if fix.what:
            print(f"would fix {fix.code}: {fix.what}", file=sys.stderr)
    count = len(taken_back) + len([f for f in fixes if f.what])
    hidden = "" if unsafe else hidden_unsafe(ws, wanted)
    if not count:
        print(f"Nothing to fix automatically.{hidden}", file=sys.stderr)
        return EXIT_OK
    print(f"Would make {count} fix{'es' if count != 1 else ''}; `osmosis doctor --fix"
          f"{' --unsafe-fixes' if unsafe else ''}` makes them.{hidden}", file=sys.stderr)
    return EXIT_FINDINGS


def hidden_unsafe(ws: Workspace, wanted: Callable[[str], bool]) -> str:
    """A sentence on the unsafe fixes --unsafe-fixes would add ("" when there are none)."""
    from osmosis_workspace.check.registry import RULES

    unsafe = [f for f in plan(ws, lambda code: wanted(code) and code in RULES and RULES[code].fixability == "unsafe") if f.what]
    if not unsafe:
        return ""
    return f" {len(unsafe)} {'unsafe fix' if len(unsafe) == 1 else 'unsafe fixes'} available with --unsafe-fixes (review the --unsafe-fixes --diff first)."
