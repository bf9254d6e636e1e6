"""`osmosis doctor --fix`: safe repairs only, each one listed.

Safe means: create what is missing, refresh what osmosis owns (`.osmosis/schemas/`), repair links
osmosis made (`.claude/skills/<name>`). Never overwrite or delete a file the user wrote: an
existing file is left alone even when it differs from the bundle, and a real folder where a link
should be is left alone too. Doctor checks again afterwards and reports what is left.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from generator.core import safe_write
from generator.core.paths import is_inside
from generator.core.resources import SKILL_NAMES, skills_dir, templates_dir
from generator.core.workspace import AGENT_FILES, REQUIRED_FOLDERS, Workspace

ANSWERS_FILE = ".copier-answers.yml"

Repair = Callable[[Path], list[str]]


def create_folders(root: Path) -> list[str]:
    done = []
    for rel in REQUIRED_FOLDERS:
        folder = root / rel
        if not folder.exists() and not folder.is_symlink() and is_inside(root, folder):
            folder.mkdir(parents=True)
            done.append(f"created folder {rel}/")
    return done


def _grouped(paths: list[str], depth: int) -> dict[str, int]:
    """Count paths by their first ``depth`` parts (`.agents/skills/x/a.md` -> `.agents/skills/x`)."""
    counts: dict[str, int] = {}
    for p in paths:
        key = "/".join(p.split("/")[:depth])
        counts[key] = counts.get(key, 0) + 1
    return counts


def restore_skills(root: Path) -> list[str]:
    """Copy back the bundled skills' missing files; a file the user changed is kept as it is."""
    from generator.core.assets import install_skills

    if not Workspace(root).opted_in:
        return []  # our bundle is not forced on a workspace that did not opt in
    try:
        bundled = [n for n in SKILL_NAMES if (skills_dir() / n).is_dir()]
    except FileNotFoundError:
        return []
    report = install_skills(root, overwrite=False, names=bundled)
    return [
        f"restored {n} missing file{'s' if n != 1 else ''} of skill {folder}/ from the bundle"
        for folder, n in _grouped(report.created, 3).items()
    ]


def link_skills(root: Path) -> list[str]:
    """`.claude/skills/<name>` -> `../../.agents/skills/<name>` for every skill, when missing or broken."""
    from generator.core.assets import CLAUDE_SKILLS, link_claude_skills

    links = root / CLAUDE_SKILLS
    repaired: dict[str, str] = {}
    if links.is_dir() and is_inside(root, links):
        for link in links.iterdir():
            # A dangling link has nothing behind it to lose; a working one (even elsewhere) is the user's.
            skill = root / ".agents" / "skills" / link.name
            if not link.is_symlink() or not skill.is_dir():
                continue
            broken = not link.exists()
            # An absolute link to the right skill breaks when the repository is cloned elsewhere.
            absolute = os.path.isabs(os.readlink(link)) and link.resolve() == skill.resolve()
            if broken or absolute:
                link.unlink()
                repaired[(CLAUDE_SKILLS / link.name).as_posix()] = "repaired broken link" if broken else "made relative the absolute link"
    try:
        report = link_claude_skills(root, overwrite=False)
    except OSError as err:  # e.g. Windows without the right to make symlinks
        return [f"could not link the skills under {CLAUDE_SKILLS.as_posix()}/: {err.strerror or err}"]
    return [
        f"{repaired.get(shown, 'linked')} {shown} -> ../../.agents/skills/{shown.rsplit('/', 1)[1]}"
        for shown in report.created
    ]


def refresh_schemas(root: Path) -> list[str]:
    """`.osmosis/schemas/` is osmosis's own copy of `osmosis schema <kind>`: rewrite it when it differs."""
    from generator.core.assets import write_schemas

    if not Workspace(root).opted_in:
        return []  # our convention (Workspace.opted_in); writing them would opt the workspace in
    report = write_schemas(root, overwrite=True)
    return [f"wrote {p}" for p in report.created] + [f"refreshed {p}" for p in report.updated]


def _answers(root: Path) -> dict:
    """The workspace template's answers (names in AGENTS.md), with the template's defaults beneath."""
    from generator.formats import yamlio

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


def restore_template_files(root: Path) -> list[str]:
    done = []
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
                done.append(f"could not restore {rel}: {err}")
                continue
        else:
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        safe_write.write_text(root, dest, text)
        done.append(f"restored {rel} from the workspace template")
    return done


from generator.check.families.config_crossrefs import fix_schema_directives  # noqa: E402  (CFG022)
from generator.check.families.secrets import fix_env_example  # noqa: E402  (SEC005)

def take_back_interrupted(root: Path) -> list[str]:
    """Undo what a killed `init`, `rollout new` or `update` left half-done (LAY112); first, so the other
    repairs see the workspace as it was."""
    from generator.core import journal

    return journal.recover(root)


REPAIRS: tuple[Repair, ...] = (
    take_back_interrupted, create_folders, restore_template_files, restore_skills, link_skills, refresh_schemas,
    fix_schema_directives, fix_env_example,
)


def apply_fixes(ws: Workspace) -> list[str]:
    """Run every safe repair on ``ws``; one line per change made."""
    from generator.core.errors import UserError

    done: list[str] = []
    for repair in REPAIRS:
        try:
            done += repair(ws.root)
        except OSError as err:  # a read-only workspace, a full disk: the user's to fix, not a bug
            if isinstance(err, PermissionError) and _unreadable(ws, err):
                continue  # a path nobody may read is the report's finding (LAY011/LAY012); the other repairs run
            where = f" {err.filename}" if err.filename else ""
            raise UserError(f"doctor --fix cannot write{where}: {err.strerror or err}",
                            hint=f"make the workspace writable; done before stopping: {len(done)} repair(s)") from None
    return done


def _unreadable(ws: Workspace, err: PermissionError) -> bool:
    """Whether the repair stopped at a path the access check reports, not at a read-only workspace."""
    if not err.filename:
        return False
    path = Path(str(err.filename))
    return path in ws.unreadable or ws.hidden(path)
