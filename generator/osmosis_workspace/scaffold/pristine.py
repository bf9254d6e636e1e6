"""The pristine render: what the installed templates produce for a workspace's recorded answers,
kept in the workspace's own git repository so `osmosis update` can three-way merge offline.

copier's own update re-renders the OLD template version from the template's git history; a
wheel-installed template has no history. So every render the generator makes is also committed,
untouched, to a private ref (``refs/osmosis/pristine``). `osmosis update` merges each file with
base = that ref, ours = the working tree, theirs = a fresh render, then moves the ref forward.

Each answers file also records which template produced it and that template's fingerprint
(package version + content hash), which is what `osmosis update --check` compares.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import yaml

from osmosis_workspace import __version__
from osmosis_workspace.core import safe_git
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.journal import RefMove
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.readers import yamlio

ANSWERS_FILE = ".copier-answers.yml"
WORKSPACE = "workspace"
TEMPLATE_KEY = "_osmosis_template"  # bundled template name, or the path / URL of an external one
VERSION_KEY = "_osmosis_version"  # "<package version>+<content hash>"
BUNDLED_PREFIX = "bundled:"  # _src_path of a bundled template: machine-independent
PRISTINE_REF = "refs/osmosis/pristine"
_SKIP_PARTS = {"__pycache__", ".git"}
_HISTORY_CAP = 1000  # pristine commits looked at for the workspace's base
_ANSWERS_CAP = 1 << 20  # an answers file in the pristine history
# Who commits to the private ref when git has no identity (the ref is never pushed by default).
_IDENTITY = {"GIT_AUTHOR_NAME": "osmosis", "GIT_AUTHOR_EMAIL": "osmosis@osmosis.invalid",
             "GIT_COMMITTER_NAME": "osmosis", "GIT_COMMITTER_EMAIL": "osmosis@osmosis.invalid"}


# -- fingerprints ------------------------------------------------------------------------------


def _hash_tree(digest: Any, base: Path, label: str) -> None:
    for path in sorted(base.rglob("*")):
        if not path.is_file() or _SKIP_PARTS & set(path.parts) or path.suffix == ".pyc":
            continue
        rel = path.relative_to(base).as_posix()
        digest.update(f"{label}/{rel}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")


def fingerprint(template_dir: Path, *, workspace: bool = False) -> str:
    """``<package version>+<12 hex digits>`` over the template's files (and, for the workspace
    template, the bundled skills and schemas it brings along)."""
    digest = hashlib.sha256()
    _hash_tree(digest, template_dir, "template")
    if workspace:
        from osmosis_workspace.core.resources import skills_dir
        from osmosis_workspace.core.schemas import KINDS, schema_bytes

        _hash_tree(digest, skills_dir(), "skills")
        for kind in KINDS:
            digest.update(f"schema/{kind}\0".encode() + schema_bytes(kind) + b"\0")
    return f"{__version__}+{digest.hexdigest()[:12]}"


def content_hash(version: str | None) -> str | None:
    """The hash part of a recorded version (package bumps alone do not make a workspace behind)."""
    if not version or "+" not in str(version):
        return None
    return str(version).split("+", 1)[1]


# -- answers files -----------------------------------------------------------------------------


@dataclass
class Recorded:
    """One answers file: where it is, which template, what version, and the answers themselves."""

    path: str  # workspace-relative answers file
    template: str  # bundled name, or path / URL
    version: str | None
    answers: dict[str, Any]

    @property
    def bundled(self) -> bool:
        return not _looks_external(self.template)

    @property
    def is_workspace(self) -> bool:
        return self.path == ANSWERS_FILE


def _looks_external(template: str) -> bool:
    return "/" in template or "\\" in template or ":" in template


def read_answers(path: Path) -> dict[str, Any]:
    if path.is_symlink():  # it would be read, and stamped, wherever the link points
        raise UserError(f"{path} is a symbolic link; an answers file must be a file of the workspace",
                        hint="replace the link with the file it points to")
    try:
        data = yamlio.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise UserError(f"cannot read {path}: {' '.join(str(err).split())[:200]}") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} is not a copier answers file (expected a mapping)")
    return data


def not_made_by_init(root: Path) -> UserError:
    """The refusal for a workspace with no recorded base; `--adopt` is the way in, so the hint names it."""
    return UserError(f"{root} has no {ANSWERS_FILE}: it was not created by `osmosis init`, so there is nothing to update from",
                     hint="`osmosis update --adopt` records a base for it (rollouts, data and your configs are left as they are); "
                          "add `--dry-run` to see what it would add or replace first")


def recorded(root: Path) -> list[Recorded]:
    """The workspace's answers files: the root one first, then each rollout's, sorted."""
    files = [root / ANSWERS_FILE] if (root / ANSWERS_FILE).is_file() else []
    rollouts = root / "rollouts"
    if rollouts.is_dir():
        files += sorted(p / ANSWERS_FILE for p in rollouts.iterdir() if (p / ANSWERS_FILE).is_file() and not p.is_symlink())
    found = []
    for path in files:
        data = read_answers(path)
        rel = path.relative_to(root).as_posix()
        template = data.get(TEMPLATE_KEY) or _template_from_src(data.get("_src_path"), rel)
        if not template:
            raise UserError(f"{rel} does not say which template made it (no {TEMPLATE_KEY} or _src_path)")
        answers = {k: v for k, v in data.items() if not str(k).startswith("_")}
        found.append(Recorded(rel, str(template), data.get(VERSION_KEY), answers))
    return found


def _template_from_src(src: Any, rel: str) -> str | None:
    if not src:
        return None
    src = str(src)
    if src.startswith(BUNDLED_PREFIX):
        return src[len(BUNDLED_PREFIX):]
    from osmosis_workspace.core.resources import templates_dir

    try:  # an absolute path into this installation's templates is a bundled template
        return Path(src).resolve().relative_to(templates_dir().resolve()).parts[0]
    except (ValueError, IndexError, OSError):
        return src


def stamp(answers_file: Path, template: str, version: str, root: Path | None = None) -> None:
    """Record ``template`` and ``version`` in an answers file, keeping its comments.

    A bundled template's ``_src_path`` becomes ``bundled:<name>``: the absolute path of one machine's
    installation means nothing on another and would make every render differ.
    """
    from osmosis_workspace.core import safe_write

    root = root or answers_file.parent  # never through a link, nor outside the workspace being written
    try:
        lines = (safe_write.read_bytes(root, answers_file) or b"").decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise UserError(f"{answers_file} is not UTF-8 text; it is not a copier answers file") from None
    keep = [ln for ln in lines if not ln.startswith((f"{TEMPLATE_KEY}:", f"{VERSION_KEY}:"))]
    if not _looks_external(template):
        keep = [f"_src_path: {BUNDLED_PREFIX}{template}" if ln.startswith("_src_path:") else ln for ln in keep]
    extra = yaml.safe_dump({TEMPLATE_KEY: template, VERSION_KEY: version}, sort_keys=False, default_flow_style=False)
    safe_write.write_text(root, answers_file, "\n".join(keep).rstrip("\n") + "\n" + extra)


def stamp_render(root: Path, rel_answers: str, template: str, template_dir: Path) -> None:
    """Stamp the answers file a render just wrote (no-op when the template writes none)."""
    path = root / rel_answers
    if path.is_file():
        stamp(path, template, fingerprint(template_dir, workspace=(rel_answers == ANSWERS_FILE and template == WORKSPACE)), root)


def stamp_tree(root: Path, labels: dict[str, str] | None = None) -> None:
    """Stamp every answers file under ``root`` (after `osmosis init` rendered into a staging folder).

    ``labels`` maps a rollout name to the template it came from when that is not a bundled name
    (a folder or git URL: copier only knows the local copy it rendered).
    """
    from osmosis_workspace.scaffold import catalog

    for entry in recorded(root):
        label = (labels or {}).get(Path(entry.path).parent.name)
        if label and _looks_external(label):
            source = Path(entry.template)
            if source.is_dir():
                stamp(root / entry.path, label, fingerprint(source), root)
            continue
        if entry.bundled:
            info = catalog.find_bundled(entry.template)
            if info is not None:
                stamp_render(root, entry.path, entry.template, info.path)
        else:
            local = Path(entry.template)
            if local.is_dir():
                stamp(root / entry.path, entry.template, fingerprint(local), root)


# -- rendering the pristine tree ---------------------------------------------------------------


@contextmanager
def open_recorded(entry: Recorded) -> Iterator[Any]:
    """The template an answers file names, opened; one that has moved or gone says which rollout needs it."""
    from osmosis_workspace.scaffold.external import open_template

    with ExitStack() as stack:
        try:
            source = stack.enter_context(open_template(entry.template, kind="rollout" if entry.bundled else None))
        except UserError as err:
            raise UserError(f"{entry.path} names template {entry.template}, which cannot be opened: {err.message}",
                            exit_code=err.exit_code,
                            hint="put the template back at that path or URL; `osmosis update` renders it again to merge") from None
        yield source


def render_pristine(root: Path, dest: Path, *, trust: bool = False) -> list[Recorded]:
    """Render, into empty folder ``dest``, what the installed templates make for ``root``'s answers.

    Returns the answers it used. External templates are fetched again and pass the trust gate.
    """
    from osmosis_workspace.core import assets
    from osmosis_workspace.scaffold import catalog
    from osmosis_workspace.scaffold.external import check_trust
    from osmosis_workspace.scaffold.registration import register_rollout
    from osmosis_workspace.scaffold.render import render

    entries = recorded(root)
    if not entries or not entries[0].is_workspace:
        raise not_made_by_init(root)
    entries = [entries[0], *sorted(entries[1:], key=_member_order(root))]
    for entry in entries:
        if entry.is_workspace:
            template = catalog.workspace_template()
            render(template.path, dest, data=entry.answers, defaults=True)
            stamp_render(dest, entry.path, WORKSPACE, template.path)
            continue
        with open_recorded(entry) as source:
            check_trust(source, trust=trust)
            # Tasks ran once, at init / rollout new; a re-render must not repeat their side effects.
            render(source.path, dest, data=entry.answers, defaults=True, unsafe=trust and not source.bundled,
                   skip_tasks=True)
            if (dest / entry.path).is_file():
                stamp(dest / entry.path, entry.template, fingerprint(source.path), dest)
        register_rollout(dest, Path(entry.path).parent.name)
    assets.add_all(dest)
    return entries


def _member_order(root: Path):
    """Sort key: rollouts in the order the root pyproject lists them (the order they were added),
    so a re-render writes the members list exactly as the workspace has it."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    from osmosis_workspace.core.bounded import toml_loads

    try:
        data = toml_loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        members = list(data.get("tool", {}).get("uv", {}).get("workspace", {}).get("members", []))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        members = []

    def key(entry: Recorded) -> tuple[int, str]:
        member = Path(entry.path).parent.as_posix()
        return (members.index(member) if member in members else len(members), member)

    return key


# -- the private ref ---------------------------------------------------------------------------


def git(repo: Path, *args: str, env: dict[str, str] | None = None, input: bytes | None = None,
        limit: int | None = None) -> bytes:
    """Run git in ``repo`` (through `core/safe_git.py`: the user's repository may name programs, none
    runs); a failure becomes a one-line UserError (exit 3: our plumbing failed).

    ``limit``: the most output accepted; beyond it git is stopped and `OutputTooLarge` raised (a
    listing of a hostile tree may be any size)."""
    if limit is not None:
        return _checked(lambda: safe_git.run_capped(repo, *args, env=env, limit=limit))
    return _checked(lambda: safe_git.run(repo, *args, env=env, input=input).stdout)


def git_run(repo: Path, *args: str):
    """:func:`git` that leaves the exit status to the caller (a CompletedProcess, bytes)."""
    return _checked(lambda: safe_git.run(repo, *args, check=False))


def _checked(call):
    try:
        return call()
    except safe_git.OutputTooLarge as err:
        from osmosis_workspace.scaffold.git_tree import OutputTooLarge

        raise OutputTooLarge(str(err)) from None
    except safe_git.GitMissing:
        raise UserError("git is not installed; `osmosis rollout new` and `osmosis update` need it") from None
    except safe_git.GitTimeout as err:
        raise UserError(f"{err}; nothing was changed", hint="OSMOSIS_GIT_TIMEOUT=SECONDS allows git more time") from None
    except safe_git.GitFailed as err:
        raise UserError(str(err), exit_code=3) from None
    except safe_git.GitError as err:
        raise UserError(str(err)) from None


def git_root(path: Path) -> Path | None:
    try:
        done = safe_git.run(path, "rev-parse", "--show-toplevel", check=False)
    except safe_git.GitMissing:
        if any((folder / ".git").exists() for folder in (path.resolve(), *path.resolve().parents)):
            # a repository without the git program: the pristine render could be neither read nor recorded
            raise UserError("git is not installed (not found on PATH), and this workspace is a git repository",
                            hint="install git; `osmosis rollout new` and `osmosis update` keep their merge base in it") from None
        return None
    except safe_git.GitError as err:
        raise UserError(str(err)) from None
    if done.returncode != 0:
        return None
    from osmosis_workspace.scaffold.git_tree import checked_toplevel

    return checked_toplevel(done.stdout)


def ref_name(repo: Path, root: Path) -> str:
    """The pristine ref for the workspace at ``root`` (a subfolder workspace gets its own ref)."""
    rel = root.resolve().relative_to(repo.resolve()).as_posix()
    if rel in ("", "."):
        return PRISTINE_REF
    return f"{PRISTINE_REF}-{hashlib.sha1(rel.encode()).hexdigest()[:10]}"


def resolve_ref(repo: Path, ref: str) -> str | None:
    done = git_run(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    return done.stdout.decode().strip() if done.returncode == 0 else None


def _identity_env(repo: Path) -> dict[str, str]:
    """The fallback identity only for the parts git does not know (the user's own wins)."""
    env = {}
    for key, value in _IDENTITY.items():
        if os.environ.get(key):
            continue
        config_key = "user.name" if key.endswith("_NAME") else "user.email"
        known = git_run(repo, "config", "--get", config_key)
        if known.returncode != 0 or not known.stdout.strip():
            env[key] = value
    return env


def base_commit(repo: Path, root: Path, ref: str) -> str | None:
    """The pristine commit the workspace really carries: the newest on ``ref`` whose template versions
    match every answers file in the workspace; the tip when none does.

    `osmosis update` moves the ref before the user commits; an update backed out with `git checkout .`
    leaves the workspace at an older render. Merging from the tip would then count the template's
    changes as already applied, and they would never arrive.
    """
    tip = resolve_ref(repo, ref)
    if tip is None:
        return None
    mine = {entry.path: entry.version for entry in recorded(root)}
    # a pushed ref may carry any history: only the recent renders are candidates
    for commit in git(repo, "rev-list", "--first-parent", f"--max-count={_HISTORY_CAP}", tip).decode().split():
        if all(_version_at(repo, commit, rel) == version for rel, version in mine.items()):
            return commit
    return tip


def _version_at(repo: Path, commit: str, rel: str) -> Any:
    size = git_run(repo, "cat-file", "-s", f"{commit}:{rel}")
    if size.returncode != 0 or not size.stdout.strip().isdigit() or int(size.stdout) > _ANSWERS_CAP:
        return None  # absent, or no answers file osmosis wrote: never read whole
    done = git_run(repo, "cat-file", "-p", f"{commit}:{rel}")
    if done.returncode != 0:
        return None
    try:
        data = yamlio.safe_load(done.stdout.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError):
        return None
    return data.get(VERSION_KEY) if isinstance(data, dict) else None


def record(repo: Path, root: Path, tree_dir: Path, message: str) -> str:
    """Commit ``tree_dir`` (untouched render) to the workspace's pristine ref; returns the commit id."""
    move = prepare_record(repo, root, tree_dir, message)
    if move.new != move.old:
        git(repo, "update-ref", move.ref, move.new)
    return move.new


def prepare_record(repo: Path, root: Path, tree_dir: Path, message: str) -> RefMove:
    """The commit `record` would put on the pristine ref, made but not yet on the ref (``new == old``
    when the render is what the ref holds already). Moving the ref is the caller's, all or nothing
    with the files (osmosis_workspace.core.journal)."""
    from osmosis_workspace.scaffold.git_tree import write_tree

    git_dir = git(repo, "rev-parse", "--absolute-git-dir").decode().strip()
    tree = write_tree(git, repo, git_dir, tree_dir)  # whole and untouched: no .gitignore, no attributes
    ref = ref_name(repo, root)
    parent = resolve_ref(repo, ref)
    if parent and git(repo, "rev-parse", f"{parent}^{{tree}}").decode().strip() == tree:
        return RefMove(repo, ref, parent, parent)  # nothing new to record
    args = ["commit-tree", tree, "-m", message] + (["-p", parent] if parent else [])
    commit = git(repo, *args, env=_identity_env(repo)).decode().strip()
    return RefMove(repo, ref, parent, commit)


def record_after_init(target: Path) -> str | None:
    """After `osmosis init` made its first commit: record the pristine render of ``target``."""
    repo = git_root(target)
    if repo is None:
        return None
    move = prepare_after_init(target, repo, target)
    if move.new != move.old:
        git(repo, "update-ref", move.ref, move.new)
    return move.new


def prepare_after_init(rendered: Path, repo: Path, root: Path) -> RefMove:
    """The pristine commit for a workspace rendered in ``rendered`` that will live at ``root`` in ``repo``."""
    from osmosis_workspace.core import lock

    with lock.temp_folder("osmosis-pristine-") as tmp:
        dest = Path(tmp) / "w"
        dest.mkdir()
        render_pristine(rendered, dest, trust=True)  # init already passed the trust gate
        return prepare_record(repo, root, dest, "osmosis: pristine render at init")


def extract(repo: Path, ref: str, dest: Path, label: str = PRISTINE_REF) -> None:
    """Write the tree of ``ref`` (a commit of the ref named ``label``) into folder ``dest``, byte for
    byte; a tree osmosis could not have written is refused (see osmosis_workspace.scaffold.git_tree)."""
    from osmosis_workspace.scaffold.git_tree import read_tree

    read_tree(git, repo, ref, dest, label=label)
