"""`rehearse --changed REF` and `--list`: which rollouts to rehearse, said before anything runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.workspace import find_git_root
from osmosis_workspace.rehearse.affected import Affected, Change, affected_by
from osmosis_workspace.rehearse.plan import workspace_rollouts

# GitHub refuses a matrix of more than 256 jobs; past this many rollouts, jobs rehearse a group each.
MAX_JOBS = 256


def jobs(names: list[str], limit: int = MAX_JOBS) -> list[dict]:
    """The CI matrix: one job per rollout up to ``limit``, past it ``limit`` jobs of consecutive rollouts
    whose sizes differ by at most one."""
    count = min(len(names), limit)
    out, at = [], 0
    for job in range(count):
        size = len(names) // count + (1 if job < len(names) % count else 0)
        out.append({"job": job + 1, "rollouts": names[at: at + size]})
        at += size
    return out


def _listing(change: Change, changed: str | None, total: int) -> dict:
    return {"changed_from": changed, "rollouts": [a.to_json() for a in change.picks],
            "matrix": jobs([a.rollout for a in change.picks]), "of": total,
            "warnings": change.warnings, "vanished": change.vanished}


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
        change = Change([Affected(name, ["named"] if named else ["every rollout (no --changed)"]) for name in named or present])
    else:
        git_root = find_git_root(root, strict=True)
        if git_root is None:
            raise UserError(f"--changed {changed}: {root} is not in a git work tree")
        change = affected_by(root, git_root, changed)
    chosen = change.picks
    if format == "text":
        for warning in change.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        for gone in change.vanished:
            print(f"rollouts/{gone['rollout']}: {gone['why']}", file=sys.stderr)
    if list_only:
        if format == "json":
            json.dump(_listing(change, changed, len(present)), out, indent=2)
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
