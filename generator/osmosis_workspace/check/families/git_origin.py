"""Checks: Git Sync's `origin`. `osmosis eval submit` and `train submit` find the platform's
repository from `git remote get-url origin` and refuse a workspace without one (`Set origin to the
Platform-connected repository...`) or whose origin is not one GitHub repository (osmosis-ai 0.3.8
platform/cli/workspace_directory_context.py, workspace_repo.py normalize_git_identity).

The URL is read from the repository's config files statically (no git process: doctor runs nothing
a workspace names), with `url.<base>.insteadOf` rewrites applied as `git remote get-url` does.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from osmosis_workspace.check.registry import rule, workspace_check
from osmosis_workspace.core.bounded import Unreadable, read_capped
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.workspace import Workspace

FAMILY = "git"
MAX_CONFIG_BYTES = 1_000_000

NO_ORIGIN = rule(
    "GIT006", "no-origin-remote", FAMILY, "error",
    summary="The repository has remotes, but none is named `origin` (with no remote at all, as `osmosis init` leaves it, GIT009 says so instead).",
    why="`osmosis eval submit` and `train submit` read `git remote get-url origin` to find the platform's repository and refuse without one (`Set origin to the Platform-connected repository`). Source: osmosis-ai 0.3.8 platform/cli/workspace_directory_context.py, workspace_repo.py get_local_git_remote_url.",
    fix="git remote add origin https://github.com/OWNER/REPO.git (the repository connected to the platform), then git push -u origin HEAD.",
    example="git remote -v   # prints only `upstream ...`",
    source="osmosis_ai/platform/cli/workspace_directory_context.py",
)
NO_REMOTE_YET = rule(
    "GIT009", "no-remote-yet", FAMILY, "info",
    summary="The repository has no remote at all yet, as `osmosis init` leaves it: submit needs `origin`.",
    why="Local work (doctor, rehearse, `eval run`) needs no remote; `osmosis eval submit`, `train submit` and `dataset upload` read `git remote get-url origin` and refuse without one, so the platform cannot run anything yet. Source: osmosis-ai 0.3.8 platform/cli/workspace_directory_context.py.",
    fix="git remote add origin https://github.com/OWNER/REPO.git (the repository connected to the platform), then git push -u origin HEAD.",
    example="git remote -v   # prints nothing",
    source="osmosis_ai/platform/cli/workspace_directory_context.py",
)
ORIGIN_NOT_GITHUB = rule(
    "GIT007", "origin-not-github", FAMILY, "error",
    summary="`origin` is not the URL of one GitHub repository.",
    why="Submit turns origin into a GitHub `owner/repo` identity and refuses anything else: a host other than github.com, a path that is not exactly owner/repo, whitespace or control characters. Source: osmosis-ai 0.3.8 platform/cli/workspace_repo.py normalize_git_identity.",
    fix="git remote set-url origin https://github.com/OWNER/REPO.git (or git@github.com:OWNER/REPO.git).",
    example="origin  https://gitlab.com/me/demo.git",
    source="osmosis_ai/platform/cli/workspace_repo.py",
)

_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$')
_SCP_LIKE = lazy_compile(r"^(?P<user>[^@\s/]+)@(?P<host>[^:\s/]+):(?P<path>.+)$")
_IDENTITY = lazy_compile(r"^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$")


@workspace_check(FAMILY)
def check_origin(ws: Workspace) -> list[Diagnostic]:
    if ws.git_root is None:
        return []  # LAY007 reports it
    config = _config_file(ws.git_root / ".git")
    if config is None:
        return []  # an unreadable or odd repository: check_git_sync's GIT004 says so
    try:
        text = read_capped(config, MAX_CONFIG_BYTES).decode("utf-8", "replace")
    except Unreadable:
        return []
    remotes, rewrites = parse_remotes(text)
    origin = remotes.get("origin")
    if origin is None:
        others = sorted(remotes)
        if others:
            return [NO_ORIGIN.at(None, f"no `origin` remote (the remotes are {', '.join(others)}): eval submit and train submit refuse to run",
                                 hint=f"git remote rename {others[0]} origin, if {others[0]} is the platform's GitHub repository")]
        return [NO_REMOTE_YET.at(None, "no `origin` remote yet: eval submit and train submit refuse to run until it is set")]
    problem = github_problem(rewrite(origin, rewrites))
    if problem:
        return [ORIGIN_NOT_GITHUB.at(None, f"origin {_redacted(origin)} {problem}: eval submit and train submit refuse it")]
    return []


def _config_file(dotgit: Path) -> Path | None:
    """The repository's config file: .git/config, or for a worktree (a .git file) the common dir's."""
    try:
        if dotgit.is_dir():
            return dotgit / "config" if (dotgit / "config").is_file() else None
        if not dotgit.is_file():
            return None
        line = read_capped(dotgit, 4096).decode("utf-8", "replace").strip()
    except (OSError, Unreadable):
        return None
    if not line.startswith("gitdir:"):
        return None
    gitdir = Path(line[len("gitdir:"):].strip())
    gitdir = gitdir if gitdir.is_absolute() else dotgit.parent / gitdir
    try:
        common = (gitdir / "commondir").read_text(encoding="utf-8").strip() if (gitdir / "commondir").is_file() else ""
    except (OSError, UnicodeDecodeError):
        return None
    base = (gitdir / common) if common else gitdir
    return base / "config" if (base / "config").is_file() else None


def parse_remotes(text: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Each remote's (last) url, and the (insteadOf prefix, base) rewrites, from a git config text."""
    remotes: dict[str, str] = {}
    rewrites: list[tuple[str, str]] = []
    section, sub = "", ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            found = _SECTION.match(line)
            section, sub = (found.group(1).lower(), (found.group(2) or "").replace('\\"', '"')) if found else ("", "")
            if found and found.group(3):
                line = found.group(3)
            else:
                continue
        key, _, value = line.partition("=")
        key, value = key.strip().lower(), _value(value)
        if section == "remote" and key == "url" and sub:
            remotes[sub] = value
        elif section == "url" and key == "insteadof" and sub:
            rewrites.append((value, sub))
    return remotes, rewrites


def _value(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    for mark in (" #", " ;", "\t#", "\t;"):
        text = text.split(mark, 1)[0]
    return text.strip()


def rewrite(url: str, rewrites: list[tuple[str, str]]) -> str:
    """``url`` after git's insteadOf rewriting (the longest matching prefix wins)."""
    best = max((r for r in rewrites if url.startswith(r[0])), key=lambda r: len(r[0]), default=None)
    return best[1] + url[len(best[0]):] if best else url


def github_problem(url: str) -> str | None:
    """Why submit would refuse ``url`` as the platform's repository, or None (as normalize_git_identity)."""
    if not url or any(ord(c) < 32 or c.isspace() or ord(c) == 127 for c in url):
        return "is empty or holds whitespace or control characters"
    scp = _SCP_LIKE.fullmatch(url)
    if scp:
        url = f"ssh://{scp.group('user')}@{scp.group('host')}/{scp.group('path')}"
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "is not a valid URL"
    if host is None or host.lower() != "github.com":
        return f"is not hosted on github.com{f' (host {host})' if host else ''}"
    path = parts.path
    if "%2f" in path.lower() or "%5c" in path.lower():
        return "has encoded path separators"
    path = path.strip("/")
    path = path[:-4] if path.endswith(".git") else path
    if len(path.split("/")) != 2 or not _IDENTITY.fullmatch(path):
        return "does not name exactly one GitHub repository (owner/repo)"
    return None


def _redacted(url: str) -> str:
    """The URL without credentials a user may have put in it."""
    return re.sub(r"//[^/@\s]*@", "//***@", url)
