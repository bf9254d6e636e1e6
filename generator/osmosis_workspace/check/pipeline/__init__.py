"""What `osmosis doctor` does between finding the workspace and printing: named stages over findings.

    run -> select -> one_per_root_cause -> suppress -> baseline -> group

`run.py` runs the checks (or takes their findings from the cache, `check/cache.py`); `selection.py`
applies `--select`/`--ignore`/`[tool.osmosis]`; `stages.py` holds the rest. Each stage is a function of
the findings the stage before it kept; `diagnose` below is the whole sequence.
"""

from __future__ import annotations

from dataclasses import dataclass

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.pipeline import stages
from osmosis_workspace.check.pipeline.attributed import Finding
from osmosis_workspace.check.pipeline.run import CheckCrashed, run, run_checks  # noqa: F401
from osmosis_workspace.check.pipeline.selection import Selection, families_to_run, select, selection_for  # noqa: F401


@dataclass
class Diagnosis:
    """What a doctor run found, before it is printed: the findings kept, sorted and grouped, and how the run went."""

    diagnostics: list[Diagnostic]
    groups: list  # report.Group
    strict: bool
    files_checked: int
    baselined: int = 0  # findings the baseline hid
    from_cache: bool = False
    cache_note: str = ""


def diagnose(
    ws: Workspace,
    cli_select: tuple[str, ...] = (),
    cli_ignore: tuple[str, ...] = (),
    strict: bool | None = None,
    verbose: bool = False,
    baseline=None,
    cache=None,
    run_stage=None,
) -> Diagnosis:
    """Run the checks over ``ws`` with settings, suppressions and ``baseline`` (a check.baseline.Baseline)
    applied, no printing; ``cache`` (a check.cache.Cache) reuses an identical earlier run; ``run_stage``
    (ws, families) -> RunResult stands in for the run stage (an editor session's, check/live.py)."""
    from osmosis_workspace.check.families import CHECKS
    from osmosis_workspace.check.settings import load_settings

    settings, settings_found = load_settings(ws)
    selection = selection_for(cli_select, cli_ignore, settings)
    families = families_to_run(selection, CHECKS)

    ran = run(ws, families, cache) if run_stage is None else run_stage(ws, families)
    findings: list[Finding] = select(ran.findings, [], selection)
    findings = stages.one_per_root_cause(ws, findings, ran.unreadable)
    findings += select([], settings_found, selection)
    findings = stages.suppress(findings, ran.suppressions, selection)
    findings, baselined = stages.baseline(ws, findings, baseline, selection)
    groups = stages.group(findings, families, ran.timings, verbose, [f for f, _ in CHECKS], ws.git_root is not None)

    effective_strict = strict if strict is not None else bool(settings.strict)
    diagnostics = sorted((f.diagnostic for f in findings), key=Diagnostic.sort_key)
    return Diagnosis(diagnostics, groups, effective_strict, ran.files_read, baselined, ran.from_cache, ran.cache_note)
