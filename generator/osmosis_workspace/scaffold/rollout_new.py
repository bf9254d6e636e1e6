"""`osmosis rollout new`: add a rollout (its code, configs and data sample) to an existing workspace.

The template is rendered into a staging folder first; if any file it made already exists in the
workspace, nothing is written (exit 2). The rollout brings its own `uv.lock` (it is a uv project of
its own); the one root file that must learn about it, `.env.example`, is edited in place, keeping the
user's comments and order.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import typer

from osmosis_workspace.core import journal, lock
from osmosis_workspace.core.bounded import toml_loads
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.names import NAME_RULE_TEXT, name_problem
from osmosis_workspace.core.workspace import NotAWorkspace, find_root
from osmosis_workspace.scaffold.registration import planned_registration, register_rollout

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def rollout_new_command(*, name: str, template: str, workspace: Path, data: list[str], defaults: bool, trust: bool) -> int:
    from osmosis_workspace.scaffold import pristine
    from osmosis_workspace.scaffold.catalog import questions as catalog_questions
    from osmosis_workspace.scaffold.catalog import refuse_unasked, resolve_alias
    from osmosis_workspace.scaffold.external import check_trust, load_config, open_template, questions
    from osmosis_workspace.scaffold.init_workspace import (NEXT_STEPS_HEADER, eval_run_step, parse_data,
                                                          rehearse_steps, rollout_test_steps)
    from osmosis_workspace.scaffold import folders
    from osmosis_workspace.scaffold.staging import files_in, make_staging, take_back_interrupted

    if problem := name_problem(name, kind="rollout"):
        raise UserError(problem, hint=f"names use {NAME_RULE_TEXT}")
    if not workspace.exists():
        raise UserError(f"{workspace} does not exist")
    try:
        root = find_root(workspace)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None
    take_back_interrupted(root)  # a killed `rollout new` of this very name must not block this one
    target = root / "rollouts" / name
    if target.exists() or target.is_symlink():
        raise UserError(f"rollout {name!r} already exists at {_shown(target)}", hint="pick another name")
    shown_template = template
    template, implied = resolve_alias(template)
    implied.pop("rollout_name", None)  # the NAME argument names the rollout
    answers = {**implied, **parse_data(data)}
    if answers.get("rollout_name", name) != name:
        raise UserError(f"--data rollout_name={answers['rollout_name']} contradicts the rollout name {name!r}")
    answers["rollout_name"] = name

    with open_template(template, kind="rollout") as source:
        check_trust(source, trust=trust)
        asked = {q.name for q in questions(load_config(source.path)) if q.when is not False}  # hidden: osmosis's
        unknown = sorted(set(answers) - asked - {"rollout_name"})
        if unknown:
            raise UserError(f"unknown question {unknown[0]!r} in --data; template {source.label} asks: {', '.join(sorted(asked))}")
        refuse_unasked(catalog_questions(source.path), answers, source.label)
        interactive = not defaults and sys.stdin.isatty()
        staging = make_staging(root, ".osmosis-new-")
        try:
            from osmosis_workspace.scaffold.render import render

            render(source.path, staging, data=answers, defaults=not interactive, unsafe=trust and not source.bundled)
            rendered_root = staging / "rollouts" / name
            if not rendered_root.is_dir():
                raise UserError(f"template {source.label} did not render rollouts/{name}/; is it a rollout template?")
            label = source.spec if source.bundled else (source.url or str(source.path))
            pristine.stamp_render(staging, f"rollouts/{name}/{pristine.ANSWERS_FILE}", label, source.path)
            folders.follow_umask(staging)
            new_files = files_in(staging, staging)
            collisions = _collisions(new_files, root)
            if collisions:
                listed = ", ".join(collisions[:10]) + (f" and {len(collisions) - 10} more" if len(collisions) > 10 else "")
                raise UserError(f"not adding rollout {name!r}: these files already exist: {listed}",
                                hint="nothing was written; move them away or pick another name")
            _check_root_pyproject(root, name)
            planned = planned_registration(root, name, configs_root=staging)  # .env.example names
            refs = []
            with lock.temp_folder("osmosis-pristine-") as tmp:
                pending = _pristine_with(root, staging, Path(tmp))
                if pending is not None:
                    register_rollout(pending, name)
                    repo = pristine.git_root(root)
                    refs.append(pristine.prepare_record(repo, root, pending, f"osmosis: pristine render of new rollout {name}"))
            # all of the rollout, the root files and the pristine ref, or none of them: a failure, Ctrl-C
            # or kill -9 from here on is taken back (a kill by the next osmosis command on the workspace)
            journal.apply(root, f"rollout new {name}",
                          [*(journal.Change(rel, source=staging / rel) for rel in new_files),
                           *(journal.Change(rel, content=content) for rel, content in planned.items())], refs)
            changed = list(planned)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            lock.release(staging)
    shown = _shown(root)
    where = f"the workspace in this folder ({root.name})" if shown == "." else f"the workspace at {shown}"
    typer.echo(f"Added rollout {name} (template {shown_template}) to {where}:")
    for rel in new_files:
        typer.echo(f"  created {rel}")
    for rel in changed:
        typer.echo(f"  updated {rel}")
    typer.echo("\n" + NEXT_STEPS_HEADER)
    to_root = _cd_to(root)
    for step in (
        *([f"cd {shlex.quote(to_root)}"] if to_root else []),  # the steps below are relative to the root
        *rollout_test_steps(name),
        "osmosis doctor",
        *rehearse_steps(name),
        f"git add -A && git commit -m 'Add rollout {name}'",
        eval_run_step(name, root),
        *reference_config_step(root),
    ):
        typer.echo(f"  {step}")
    return 0


def reference_config_step(root: Path) -> list[str]:
    """Where every config key is explained: the workspace's commented reference configs, when it has them."""
    present = [f"configs/{kind}/default.toml" for kind in ("eval", "training", "benchmark")
               if (root / "configs" / kind / "default.toml").is_file()]
    return [f"# every config key, commented: {', '.join(present)}"] if present else []


def _check_root_pyproject(root: Path, rollout: str) -> None:
    """Refuse before writing anything when the root pyproject cannot learn about the rollout."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return
    try:
        toml_loads(pyproject.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise UserError(f"{pyproject} is not valid TOML ({' '.join(str(err).split())}); nothing was written",
                        hint=f"fix it, then run `osmosis rollout new {rollout}` again") from None


def _cd_to(root: Path) -> str | None:
    """How to get from the current folder to ``root``: None when already there, a short relative path
    when it is below or above, else the absolute path."""
    rel = Path(os.path.relpath(root.resolve(), Path.cwd().resolve()))
    if rel == Path("."):
        return None
    if ".." not in rel.parts or set(rel.parts) == {".."}:
        return rel.as_posix()
    return str(root.resolve())


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    except ValueError:
        return str(path)


def _collisions(rendered: list[str], root: Path) -> list[str]:
    """Rendered files that exist in the workspace already, or would be written through a link out of it."""
    from osmosis_workspace.core.paths import is_inside

    found = []
    for rel in rendered:
        dest = root / rel
        if dest.exists() or dest.is_symlink() or not is_inside(root, dest.parent):
            found.append(rel)
    return found


def _pristine_with(root: Path, staging: Path, scratch: Path) -> Path | None:
    """The old pristine tree plus this rollout's render, in ``scratch``; None without a pristine ref.

    Only the new rollout moves forward: the other rollouts keep their old base, so a later
    `osmosis update` still merges their template changes.
    """
    from osmosis_workspace.core import safe_write
    from osmosis_workspace.scaffold import pristine

    repo = pristine.git_root(root)
    if repo is None:
        return None
    ref = pristine.ref_name(repo, root)
    if pristine.resolve_ref(repo, ref) is None:
        return None  # a workspace from before pristine refs: `osmosis update` says what to do
    tree = scratch / "w"
    tree.mkdir()
    pristine.extract(repo, pristine.base_commit(repo, root, ref) or ref, tree, label=ref)
    try:  # never through a link the old tree holds; a scratch copy, so no fsync
        safe_write.copy_tree(staging, tree, durable=False)
    except safe_write.UnsafeWrite as err:
        raise UserError(f"{ref} (the last template render) is in the way of the new rollout: {err.message}; "
                        "nothing was written", hint=f"if someone else pushed it, delete it (`git update-ref -d {ref}`)") from None
    return tree
