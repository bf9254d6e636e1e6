"""`osmosis rehearse --merge DIR`: the verdicts of a CI matrix (one `--format json` file per job) as one.

The files come from other jobs' artifacts, so each is read as hostile input: bounded in size and depth,
any shape. What comes out: a Markdown table for the job summary (rollout, verdicts, gold/wrong/empty
means, probes), one GitHub annotation per failure at the file to fix, and one verdict: every rollout
ok, or not. A rollout the affected set (`affected.json`, the `--list` output, when the folder holds
it) expects but no file reports failed too, with why when a job said (rehearse stopped before running
it); the rollouts the change deleted or renamed are listed with why they have no verdict.

Nothing read is printed raw: names, headlines, hints and file names go through :func:`markdown_text`
(Markdown and HTML shown as text) in the summary, and through :func:`command_text` (the one escaping
of GitHub's workflow commands) in annotations.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from osmosis_workspace.core import bounded
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_dir
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.rehearse.probes import PROBES

MAX_FILE_BYTES = 32 << 20   # one rollout's verdicts with 200 rows x every pass stay under 2 MB
MAX_FILES = 1000
MAX_DEPTH = 64
AFFECTED_FILE = "affected.json"


@dataclass
class Merged:
    rollouts: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # files that are not verdicts, rollouts without one
    vanished: list[tuple[str, str]] = field(default_factory=list)   # (rollout, why) the change removed

    @property
    def ok(self) -> bool:
        return not self.problems and all(entry_ok(r) for r in self.rollouts)


def _verdicts(entry: dict) -> list[dict]:
    found = entry.get("verdicts")
    return [v for v in found if isinstance(v, dict)] if isinstance(found, list) else []


def _fails(verdict: dict) -> bool:
    """A verdict that does not hold and was not accepted on purpose ([tool.osmosis.rehearse] accept)."""
    return verdict.get("holds") is False and not verdict.get("accepted")


def entry_ok(entry: dict) -> bool:
    """A rollout passed: it says so, and its verdicts agree (a file claiming ok with none proves nothing)."""
    verdicts = _verdicts(entry)
    return entry.get("ok") is True and any(v.get("holds") is True for v in verdicts) and not any(map(_fails, verdicts))


def read_json(path: Path) -> object:
    """A JSON file from another job; `ValueError` with the reason when it is not one we may read."""
    try:
        text = bounded.read_capped(path, MAX_FILE_BYTES).decode("utf-8")
    except bounded.Unreadable as err:
        raise ValueError(str(err)) from None
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text") from None
    try:  # the project's one depth-checked reader, before the parser can recurse
        return bounded.json_loads(text, MAX_DEPTH, parse_constant=lambda name: None)
    except ValueError as err:
        raise ValueError(f"is not JSON ({err})") from None


def _text(value: object, limit: int = 300) -> str:
    """A string from the file, one line, bounded; anything else as empty."""
    if not isinstance(value, str):
        return ""
    flat = "".join(ch if ch.isprintable() else " " for ch in value)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _number(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _stopped(data: dict) -> tuple[list[str], str] | None:
    """(the rollouts a job was asked for, its error message) when rehearse stopped before running any."""
    error = data.get("error")
    if not isinstance(error, dict):
        return None
    asked = data.get("requested")
    names = [_text(n) for n in asked if _text(n)] if isinstance(asked, list) else []
    return names, _text(error.get("message"), 300) or "no message"


def _expected(merged: Merged, folder: Path, stopped: dict[str, str]) -> None:
    """What `affected.json` expects: a rollout no file reports is a problem that says why; the vanished are listed."""
    try:
        listing = read_json(folder / AFFECTED_FILE)
    except ValueError as err:
        merged.problems.append(f"{AFFECTED_FILE} {err}")
        return
    listing = listing if isinstance(listing, dict) else {}
    gone = listing.get("vanished") if isinstance(listing.get("vanished"), list) else []
    merged.vanished = [(_text(g.get("rollout"), 80), _text(g.get("why"), 200) or "removed on this branch")
                       for g in gone if isinstance(g, dict) and _text(g.get("rollout"))]
    names = [_text(e.get("rollout")) for e in listing.get("rollouts") or [] if isinstance(e, dict)] \
        if isinstance(listing.get("rollouts"), list) else []
    seen = {_text(r.get("rollout")) for r in merged.rollouts}
    for name in names:
        if not name or name in seen:
            continue
        if name in stopped:
            merged.problems.append(f"rollout {name} has no verdict: its rehearse job stopped before running it ({stopped[name]})")
        else:
            merged.problems.append(f"rollout {name} has no verdict: no job reported it (its rehearse job did not finish "
                                   "or uploaded nothing; see its log)")


def merge(folder: Path) -> Merged:
    if not is_dir(folder):
        raise UserError(f"--merge {folder}: no such folder")
    merged = Merged()
    files = sorted(p for p in folder.rglob("*.json") if p.name != AFFECTED_FILE)
    if len(files) > MAX_FILES:
        raise UserError(f"--merge {folder}: more than {MAX_FILES} JSON files; is it the verdicts folder?")
    stopped: dict[str, str] = {}
    for path in files:
        shown = _text(path.relative_to(folder).as_posix())
        try:
            data = read_json(path)
        except ValueError as err:
            merged.problems.append(f"{shown} {err}")
            continue
        entries = data.get("rollouts") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            merged.problems.append(f"{shown} is not `osmosis rehearse --format json` output (no rollouts list)")
            continue
        merged.rollouts += [e for e in entries if isinstance(e, dict) and _text(e.get("rollout"))]
        halt = _stopped(data)
        if halt is not None:
            names, message = halt
            stopped.update((name, message) for name in names)
            if not names:
                merged.problems.append(f"{shown}: rehearse stopped before running anything ({message})")
    if (folder / AFFECTED_FILE).is_file():
        _expected(merged, folder, stopped)
    merged.rollouts.sort(key=lambda r: _text(r.get("rollout")))
    return merged


def _verdict_cell(entry: dict) -> str:
    verdicts = [v for v in _verdicts(entry) if v.get("name") not in PROBES]
    failed = [markdown_text(_text(v.get("name"), 40)) for v in verdicts if _fails(v)]
    held = sum(1 for v in verdicts if v.get("holds") is True)
    return f"{held}/{len(verdicts)} hold" + (f"; failed: {', '.join(failed)}" if failed else "")


def _means_cell(entry: dict) -> str:
    means = entry.get("means") if isinstance(entry.get("means"), dict) else {}
    shown = []
    for name in ("gold", "wrong", "empty"):
        value = _number(means.get(name))
        shown.append("n/a" if value is None else f"{value:.2f}")
    return " / ".join(shown)


def _probes_cell(entry: dict) -> str:
    probes = [v for v in _verdicts(entry) if v.get("name") in PROBES]
    if not probes:
        return "-"
    failed = [markdown_text(_text(p.get("name"), 40)) for p in probes if _fails(p)]
    accepted = sum(1 for p in probes if p.get("holds") is False and p.get("accepted"))
    held = sum(1 for p in probes if p.get("holds") is True)
    text = f"{held}/{len(probes)} hold"
    if accepted:
        text += f" ({accepted} accepted)"
    return text + (f"; failed: {', '.join(failed)}" if failed else "")


# What makes text more than text in GitHub's Markdown: links and images need `[`, emphasis `*` `_` `~`,
# code a backtick, a table cell ends at `|`, autolinks start at `://`, `www.` or an `@`.
_MARKDOWN = re.compile(r"[\\`*_{}\[\]|~@]|:(?=//)|(?<=www)\.", re.IGNORECASE)


def markdown_text(text: str) -> str:
    """``text`` (from a file another job wrote) as Markdown that renders as that text: HTML's `&`, `<`, `>`
    as entities, and every sign that would make a link, an image, emphasis, code or a new table cell
    escaped with a backslash. The text is one line already (:func:`_text`)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN.sub(lambda m: "\\" + m.group(0), text)


def markdown(merged: Merged) -> str:
    failed = sum(1 for r in merged.rollouts if not entry_ok(r))
    lines = ["## osmosis rehearse", ""]
    if not merged.rollouts and not merged.problems:
        lines.append("No rollout is affected by this change: nothing to rehearse.")
        return "\n".join(lines + _vanished_lines(merged) + [""])
    lines.append(f"{len(merged.rollouts)} rollouts rehearsed: {len(merged.rollouts) - failed} ok, {failed} failed"
                 if len(merged.rollouts) != 1 else f"1 rollout rehearsed: {'ok' if not failed else 'failed'}")
    lines += ["", "| rollout | result | verdicts | gold / wrong / empty | probes |", "|---|---|---|---|---|"]
    for entry in merged.rollouts:
        result = ("ok" if entry_ok(entry) else
                  f"**failed**: {markdown_text(_text(entry.get('headline'), 160) or 'no verdict holds')}")
        lines.append("| " + " | ".join((markdown_text(_text(entry.get("rollout"), 80)), result, _verdict_cell(entry),
                                         _means_cell(entry), _probes_cell(entry))) + " |")
    if merged.problems:
        lines += ["", "Problems:", ""] + [f"- {markdown_text(p)}" for p in merged.problems]
    return "\n".join(lines + _vanished_lines(merged)) + "\n"


def _vanished_lines(merged: Merged) -> list[str]:
    if not merged.vanished:
        return []
    return ["", "Not rehearsed (gone from this branch, so no verdict):", ""] + [
        f"- {markdown_text(name)}: {markdown_text(why)}" for name, why in merged.vanished]


def command_text(text: str, property: bool = False) -> str:
    """The one escaping of a value in a GitHub workflow command (`::error file=...,title=...::message`):
    `%`, CR and LF always; in a property also `:` and `,`, which would end it."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def annotations(merged: Merged) -> list[str]:
    """GitHub workflow commands: one error per failed rollout, at its failure's line or its config."""
    out = []
    for entry in merged.rollouts:
        if entry_ok(entry):
            continue
        failure = entry.get("failure") if isinstance(entry.get("failure"), dict) else {}
        where = _text(failure.get("where"), 400)
        path, _, line = where.rpartition(":")
        props = f"file={command_text(path, True)},line={line}" if path and line.isdigit() else \
            f"file={command_text(_text(entry.get('config'), 400), True)}" if _text(entry.get("config")) else ""
        title = command_text(f"rehearse {_text(entry.get('rollout'), 80)}", True)
        sep = "," if props else ""
        out.append(f"::error {props}{sep}title={title}::{command_text(_text(entry.get('headline'), 400))}")
    out += [f"::error title=rehearse::{command_text(p)}" for p in merged.problems]
    return out


def merge_command(folder: Path, format: str, out, environ) -> bool:
    """Print the merged verdicts; in GitHub Actions also the annotations and the job summary. True when all hold."""
    merged = merge(folder)
    if format == "json":
        json.dump({"ok": merged.ok, "rollouts": merged.rollouts, "problems": merged.problems,
                   "vanished": [{"rollout": name, "why": why} for name, why in merged.vanished]}, out, indent=2)
        out.write("\n")
    else:
        out.write(markdown(merged))
    if environ.get("GITHUB_ACTIONS") == "true":
        for line in annotations(merged):
            out.write(line + "\n")
    summary = environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a", encoding="utf-8") as fh:
                fh.write(markdown(merged))
        except OSError as err:
            raise UserError(f"cannot append to GITHUB_STEP_SUMMARY ({summary}): {err.strerror or err}") from None
    return merged.ok
