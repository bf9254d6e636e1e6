"""`rehearse --changed REF` and `--list`: which rollouts to rehearse, said before anything runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.workspace import find_git_root
from osmosis_workspace.rehearse.affected import Affected, affected_by
from osmosis_workspace.rehearse.plan import workspace_rollouts


def _listing(chosen: list[Affected], changed: str | None, total: int) -> dict:
    return {"changed_from": changed, "rollouts": [a.to_json() for a in chosen],
            "matrix": [a.rollout for a in chosen], "of": total}


def select(root: Path, named: list[str], config: Path | None, changed: str | None, list_only: bool,
           format: str, out: TextIO) -> list[str]:
    """The rollouts to rehearse; with ``list_only`` they are printed (text, or JSON for a CI matrix) instead."""
    present = workspace_rollouts(root)
    if changed is not None and (named or config is not None):
        raise UserError("--changed picks the rollouts itself: do not name rollouts or --config with it")
    unknown = [name for name in named if name not in present]
    if unknown:
        raise UserError(f"unknown rollout {unknown[0]!r} (rollouts: {', '.join(present) or 'none'})")
    if changed is None:
        chosen = [Affected(name, ["named"] if named else ["every rollout (no --changed)"]) for name in named or present]
    else:
        git_root = find_git_root(root, strict=True)
        if git_root is None:
            raise UserError(f"--changed {changed}: {root} is not in a git work tree")
        chosen = affected_by(root, git_root, changed)
    if list_only:
        if format == "json":
            json.dump(_listing(chosen, changed, len(present)), out, indent=2)
            out.write("\n")
        elif not chosen:
            out.write(f"No rollout is affected by the changes since {changed}.\n")
        else:
            for entry in chosen:
                out.write(f"{entry.rollout}: {'; '.join(entry.reasons)}\n")
        return [a.rollout for a in chosen]
    if format == "text":
        if not chosen:
            print(f"No rollout is affected by the changes since {changed}: nothing to rehearse.", file=sys.stderr)
        else:
            print(f"Rehearsing {len(chosen)} of {len(present)} rollouts, changed since {changed}:", file=sys.stderr)
            for entry in chosen:
                print(f"  {entry.rollout}: {'; '.join(entry.reasons)}", file=sys.stderr)
    return [a.rollout for a in chosen]
