"""What `osmosis update` does to each workspace file under the update policy (osmosis_workspace.scaffold.policy:
the platform's `.osmosis/template.json` and `.osmosis/template-ignore`). For every file the base
render, the installed templates or the workspace has, one status:

- new        the templates have it, the workspace does not and never did: written
- unchanged  nothing to do (the template did not change it, or the workspace already matches)
- replaced   managed, the user never edited it: the template's version written (or removed)
- merged     managed, both changed it: merged three ways without conflicts
- conflict   both changed the same lines (markers or a .rej), or something of the user's is in the way
- left alone additive (the user's), uncovered or opted out, or the user deleted / changed what the template dropped
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.scaffold.policy import Policy, default_policy, load  # noqa: F401  (the policy, for callers)

STATUSES = ("new", "unchanged", "replaced", "merged", "conflict", "left alone")


# -- deciding and applying ---------------------------------------------------------------------


@dataclass
class Change:
    rel: str
    status: str
    note: str = ""


@dataclass
class Plan:
    changes: list[Change] = field(default_factory=list)

    def of(self, status: str) -> list[Change]:
        return [c for c in self.changes if c.status == status]

    @property
    def conflicts(self) -> list[Change]:
        return self.of("conflict")

    @property
    def acted(self) -> bool:
        return any(c.status not in ("unchanged", "left alone") for c in self.changes)


def apply(root: Path, base_dir: Path, new_dir: Path, policy: Policy, *, conflict: str,
          write: Callable[[str, bytes | str | None], None], decided: frozenset[str] = frozenset()) -> Plan:
    """Bring ``root`` from the render in ``base_dir`` to the one in ``new_dir`` under ``policy``.

    Nothing is written here: ``write(rel, content)`` receives each new file (bytes), link (its target,
    a str) or removal (None), for the caller to make all at once, or not at all in a dry run. A merge is
    computed in a temporary folder to tell "merged" from "conflict". Paths in ``decided`` are the
    caller's (a policy migration): skipped here.
    """
    from osmosis_workspace.scaffold.merge import _files, _is_text, _read, _rej, merge_file

    plan = Plan()
    for rel in sorted((_files(base_dir) | _files(new_dir)) - decided):
        base, theirs = _read(base_dir / rel), _read(new_dir / rel)
        target = root / rel
        ours = _read(target)
        owner = policy.owner(rel)

        def add(status: str, note: str = "", rel: str = rel) -> None:
            plan.changes.append(Change(rel, status, note))

        if ours == theirs:
            add("unchanged")
            continue
        blocked = any(p.is_file() or (p.is_symlink() and not p.is_dir()) for p in target.parents if root in p.parents)
        if blocked or (target.is_dir() and not target.is_symlink()):
            add("conflict", "something of yours is in the way; the template's version was not written")
            continue
        if owner in (None, "additive"):
            if base == theirs:
                add("unchanged", "yours; the template did not change it")
            elif ours is None and base is None and owner == "additive":
                write(rel, theirs)
                add("new")
            else:
                add("left alone", "yours (additive)" if owner else policy.why_left(rel))
            continue
        if base == theirs:
            add("unchanged", "your edit kept; the template did not change it")
            continue
        if ours == base:
            write(rel, theirs)
            note = "the template no longer has it: removed" if theirs is None else ""
            if _is_lock(rel) and theirs is not None:
                note = "the package set the templates were tested with; `uv sync` installs it"
            add("new" if base is None else "replaced", note)
            continue
        if ours is None:
            add("left alone", "you deleted it")
            continue
        if theirs is None:
            add("left alone", "you changed it; the template no longer has it")
            continue
        if _is_lock(rel):
            # Two resolutions merged line by line are neither: keep the user's, which matches their pyproject.
            folder = rel.rpartition("/")[0] or "."
            add("left alone", f"your lock kept, the templates' lock changed too; `uv lock --project {folder}` re-resolves it")
            continue
        if _is_text(ours, base, theirs):
            merged, conflicted = merge_file(ours, base or b"", theirs, rel)  # type: ignore[arg-type]
            if not conflicted:
                write(rel, merged)
                add("merged")
                continue
            if conflict == "inline":
                write(rel, merged)
                add("conflict", "conflict markers in the file")
                continue
        write(f"{rel}.rej", _rej(rel, base if isinstance(base, bytes) else None,
                                  theirs if isinstance(theirs, bytes) else None))
        add("conflict", f"yours kept; the template's change is in {rel}.rej")
    return plan


def _is_lock(rel: str) -> bool:
    return rel.rpartition("/")[2] == "uv.lock"


def land(root: Path, base_dir: Path, new_dir: Path, policy: Policy, *, conflict: str, dry_run: bool,
         what: str, message: str, extra: dict[str, tuple[bytes | None, str]] | None = None) -> Plan:
    """`apply`, then make its writes (and ``extra``'s, already decided) and move the pristine ref to
    ``new_dir``'s render, all or nothing: a failure, Ctrl-C or kill -9 part-way leaves the workspace
    as it was (osmosis_workspace.core.journal)."""
    from osmosis_workspace.core import journal
    from osmosis_workspace.scaffold import pristine

    writes: dict[str, bytes | str | None] = {}
    extra = extra or {}
    plan = apply(root, base_dir, new_dir, policy, conflict=conflict, write=writes.__setitem__, decided=frozenset(extra))
    for rel, (content, note) in extra.items():
        writes[rel] = content
        status = "replaced" if content is None else "merged" if (root / rel).exists() else "new"
        plan.changes.append(Change(rel, status, note))
    if dry_run:
        return plan
    changes = [journal.Change(rel, content=content) if isinstance(content, bytes)
               else journal.Change(rel, link=content) if isinstance(content, str)
               else journal.Change(rel, remove=True) for rel, content in writes.items()]
    repo = pristine.git_root(root)
    journal.apply(root, what, changes, [pristine.prepare_record(repo, root, new_dir, message)] if repo else [])
    return plan


def report(plan: Plan, *, dry_run: bool, echo, verbose: bool = False) -> None:
    """Per file: status and path; unchanged files are counted, not listed (`-v` lists them): a dry run
    of a fresh workspace is otherwise sixty lines of "unchanged" around the few that matter."""
    if not plan.acted and not plan.of("left alone") and not dry_run:
        echo("already up to date: nothing to merge")
        return
    if dry_run:
        echo("dry run: nothing was written; `osmosis update` would do this:")
    for change in plan.changes:
        if change.status == "unchanged" and not verbose:
            continue
        echo(f"  {change.status:10} {change.rel}" + (f"  ({change.note})" if change.note else ""))
    counts = ", ".join(f"{len(plan.of(s))} {s}" for s in STATUSES if plan.of(s))
    listed = verbose or not dry_run or not plan.of("unchanged")
    echo((counts or "no files") + ("" if listed else " (`-v` lists the unchanged files)"))
    if dry_run:
        return
    if plan.conflicts:
        echo("resolve the conflict markers (or apply and delete the .rej files), then review with `git diff` and commit")
    elif plan.acted:
        echo("review with `git diff`, run `osmosis doctor`, then commit")
