"""The update policy: which workspace files `osmosis update` may change, read from the platform's own
files.

The platform's workspace template keeps it in `.osmosis/template.json` (path lists `overwriteManaged`
and `additive`) and `.osmosis/template-ignore` (gitignore-style opt-outs, the user's). Those are the
one format: our templates emit them, `update` and `update --adopt` read them, and a workspace made by
a pre-release build of osmosis-workspace has its `.osmosis-ownership.toml` (the pre-release
ownership file) turned into them by its next update
(``migration``; the caller lands it with the rest of the update, all or nothing).

- `overwriteManaged`: the templates' text. We merge three ways instead of overwriting: unedited files
  are replaced, edited ones merged (conflicts marked), so an edit is never lost silently.
- `additive`: the user's. Added when missing, never changed afterwards.
- anything else, and anything `template-ignore` matches: left alone.

`template.json` holds the platform's lists and nothing more: the platform's own update pull requests
read it, and would overwrite a user's dependencies and CI if it named them. What `osmosis update`
manages beyond those lists (the root pyproject, the locks, CI, ...) is our own record,
`.osmosis/update.json`, in the same format (``RECORD_FILE``); the two files' lists are read as one.
A workspace made before the record existed has those patterns moved out of its `template.json` by
its next update (``record_migration``).

A pattern is a glob from the workspace root (`*` within a folder, `**` any depth) that covers a path
when it matches the path or a folder holding it (`rollouts/*` covers a whole rollout). The first list
with a covering pattern decides, `overwriteManaged` first. Our own records (the answers files and the
config schemas) are managed whatever the lists say: without them there is no next update.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

from osmosis_workspace.core.bounded import json_loads
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.globs import MAX_GLOB, MAX_GLOB_TOTAL, IgnoreRules, covers
from osmosis_workspace.core.records import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

POLICY_FILE = ".osmosis/template.json"
IGNORE_FILE = ".osmosis/template-ignore"
RECORD_FILE = ".osmosis/update.json"  # ours: what `osmosis update` manages beyond the platform's lists
# the pre-release ownership file: what builds before the first release (0.1.0) wrote; `update` migrates it
PRE_RELEASE_FILE = ".osmosis-ownership.toml"
KEYS = {"overwriteManaged": "managed", "additive": "additive"}
RECORDS = (".copier-answers.yml", "rollouts/*/.copier-answers.yml", ".osmosis/schemas/**", RECORD_FILE)
_CAP = 1 << 20  # a list of path patterns
MAX_PATTERNS = 1000


@dataclass(frozen=True)
class Policy:
    lists: dict[str, tuple[str, ...]]  # "managed" (overwriteManaged), "additive"
    source: str  # where it was read from, for messages
    ignore: IgnoreRules | None = None

    def owner(self, rel: str) -> str | None:
        """'managed', 'additive', or None (left alone: opted out, or no pattern covers it)."""
        if any(covers(glob, rel) for glob in RECORDS):
            return "managed"
        if self.ignore is not None and self.ignore.ignored(rel):
            return None
        for name in ("managed", "additive"):
            if any(covers(glob, rel) for glob in self.lists.get(name, ())):
                return name
        return None

    def why_left(self, rel: str) -> str:
        if self.ignore is not None and self.ignore.ignored(rel):
            return f"opted out in {IGNORE_FILE}"
        return f"no pattern in {self.source} covers it"


def _patterns(value: object, what: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise UserError(f"{source}: {what} must be a list of path patterns (strings)")
    if len(value) > MAX_PATTERNS:
        raise UserError(f"{source}: {what} holds {len(value)} patterns (at most {MAX_PATTERNS})")
    if long := next((v for v in value if len(v) > MAX_GLOB), None):
        raise UserError(f"{source}: {what} holds a pattern of {len(long)} characters (at most {MAX_GLOB})",
                        hint="a pattern names paths of the workspace; shorten it")
    if (total := sum(map(len, value))) > MAX_GLOB_TOTAL:
        raise UserError(f"{source}: {what} holds patterns of {total} characters together (at most {MAX_GLOB_TOTAL})",
                        hint="a pattern names paths of the workspace; a folder's pattern covers all below it")
    return tuple(v.strip().lstrip("/") for v in value)


def parse_json(text: str, source: str = POLICY_FILE) -> dict[str, tuple[str, ...]]:
    """The lists of a `template.json` (keys it does not know are the platform's business: ignored)."""
    try:
        data = json_loads(text)
    except ValueError as err:
        raise UserError(f"{source} is not valid JSON: {str(err)[:200]}",
                        hint="fix it, or delete it to use the bundled default") from None
    if not isinstance(data, dict):
        raise UserError(f"{source} must hold one JSON object with the lists {', '.join(KEYS)}")
    return {ours: _patterns(data.get(theirs, []), theirs, source) for theirs, ours in KEYS.items()}


def parse_ignore(text: str, source: str = IGNORE_FILE) -> IgnoreRules:
    try:
        return IgnoreRules(text)
    except ValueError as err:
        raise UserError(f"{source} holds {err}", hint="a line names paths of the workspace; shorten the file") from None


def parse_pre_release(text: str, source: str = PRE_RELEASE_FILE) -> dict[str, tuple[str, ...]]:
    """The pre-release ownership file's `[update]` lists `managed`, `shared` (merged like managed; adopting kept the user's) and
    `additive`, mapped onto the platform's two: managed and shared become `overwriteManaged` (same
    order, so the same list decides), the policy file itself gives way to the two that replace it."""
    from osmosis_workspace.core.bounded import toml_loads

    try:
        data = toml_loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"{source} is not valid TOML: {err}", hint="fix it, or delete it to use the bundled default") from None
    table = data.get("update")
    lists = ("managed", "shared", "additive")
    unknown = sorted(set(data) - {"update"}) + sorted(set(table or {}) - set(lists)) if isinstance(table, dict) else []
    if not isinstance(table, dict) or unknown:
        raise UserError(f"{source} must hold one [update] table with lists {', '.join(lists)}"
                        + (f" (unknown: {', '.join(unknown)})" if unknown else ""))
    got = {name: _patterns(table.get(name, []), f"[update] {name}", source) for name in lists}
    additive = tuple(p for p in got["additive"] if p != PRE_RELEASE_FILE)
    additive += tuple(p for p in (POLICY_FILE, IGNORE_FILE) if p not in additive)
    return {"managed": tuple(dict.fromkeys(got["managed"] + got["shared"])), "additive": additive}


def to_json(lists: dict[str, tuple[str, ...]], head: dict[str, object] | None = None) -> bytes:
    """``head``: keys written first and kept as they are (the platform's own keys, our record's note)."""
    data = dict(head or {})
    data.update({theirs: list(lists[ours]) for theirs, ours in KEYS.items()})
    return (json.dumps(data, indent=2) + "\n").encode()


RECORD_NOTE = ("osmosis-workspace's own record: the files `osmosis update` manages beyond the platform's lists in "
               ".osmosis/template.json (which the platform's update pull requests read). Same format; see docs/update.md.")


def joined(*parts: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Lists read as one: each list's patterns in order, the first part's first, no pattern twice."""
    return {name: tuple(dict.fromkeys(p for part in parts for p in part.get(name, ()))) for name in KEYS.values()}


def split(lists: dict[str, tuple[str, ...]], ours: dict[str, tuple[str, ...]]
          ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """``lists`` (one workspace's template.json) as (what stays in template.json, what moves to our record):
    the patterns ``ours`` (the installed record) names move, in their order; anything else, the user's
    own patterns included, stays where the user put it."""
    stays = {name: tuple(p for p in lists.get(name, ()) if p not in ours.get(name, ())) for name in KEYS.values()}
    moves = {name: tuple(p for p in ours.get(name, ()) if p in lists.get(name, ())) for name in KEYS.values()}
    return stays, moves


def _read(root: Path, rel: str) -> str | None:
    from osmosis_workspace.core.bounded import Unreadable, read_capped

    path = root / rel
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return read_capped(path, _CAP).decode("utf-8")
    except (Unreadable, UnicodeDecodeError) as err:
        raise UserError(f"cannot read {rel}: {err}") from None


def _ignore(root: Path) -> IgnoreRules | None:
    text = _read(root, IGNORE_FILE)
    return None if text is None else parse_ignore(text)


@lru_cache(maxsize=1)
def bundled_record() -> dict[str, tuple[str, ...]]:
    """The installed templates' `.osmosis/update.json` lists."""
    from osmosis_workspace.scaffold.catalog import workspace_template

    text = (workspace_template().path / "template" / RECORD_FILE).read_text(encoding="utf-8")
    return parse_json(text, f"the bundled {RECORD_FILE}")


@lru_cache(maxsize=1)
def default_policy() -> Policy:
    from osmosis_workspace.scaffold.catalog import workspace_template

    folder = workspace_template().path / "template"
    source = f"the bundled {POLICY_FILE} and {RECORD_FILE}"
    return Policy(joined(parse_json((folder / POLICY_FILE).read_text(encoding="utf-8"), f"the bundled {POLICY_FILE}"),
                         bundled_record()), source)


def _record(root: Path) -> dict[str, tuple[str, ...]] | None:
    text = _read(root, RECORD_FILE)
    return None if text is None else parse_json(text, RECORD_FILE)


def load(root: Path) -> Policy:
    """The workspace's policy: its `.osmosis/template.json` (else the pre-release `.osmosis-ownership.toml`
    read as its mapping, else the bundled default) joined with our `.osmosis/update.json` when it has
    one, with its `.osmosis/template-ignore`."""
    record = _record(root)
    text = _read(root, POLICY_FILE)
    if text is not None:
        if record is None:
            return Policy(parse_json(text), POLICY_FILE, _ignore(root))
        return Policy(joined(parse_json(text), record), f"{POLICY_FILE} or {RECORD_FILE}", _ignore(root))
    pre_release = _read(root, PRE_RELEASE_FILE)
    if pre_release is not None:
        return Policy(parse_pre_release(pre_release), PRE_RELEASE_FILE, _ignore(root))
    return Policy(default_policy().lists, default_policy().source, _ignore(root))


def record_writes(root: Path, lists: dict[str, tuple[str, ...]], head: dict[str, object] | None,
                  ) -> dict[str, tuple[bytes | None, str]]:
    """The writes that give a workspace whose template.json holds ``lists`` our record: the installed
    record's patterns move out of template.json into `.osmosis/update.json` (only those it held, so
    the policy stays what it was). {} when the workspace already has the record."""
    if (root / RECORD_FILE).exists() or (root / RECORD_FILE).is_symlink():
        return {}
    stays, moves = split(lists, bundled_record())
    writes: dict[str, tuple[bytes | None, str]] = {}
    if stays != {name: lists.get(name, ()) for name in KEYS.values()}:
        writes[POLICY_FILE] = (to_json(stays, head), f"the platform's lists only; osmosis's own moved to {RECORD_FILE}")
    moved = sum(len(v) for v in moves.values())
    note = (f"{moved} pattern(s) moved from {POLICY_FILE}" if moved else
            f"empty: this workspace's {POLICY_FILE} names nothing beyond the platform's lists; add patterns to have `osmosis update` manage more")
    writes[RECORD_FILE] = (to_json(moves, {"description": RECORD_NOTE}), note)
    return writes


def record_migration(root: Path) -> tuple[Policy, dict[str, tuple[bytes | None, str]]] | None:
    """For a workspace with a `template.json` and no record yet: the policy (unchanged: the same lists,
    now in two files) and the writes that split it; None when there is nothing to do."""
    text = _read(root, POLICY_FILE)
    if text is None or (root / RECORD_FILE).exists() or (root / RECORD_FILE).is_symlink():
        return None
    lists = parse_json(text)
    try:
        data = json_loads(text)
    except ValueError:  # pragma: no cover - parse_json said it is JSON
        data = {}
    head = {k: v for k, v in data.items() if k not in KEYS} if isinstance(data, dict) else {}
    writes = record_writes(root, lists, head)
    stays, moves = split(lists, bundled_record())
    return Policy(joined(stays, moves), POLICY_FILE, _ignore(root)), writes


def migration(root: Path, base_dir: Path, new_dir: Path) -> tuple[Policy, dict[str, tuple[bytes | None, str]]] | None:
    """For a workspace still on `.osmosis-ownership.toml`: the policy this update follows and the
    writes that move it to the platform's files, rel -> (content or None to remove, note); None when
    there is nothing to migrate. An untouched pre-release policy becomes the new templates' files; an edited
    one, its mapping (the edits kept)."""
    pre_release = _read(root, PRE_RELEASE_FILE)
    if pre_release is None:
        return None
    if (root / POLICY_FILE).exists() or (root / POLICY_FILE).is_symlink():
        raise UserError(f"both {PRE_RELEASE_FILE} and {POLICY_FILE} are here; one ownership format per workspace",
                        hint=f"{POLICY_FILE} is the policy: copy what you still need from {PRE_RELEASE_FILE} into it, "
                             f"delete {PRE_RELEASE_FILE}, commit, and update again")
    lists = parse_pre_release(pre_release)
    base = _read(base_dir, PRE_RELEASE_FILE)
    untouched = base is not None and parse_pre_release(base, f"the last render's {PRE_RELEASE_FILE}") == lists
    new_json, new_record = _read(new_dir, POLICY_FILE), _read(new_dir, RECORD_FILE)
    if untouched and new_json is not None and new_record is not None:
        content, record = new_json.encode(), new_record.encode()
    else:  # the edited lists, split like a template.json: the platform's lists there, ours in the record
        stays, moves = split(lists, bundled_record())
        content, record = to_json(stays), to_json(moves, {"description": RECORD_NOTE})
    ignore = _read(root, IGNORE_FILE)
    new_ignore = _read(new_dir, IGNORE_FILE)
    writes: dict[str, tuple[bytes | None, str]] = {
        PRE_RELEASE_FILE: (None, f"replaced by {POLICY_FILE}, the platform's format"),
        POLICY_FILE: (content, f"from {PRE_RELEASE_FILE}" + ("" if untouched else ", your edits kept")),
        RECORD_FILE: (record, f"from {PRE_RELEASE_FILE}: what osmosis manages beyond the platform's lists"),
    }
    if ignore is None and new_ignore is not None:
        writes[IGNORE_FILE] = (new_ignore.encode(), "your opt-outs go here")
    policy = Policy(joined(parse_json(content.decode()), parse_json(record.decode(), RECORD_FILE)), POLICY_FILE,
                    parse_ignore(ignore) if ignore is not None else None)
    return policy, writes
