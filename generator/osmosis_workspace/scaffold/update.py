"""`osmosis update`: bring a workspace and its rollouts up to the installed templates and skills.

A real three-way merge per file, offline: base = the pristine render recorded at the last init /
rollout new / update (``refs/osmosis/pristine``, see osmosis_workspace.scaffold.pristine), ours = the working tree,
theirs = what the installed templates render now for the same answers. Which files may change, and
how, is the workspace's update policy (osmosis_workspace.scaffold.policy: the platform's
`.osmosis/template.json`): a managed file only the template changed is replaced, one both changed
is merged with `git merge-file`, and what cannot be merged is left as conflict markers
(``--conflict inline``) or as the user's file plus a ``<file>.rej`` patch (``--conflict rej``); the user's own files are only added. Exit 1 when conflicts remain.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer

from osmosis_workspace.core import lock
from osmosis_workspace.core.errors import EXIT_FINDINGS, UserError
from osmosis_workspace.core.workspace import NotAWorkspace, find_root
from osmosis_workspace.scaffold import pristine
from osmosis_workspace.scaffold.merge import _require_clean
from osmosis_workspace.scaffold.staging import take_back_interrupted

CONFLICT_MODES = ("inline", "rej")


def update_command(*, path: Path, check: bool, conflict: str, unfinished: Callable[[Path], list[str]],
                   trust: bool = False, dry_run: bool = False, adopt: bool = False, verbose: bool = False) -> int:
    """``unfinished(root)``: conflicts a previous update left, as `path[:line]  what` (the check wing
    finds them; the cli hands its finder in, so this wing never imports that one)."""
    if conflict not in CONFLICT_MODES:
        raise UserError(f"--conflict must be one of {', '.join(CONFLICT_MODES)}, not {conflict!r}")
    if not path.exists():
        raise UserError(f"{path} does not exist")
    try:
        root = find_root(path)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None
    if check:
        return check_command(root, unfinished)
    if adopt:
        from osmosis_workspace.scaffold.adopt import adopt_command

        return adopt_command(root, conflict=conflict, dry_run=dry_run, verbose=verbose)
    return update(root, conflict=conflict, trust=trust, dry_run=dry_run, verbose=verbose)


# -- --check -----------------------------------------------------------------------------------


def behind(root: Path) -> list[tuple[str, str, str | None, str]]:
    """(answers file, template, recorded version, installed version) for every part that is behind.

    Only the content hash counts: a new package version that leaves a template as it was is current.
    """
    from osmosis_workspace.scaffold import catalog

    stale = []
    entries = pristine.recorded(root)
    if not entries or not entries[0].is_workspace:
        raise pristine.not_made_by_init(root)
    for entry in entries:
        if entry.is_workspace:
            installed = pristine.fingerprint(catalog.workspace_template().path, workspace=True)
        else:
            with pristine.open_recorded(entry) as source:
                installed = pristine.fingerprint(source.path)
        if pristine.content_hash(entry.version) != pristine.content_hash(installed):
            stale.append((entry.path, entry.template, entry.version, installed))
    return stale


def check_command(root: Path, find_unfinished: Callable[[Path], list[str]]) -> int:
    stale = behind(root)
    unfinished = find_unfinished(root)
    if not stale and not unfinished:
        typer.echo("up to date: the workspace and every rollout match the installed templates")
        return 0
    if stale:
        typer.echo(f"behind the installed templates ({len(stale)}):")
        for rel, template, old, new in stale:
            typer.echo(f"  {Path(rel).parent.as_posix() if '/' in rel else '(workspace)'}: {template} {old or 'unrecorded'} -> {new}")
        typer.echo("run `osmosis update` to merge the changes (your edits are kept)")
    if unfinished:
        typer.echo(f"{'templates current, but ' if not stale else ''}an update is not finished: "
                   f"{len(unfinished)} conflict(s) to resolve by hand:")
        for line in unfinished:
            typer.echo(f"  {line}")
        typer.echo("resolve the conflict markers (or apply and delete the .rej files), then commit")
    return EXIT_FINDINGS


# -- the merge ---------------------------------------------------------------------------------


def update(root: Path, *, conflict: str, trust: bool, dry_run: bool = False, verbose: bool = False) -> int:
    from osmosis_workspace.scaffold import ownership, policy

    repo = pristine.git_root(root)
    if repo is None:
        raise UserError(f"{root} is not inside a git repository; `osmosis update` merges with git",
                        hint="run `git init` and commit; `osmosis update` then records its base")
    if not dry_run:  # a dry run writes nothing, so it may look at a dirty tree
        take_back_interrupted(root)  # a killed update is undone before the tree is judged clean
        _require_clean(repo, root)
    ref = pristine.ref_name(repo, root)
    if pristine.resolve_ref(repo, ref) is None:
        if dry_run:
            behind(root)  # says so when the workspace was not made by `osmosis init`
            typer.echo(f"dry run: no {ref} yet; `osmosis update` would record the current templates' render as the base")
            return 0
        return _adopt(repo, root, ref, trust=trust)
    with lock.temp_folder("osmosis-update-") as tmp:
        base_dir, new_dir = Path(tmp) / "base", Path(tmp) / "new"
        base_dir.mkdir()
        new_dir.mkdir()
        pristine.extract(repo, pristine.base_commit(repo, root, ref) or ref, base_dir, label=ref)
        pristine.render_pristine(root, new_dir, trust=trust)
        # a workspace on the pre-release ownership file moves to the platform's policy files in the same journal as the update
        # and one whose template.json still holds our own patterns moves them to our record (policy.RECORD_FILE)
        migrated = policy.migration(root, base_dir, new_dir) or policy.record_migration(root)
        rules, extra = migrated if migrated else (policy.load(root), {})
        plan = ownership.land(root, base_dir, new_dir, rules, conflict=conflict, dry_run=dry_run,
                              what="update", message="osmosis: pristine render at update", extra=extra)
    ownership.report(plan, dry_run=dry_run, echo=typer.echo, verbose=verbose)
    return EXIT_FINDINGS if plan.conflicts else 0


def _adopt(repo: Path, root: Path, ref: str, *, trust: bool) -> int:
    """No pristine ref (made with --no-git, or a clone). When the installed templates are the ones
    that made the workspace, their render is the right base: record it. Otherwise there is no base."""
    stale = behind(root)
    if stale:
        raise UserError(
            f"this repository has no {ref}, the record of the last template render that updates merge from, "
            "and the installed templates are newer than the ones that made the workspace",
            hint=f"in a clone, fetch it: `git fetch origin '{ref}:{ref}'` after `git push origin '{ref}'` from the "
                 "original; see docs/update.md",
        )
    with lock.temp_folder("osmosis-update-") as tmp:
        new_dir = Path(tmp) / "new"
        new_dir.mkdir()
        pristine.render_pristine(root, new_dir, trust=trust)
        pristine.record(repo, root, new_dir, "osmosis: pristine render recorded by update")
    typer.echo(f"recorded the current templates' render as {ref}; nothing to merge (future updates merge from it)")
    return 0
