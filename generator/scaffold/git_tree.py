"""A folder's files as a git tree object, byte for byte: no attributes, filters or ignore rules.

The pristine render must be recorded untouched. `git add` would apply the render's own
`.gitattributes` (a `working-tree-encoding` it cannot honour fails the whole add; a clean filter
would rewrite the content) and the workspace's ignore rules; `hash-object --no-filters` applies none.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from generator.core import lock
from generator.core.template_guard import has_git_segment

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


def read_tree(git: Git, repo: Path, ref: str, dest: Path) -> None:
    """Write the files and links of ``ref``'s tree into the empty folder ``dest``, byte for byte.

    Not `git archive`: it applies the tree's own `export-ignore` and `export-subst` attributes."""
    listing = git(repo, "ls-tree", "-r", "-z", "--full-tree", ref).split(b"\0")
    entries = []
    for item in filter(None, listing):
        meta, _, name = item.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        rel = name.decode("utf-8", "surrogateescape")
        parts = Path(rel).parts
        if kind != "blob" or rel.startswith("/") or ".." in parts or has_git_segment(rel):
            continue
        entries.append((mode, sha, rel))
    if not entries:
        return
    out = git(repo, "cat-file", "--batch", input="".join(f"{sha}\n" for _, sha, _ in entries).encode())
    at = 0
    for mode, sha, rel in entries:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        content = out[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1  # the content, then a newline
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            os.symlink(content.decode("utf-8", "surrogateescape"), path)
        else:
            path.write_bytes(content)
            if mode == "100755":
                path.chmod(0o755)
