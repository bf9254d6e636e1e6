"""Where the running checker was installed from, and what a workspace's `checker_source` names.

`osmosis init` records in `checker_source` where the generated CI installs the checker from. The
best guess is where this very checker came from, which pip and uv record for a direct install in the
distribution's `direct_url.json` (PEP 610): a VCS URL with the commit it resolved to, an archive URL,
or a local folder or file. No such file means an install from a package index. doctor reads the
other way round: a `checker_source` naming a version other than the one running, or a path only this
machine has.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from osmosis_workspace.core.bounded import json_loads
from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.records import dataclass

DISTRIBUTION = "osmosis-workspace"
_MAX_DIRECT_URL = 64 * 1024  # a direct_url.json is a few hundred bytes; anything larger is not one


@dataclass(frozen=True)
class Origin:
    """How a distribution was installed. ``kind``: "index", "vcs", "url" (an archive on a server),
    "local" (a folder or a file on this machine, editable installs included)."""

    kind: str
    version: str
    url: str = ""
    commit: str = ""
    subdirectory: str = ""


def running_checker(version: str) -> Origin:
    """The installed osmosis-workspace's origin (an index install when it has no direct_url.json)."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # run from a checkout on sys.path, not installed at all
        return Origin("local", version)
    return from_direct_url(text, version)


def from_direct_url(text: str | None, version: str) -> Origin:
    """PEP 610's record read into an Origin; a missing or unreadable record counts as an index install."""
    if text is None:
        return Origin("index", version)
    try:
        data = json_loads(text[:_MAX_DIRECT_URL])
    except ValueError:
        return Origin("index", version)
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return Origin("index", version)
    url, sub = data["url"], data.get("subdirectory") if isinstance(data.get("subdirectory"), str) else ""
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str) and isinstance(vcs.get("commit_id"), str):
        return Origin("vcs", version, f"{vcs['vcs']}+{url}", vcs["commit_id"], sub)
    if "dir_info" in data or urlsplit(url).scheme in ("file", ""):
        return Origin("local", version, url, subdirectory=sub)
    return Origin("url", version, url, subdirectory=sub)


# What the workspace template's validator lets into the workflow's double-quoted YAML and its shell.
_SAFE_SOURCE = lazy_compile(r"^[A-Za-z0-9._+:/@=<>!~,;%&?#\[\] -]+\Z")


def checker_source_for(origin: Origin) -> str:
    """The `checker_source` answer that installs ``origin`` again: `pypi` (this version from the index,
    which `osmosis update` moves along), the VCS URL at its commit, or the archive's URL. A local
    origin gets `pypi` too: CI cannot reach this machine (`local_note` says what to do); so does a URL
    the workflow could not carry safely (quotes, `$`, spaces...)."""
    suffix = f"#subdirectory={origin.subdirectory}" if origin.subdirectory else ""
    source = {"vcs": f"{origin.url}@{origin.commit}{suffix}", "url": f"{origin.url}{suffix}"}.get(origin.kind, "pypi")
    return source if _SAFE_SOURCE.match(source) and " " not in source else "pypi"


def local_note(origin: Origin) -> str | None:
    """For a checker installed from this machine: why CI will not install it and how to change that."""
    if origin.kind != "local":
        return None
    where = f" ({origin.url})" if origin.url else ""
    return (f"# CI installs osmosis-workspace=={origin.version} from PyPI, but this checker came from a local folder or "
            f"wheel{where} that CI cannot reach. Until that version is on PyPI, set checker_source in "
            ".copier-answers.yml to a git URL at a commit or an index, then run osmosis update")


# -- reading a checker_source --------------------------------------------------------------------

_PINNED = re.compile(r"^osmosis[-_.]workspace\s*===?\s*(?P<version>[0-9][0-9A-Za-z.+!-]*)$", re.I)
_TAG = re.compile(r"osmosis[-_.]workspace(?:\.git)?@v(?P<version>[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)(?:[#&]|$)", re.I)
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def named_version(source: str) -> str | None:
    """The osmosis-workspace version a `checker_source` pins (`osmosis-workspace==X`, a `@vX.Y.Z` tag), or None."""
    for word in source.split():
        found = _PINNED.match(word) or _TAG.search(word)
        if found:
            return found.group("version")
    return None


def local_path(source: str) -> str | None:
    """The first word of a `checker_source` that only this machine can reach: a path or a file: URL."""
    for word in source.split():
        bare = word
        if bare.startswith("-"):
            continue  # an option; its value is the next word
        scheme = urlsplit(bare).scheme.lower() if "://" in bare or bare.lower().startswith("file:") else ""
        if scheme == "file" or "+file:" in bare.lower() or bare.startswith(("/", "./", "../", "~", ".\\", "..\\")) \
                or bare in (".", "..") or _WINDOWS_DRIVE.match(bare):
            return word
        if not scheme and bare.lower().endswith((".whl", ".tar.gz", ".zip")):
            return word
    return None
