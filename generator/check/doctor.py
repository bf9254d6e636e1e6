"""`osmosis doctor`: run every check family over a workspace, filter, report, pick the exit code.

Order of filtering: `--select`/`--ignore` (and the file's `select`/`ignore`) decide which families
run and which codes are kept; then `per-file-ignores`; then inline `# osmosis: ignore[...]`.
Command-line flags win over `[tool.osmosis]`: a code named by `--select` is reported even when the
file ignores it, and `--strict/--no-strict` beats `strict`.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from generator.core.diagnostics import Diagnostic
from generator.core.errors import EXIT_OK, UserError
from generator.check.registry import FAMILIES, RULES, Rule, matches
from generator.core.workspace import NotAWorkspace, Workspace

FINDING_FORMATS = ("text", "json", "github", "sarif")
LIST_FORMATS = ("text", "json", "markdown")


class CheckCrashed(Exception):
    """A check raised: a bug in osmosis, not in the workspace (exit 3)."""


def load_rules() -> list[Rule]:
    """Every rule, the settings family's included (they live outside generator.check.families)."""
    import generator.check.settings  # noqa: F401
    import generator.check.suppress  # noqa: F401
    from generator.check.families import all_rules

    return all_rules()


def split_selectors(values: Iterable[str] | None) -> tuple[str, ...]:
    """`--select A,B --select C` -> ("A", "B", "C")."""
    return tuple(part.strip().upper() for v in values or () for part in v.split(",") if part.strip())


def check_selectors(option: str, selectors: tuple[str, ...]) -> None:
    from generator.check.settings import known_selector, suggest_code

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


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] | None = None  # None: everything
    ignore: tuple[str, ...] = ()
    file_ignore: tuple[str, ...] = ()  # from [tool.osmosis]; loses to an explicit --select
    cli_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def active(self, code: str) -> bool:
        if self.select is not None and not matches(code, list(self.select)):
            return False
        if matches(code, list(self.ignore)):
            return False
        return not (matches(code, list(self.file_ignore)) and not matches(code, list(self.cli_select)))

    def active_selector(self, selector: str) -> bool:
        """Whether any rule named by ``selector`` (a code or prefix) is checked."""
        return any(self.active(code) for code in RULES if code.startswith(selector))

    def keeps_settings_finding(self, d: Diagnostic) -> bool:
        """A finding about `[tool.osmosis]` itself: `select` does not hide it (a misspelt setting
        would silently do nothing), only an explicit ignore does."""
        return dataclasses.replace(self, select=None).keeps(d)

    def keeps(self, d: Diagnostic) -> bool:
        if not self.active(d.code):
            return False
        if d.path is not None:
            for glob, codes in self.per_file_ignores:
                if fnmatch.fnmatch(d.path, glob) and matches(d.code, list(codes)):
                    return False
        return True


def selection_for(cli_select: tuple[str, ...], cli_ignore: tuple[str, ...], settings) -> Selection:
    return Selection(
        select=cli_select or settings.select,
        ignore=cli_ignore,
        # The file's ignore list applies unless the command line selected explicitly.
        file_ignore=settings.ignore,
        cli_select=cli_select,
        per_file_ignores=settings.per_file_ignores,
    )


def families_to_run(selection: Selection) -> list[str]:
    """Families with at least one checked rule; a family that declared no rules runs unless --select."""
    from generator.check.families import CHECKS

    with_checks = list(dict.fromkeys(f for f, _ in CHECKS))
    run = []
    for family in with_checks:
        codes = [c for c, r in RULES.items() if r.family == family]
        if any(selection.active(c) for c in codes) or (not codes and selection.select is None):
            run.append(family)
    return run


def run_checks(ws: Workspace, families: list[str], timings: dict[str, float] | None = None) -> list[tuple[str, Diagnostic]]:
    """(family, finding) for every check of ``families``; a crashing check is a CheckCrashed.
    ``timings``, when given, receives each family's seconds (its checks added up)."""
    from generator.check.families import CHECKS

    found: list[tuple[str, Diagnostic]] = []
    for family, fn in CHECKS:
        if family not in families:
            continue
        started = time.perf_counter()
        try:
            found.extend((family, d) for d in fn(ws))
        except PermissionError as err:  # a path the access walk missed: still a finding, not a crash
            from generator.check.families.access import from_error

            if (d := from_error(ws, err)) is None:
                name = getattr(fn, "__qualname__", repr(fn))
                raise CheckCrashed(f"the {family} check {name} crashed: {type(err).__name__}: {err}") from err
            found.append(("layout", d))
        except Exception as err:  # noqa: BLE001  reported as an internal error, with the culprit named
            name = getattr(fn, "__qualname__", repr(fn))
            raise CheckCrashed(f"the {family} check {name} crashed: {type(err).__name__}: {err}") from err
        if timings is not None:
            timings[family] = timings.get(family, 0.0) + time.perf_counter() - started
    return found


def _unchecked_entrypoints(found: list[Diagnostic]) -> str:
    """The Entrypoints line's note when a config's entrypoint is missing: a ✓ there would say the
    entrypoint is fine, while the configs family reports it missing (the one finding, CFG018)."""
    missing = sorted({d.path for d in found if d.code == "CFG018" and d.path})
    if not missing:
        return ""
    return f"not checked: the entrypoint is missing (CFG018 in {', '.join(missing)})"


@dataclass
class Outcome:
    """What a doctor run found, before it is printed."""

    diagnostics: list[Diagnostic]
    groups: list  # reporters.Group
    strict: bool
    files_checked: int


def diagnose(
    ws: Workspace,
    cli_select: tuple[str, ...] = (),
    cli_ignore: tuple[str, ...] = (),
    strict: bool | None = None,
    verbose: bool = False,
) -> Outcome:
    """Run the checks over ``ws`` with settings and suppressions applied (no printing)."""
    from generator.check import suppress
    from generator.report import Group
    from generator.check.settings import load_settings

    settings, settings_found = load_settings(ws)
    selection = selection_for(cli_select, cli_ignore, settings)
    families = families_to_run(selection)
    timings: dict[str, float] = {}
    tagged = run_checks(ws, families, timings)

    kept = [(f, d) for f, d in tagged if selection.keeps(d)]
    from generator.check.families.leftovers import drop_explained

    from generator.check.families.access import drop_collateral

    explained = {id(d) for d in drop_explained(drop_collateral(ws, [d for _, d in kept]))}  # one finding per root cause
    kept = [(f, d) for f, d in kept if id(d) in explained]
    kept += [("settings", d) for d in settings_found if selection.keeps_settings_finding(d)]
    toml_files = [ws.root / "pyproject.toml", *ws.config_files("eval"), *ws.config_files("training")]
    toml_files += [ws.root / d.path for _, d in kept if d.path and d.path.endswith(suppress.SUFFIXES)]
    texts = suppress.read_texts(ws.root, list(dict.fromkeys(p for p in toml_files if p.is_file())), ws.read_text)
    remaining, notes = suppress.apply([d for _, d in kept], texts, selection.active_selector)
    still = {id(d) for d in remaining}
    kept = [(f, d) for f, d in kept if id(d) in still] + [("settings", d) for d in notes if selection.keeps(d)]

    shown_families = list(families)
    if any(f == "settings" for f, _ in kept) and "settings" not in shown_families:
        shown_families.append("settings")
    order = list(FAMILIES)
    groups = []
    for family in sorted(shown_families, key=lambda f: order.index(f) if f in order else len(order)):
        members = sorted((d for f, d in kept if f == family), key=Diagnostic.sort_key)
        note = _unchecked_entrypoints([d for _, d in kept]) if family == "entrypoints" and not members else ""
        if family == "git" and not members and ws.git_root is None:  # a tick would say Git Sync is fine
            note = "skipped: the workspace is not in a git work tree, so there is nothing the platform could sync (LAY007)"
        groups.append(Group(FAMILIES.get(family, family), members, note=note, seconds=timings.get(family)))
    if verbose:
        from generator.check.families import CHECKS

        skipped = dict.fromkeys(f for f, _ in CHECKS if f not in shown_families)
        groups += [Group(FAMILIES.get(f, f), note="skipped (not selected)") for f in skipped]

    read = {p for p, text in ws._texts.items() if text is not None}  # what the checks actually read
    read.update(ws.data_files)
    effective_strict = strict if strict is not None else bool(settings.strict)
    diagnostics = sorted((d for _, d in kept), key=Diagnostic.sort_key)
    return Outcome(diagnostics, groups, effective_strict, len(read))


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

    from generator.core import safe_write

    buffer = io.StringIO()
    yield buffer
    target = Path(os.path.abspath(output))
    try:
        here = Path(os.getcwd())
        root = here if target.is_relative_to(here) else target.parent
    except OSError:  # the working folder was deleted
        root = target.parent
    try:
        safe_write.write_bytes(root, target, buffer.getvalue().encode("utf-8", "backslashreplace"))
    except safe_write.UnsafeWrite:
        raise
    except UserError as err:  # a missing folder, a full disk: said about the report, as the user named it
        raise UserError(f"cannot write the report to {output}: {err.message.partition(': ')[2] or err.message}") from None


def emit(report, fmt: str, output: Path | None, statistics: bool = False) -> None:
    """Write ``report`` in ``fmt`` (its counts per rule with ``statistics``) to ``output`` (a file) or
    stdout; with a file, the verdict line still goes to stdout, so a run never ends without a word."""
    from generator.report import get_reporter, shown

    if statistics:
        from generator.report import statistics as stats

        def writer(report, stream):
            stats.write(shown(report), fmt, stream)
    else:
        writer = get_reporter(fmt)
    with output_stream(output) as stream:
        report.color = report.color and output is None and use_color(stream)
        writer(report, stream)
    if output is not None:
        from generator.core.diagnostics import printable
        from generator.report.text import verdict

        print(f"{verdict(report)} (report written to {printable(str(output))})")


def find_workspace(path: Path) -> Workspace:
    if not path.exists():
        raise UserError(f"{path} does not exist", hint="pass a folder inside an Osmosis workspace")
    try:
        return Workspace.at(path)
    except NotAWorkspace as err:
        raise UserError(str(err)) from None


def list_checks_command(fmt: str, selectors: tuple[str, ...], ignore: tuple[str, ...], output: Path | None) -> int:
    from generator.report import catalog

    fmt = check_format(fmt, LIST_FORMATS, "--list-checks")
    rules = load_rules()
    check_selectors("--select", selectors)
    check_selectors("--ignore", ignore)
    chosen = [r for r in rules if (not selectors or matches(r.code, list(selectors))) and not matches(r.code, list(ignore))]
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
) -> int:
    cli_select, cli_ignore = split_selectors(select), split_selectors(ignore)
    if list_checks:
        return list_checks_command(format, cli_select, cli_ignore, output)
    fmt = check_format(format, ("text", "json") if statistics else FINDING_FORMATS,
                       "--statistics" if statistics else "findings")
    output_format = check_output_format(output_format)
    started = time.perf_counter()
    ws = find_workspace(path)
    load_rules()
    check_selectors("--select", cli_select)
    check_selectors("--ignore", cli_ignore)
    from generator.check.settings import refuse_unknown_codes

    refuse_unknown_codes(ws)  # before --fix writes anything

    def wanted(code: str) -> bool:  # --fix repairs what --select/--ignore leave checked
        return (not cli_select or matches(code, list(cli_select))) and not matches(code, list(cli_ignore))

    if diff:
        from generator.check.fix import diff_command

        if fmt != "text":
            raise UserError(f"--diff prints a unified diff; --format {fmt} does not apply to it")

        with output_stream(output) as stream:
            return diff_command(ws, unsafe_fixes, wanted, stream)
    fixes: list[str] = []
    if fix:
        from generator.check.fix import apply_fixes

        fixes = apply_fixes(ws, unsafe_fixes, wanted)
        ws = Workspace(ws.root)  # a fresh snapshot: the fixes changed files the old one cached
        if fmt in ("github", "sarif"):  # keep stdout machine-readable
            for line in fixes:
                print(f"fixed: {line}", file=sys.stderr)

    outcome = diagnose(ws, cli_select, cli_ignore, strict, verbose)

    from generator.check.source_lines import workspace_source
    from generator.report import Report

    report = Report(
        rules=load_rules() if fmt == "sarif" else [],  # only SARIF describes every rule; the others need no import
        diagnostics=outcome.diagnostics,
        groups=outcome.groups,
        workspace=str(ws.root),
        strict=outcome.strict,
        verbose=verbose,
        color=True,
        files_checked=outcome.files_checked,
        elapsed=time.perf_counter() - started,
        fixes=fixes if fmt in ("text", "json") else [],
        path_prefix=ws.repo_prefix,
        output_format=output_format,
        source=workspace_source(ws) if fmt == "text" and output_format == "full" else None,
    )
    if fix and fmt == "text" and not fixes:
        print("Nothing to fix automatically.", file=sys.stderr)
    emit(report, fmt, output, statistics)
    return report.exit_code
