"""A folder's files as a git tree object, byte for byte: no attributes, filters or ignore rules.

The pristine render must be recorded untouched. `git add` would apply the render's own
`.gitattributes` (a `working-tree-encoding` it cannot honour fails the whole add; a clean filter
would rewrite the content) and the workspace's ignore rules; `hash-object --no-filters` applies none.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from osmosis_workspace.core import lock
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.template_guard import has_git_segment

Git = Callable[..., bytes]  # pristine.git: (cwd, *args, env=..., input=...) -> stdout


def write_tree(git: Git, repo: Path, git_dir: str, folder: Path) -> str:
    """Write every file and link under ``folder`` (never a `.git` folder's) into ``repo``; the tree id."""
    links: list[tuple[str, str]] = []
    files: list[tuple[str, str]] = []  # (mode, relative path)
    for current, dirnames, filenames in os.walk(folder):
        for name in [*dirnames]:
            if os.path.islink(os.path.join(current, name)):
                dirnames.remove(name)
                filenames.append(name)  # a link to a folder is recorded as the link
        for name in filenames:
            path = os.path.join(current, name)
            rel = Path(os.path.relpath(path, folder)).as_posix()
            if has_git_segment(rel):
                continue
            if os.path.islink(path):
                links.append((rel, os.readlink(path)))
            elif os.path.isfile(path):
                files.append(("100755" if os.stat(path).st_mode & 0o100 else "100644", rel))  # as git reads it
        dirnames[:] = [d for d in dirnames if not has_git_segment(d)]
    env = {"GIT_DIR": git_dir}
    entries = []
    listed = [f for f in files if "\n" not in f[1]]  # one line each for --stdin-paths
    if listed:
        paths = "".join(f"{rel}\n" for _, rel in listed).encode()
        ids = git(folder, "hash-object", "-w", "--no-filters", "--stdin-paths", env=env, input=paths).split()
        entries += [(mode, sha.decode(), rel) for (mode, rel), sha in zip(listed, ids)]
    for mode, rel in (f for f in files if "\n" in f[1]):  # a name --stdin-paths cannot carry
        sha = git(folder, "hash-object", "-w", "--no-filters", "--stdin", env=env,
                  input=(folder / rel).read_bytes()).decode().strip()
        entries.append((mode, sha, rel))
    for rel, target in links:
        sha = git(folder, "hash-object", "-w", "--stdin", env=env, input=target.encode()).decode().strip()
        entries.append(("120000", sha, rel))
    with lock.temp_folder("osmosis-index-") as tmp:
        env["GIT_INDEX_FILE"] = str(Path(tmp) / "index")
        info = "".join(f"{mode} {sha}\t{rel}\0" for mode, sha, rel in entries)
        git(repo, "update-index", "--add", "-z", "--index-info", env=env, input=info.encode())
        return git(repo, "write-tree", env=env).decode().strip()


def checked_toplevel(stdout: bytes) -> Path:
    """What `git rev-parse --show-toplevel` printed, which must be a folder: a `git` on PATH that
    prints anything else is not a git osmosis can merge with (one line, exit 2; not our bug)."""
    import shutil

    try:
        top = Path(stdout.decode("utf-8").strip())
        if top.is_absolute() and top.is_dir():
            return top
    except (UnicodeDecodeError, ValueError, OSError):
        pass
    raise UserError(f"the `git` on PATH ({shutil.which('git') or 'git'}) does not answer as git does: "
                    f"`git rev-parse --show-toplevel` printed {stdout[:60]!r}",
                    hint="put the real git first on PATH, then run again")


# A pristine tree is a render: small text files. Past these it was not written by osmosis.
BLOB_CAP = 50 << 20  # one file
TOTAL_CAP = 512 << 20  # every file together
ENTRY_CAP = 200_000  # files, links and folders
_LISTING_CAP = 64 << 20  # `ls-tree` output (ENTRY_CAP entries of ordinary names fit many times)
_BATCH = 32 << 20  # blob bytes asked of one `cat-file --batch`
_MODES = {"100644": "file", "100755": "file", "120000": "link", "040000": "tree"}


class HostileTree(UserError):
    """A tree from git that osmosis could not have written (exit 2: refused, not our bug)."""


class OutputTooLarge(UserError):
    """git printed more than the caller's limit."""


def _cap(name: str, default: int) -> int:
    """A limit, lowered (never raised) by the environment variable ``name``: tests and tight CI."""
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return min(value, default) if value > 0 else default


def _why_not(mode: str, kind: str, rel: str) -> str | None:
    """What about one tree entry no render holds, or None."""
    if mode == "160000" or kind == "commit":
        return f"a submodule (gitlink) at {rel!r}"
    if mode not in _MODES or (kind == "tree") != (mode == "040000"):
        return f"an entry of mode {mode} at {rel!r}"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in rel):
        return f"a name with a control character ({rel!r})"
    if rel.startswith("/") or any(part in ("", ".", "..") for part in rel.split("/")):
        return f"a name with an empty, '.' or '..' part ({rel!r})"
    if has_git_segment(rel):
        return f"a name inside a .git folder ({rel!r})"
    return None


def list_tree(git: Git, repo: Path, ref: str, label: str) -> list[tuple[str, str, int, str]]:
    """(mode, object id, size, path) of every folder, file and link of ``ref``'s tree, parents first.

    Refused (`HostileTree`): a name twice, anything below a file or a link (written, it would go
    through the link), submodules, odd modes, `..`, `.git`, control characters, a blob over
    BLOB_CAP or all of them over TOTAL_CAP, more than ENTRY_CAP entries."""
    blob_cap, total_cap = _cap("OSMOSIS_TREE_BLOB_CAP", BLOB_CAP), _cap("OSMOSIS_TREE_TOTAL_CAP", TOTAL_CAP)

    def refuse(why: str) -> HostileTree:
        return HostileTree(f"{label} holds {why}; osmosis never writes that, so the ref was not used",
                           hint=f"if someone else pushed it, delete it (`git update-ref -d {label}`); "
                                "`osmosis update` then records a fresh base from the installed templates")

    try:
        listing = git(repo, "ls-tree", "-r", "-t", "-l", "-z", "--full-tree", ref, limit=_LISTING_CAP)
    except OutputTooLarge:
        raise refuse(f"more than {ENTRY_CAP} entries") from None
    kinds: dict[str, str] = {}
    entries, total = [], 0
    for item in filter(None, listing.split(b"\0")):
        meta, _, name = item.partition(b"\t")
        mode, kind, sha, size = meta.decode("ascii", "replace").split()
        rel = name.decode("utf-8", "surrogateescape")
        if why := _why_not(mode, kind, rel):
            raise refuse(why)
        if rel in kinds:
            raise refuse(f"{rel!r} twice (a {kinds[rel]} and a {_MODES[mode]})")
        parent = rel.rpartition("/")[0]
        if parent and kinds.get(parent) != "tree":
            raise refuse(f"{rel!r} below {parent!r}, which is a {kinds.get(parent, 'missing folder')}")
        kinds[rel] = _MODES[mode]
        if len(kinds) > ENTRY_CAP:
            raise refuse(f"more than {ENTRY_CAP} entries")
        bytes_ = 0 if kind == "tree" else int(size)
        if bytes_ > blob_cap:
            raise refuse(f"{rel!r} of {bytes_ / (1 << 20):.1f} MB (a file of a render is at most {blob_cap / (1 << 20):g} MB)")
        total += bytes_
        if total > total_cap:
            raise refuse(f"files of more than {total_cap / (1 << 20):g} MB in all")
        entries.append((mode, sha, bytes_, rel))
    return entries


def read_tree(git: Git, repo: Path, ref: str, dest: Path, label: str = "the tree") -> None:
    """Write the folders, files and links of ``ref``'s tree into the empty folder ``dest``, byte for byte.

    Not `git archive`: it applies the tree's own `export-ignore` and `export-subst` attributes. The
    tree is checked whole first (`list_tree`), then written through osmosis_workspace.core.safe_write, so
    even a check missed would not write through a link or outside ``dest``."""
    from osmosis_workspace.core import safe_write

    entries = list_tree(git, repo, ref, label)
    blobs = [e for e in entries if e[0] != "040000"]
    for mode, _, _, rel in entries:
        if mode == "040000":
            safe_write.make_folders(dest, dest / rel)
    for batch in _batches(blobs):
        out = git(repo, "cat-file", "--batch", input="".join(f"{sha}\n" for _, sha, _, _ in batch).encode())
        at = 0
        for mode, sha, size, rel in batch:
            header_end = out.index(b"\n", at)
            header = out[at:header_end].split()
            if len(header) != 3 or header[0].decode() != sha or int(header[2]) != size:
                raise UserError(f"git cat-file did not return {rel} of {label} as listed", exit_code=3)
            content = out[header_end + 1:header_end + 1 + size]
            at = header_end + 1 + size + 1  # the content, then a newline
            if mode == "120000":
                safe_write.make_link(dest, dest / rel, content.decode("utf-8", "surrogateescape"))
            else:
                safe_write.write_bytes(dest, dest / rel, content, mode=0o755 if mode == "100755" else 0o644, durable=False)


def _batches(blobs: list[tuple[str, str, int, str]]) -> Iterator[list[tuple[str, str, int, str]]]:
    """Consecutive groups of at most _BATCH bytes (one blob over it alone): memory stays bounded."""
    batch: list[tuple[str, str, int, str]] = []
    size = 0
    for blob in blobs:
        if batch and size + blob[2] > _BATCH:
            yield batch
            batch, size = [], 0
        batch.append(blob)
        size += blob[2]
    if batch:
        yield batch
