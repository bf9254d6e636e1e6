"""`osmosis update --adopt`: take over a workspace that `osmosis init` did not make.

A copy of the platform's own workspace template, or a hand-made workspace, has no answers file and
no pristine render, so `osmosis update` has nothing to merge from. Adopting renders the workspace
template for the workspace's own name, and builds the base that render is compared with from the
workspace's update policy (its `.osmosis/template.json` and `.osmosis/template-ignore` when it has
them, as the platform's template does; else the bundled default):

- a managed file the workspace already has (AGENTS.md, a skill, a reference config) counts as the
  untouched old version, so osmosis's version replaces it;
- the project's own root files (``KEPT_ON_ADOPTION``: pyproject, README, .gitignore, ...) and additive
  files it already has count as the user's edit of osmosis's version, so they are kept as they are;
- whatever it lacks is added, where the policy lets it.

Rollouts are no part of the workspace template's render, so they are never read or written. The
render is then recorded as the pristine base: from here on `osmosis update` treats the workspace
like one of its own.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from osmosis_workspace.core import lock
from osmosis_workspace.core.errors import EXIT_FINDINGS, UserError
from osmosis_workspace.core.globs import covers
from osmosis_workspace.scaffold import ownership, pristine

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _answers(root: Path) -> dict[str, Any]:
    """The workspace template's answers, read from what the workspace says about itself."""
    from osmosis_workspace.core.names import name_problem

    project: dict[str, Any] = {}
    try:
        from osmosis_workspace.core.bounded import toml_loads

        project = toml_loads((root / "pyproject.toml").read_text(encoding="utf-8")).get("project") or {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
        pass
    candidates = [str(project.get("name") or ""), root.resolve().name]
    name = next((c for c in candidates if c and name_problem(c) is None), None)
    if name is None:
        raise UserError(f"cannot adopt {root}: neither pyproject.toml's [project] name nor the folder name is a "
                        "valid workspace name (lowercase letters, digits and single hyphens, starting with a letter)",
                        hint='set [project] name = "<workspace-name>" in pyproject.toml, commit, and adopt again')
    answers: dict[str, Any] = {"workspace_name": name}
    description = project.get("description")
    if isinstance(description, str) and description.strip() and "\n" not in description:
        answers["description"] = description.strip()
    return answers


def render_workspace(answers: dict[str, Any], dest: Path) -> None:
    """What `osmosis init` renders at the root, without a rollout: the workspace template and assets."""
    from osmosis_workspace.core import assets
    from osmosis_workspace.scaffold import catalog
    from osmosis_workspace.scaffold.render import render

    template = catalog.workspace_template()
    render(template.path, dest, data=answers, defaults=True)
    pristine.stamp_render(dest, pristine.ANSWERS_FILE, pristine.WORKSPACE, template.path)
    assets.add_all(dest)


# What makes a project itself: managed from now on (merged three ways by later updates), but the
# version a workspace arrives with is kept, never replaced by ours.
KEPT_ON_ADOPTION = ("pyproject.toml", "uv.lock", "conftest.py", "README.md", ".gitignore", ".env.example", ".github/**")


def adoption_base(root: Path, new_dir: Path, policy: ownership.Policy, base_dir: Path) -> None:
    """Fill ``base_dir`` with the base the first update of an adopted workspace merges from."""
    from osmosis_workspace.scaffold.merge import _files, _read, _write

    for rel in sorted(_files(new_dir)):
        ours = _read(root / rel)
        if ours is None:
            continue  # absent from the base too: the update adds it
        replace = policy.owner(rel) == "managed" and not any(covers(glob, rel) for glob in KEPT_ON_ADOPTION)
        _write(base_dir, rel, ours if replace else _read(new_dir / rel))


SCHEMAS_UNIGNORED = (
    "\n# osmosis: the config schemas and the update policy are shared with every clone (`osmosis update --adopt`"
    " added these lines)\n!.osmosis/\n.osmosis/*\n!.osmosis/schemas/\n!.osmosis/schemas/**\n"
    "!.osmosis/template.json\n!.osmosis/template-ignore\n!.osmosis/update.json\n"
)


def _unignore_schemas(repo: Path, root: Path) -> dict[str, tuple[bytes | None, str]]:
    """The platform's template git-ignores `.osmosis/**` (its eval runs and caches live there); the
    schemas adopting writes there must reach clones, or doctor in CI finds them missing (LAY009)."""
    probe = (root / ".osmosis" / "schemas" / "eval.schema.json").relative_to(repo).as_posix()
    ignored = pristine.git_run(repo, "check-ignore", "-q", "--no-index", "--", probe).returncode == 0
    gitignore = root / ".gitignore"
    if not ignored or gitignore.is_symlink() or not gitignore.is_file():
        return {}
    text = gitignore.read_bytes()
    return {".gitignore": (text + (b"" if text.endswith(b"\n") else b"\n") + SCHEMAS_UNIGNORED.encode(),
                           "so git keeps .osmosis/schemas/ and the update policy for every clone")}


def _record(root: Path, policy: ownership.Policy) -> dict[str, tuple[bytes | None, str]]:
    from osmosis_workspace.scaffold import policy as policies

    if policy.source != policies.POLICY_FILE:
        return {}  # no template.json (the bundled pair is rendered as is) or already a record
    return policies.record_writes(root, policy.lists, None)


def adopt_command(root: Path, *, conflict: str, dry_run: bool, verbose: bool = False) -> int:
    from osmosis_workspace.scaffold.merge import _require_clean
    from osmosis_workspace.scaffold.staging import take_back_interrupted

    repo = pristine.git_root(root)
    if repo is None:
        raise UserError(f"{root} is not inside a git repository; adopting records its base in git",
                        hint="run `git init` and commit the workspace first")
    if (root / pristine.ANSWERS_FILE).exists():
        raise UserError(f"{root} already has {pristine.ANSWERS_FILE}: it is an osmosis workspace",
                        hint="run `osmosis update` (add --dry-run to preview) instead of --adopt")
    if not dry_run:
        take_back_interrupted(root)
    # a dry run refuses what the real run would refuse, in the same words (it only writes nothing)
    _require_clean(repo, root)
    policy = ownership.load(root)
    # our record (policy.RECORD_FILE) holds only what this workspace's own template.json already gave
    # osmosis beyond the platform's lists: under the platform's policy, nothing; never the render's full lists
    extra = _record(root, policy)
    with lock.temp_folder("osmosis-adopt-") as tmp:
        new_dir, base_dir = Path(tmp) / "new", Path(tmp) / "base"
        new_dir.mkdir()
        base_dir.mkdir()
        render_workspace(_answers(root), new_dir)
        adoption_base(root, new_dir, policy, base_dir)
        plan = ownership.land(root, base_dir, new_dir, policy, conflict=conflict, dry_run=dry_run,
                              what="update --adopt", message="osmosis: pristine render at adoption",
                              extra={**extra, **_unignore_schemas(repo, root)})
    ownership.report(plan, dry_run=dry_run, echo=typer.echo, verbose=verbose)
    if not dry_run:
        typer.echo(f"adopted: {pristine.ANSWERS_FILE} and {pristine.ref_name(repo, root)} now record the base; "
                   "`osmosis update` keeps the workspace current from here on")
    return EXIT_FINDINGS if plan.conflicts else 0
