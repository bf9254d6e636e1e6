"""What a workspace carries besides its rendered templates: skills, their Claude links, JSON Schemas.

`osmosis init` writes them into a fresh workspace and `osmosis doctor --fix` restores them, so every
function here is idempotent and leaves a user's differing file alone unless ``overwrite=True``.
Nothing is written through a symlink that leads out of the workspace.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from osmosis_workspace.core import resources, safe_write
from osmosis_workspace.core.paths import is_inside
from osmosis_workspace.core.records import dataclass, field

AGENT_SKILLS = Path(".agents/skills")
CLAUDE_SKILLS = Path(".claude/skills")


@dataclass
class AssetReport:
    """Workspace-relative POSIX paths by outcome."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # differed and overwrite=True
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # differed, kept the user's version

    def extend(self, other: "AssetReport") -> "AssetReport":
        for name in ("created", "updated", "unchanged", "skipped"):
            getattr(self, name).extend(getattr(other, name))
        return self

    @property
    def changed(self) -> list[str]:
        return self.created + self.updated


def placement(root: Path, rel: Path, data: bytes, overwrite: bool) -> str:
    """What placing ``data`` at ``rel`` would do: "created", "updated", "unchanged" or "skipped"
    (a differing file kept, a link, a folder, or a parent leading out of ``root``)."""
    target = root / rel
    if not is_inside(root, target.parent) or target.is_symlink():  # never write through, nor replace, a link
        return "skipped"
    if target.is_file():
        if target.read_bytes() == data:
            return "unchanged"
        return "updated" if overwrite else "skipped"
    if target.exists():  # a folder where a file belongs
        return "skipped"
    return "created"


def _place_bytes(root: Path, rel: Path, data: bytes, overwrite: bool, report: AssetReport) -> None:
    outcome = placement(root, rel, data, overwrite)
    if outcome in ("created", "updated"):
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        safe_write.write_bytes(root, target, data)
    getattr(report, outcome).append(rel.as_posix())


def bundled_skill_names() -> list[str]:
    """Every skill folder the installation bundles (whatever skills/ holds)."""
    return sorted(p.name for p in resources.skills_dir().iterdir() if p.is_dir() and not p.name.startswith("."))


def install_skills(dest: Path, *, overwrite: bool = False, names: list[str] | None = None) -> AssetReport:
    """Copy the bundled skills (or only ``names``) into ``dest/.agents/skills/``."""
    report = AssetReport()
    for rel, data in skill_files(names):
        _place_bytes(dest, rel, data, overwrite, report)
    return report


def skill_files(names: list[str] | None = None) -> Iterator[tuple[Path, bytes]]:
    """(workspace-relative path, bytes) of every file of the bundled skills (or only ``names``)."""
    source = resources.skills_dir()
    for name in names if names is not None else bundled_skill_names():
        skill = source / name
        if not skill.is_dir():
            raise FileNotFoundError(f"no bundled skill named {name!r}")
        for path in sorted(skill.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield AGENT_SKILLS / name / path.relative_to(skill), path.read_bytes()


def link_claude_skills(dest: Path, *, overwrite: bool = False) -> AssetReport:
    """Make ``.claude/skills/<name>`` a relative symlink to ``../../.agents/skills/<name>`` for each skill.

    With ``overwrite``, a link pointing elsewhere is replaced; a real file or folder is never removed.
    """
    report = AssetReport()
    skills = dest / AGENT_SKILLS
    if not skills.is_dir():
        return report
    links = dest / CLAUDE_SKILLS
    if not is_inside(dest, links):
        report.skipped.append(CLAUDE_SKILLS.as_posix())
        return report
    for skill in sorted(p for p in skills.iterdir() if p.is_dir() and not p.is_symlink()):
        link = links / skill.name
        shown = (CLAUDE_SKILLS / skill.name).as_posix()
        wanted = Path("..") / ".." / AGENT_SKILLS / skill.name
        if link.is_symlink():
            if Path(os.readlink(link)) == wanted:
                report.unchanged.append(shown)
                continue
            if not overwrite:
                report.skipped.append(shown)
                continue
            link.unlink()
            outcome = report.updated
        elif link.exists():
            report.skipped.append(shown)
            continue
        else:
            outcome = report.created
        links.mkdir(parents=True, exist_ok=True)
        os.symlink(wanted, link, target_is_directory=True)
        outcome.append(shown)
    return report


def write_schemas(dest: Path, *, overwrite: bool = False) -> AssetReport:
    """Copy the shipped JSON Schemas into ``dest/.osmosis/schemas/`` (what the configs' #:schema lines use)."""
    report = AssetReport()
    for rel, data in schema_files():
        _place_bytes(dest, rel, data, overwrite, report)
    return report


def schema_files() -> Iterator[tuple[Path, bytes]]:
    """(workspace-relative path, bytes) of each shipped JSON Schema's copy in a workspace."""
    from osmosis_workspace.core.schemas import KINDS, WORKSPACE_SCHEMA_DIR, schema_bytes, schema_filename

    for kind in KINDS:
        yield Path(WORKSPACE_SCHEMA_DIR) / schema_filename(kind), schema_bytes(kind)


def add_all(dest: Path) -> None:
    """The skills, their Claude links and the schemas, as a fresh workspace gets them. `osmosis init`
    and the pristine render that `osmosis update` merges from both call this, so the two stay alike."""
    install_skills(dest)
    link_claude_skills(dest)
    write_schemas(dest)
