"""`osmosis doctor --fix`: safe repairs only, each one listed.

Safe means: create what is missing, refresh what osmosis owns (`.osmosis/schemas/`), repair links
osmosis made (`.claude/skills/<name>`). Never overwrite or delete a file the user wrote: an
existing file is left alone even when it differs from the bundle, and a real folder where a link
should be is left alone too. Doctor checks again afterwards and reports what is left.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from generator.resources import SKILL_NAMES, schemas_dir, skills_dir, templates_dir
from generator.workspace import Workspace

REQUIRED_FOLDERS = ("rollouts", "configs/eval", "configs/training", "data")
# Root files restored from the workspace template (contract section 1).
TEMPLATE_FILES = ("AGENTS.md", "CLAUDE.md", "configs/AGENTS.md")
SCHEMA_KINDS = ("eval", "training", "dataset")
ANSWERS_FILE = ".copier-answers.yml"

Repair = Callable[[Path], list[str]]


def _inside(root: Path, path: Path) -> bool:
    """Never write through a link that leads out of the workspace."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def create_folders(root: Path) -> list[str]:
    done = []
    for rel in REQUIRED_FOLDERS:
        folder = root / rel
        if not folder.exists() and not folder.is_symlink() and _inside(root, folder):
            folder.mkdir(parents=True)
            done.append(f"created folder {rel}/")
    return done


def _copy_missing(source: Path, target: Path, root: Path) -> int:
    """Copy every file of ``source`` that ``target`` lacks; existing files are never touched."""
    copied = 0
    for src in sorted(source.rglob("*")):
        if not src.is_file() or "__pycache__" in src.parts:
            continue
        dest = target / src.relative_to(source)
        if dest.exists() or dest.is_symlink() or not _inside(root, dest):
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
        copied += 1
    return copied


def restore_skills(root: Path) -> list[str]:
    done = []
    try:
        bundle = skills_dir()
    except FileNotFoundError:
        return []
    for name in SKILL_NAMES:
        source = bundle / name
        target = root / ".agents" / "skills" / name
        if not source.is_dir() or (target.exists() and not target.is_dir()):
            continue
        copied = _copy_missing(source, target, root)
        if copied:
            done.append(f"restored {copied} missing file{'s' if copied != 1 else ''} of skill .agents/skills/{name}/ from the bundle")
    return done


def link_skills(root: Path) -> list[str]:
    """`.claude/skills/<name>` -> `../../.agents/skills/<name>` for every skill, when missing or broken."""
    done = []
    skills = root / ".agents" / "skills"
    if not skills.is_dir():
        return []
    links = root / ".claude" / "skills"
    for skill in sorted(p for p in skills.iterdir() if p.is_dir()):
        link = links / skill.name
        target = Path("..", "..", ".agents", "skills", skill.name)
        if link.is_symlink() and not link.exists():  # broken: a link osmosis made, safe to replace
            link.unlink()
            action = "repaired broken link"
        elif link.exists() or link.is_symlink():
            continue  # a working link or the user's own folder: leave it
        else:
            action = "linked"
        if not _inside(root, links):
            continue
        links.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(target, link, target_is_directory=True)
        except OSError as err:  # e.g. Windows without symlink rights
            done.append(f"could not link .claude/skills/{skill.name}: {err.strerror or err}")
            continue
        done.append(f"{action} .claude/skills/{skill.name} -> {target.as_posix()}")
    return done


def refresh_schemas(root: Path) -> list[str]:
    """`.osmosis/schemas/` is osmosis's own copy of `osmosis schema <kind>`: rewrite it when it differs."""
    done = []
    target_dir = root / ".osmosis" / "schemas"
    for kind in SCHEMA_KINDS:
        source = schemas_dir() / f"{kind}.schema.json"
        if not source.is_file():
            continue
        target = target_dir / source.name
        if target.is_symlink() or (target.exists() and not target.is_file()) or not _inside(root, target):
            continue
        wanted = source.read_bytes()
        if target.is_file() and target.read_bytes() == wanted:
            continue
        verb = "refreshed" if target.exists() else "wrote"
        target_dir.mkdir(parents=True, exist_ok=True)
        target.write_bytes(wanted)
        done.append(f"{verb} .osmosis/schemas/{source.name}")
    return done


def _answers(root: Path) -> dict:
    """The workspace template's answers (names in AGENTS.md), with the template's defaults beneath."""
    import yaml

    answers: dict = {}
    try:
        questions = yaml.safe_load((templates_dir() / "workspace" / "copier.yml").read_text(encoding="utf-8")) or {}
        answers.update({k: v.get("default") for k, v in questions.items() if not k.startswith("_") and isinstance(v, dict)})
    except (OSError, yaml.YAMLError):
        pass
    answers["workspace_name"] = root.resolve().name
    try:
        saved = yaml.safe_load((root / ANSWERS_FILE).read_text(encoding="utf-8")) or {}
        answers.update({k: v for k, v in saved.items() if not str(k).startswith("_")})
    except (OSError, yaml.YAMLError, AttributeError):
        pass
    return answers


def restore_template_files(root: Path) -> list[str]:
    done = []
    try:
        template = templates_dir() / "workspace" / "template"
    except FileNotFoundError:
        return []
    for rel in TEMPLATE_FILES:
        dest = root / rel
        if dest.exists() or dest.is_symlink() or not _inside(root, dest):
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
        dest.write_text(text, encoding="utf-8")
        done.append(f"restored {rel} from the workspace template")
    return done


from generator.checks.configs import fix_schema_directives  # noqa: E402  (CFG022)
from generator.checks.secrets import fix_env_example  # noqa: E402  (SEC005)

REPAIRS: tuple[Repair, ...] = (
    create_folders, restore_template_files, restore_skills, link_skills, refresh_schemas,
    fix_schema_directives, fix_env_example,
)


def apply_fixes(ws: Workspace) -> list[str]:
    """Run every safe repair on ``ws``; one line per change made."""
    done: list[str] = []
    for repair in REPAIRS:
        done += repair(ws.root)
    return done
