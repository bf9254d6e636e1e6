"""What a case is, and the pieces every category builds from (base workspaces, hostile templates)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from sandbox import Sandbox, git_env

REPO = Path(__file__).resolve().parents[2]
BLANK = REPO / "templates" / "blank"


class Skip(Exception):
    """The case cannot be built here (e.g. git refuses to commit that path for a file:// URL)."""


@dataclass
class Plan:
    act: Callable[[Sandbox], None]
    # What a user owns before the run and what the command may do to it (see campaign.data_lost):
    # "frozen" nothing may change; "said" only paths the output names; "additive" changed files keep
    # every old line and are named; "none" no user data exists.
    rule: str = "frozen"
    verify: Callable[[Sandbox], list[str]] | None = None  # extra data-lost checks
    consistent: Callable[[Sandbox], list[str]] | None = None  # inconsistency checks (kill, writers, disk)
    follow_up: bool = False  # afterwards run git as the user would (status, add, commit): does git run template code?
    check_leftovers: bool = True
    clean_output: bool = False  # the output must hold no raw control character and be valid UTF-8


@dataclass
class Case:
    category: str
    name: str
    prepare: Callable[[Sandbox], Plan]
    tags: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.category}/{self.name}"


# -- base workspaces (built once per campaign, copied into each sandbox) --------------------------

BASES: dict[str, Path] = {}
OLD_MARK = "# campaign: older template line"
USER_MARK = "# campaign: the user's own edit"


def _run_cli(env: dict, *argv) -> None:
    import sys

    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", *map(str, argv)], env=env, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"building a base failed: {argv}\n{done.stdout}\n{done.stderr}")


def _git(cwd: Path, env: dict, *args) -> None:
    subprocess.run(["git", *map(str, args)], cwd=cwd, env=env, check=True, capture_output=True, timeout=120)


def build_bases(root: Path) -> None:
    """blank-ws: a fresh `init --template blank` workspace. upd-ws: made from an older copy of blank
    (a line added to many rollout files), rollouts merged three ways, user edits committed; the
    template at upd-tmpl has since moved on (back to blank), so `update` has work to do."""
    root.mkdir(parents=True, exist_ok=True)
    sb = Sandbox(root / "sb", 60)
    sb.setup()
    env = git_env(sb.root)
    _run_cli(env, "init", root / "blank-ws", "--template", "blank", "--defaults")
    tmpl = root / "upd-tmpl"
    shutil.copytree(BLANK, tmpl)
    (tmpl / "template.toml").unlink()
    rollout = tmpl / "template" / "rollouts" / "{{ rollout_name }}"
    olds = [p for p in rollout.rglob("*") if p.is_file() and p.suffix in (".py", ".jinja", ".md")]
    for p in olds:
        p.write_text(p.read_text() + f"\n{OLD_MARK}\n")
    ws = root / "upd-ws"
    _run_cli(env, "init", ws, "--template", tmpl, "--defaults")
    policy = ws / ".osmosis" / "template.json"
    lists = json.loads(policy.read_text())
    lists["additive"].remove("rollouts/*")
    lists["overwriteManaged"].append("rollouts/*")
    policy.write_text(json.dumps(lists, indent=2) + "\n")
    main = ws / "rollouts" / "my-rollout" / "main.py"
    main.write_text(USER_MARK + "\n" + main.read_text())
    (ws / "notes.md").write_text("my own notes, not from any template\n")
    _git(ws, env, "add", "-A")
    _git(ws, env, "commit", "-qm", "my edits")
    shutil.rmtree(tmpl)
    shutil.copytree(BLANK, tmpl)
    (tmpl / "template.toml").unlink()
    BASES.update({"blank-ws": root / "blank-ws", "upd-ws": ws, "upd-tmpl": tmpl})
    shutil.rmtree(sb.root)


def copy_base(sb: Sandbox, name: str, dest: Path | None = None) -> Path:
    dest = dest or sb.ws
    shutil.copytree(BASES[name], dest, symlinks=True)
    return dest


# -- hostile templates -----------------------------------------------------------------------------


def blank_template(sb: Sandbox, name: str = "evil", **settings) -> Path:
    """A copy of the bundled blank template in tpl/, with a hidden `dotgit` answer and extra settings."""
    dest = sb.root / "tpl" / name
    shutil.copytree(BLANK, dest)
    (dest / "template.toml").unlink()
    config = yaml.safe_load((dest / "copier.yml").read_text())
    config["dotgit"] = {"type": "str", "default": ".git", "when": False}
    config.update(settings)
    (dest / "copier.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return dest


def add(template: Path, rel: str, text: str | bytes, executable: bool = False) -> Path:
    path = template / "template" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


def as_source(sb: Sandbox, template: Path, form: str) -> str:
    """``path``: the folder; ``git``: a file:// URL of a repository holding it (Skip when git refuses a path)."""
    if form == "path":
        return str(template)
    env = sb.env
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-qm", "template")):
        done = subprocess.run(["git", *args], cwd=template, env=env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Skip(f"git {args[0]} refused the template: {done.stderr.strip()[:120]}")
    return template.as_uri()


def template_command(sb: Sandbox, command: str, source: str, *extra: str) -> Callable[[Sandbox], None]:
    """The act for `init` into work/ws, or `rollout new evil` in a copy of the blank workspace."""
    if command == "init":
        return lambda s: s.run("init", s.ws, "--template", source, "--defaults", *extra)
    copy_base(sb, "blank-ws")
    return lambda s: s.run("rollout", "new", "evil", "--template", source, "--workspace", s.ws, "--defaults", *extra)


def template_plan(sb: Sandbox, command: str, source: str, *extra: str) -> Plan:
    return Plan(template_command(sb, command, source, *extra), rule="none" if command == "init" else "additive",
                follow_up=True)
