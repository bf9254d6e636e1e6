"""`osmosis doctor`: options in, report out. What happens between (run, select, one per root cause,
suppress, baseline, group) is `check/pipeline/`; `--strict/--no-strict` beats `[tool.osmosis]` strict.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from osmosis_workspace.core.errors import EXIT_OK, UserError
from osmosis_workspace.check.registry import Rule
from osmosis_workspace.core.workspace import NotAWorkspace, Workspace
from osmosis_workspace.report import REPORTERS, formats
from osmosis_workspace.check.pipeline import CheckCrashed, Selection, diagnose, run_checks, selection_for  # noqa: F401
from osmosis_workspace.check.pipeline.run import uncollected

FINDING_FORMATS = tuple(REPORTERS)  # the reporters' table decides; see report.Format for each one's columns
LIST_FORMATS = ("text", "json", "markdown")


def load_rules() -> list[Rule]:
    """Every rule, the settings family's included (they live outside osmosis_workspace.check.families)."""
    # no cycle collection while modules load: importing the families makes a few hundred thousand objects and
    # almost no garbage, and the collector's passes over them were 2% of a cold doctor's instructions (issue 40)
    with uncollected():
        import osmosis_workspace.check.baseline  # noqa: F401
        import osmosis_workspace.check.settings  # noqa: F401
        import osmosis_workspace.check.suppress  # noqa: F401
        from osmosis_workspace.check.families import all_rules

    return all_rules()


def split_selectors(values: Iterable[str] | None) -> tuple[str, ...]:
    """`--select A,B --select C` -> ("A", "B", "C")."""
    return tuple(part.strip().upper() for v in values or () for part in v.split(",") if part.strip())


def check_selectors(option: str, selectors: tuple[str, ...]) -> None:
    from osmosis_workspace.check.settings import known_selector, suggest_code

    for s in selectors:
        if not known_selector(s):
            guess = suggest_code(s)
            raise UserError(
                f"{option} {s}: no check has that code or prefix" + (f"; did you mean {guess!r}?" if guess else ""),
                hint="`osmosis doctor --list-checks` lists every code",
            )


def check_format(fmt: str, allowed: tuple[str, ...], what: str) -> str:
    fmt = fmt.lower()
    if fmt not in allowed:
        raise UserError(f"--format {fmt}: {what} can be printed as {', '.join(allowed)}")
    return fmt


def check_output_format(value: str) -> str:
    """`--output-format`: how text findings read (`full` with the source line, `concise` one line each)."""
    value = value.lower()
    if value not in ("full", "concise"):
        raise UserError(f"--output-format {value}: choose full (the default) or concise")
    return value


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal; NO_COLOR (no-color.org) wins, FORCE_COLOR forces it on."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def output_stream(output: Path | None) -> Iterator[TextIO]:
    """stdout, or the --output file, written whole through `core/safe_write.py` once the report is done:
    a link at that name (one committed in the pull request being checked, say) is refused, exit 2, and
    nothing is written outside the folder the user named."""
    if output is None:
        yield sys.stdout
        return
    import io

    buffer = io.StringIO()
    yield buffer
    write_named_file(output, buffer.getvalue().encode("utf-8", "backslashreplace"), "the report")


def write_named_file(output: Path, data: bytes, what: str) -> None:
    """``data`` to the file the user named, through `core/safe_write.py` (never through a link, never
    outside the working folder or, for a path outside it, the file's own folder)."""
    from osmosis_workspace.core import safe_write

    target = Path(os.path.abspath(output))
    try:
        here = Path(os.getcwd())
        root = here if target.is_relative_to(here) else target.parent
    except OSError:  # the working folder was deleted
        root = target.parent
    try:
        safe_write.write_bytes(root, target, data)
    except safe_write.UnsafeWrite:
        raise
    except UserError as err:  # a missing folder, a full disk: said about the file, as the user named it
        raise UserError(f"cannot write {what} to {output}: {err.message.partition(': ')[2] or err.message}") from None


def emit(report, fmt: str, output: Path | None, statistics: bool = False) -> None:
    """Write ``report`` in ``fmt`` (its counts per rule with ``statistics``) to ``output`` (a file) or
    stdout; with a file, the verdict line still goes to stdout, so a run never ends without a word."""
    from osmosis_workspace.report import get_reporter, shown

    if statistics:
        from osmosis_workspace.report import statistics as stats

        def writer(report, stream):
            stats.write(shown(report), fmt, stream)
    else:
        writer = get_reporter(fmt)
    with output_stream(output) as stream:
        report.color = report.color and output is None and use_color(stream)
        writer(report, stream)
    if output is not None:
        from osmosis_workspace.core.diagnostics import printable
        from osmosis_workspace.report.text import verdict

        print(f"{verdict(report)} (report written to {printable(str(output))})")


def find_workspace(path: Path) -> Workspace:
    if not path.exists():
        raise UserError(f"{path} does not exist", hint="pass a folder inside an Osmosis workspace")
    try:
        return Workspace.at(path)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None


def list_checks_command(fmt: str, selectors: tuple[str, ...], ignore: tuple[str, ...], output: Path | None) -> int:
    from osmosis_workspace.report import catalog

    fmt = check_format(fmt, LIST_FORMATS, "--list-checks")
    rules = load_rules()
    check_selectors("--select", selectors)
    check_selectors("--ignore", ignore)
    keeps = Selection(select=tuple(selectors) or None, ignore=tuple(ignore)).active
    chosen = [r for r in rules if keeps(r.code)]
    with output_stream(output) as stream:
        catalog.write(chosen, fmt, stream)
    return EXIT_OK


def doctor_command(
    path: Path = Path("."),
    format: str = "text",
    fix: bool = False,
    strict: bool | None = None,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    list_checks: bool = False,
    output: Path | None = None,
    verbose: bool = False,
    output_format: str = "full",
    statistics: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
    add_ignores: bool = False,
    write_baseline: Path | None = None,
    baseline: Path | None = None,
    no_cache: bool = False,
) -> int:
    cli_select, cli_ignore = split_selectors(select), split_selectors(ignore)
    if list_checks:
        return list_checks_command(format, cli_select, cli_ignore, output)
    fmt = check_format(format, formats(statistics=True) if statistics else tuple(REPORTERS),
                       "--statistics" if statistics else "findings")
    output_format = check_output_format(output_format)
    _refuse_ignored_options(format=format, output=output, statistics=statistics, diff=diff, add_ignores=add_ignores,
                            write_baseline=write_baseline, baseline=baseline)
    started = time.perf_counter()
    ws = find_workspace(path)
    from osmosis_workspace.core import safe_git

    if ws.git_root is not None:  # its config probe runs while the checks are imported (safe_git.probe_early)
        safe_git.probe_early(ws.git_root, env=safe_git.ceiling_env(ws.git_root) if no_cache else None)
    try:
        if path.is_file() and fmt == "text":  # a ruff user expects `doctor FILE` to check that file alone
            print(f"note: doctor checks the whole workspace around {path}; `osmosis validate {path}` checks that file alone",
                  file=sys.stderr)
        load_rules()
        check_selectors("--select", cli_select)
        check_selectors("--ignore", cli_ignore)
        from osmosis_workspace.check.settings import refuse_unknown_codes

        refuse_unknown_codes(ws)  # before --fix writes anything

        wanted = Selection(select=tuple(cli_select) or None, ignore=tuple(cli_ignore)).active  # --fix repairs what they leave checked

        if diff:
            from osmosis_workspace.check.fix import diff_command

            if fmt != "text":
                raise UserError(f"--diff prints a unified diff; --format {fmt} does not apply to it")

            with output_stream(output) as stream:
                return diff_command(ws, unsafe_fixes, wanted, stream)
        fixes: list[str] = []
        if fix:
            from osmosis_workspace.check.fix import apply_fixes

            fixes = apply_fixes(ws, unsafe_fixes, wanted)
            ws = Workspace(ws.root)  # a fresh snapshot: the fixes changed files the old one cached
            # keep stdout machine-readable; --write-baseline and --add-ignores print no report to list them in
            if not REPORTERS[fmt].lists_fixes or write_baseline is not None or add_ignores:
                for line in fixes:
                    print(f"fixed: {line}", file=sys.stderr)

        recorded = None
        if baseline is not None and write_baseline is None and not add_ignores:
            from osmosis_workspace.check.baseline import Baseline

            recorded = Baseline.load(baseline, ws)
        cache = None
        if not no_cache:
            from osmosis_workspace.check.cache import Cache

            cache = Cache.for_workspace(ws)
        diagnosis = diagnose(ws, cli_select, cli_ignore, strict, verbose, baseline=recorded, cache=cache)
        if write_baseline is not None:
            return _write_baseline(ws, diagnosis.diagnostics, write_baseline)
        if add_ignores:
            return _add_ignores(ws, diagnosis.diagnostics)

        from osmosis_workspace.check.source_lines import workspace_source
        from osmosis_workspace.report import Report

        report = Report(
            rules=load_rules() if REPORTERS[fmt].describes_rules else [],  # only a format that describes every rule loads them all
            diagnostics=diagnosis.diagnostics,
            groups=diagnosis.groups,
            workspace=str(ws.root),
            strict=diagnosis.strict,
            verbose=verbose,
            color=True,
            files_checked=diagnosis.files_checked,
            elapsed=time.perf_counter() - started,
            cache_note=diagnosis.cache_note,
            fixes=fixes if REPORTERS[fmt].lists_fixes else [],
            path_prefix=ws.repo_prefix,
            output_format=output_format,
            source=workspace_source(ws) if fmt == "text" and output_format == "full" else None,
        )
        if fix and fmt == "text" and not fixes:
            from osmosis_workspace.check.fix import hidden_unsafe

            print(f"Nothing to fix automatically.{'' if unsafe_fixes else hidden_unsafe(ws, wanted)}", file=sys.stderr)
        emit(report, fmt, output, statistics)
        return report.exit_code
    finally:
        safe_git.stop_early()  # a probe nobody took (a --diff, a refusal) is ended


def _refuse_ignored_options(*, format: str, output: Path | None, statistics: bool, diff: bool, add_ignores: bool,
                            write_baseline: Path | None, baseline: Path | None) -> None:
    """Options that would be silently ignored together are a usage error instead (exit 2)."""
    writes_no_report = "--add-ignores" if add_ignores else "--write-baseline" if write_baseline is not None else None
    pairs = [
        (writes_no_report, "--format" if format != "text" else None),
        (writes_no_report, "--output" if output is not None else None),
        (writes_no_report, "--statistics" if statistics else None),
        ("--add-ignores" if add_ignores else None, "--write-baseline" if write_baseline is not None else None),
        ("--write-baseline" if write_baseline is not None else None, "--baseline" if baseline is not None else None),
        ("--diff" if diff else None, "--statistics" if statistics else None),
        ("--diff" if diff else None, writes_no_report),
    ]
    for first, second in pairs:
        if first and second:
            raise UserError(f"{first} cannot be combined with {second}: {second} would be ignored",
                            hint=f"run {first} on its own")


def _write_baseline(ws: Workspace, diagnostics: list, target: Path) -> int:
    from osmosis_workspace.check import baseline

    write_named_file(target, baseline.render(ws, diagnostics), "the baseline")
    count = len(diagnostics)
    print(f"Wrote {count} finding{'s' * (count != 1)} to {target}; `osmosis doctor --baseline {target}` now reports only new ones.",
          file=sys.stderr)
    return EXIT_OK


def _add_ignores(ws: Workspace, diagnostics: list) -> int:
    from osmosis_workspace.check import add_ignores

    changed, refused, silenced = add_ignores.plan(ws, diagnostics)
    add_ignores.write(ws, changed)
    add_ignores.report(changed, refused, silenced, sys.stderr)
    return EXIT_OK
