"""Workspace and rollout names (contract section 1)."""

from __future__ import annotations

import re

_NAME = re.compile(r"^[a-z](?:[a-z0-9]|-(?!-))*$")
MAX_NAME_LENGTH = 64
# The folder an unfinished writer's undo journal lives in (core/journal.py), named here so a reader
# of the workspace (doctor) can spot one without loading the journal's machinery.
UNDO_PREFIX = ".osmosis-undo-"
RESERVED_ROLLOUT_NAMES = frozenset({"default"})


def name_problem(name: str, *, kind: str = "workspace") -> str | None:
    """Why ``name`` is not a valid workspace/rollout name, or None when it is valid."""
    if not name:
        return f"the {kind} name is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"the {kind} name {name!r} is {len(name)} characters long; the limit is {MAX_NAME_LENGTH}"
    if not name[0].isalpha() or not name[0].islower():
        return f"the {kind} name {name!r} must start with a lowercase letter"
    if name.endswith("-"):
        return f"the {kind} name {name!r} must not end with a hyphen"
    if "--" in name:
        return f"the {kind} name {name!r} must not contain '--'"
    if not _NAME.fullmatch(name):  # fullmatch: `$` alone would accept a trailing newline
        return f"the {kind} name {name!r} may hold only lowercase letters, digits and single hyphens"
    if kind == "rollout" and name in RESERVED_ROLLOUT_NAMES:
        return f"the rollout name {name!r} is reserved by the platform"
    return None


NAME_RULE_TEXT = (
    "lowercase letters, digits and single hyphens, 1-64 characters, starting with a letter, "
    "not ending with a hyphen"
)
