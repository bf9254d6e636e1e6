"""A local bare `origin` for a test or bench workspace, so `origin/main` is a ref as in a CI checkout.

Shared by tests/rehearse (`from tests.git_origin import ...`) and bench/ci_fanout.py (the repository's
root is on its sys.path)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def push_to_bare_origin(ws: Path, origin: Path) -> None:
    """Make ``origin`` a bare repository, add it as ``ws``'s remote `origin`, push HEAD as its `main`
    and fetch, so `origin/main` names what was committed."""
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    for args in (("remote", "add", "origin", str(origin)), ("push", "-q", "origin", "HEAD:main"), ("fetch", "-q", "origin")):
        subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True)
