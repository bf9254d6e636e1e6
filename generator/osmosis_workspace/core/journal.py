"""Changes to a workspace that land all or nothing, even when the process is killed on the way.

A writer (`init` into an existing folder, `rollout new`, `update`) first works out every change
in private, then hands them to `apply`, which

1. backs up what the changes replace into a private folder `.osmosis-undo-<random>/` in the root
   and writes its `journal.json`: each change with what was there before and what it leaves (by
   sha256), each ref move, each folder it will make; fsynced;
2. makes the changes;
3. removes the folder: from here on the changes stand.

A failure in step 2 (a full disk, Ctrl-C) takes everything back at once. A kill (kill -9, power
loss) leaves the folder behind; the next writer on the workspace, which holds the workspace lock,
finds it with `recover` and takes the interrupted run back. A path is restored only while it still
holds what the interrupted run wrote, so an edit made since the kill is never lost.

A journal is instructions to delete and restore files, and a cloned repository or an unpacked archive
can hold a folder of any name: `recover` acts only on a journal sealed with this user's own key
(an HMAC; the key lives in the user's cache folder, never in a workspace), only inside the root, never
writes into `.git`, and moves only osmosis's own refs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from osmosis_workspace.core import lock, safe_git
from osmosis_workspace.core.bounded import json_loads
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.names import UNDO_PREFIX
from osmosis_workspace.core.paths import is_inside
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.template_guard import has_git_segment

PREFIX = UNDO_PREFIX
JOURNAL = "journal.json"
JOURNAL_CAP = 16 << 20  # a journal names files and hashes: a big one was not written by osmosis
OWN_REFS = "refs/osmosis/"
_MISSING = {"kind": "none"}


@dataclass(frozen=True)
class Change:
    """One path's new state: ``content`` (bytes), a ``link`` target, a staged ``source`` moved in, or ``remove``."""

    rel: str
    content: bytes | None = None
    link: str | None = None
    source: Path | None = None
    remove: bool = False


@dataclass(frozen=True)
class RefMove:
    repo: Path
    ref: str
    old: str | None
    new: str


def apply(root: Path, what: str, changes: Iterable[Change], refs: Iterable[RefMove] = (),
          folders: Iterable[str] = ()) -> None:
    """Make ``changes`` in ``root`` and move ``refs``, all or nothing (see the module). ``folders``:
    empty folders to make as well (taken back with the rest)."""
    changes, refs, folders = list(changes), [r for r in refs if r.new != r.old], list(folders)
    if not changes and not refs and not folders:
        return
    undo = Path(tempfile.mkdtemp(prefix=PREFIX, dir=root))
    lock.claim(undo)
    try:
        entries = [_entry(root, undo, n, change) for n, change in enumerate(changes)]
        journal = {"command": what, "pid": os.getpid(), "changes": entries,
                   "dirs": _missing_dirs(root, [c.rel for c in changes if not c.remove], folders),
                   "refs": [{"repo": str(r.repo), "ref": r.ref, "old": r.old, "new": r.new} for r in refs]}
        _write_journal(undo, journal)
        try:
            for rel in journal["dirs"]:
                (root / rel).mkdir()
            for change in changes:
                _make(root, change)
            for move in refs:
                move_ref(move)
        except BaseException:
            _roll_back(root, undo, journal)
            raise
    finally:
        shutil.rmtree(undo, ignore_errors=True)
        lock.release(undo)


def move_ref(move: RefMove) -> None:
    """Point ``move.ref`` at ``move.new``, only while it still points at ``move.old``."""
    _git(move.repo, "update-ref", move.ref, move.new, move.old or "")  # "" : the ref must not exist yet


def recover(root: Path) -> list[str]:
    """Take back what interrupted runs left half-done in ``root``; one line per run taken back.

    Call it holding the workspace lock: a folder whose owner still lives is left alone anyway."""
    said = []
    try:
        found = sorted(p for p in root.iterdir() if p.name.startswith(PREFIX))
    except OSError:
        return said
    for undo in found:
        if undo.is_symlink() or not undo.is_dir() or not lock.claim_abandoned(undo):
            continue
        journal, sealed = read_journal(undo)
        if journal is not None and not sealed:
            lock.release(undo)
            said.append(f"left {undo.name}/ alone: its journal was not written by osmosis for this user; "
                        "delete the folder if you do not know it")
            continue
        try:
            if journal is not None:  # None: killed before the journal was written, so nothing changed yet
                kept = _roll_back(root, undo, journal)
                line = f"took back an interrupted `osmosis {journal.get('command', '?')}` (process {journal.get('pid', '?')})"
                if kept:
                    line += f"; left {len(kept)} file(s) changed since as they are: {', '.join(kept[:5])}"
                said.append(line)
        finally:
            shutil.rmtree(undo, ignore_errors=True)
            lock.release(undo)
    return said


# -- recording ----------------------------------------------------------------------------------


def _state(path: Path) -> dict:
    """What is at ``path`` now: nothing, a link, a file (by hash), or something else (a folder).
    A name that cannot exist (too long, under a file) is nothing, so one bad path never stops a take-back."""
    import stat

    try:
        info = os.lstat(path)
    except OSError:
        return dict(_MISSING)
    if stat.S_ISLNK(info.st_mode):
        return {"kind": "link", "target": os.readlink(path)}
    if stat.S_ISREG(info.st_mode):
        return {"kind": "file", "sha": _sha_file(path)}
    return {"kind": "other"}


def _entry(root: Path, undo: Path, n: int, change: Change) -> dict:
    dest = root / change.rel
    if not is_inside(root, dest.parent):
        raise UserError(f"refusing to write {change.rel}: it leads out of {root} through a link")
    before = _state(dest)
    if before["kind"] == "other":
        raise UserError(f"refusing to replace {change.rel}: it is a folder", hint="move it away, then run this again")
    if before["kind"] == "file":
        backup = undo / f"b{n}"
        shutil.copyfile(dest, backup, follow_symlinks=False)
        before["backup"] = backup.name
        before["mode"] = dest.stat().st_mode & 0o7777
    if change.remove:
        after = dict(_MISSING)
    elif change.link is not None:
        after = {"kind": "link", "target": change.link}
    elif change.source is not None:
        after = _state(change.source)
    else:
        after = {"kind": "file", "sha": hashlib.sha256(change.content or b"").hexdigest()}
    return {"rel": change.rel, "before": before, "after": after}


def _missing_dirs(root: Path, rels: list[str], folders: list[str] = ()) -> list[str]:
    """The folders the changes (and ``folders`` themselves) need that do not exist yet, parents first."""
    missing: list[str] = []
    wanted = [list(reversed(Path(rel).parents[:-1])) for rel in rels]
    wanted += [[*reversed(Path(rel).parents[:-1]), Path(rel)] for rel in folders]
    for chain in wanted:
        for parent in chain:  # `a`, then `a/b`, ...
            key = parent.as_posix()
            if key not in missing and not os.path.lexists(root / parent):
                missing.append(key)
    return missing


def _key() -> bytes | None:
    """This user's journal key (made on first use), or None where no private place can hold one."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "osmosis-workspace"
    path = base / "journal.key"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                key = os.read(fd, 64)
            finally:
                os.close(fd)
            return key if len(key) == 32 else None
        except FileNotFoundError:
            try:
                base.mkdir(mode=0o700, parents=True, exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            except FileExistsError:
                continue  # another run made it meanwhile: read theirs
            except OSError:
                return None
            try:
                os.write(fd, secrets.token_bytes(32))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            return None
    return None


def _seal(body: bytes) -> str:
    key = _key()
    return hmac.new(key, body, hashlib.sha256).hexdigest() if key else ""


def _write_journal(undo: Path, journal: dict) -> None:
    from osmosis_workspace.core import safe_write

    body = json.dumps(journal, sort_keys=True).encode("utf-8")
    # atomic (exclusive temporary file, fsync, rename): the journal exists whole or not at all
    safe_write.write_bytes(undo, undo / JOURNAL, _seal(body).encode("ascii") + b"\n" + body)


def read_journal(undo: Path) -> tuple[dict | None, bool]:
    """(the journal in ``undo``, whether this user's osmosis sealed it); (None, False) when there is none."""
    import stat

    try:
        fd = os.open(undo / JOURNAL, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None, False
    chunks, size = [], 0
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, False
        while size <= JOURNAL_CAP and (chunk := os.read(fd, 1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError:
        return None, False
    finally:
        os.close(fd)
    if size > JOURNAL_CAP:
        return {}, False
    seal, _, body = b"".join(chunks).partition(b"\n")
    try:
        journal = json_loads(body)
    except ValueError:
        return {}, False
    if not isinstance(journal, dict):
        return {}, False
    return journal, bool(seal) and hmac.compare_digest(seal.decode("ascii", "replace"), _seal(body))


# -- doing and undoing --------------------------------------------------------------------------


def _make(root: Path, change: Change) -> None:
    from osmosis_workspace.core import safe_write

    dest = root / change.rel
    if change.source is not None:
        if os.path.lexists(dest):  # the caller checked; something appeared meanwhile
            raise UserError(f"not writing {change.rel}: it appeared while osmosis was working")
        os.replace(change.source, dest)
    elif change.remove or change.link is not None:
        if dest.is_symlink() or dest.is_file():
            dest.unlink()
        if change.link is not None:
            os.symlink(change.link, dest)
    else:
        safe_write.write_bytes(root, dest, change.content or b"")


def _roll_back(root: Path, undo: Path, journal: dict) -> list[str]:
    """Put every path back to its state before the run, where it still holds what the run left.
    Returns the paths left as they are because they changed since."""
    kept = []
    for entry in reversed(journal.get("changes", [])):
        rel, before, after = entry["rel"], entry["before"], entry["after"]
        dest = root / rel
        if not isinstance(rel, str) or not is_inside(root, dest.parent) or (
                has_git_segment(rel) and before["kind"] != "none"):
            continue  # only files osmosis itself put into a `.git` (init's first commit) are taken out again
        now = _state(dest)
        if _same(now, before):
            continue
        if not _same(now, after):
            kept.append(rel)
            continue
        if dest.is_symlink() or dest.is_file():
            dest.unlink()
        if before["kind"] == "link":
            os.symlink(before["target"], dest)
        elif before["kind"] == "file":
            from osmosis_workspace.core import safe_write

            safe_write.write_bytes(root, dest, (undo / before["backup"]).read_bytes())
            os.chmod(dest, before.get("mode", 0o644))
    for rel in reversed(journal.get("dirs", [])):
        try:
            (root / rel).rmdir()  # only when empty: a file put there since stays
        except OSError:
            pass
    for move in journal.get("refs", []):
        repo = Path(move["repo"])
        if not str(move["ref"]).startswith(OWN_REFS) or _resolve(repo, move["ref"]) != move["new"]:
            continue
        if move["old"]:
            _git(repo, "update-ref", move["ref"], move["old"])
        else:
            _git(repo, "update-ref", "-d", move["ref"])
    return kept


def _same(now: dict, state: dict) -> bool:
    if now["kind"] != state["kind"]:
        return False
    if now["kind"] == "file":
        return now["sha"] == state["sha"]
    if now["kind"] == "link":
        return now["target"] == state["target"]
    return True


def _sha_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _resolve(repo: Path, ref: str) -> str | None:
    try:
        done = safe_git.run(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    except safe_git.GitError as err:
        raise UserError(str(err)) from None
    return done.stdout.decode().strip() if done.returncode == 0 else None


def _git(repo: Path, *args: str) -> None:
    try:
        safe_git.run(repo, *args)  # a hostile repository's reference-transaction hook does not run
    except safe_git.GitError as err:
        raise UserError(str(err)) from None
