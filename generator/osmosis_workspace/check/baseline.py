"""Baselines: `doctor --write-baseline FILE` records today's findings, `doctor --baseline FILE` then
reports only the findings it does not hold, and says which of its entries match nothing any more.

A finding's fingerprint is its code, its path, the content of the line it points at with whitespace
collapsed (for a finding without a line, its message with the digits taken out) and which occurrence
of that triple it is, counted down the file. No line number: an edit above the finding, or moving
the line, keeps the fingerprint; editing the offending line itself makes it a new finding.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.bounded import json_loads
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.registry import rule

FORMAT = 1
KIND = "osmosis-doctor-baseline"
CAP = 64 << 20  # a baseline names findings; a bigger file was not written by doctor

STALE_ENTRY = rule(
    "SET005", "stale-baseline-entry", "settings", "info",
    summary="An entry of the `--baseline` file that matches no finding in this run.",
    why="The finding it recorded was fixed (or its line changed); left in the baseline, the entry would hide the same problem coming back.",
    fix="Write the baseline again: `osmosis doctor --write-baseline FILE`.",
    example="osmosis doctor --baseline .osmosis-baseline.json   (CFG010 in configs/eval/a.toml was fixed)",
    source="ours",
)


def _line(ws: Workspace, d: Diagnostic) -> str | None:
    if not d.path or not d.line:
        return None
    text = ws.read_text(ws.root / d.path)
    if text is None:
        return None
    lines = text.split("\n")
    return lines[d.line - 1] if d.line <= len(lines) else None


def fingerprints(ws: Workspace, diagnostics: list[Diagnostic]) -> list[str]:
    """One fingerprint per diagnostic, in the order given."""
    anchors = []
    for d in diagnostics:
        line = _line(ws, d)
        anchor = "line:" + " ".join(line.split()) if line is not None else "message:" + re.sub(r"\d+", "#", d.message)
        anchors.append(f"{d.code}\0{d.path or ''}\0{anchor}")
    import hashlib  # only --baseline and --write-baseline fingerprint; the module is imported for its rule

    seen: Counter = Counter()
    found = [""] * len(diagnostics)
    for i in sorted(range(len(diagnostics)), key=lambda i: diagnostics[i].sort_key()):
        occurrence = seen[anchors[i]]
        seen[anchors[i]] += 1
        found[i] = hashlib.sha256(f"{anchors[i]}\0{occurrence}".encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return found


def render(ws: Workspace, diagnostics: list[Diagnostic]) -> bytes:
    """The baseline file for ``diagnostics``: sorted, one entry per finding, stable across runs."""
    entries = [
        {"code": d.code, "path": d.path, "fingerprint": fp, "message": d.message}
        for d, fp in zip(diagnostics, fingerprints(ws, diagnostics))
    ]
    entries.sort(key=lambda e: (e["path"] or "", e["code"], e["fingerprint"]))
    import json

    body = {KIND: FORMAT, "findings": entries}
    return (json.dumps(body, indent=1, ensure_ascii=False) + "\n").encode("utf-8", "surrogateescape")


class Baseline:
    def __init__(self, entries: list[dict], shown: str, rel: str | None):
        self.entries, self.shown, self.rel = entries, shown, rel

    @classmethod
    def load(cls, path: Path, ws: Workspace) -> "Baseline":
        """The baseline at ``path``; anything but a file doctor wrote is one clear UserError (exit 2)."""
        bad = f"--baseline {path}"
        try:
            if not path.is_file():
                raise UserError(f"{bad}: no such file", hint="write one with `osmosis doctor --write-baseline FILE`")
            if path.stat().st_size > CAP:
                raise UserError(f"{bad}: too big to be a baseline ({path.stat().st_size >> 20} MB)")
            data = json_loads(path.read_bytes().decode("utf-8"))
        except OSError as err:
            raise UserError(f"{bad}: cannot read it ({err.strerror or err})") from None
        except (UnicodeDecodeError, ValueError) as err:
            raise UserError(f"{bad}: not a baseline written by `osmosis doctor --write-baseline` (not JSON: {err})") from None
        if not isinstance(data, dict) or data.get(KIND) != FORMAT or not isinstance(data.get("findings"), list):
            raise UserError(f"{bad}: not a baseline written by `osmosis doctor --write-baseline` (no \"{KIND}\": {FORMAT} header)")
        entries = data["findings"]
        for n, e in enumerate(entries, start=1):
            if not (isinstance(e, dict) and isinstance(e.get("fingerprint"), str) and isinstance(e.get("code"), str)
                    and isinstance(e.get("path"), (str, type(None)))):
                raise UserError(f"{bad}: entry {n} is not a finding (it needs code, path and fingerprint)")
        try:
            rel = path.resolve().relative_to(ws.root.resolve()).as_posix()
        except (ValueError, OSError):
            rel = None
        return cls(entries, str(path), rel)

    def split(self, ws: Workspace, diagnostics: list[Diagnostic], active: Callable[[str], bool]) -> tuple[list[Diagnostic], list[Diagnostic]]:
        """(the findings the baseline does not hold, one SET005 per entry that matched nothing)."""
        left = Counter(e["fingerprint"] for e in self.entries)
        kept = []
        for d, fp in zip(diagnostics, fingerprints(ws, diagnostics)):
            if left[fp] > 0:
                left[fp] -= 1
            else:
                kept.append(d)
        stale = []
        for e in self.entries:
            if left[e["fingerprint"]] > 0 and active(e["code"]):
                left[e["fingerprint"]] -= 1
                where = e["path"] or "the workspace"
                stale.append(STALE_ENTRY.at(
                    self.rel, f"baseline entry {e['code']} in {where} matches no finding any more",
                    hint=f"Write the baseline again: `osmosis doctor --write-baseline {self.shown}`.",
                ))
        return kept, stale
