"""Who owns which workspace file, and what `osmosis update` does to each under that ownership.

The policy is `.osmosis-ownership.toml` at the workspace root (the bundled default when it is
missing): pattern lists `managed`, `shared` and `additive`. For every file the base render, the
installed templates or the workspace has, one status:

- new        the templates have it, the workspace does not and never did: written
- unchanged  nothing to do (the template did not change it, or the workspace already matches)
- replaced   managed/shared, the user never edited it: the template's version written (or removed)
- merged     managed/shared, both changed it: merged three ways without conflicts
- conflict   both changed the same lines (markers or a .rej), or something of the user's is in the way
- left alone additive (the user's), unlisted, or the user deleted / changed what the template dropped

Tracked at the root on purpose: the platform's own template git-ignores `.osmosis/`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from generator.core.bounded import toml_loads
from generator.core.errors import UserError
from generator.core.globs import MAX_GLOB, glob_match

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

POLICY_FILE = ".osmosis-ownership.toml"
LISTS = ("managed", "shared", "additive")
_POLICY_CAP = 1 << 20  # a list of path patterns
STATUSES = ("new", "unchanged", "replaced", "merged", "conflict", "left alone")


@dataclass(frozen=True)
class Policy:
    lists: dict[str, tuple[str, ...]]
    source: str  # where it was read from, for messages

    def owner(self, rel: str) -> str | None:
        """'managed', 'shared', 'additive', or None (no pattern matches: left alone)."""
        for name in LISTS:
            if any(glob_match(glob, rel) for glob in self.lists.get(name, ())):
                return name
        return None


def parse(text: str, source: str) -> Policy:
    try:
        data = toml_loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"{source} is not valid TOML: {err}", hint="fix it, or delete it to use the bundled default") from None
    table = data.get("update")
    unknown = sorted(set(data) - {"update"}) + sorted(set(table or {}) - set(LISTS)) if isinstance(table, dict) else []
    if not isinstance(table, dict) or unknown:
        raise UserError(f"{source} must hold one [update] table with lists {', '.join(LISTS)}"
                        + (f" (unknown: {', '.join(unknown)})" if unknown else ""))
    lists = {}
    for name in LISTS:
        value = table.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise UserError(f"{source}: [update] {name} must be a list of path patterns (strings)")
        if long := next((v for v in value if len(v) > MAX_GLOB), None):
            raise UserError(f"{source}: [update] {name} holds a pattern of {len(long)} characters (at most {MAX_GLOB})",
                            hint="a pattern names paths of the workspace; shorten it")
        lists[name] = tuple(value)
    return Policy(lists, source)


@lru_cache(maxsize=1)
def default_policy() -> Policy:
    from generator.scaffold.catalog import workspace_template

    path = workspace_template().path / "template" / POLICY_FILE
    return parse(path.read_text(encoding="utf-8"), f"the bundled {POLICY_FILE}")


def load(root: Path) -> Policy:
    """The workspace's policy, or the bundled default when it has none."""
    from generator.core.bounded import Unreadable, read_capped

    path = root / POLICY_FILE
    if path.is_file() and not path.is_symlink():
        try:
            text = read_capped(path, _POLICY_CAP).decode("utf-8")
        except (Unreadable, UnicodeDecodeError) as err:
            raise UserError(f"cannot read {POLICY_FILE}: {err}") from None
        return parse(text, POLICY_FILE)
    return default_policy()


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
          write: Callable[[str, bytes | str | None], None]) -> Plan:
    """Bring ``root`` from the render in ``base_dir`` to the one in ``new_dir`` under ``policy``.

    Nothing is written here: ``write(rel, content)`` receives each new file (bytes), link (its target,
    a str) or removal (None), for the caller to make all at once, or not at all in a dry run. A merge is
    computed in a temporary folder to tell "merged" from "conflict".
    """
    from generator.scaffold.merge import _files, _is_text, _read, _rej, merge_file

    plan = Plan()
    for rel in sorted(_files(base_dir) | _files(new_dir)):
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
                add("left alone", "yours (additive)" if owner else f"no pattern in {POLICY_FILE} matches it")
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
         what: str, message: str, extra: dict[str, bytes] | None = None) -> Plan:
    """`apply`, then make its writes (and ``extra``'s, already decided) and move the pristine ref to
    ``new_dir``'s render, all or nothing: a failure, Ctrl-C or kill -9 part-way leaves the workspace
    as it was (generator.core.journal)."""
    from generator.core import journal
    from generator.scaffold import pristine

    writes: dict[str, bytes | str | None] = {}
    plan = apply(root, base_dir, new_dir, policy, conflict=conflict, write=writes.__setitem__)
    for rel, content in (extra or {}).items():
        writes[rel] = content
        plan.changes.append(Change(rel, "merged", "so git keeps .osmosis/schemas/ for every clone"))
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
