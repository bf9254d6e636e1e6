"""`doctor --add-ignores`: an `osmosis: ignore[...]` comment for each of today's findings, written
through the journal (all files or none).

A line comment goes only where it cannot change what the file means: after the edit the file must
parse to the same thing (TOML to the same data, Python to the same syntax tree, YAML front matter to
the same mapping), else the code goes into a file-level `ignore-file[...]` comment appended at the
end. A finding with no line gets the file-level comment; one with no file, or in a file that cannot
carry a comment (a dataset, a folder), is listed as not suppressible.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check import suppress

NOT_FOR = ("SET003", "SET004", "SET005")  # findings about suppressions and baselines themselves


def _same_toml(a: str, b: str) -> bool:
    from osmosis_workspace.core.bounded import toml_loads

    try:
        return toml_loads(a) == toml_loads(b)
    except Exception:  # noqa: BLE001  unparsable before or after: no line comment
        return False


def _same_python(a: str, b: str) -> bool:
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except (SyntaxError, ValueError):
        return False


def _same_yaml(a: str, b: str) -> bool:
    from osmosis_workspace.readers.yamlio import YAMLError, safe_load

    try:
        return safe_load(a) == safe_load(b)
    except (YAMLError, ValueError):
        return False


def _same_front_matter(a: str, b: str) -> bool:
    def front(text: str) -> str:
        lines = text.split("\n")
        end = suppress.front_matter_end(lines)
        return "\n".join(lines[1:end - 1]) if end else ""

    return _same_yaml(front(a), front(b)) and a.split("\n")[suppress.front_matter_end(a.split("\n")):] == b.split("\n")[suppress.front_matter_end(b.split("\n")):]


def _checker(path: str, lines: list[str], number: int) -> Callable[[str, str], bool]:
    if path.endswith(".toml"):
        return _same_toml
    if path.endswith(".py"):
        return _same_python
    if path.endswith((".yml", ".yaml")):
        return _same_yaml
    if 1 < number < suppress.front_matter_end(lines):
        return _same_front_matter
    return lambda a, b: True  # a Markdown body line: an HTML comment renders as nothing


def _marked(line: str, style, codes: list[str], whole_file: bool) -> str:
    """``line`` with ``codes`` added to its comment of ``style`` (merged into one already there)."""
    m = style.search(line)
    if m and bool(m.group(1)) == whole_file:
        have = [c.strip().upper() for c in m.group(2).split(",") if c.strip()]
        merged = ",".join(dict.fromkeys([*have, *codes]))
        return line[: m.start(2)] + merged + line[m.end(2):]
    kind = "ignore-file" if whole_file else "ignore"
    comment = f"# osmosis: {kind}[{','.join(codes)}]" if style is suppress.HASH else f"<!-- osmosis: {kind}[{','.join(codes)}] -->"
    return f"{line}  {comment}" if line.strip() else comment


def _raw(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def plan(ws: Workspace, diagnostics: list[Diagnostic]) -> tuple[dict[str, str], list[Diagnostic], int]:
    """(new text per workspace-relative path, the findings no comment can silence, how many were silenced)."""
    by_path: dict[str, list[Diagnostic]] = {}
    refused = []
    for d in diagnostics:
        if d.code in NOT_FOR:
            continue
        if not d.path or not d.path.endswith(suppress.SUFFIXES) or ws.outside(ws.root / d.path):
            refused.append(d)
        else:
            by_path.setdefault(d.path, []).append(d)
    changed: dict[str, str] = {}
    silenced = 0
    for rel, found in sorted(by_path.items()):
        path = ws.root / rel
        raw = ws.read_text(path) is not None and _raw(path)
        newline = "\r\n" if raw and "\r\n" in raw else "\n"
        if not raw or "\r" in raw.replace("\r\n", ""):  # unreadable, or line endings we would not keep byte for byte
            refused += found
            continue
        lines = raw.split(newline)
        whole: list[str] = []
        per_line: dict[int, list[str]] = {}
        for d in found:
            if d.line and 1 <= d.line <= len(lines):
                per_line.setdefault(d.line, []).append(d.code)
            else:
                whole.append(d.code)
        for number, codes in sorted(per_line.items()):
            style = suppress.comment_style(rel, lines, number)
            candidate = [*lines]
            candidate[number - 1] = _marked(lines[number - 1], style, list(dict.fromkeys(codes)), whole_file=False)
            if _checker(rel, lines, number)("\n".join(lines), "\n".join(candidate)):
                lines = candidate
            else:
                whole += codes
        if whole:
            style = suppress.HTML if rel.endswith(".md") else suppress.HASH
            existing = next((n for n, line in enumerate(lines) if (m := style.search(line)) and m.group(1)), None)
            codes = list(dict.fromkeys(whole))
            if existing is not None:
                lines[existing] = _marked(lines[existing], style, codes, whole_file=True)
            else:
                tail = _marked("", style, codes, whole_file=True)
                lines = [*lines[:-1], tail, ""] if lines and lines[-1] == "" else [*lines, tail]
        changed[rel] = newline.join(lines)
        silenced += len(found)
    return changed, refused, silenced


def write(ws: Workspace, changed: dict[str, str]) -> None:
    """The edited files, all or nothing (core/journal.py)."""
    from osmosis_workspace.core import journal

    journal.apply(ws.root, "doctor --add-ignores", [journal.Change(rel, content=text.encode("utf-8")) for rel, text in changed.items()])


def report(changed: dict[str, str], refused: list[Diagnostic], silenced: int, stream) -> None:
    files = len(changed)
    print(f"Added suppressions for {silenced} finding{'s' * (silenced != 1)} in {files} file{'s' * (files != 1)}.", file=stream)
    for d in refused:
        if d.path:
            print(f"not suppressible: {d.code} in {d.path} (no comment can go there; use [tool.osmosis] per-file-ignores or a baseline)", file=stream)
        else:  # a finding about the whole workspace has no file for per-file-ignores to name
            print(f"not suppressible: {d.code} (about the whole workspace; use [tool.osmosis] ignore, --ignore {d.code} or a baseline)", file=stream)


