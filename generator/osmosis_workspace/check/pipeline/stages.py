"""Stages 3 to 6: one finding per root cause, suppress, baseline, group. Each takes the findings
the stage before it kept and returns what it keeps (and, where it has them, findings of its own)."""

from __future__ import annotations

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.rules import FAMILIES
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.pipeline.attributed import Finding, keep_only
from osmosis_workspace.check.pipeline.selection import Selection


def one_per_root_cause(ws: Workspace, findings: list[Finding], unreadable: dict[str, bool]) -> list[Finding]:
    """Without what only repeats another finding: the contents of an unreadable folder (``unreadable``:
    path -> is a folder, as the run saw it), the parse errors of a file with conflict markers."""
    from osmosis_workspace.check.families.access import drop_collateral
    from osmosis_workspace.check.families.leftovers import drop_explained

    return keep_only(findings, drop_explained(drop_collateral(ws, [f.diagnostic for f in findings], unreadable)))


def suppress(findings: list[Finding], suppressions: list, selection: Selection) -> list[Finding]:
    """Without what an `osmosis: ignore[...]` comment hides; plus the unused and unknown suppressions."""
    from osmosis_workspace.check import suppress as inline

    kept, notes = inline.apply([f.diagnostic for f in findings], suppressions, selection.active_selector)
    return keep_only(findings, kept) + [Finding("settings", d) for d in notes if selection.keeps(d)]


def baseline(ws: Workspace, findings: list[Finding], recorded, selection: Selection) -> tuple[list[Finding], int]:
    """Without the findings ``recorded`` (a check.baseline.Baseline) already knows, plus one info finding
    per entry that matched nothing; and how many were hidden."""
    if recorded is None:
        return findings, 0
    kept, stale = recorded.split(ws, [f.diagnostic for f in findings], selection.active)
    survivors = keep_only(findings, kept)
    return survivors + [Finding("settings", d) for d in stale if selection.keeps(d)], len(findings) - len(survivors)


def _unchecked_entrypoints(found: list[Diagnostic]) -> str:
    """The Entrypoints line's note when a config's entrypoint is missing: a ✓ there would say the
    entrypoint is fine, while the configs family reports it missing (the one finding, CFG018)."""
    missing = sorted({d.path for d in found if d.code == "CFG018" and d.path})
    if not missing:
        return ""
    return f"not checked: the entrypoint is missing (CFG018 in {', '.join(missing)})"


def group(findings: list[Finding], families: list[str], timings: dict[str, float], verbose: bool, all_families: list[str],
          in_git: bool = True) -> list:
    """One report.Group per family that ran (in report order), its findings sorted; with ``verbose``,
    a line for each family that did not run. Without a git work tree Git Sync says skipped: a tick
    would say it is fine."""
    from osmosis_workspace.report import Group

    shown = list(families)
    if any(f.family == "settings" for f in findings) and "settings" not in shown:
        shown.append("settings")
    order = list(FAMILIES)
    everything = [f.diagnostic for f in findings]
    groups = []
    for family in sorted(shown, key=lambda f: order.index(f) if f in order else len(order)):
        members = sorted((f.diagnostic for f in findings if f.family == family), key=Diagnostic.sort_key)
        note = _unchecked_entrypoints(everything) if family == "entrypoints" and not members else ""
        if family == "git" and not members and not in_git:
            note = "skipped: the workspace is not in a git work tree, so there is nothing the platform could sync (LAY007)"
        groups.append(Group(FAMILIES.get(family, family), members, note=note, seconds=timings.get(family)))
    if verbose:
        skipped = dict.fromkeys(f for f in all_families if f not in shown)
        groups += [Group(FAMILIES.get(f, f), note="skipped (not selected)") for f in skipped]
    return groups
