"""`osmosis doctor`'s parameters as one table, and its body, without typer.

Two parsers are built from the table: the typer command (`cli/doctor.py`, for --help, completion and
every error message) and the typer-free start (`cli/fast.py`), which parses only the plain forms and
hands anything else to typer. Both call `run`, so they cannot disagree on what an option does."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

from osmosis_workspace.cli import completion
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.report import formats_help


@dataclass(frozen=True)
class Param:
    name: str                # the keyword `run` receives
    flags: tuple[str, ...]   # "--format", "-f"; an on/off pair is written "--strict/--no-strict"
    annotation: Any          # str, bool, Optional[bool], Optional[Path], List[str]
    default: Any
    help: str
    metavar: str | None = None
    complete: Any = None     # a shell-completion function of the value typed so far (cli/completion.py)


PATH_HELP = "A folder inside the workspace (default: the current folder)."

PARAMS: tuple[Param, ...] = (
    Param("format", ("--format", "-f"), str, "text", formats_help(" (markdown with --list-checks)"), "FORMAT",
          completion.formats),
    Param("fix", ("--fix",), bool, False, "Make safe repairs, list them, then check again."),
    Param("unsafe_fixes", ("--unsafe-fixes",), bool, False, "Also make the unsafe repairs (implies --fix unless --diff)."),
    Param("diff", ("--diff",), bool, False, "Show the repairs --fix would make as a unified diff; write nothing (exit 1 if any)."),
    Param("watch", ("--watch", "-w"), bool, False, "Check again whenever a file changes; Ctrl-C stops."),
    Param("strict", ("--strict/--no-strict",), Optional[bool], None, "Warnings fail the run (exit 1)."),
    Param("select", ("--select",), List[str], [], "Only these codes or prefixes (comma-separated or repeated).", "CODES"),
    Param("ignore", ("--ignore",), List[str], [], "Skip these codes or prefixes (comma-separated or repeated).", "CODES"),
    Param("list_checks", ("--list-checks",), bool, False, "Document every check and exit."),
    Param("output", ("--output", "-o"), Optional[Path], None, "Write the report to this file instead of stdout.", "FILE"),
    Param("verbose", ("--verbose", "-v"), bool, False, "Also say which families were skipped, how long each took, how many files were checked, and what the cache reused."),
    Param("output_format", ("--output-format",), str, "full", "Text findings: full (with the source line) or concise (one line each).", "FORM"),
    Param("statistics", ("--statistics",), bool, False, "Count the findings per rule (text or json), fixable ones marked."),
    Param("add_ignores", ("--add-ignores",), bool, False, "Write an `osmosis: ignore[...]` comment for each finding, then exit."),
    Param("write_baseline", ("--write-baseline",), Optional[Path], None, "Record today's findings in FILE, then exit.", "FILE"),
    Param("baseline", ("--baseline",), Optional[Path], None, "Report only findings not recorded in FILE (and its stale entries).", "FILE"),
    Param("no_cache", ("--no-cache",), bool, False, "Run every check; neither read nor write the cache."),
)

HELP = """Check a whole workspace against the platform contract.

Exit codes: 0 no errors, 1 errors (or warnings with --strict), 2 usage or not a workspace,
3 internal error. Settings: [tool.osmosis] in the workspace's pyproject.toml.

Example: osmosis doctor --format github
"""


def defaults() -> dict[str, Any]:
    values: dict[str, Any] = {p.name: (list(p.default) if isinstance(p.default, list) else p.default) for p in PARAMS}
    values["path"] = Path(".")
    return values


def _switches() -> dict[str, tuple[Param, Any]]:
    """Each spelling of an option -> (its Param, the value a flag sets; None when it takes a value)."""
    table: dict[str, tuple[Param, Any]] = {}
    for p in PARAMS:
        for flag in p.flags:
            if "/" in flag:
                on, off = flag.split("/")
                table[on], table[off] = (p, True), (p, False)
            else:
                table[flag] = (p, True if p.annotation is bool else None)
    return table


def parse_plain(argv: list[str]) -> dict[str, Any] | None:
    """The arguments as `run`'s keywords, for the plain forms only (`--opt VALUE`, `--opt=VALUE`,
    `-o VALUE`, flags, at most one PATH). None for anything else (help, an unknown or repeated-letter
    option, a missing or empty value, a value that looks like an option, `--`, a second PATH): typer
    then parses it and words the error, so a mistake reads the same either way."""
    switches = _switches()
    values = defaults()
    seen_path = False
    args = iter(argv)
    for arg in args:
        if not arg.startswith("-") or arg == "-":
            if seen_path or not arg or arg == "-":
                return None
            values["path"], seen_path = Path(arg), True
            continue
        name, eq, inline = arg.partition("=")
        if not name.startswith("--"):
            name, eq, inline = arg, "", ""  # short options only as `-o VALUE`
        if (found := switches.get(name)) is None:
            return None
        param, flag_value = found
        if flag_value is not None:
            if eq:
                return None
            values[param.name] = flag_value
            continue
        value = inline if eq else next(args, None)
        if not value or value.startswith("-"):
            return None
        if param.annotation == List[str]:
            values[param.name].append(value)
        else:
            values[param.name] = Path(value) if param.annotation == Optional[Path] else value
    return values


def run(path: Path, format: str, fix: bool, unsafe_fixes: bool, diff: bool, watch: bool, strict: bool | None,
        select: list[str], ignore: list[str], list_checks: bool, output: Path | None, verbose: bool,
        output_format: str, statistics: bool, add_ignores: bool, write_baseline: Path | None,
        baseline: Path | None, no_cache: bool) -> int:
    from osmosis_workspace.check.doctor import doctor_command

    fix = (fix or unsafe_fixes) and not diff

    def once() -> int:
        writer = "doctor --fix" if fix else "doctor --add-ignores" if add_ignores else None
        if writer is None:  # a plain check takes no lock, and does not load its module
            return check()
        from osmosis_workspace.core import lock

        with lock.workspace(path, writer):
            return check()

    def check() -> int:
        return doctor_command(
            path=path, format=format, fix=fix, strict=strict, select=select, ignore=ignore,
            list_checks=list_checks, output=output, verbose=verbose, output_format=output_format,
            statistics=statistics, unsafe_fixes=unsafe_fixes, diff=diff, add_ignores=add_ignores,
            write_baseline=write_baseline, baseline=baseline, no_cache=no_cache,
        )

    if watch:
        from osmosis_workspace.check.watch import watch_command

        return watch_command(path, once, refuse=[n for n, on in (("--fix", fix), ("--diff", diff), ("--list-checks", list_checks), ("--output", output),
                                                                   ("--add-ignores", add_ignores), ("--write-baseline", write_baseline)) if on])
    return once()
