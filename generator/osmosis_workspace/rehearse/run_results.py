"""What the SDK wrote: per-row status and reward (`index.jsonl`), timings and tracebacks (`logs.txt`).

Everything here is read from the run folder the SDK owns, bounded, and tolerant: a missing or
malformed file means "the SDK did not get that far", which the verdicts report, never a crash.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.rehearse.cases import Case, Rehearsal
from osmosis_workspace.rehearse.runner import EvalProcess

LOG_CAP = 8 << 20        # bytes of logs.txt read (the start and the end of a huge one)
EXCERPT_LINES = 6
_LINE = re.compile(r"^(\S+)\s+([A-Z]+)\s+\[([\w.-]+)\]\s?(.*)$")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)')
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)|[A-Za-z_][\w.]*Error\b.*?)(:.*)?$")


@dataclass
class Row:
    case: Case
    status: str                  # success | failed | skipped | missing (no record: never finished)
    reward: float | None = None
    error_type: str | None = None
    seconds: float | None = None


@dataclass
class Failure:
    """The first traceback in the rollout server's output: its exception line and the user's frame."""
    exception: str
    where: str | None            # "rollouts/<r>/pkg/mod.py:12", the deepest frame in the workspace's code
    excerpt: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    rows: list[Row]
    process: EvalProcess
    sdk_error: str | None = None         # the SDK's one-line error when the run itself failed
    sync_s: float | None = None          # the rollout's `uv sync`
    server_start_s: float | None = None  # from starting the server to a healthy /health
    failure: Failure | None = None
    log_tail: list[str] = field(default_factory=list)


_SDK_PORT = re.compile(r'\[server\] starting rollout server .*"port":\s*(\d+)')
_SERVER_PORT = re.compile(r"\[rollout-server\] .*(?:Uvicorn|Hypercorn|Running) .*?https?://[\w.\[\]:-]+?:(\d+)")


def wrong_port(log: str) -> tuple[int, int] | None:
    """(the port the SDK gave, the port the server says it listens on) when they differ."""
    given = _SDK_PORT.findall(log)
    served = _SERVER_PORT.findall(log)
    if given and served and served[-1] != given[-1]:
        return int(given[-1]), int(served[-1])
    return None


def _read_capped(path: Path) -> str:
    try:
        with path.open("rb") as fh:
            data = fh.read(LOG_CAP + 1)
    except OSError:
        return ""
    return data[:LOG_CAP].decode("utf-8", "replace")


def _records(run_dir: Path) -> dict[int, dict]:
    found: dict[int, dict] = {}
    for line in _read_capped(run_dir / "index.jsonl").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("row_index"), int):
            found[record["row_index"]] = record   # the latest attempt of a row wins, as in the SDK
    return found


def _when(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def _span(entries: list[tuple[datetime, str, str]], start: str, end: str | None = None) -> float | None:
    """Seconds from the first entry of step ``start`` to the first ``end`` message (or the last ``start`` entry)."""
    first = next((t for t, step, _ in entries if step == start), None)
    if first is None:
        return None
    if end is None:
        last = [t for t, step, _ in entries if step == start][-1]
    else:
        last = next((t for t, step, message in entries if message.startswith(end)), None)
        if last is None:
            return None
    return max(0.0, (last - first).total_seconds())


def user_frame(frames: list[tuple[str, int]], root: Path) -> str | None:
    """The deepest frame in the workspace's own code (not a venv, not site-packages)."""
    for filename, line in reversed(frames):
        path = Path(filename)
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
        except (ValueError, OSError):
            continue
        if "site-packages" in rel or "/.venv/" in f"/{rel}" or rel.startswith(".osmosis/"):
            continue
        return f"{rel}:{line}"
    return None


def first_traceback(lines: list[str], root: Path) -> Failure | None:
    """The first Python traceback in ``lines``: its exception line, the user's frame, a short excerpt."""
    for start, text in enumerate(lines):
        if "Traceback (most recent call last)" not in text:
            continue
        frames: list[tuple[str, int]] = []
        block: list[str] = []
        for text in lines[start + 1: start + 400]:
            frame = _FRAME.match(text)
            if frame:
                frames.append((frame.group(1), int(frame.group(2))))
                block.append(text.rstrip())
                continue
            if text.startswith((" ", "\t")) or not text.strip():
                block.append(text.rstrip())
                continue
            if _EXCEPTION.match(text.strip()):
                where = user_frame(frames, root)
                excerpt = [b for b in block if b.strip()][-EXCERPT_LINES:] + [text.strip()]
                return Failure(text.strip()[:300], where, excerpt)
            if text.startswith(("During handling", "The above exception")):
                block.append(text.rstrip())
                continue
            break
    return None


TRAJECTORY_CAP = 4 << 20


def _last_answer(run_dir: Path, number: int) -> str | None:
    """The policy's last message in row ``number``'s trajectory (None when the SDK wrote none we can read)."""
    path = run_dir / "trajectories" / f"row_{number}_run_0.json"
    try:
        with path.open("rb") as fh:
            data = fh.read(TRAJECTORY_CAP + 1)
        if len(data) > TRAJECTORY_CAP:
            return None
        steps = json.loads(data).get("steps")
    except (OSError, ValueError, AttributeError, RecursionError):  # nested deeper than the reader goes: unreadable
        return None
    if not isinstance(steps, list):
        return None
    said = [s.get("message") for s in steps if isinstance(s, dict) and s.get("source") == "agent"]
    said = [m.strip() for m in said if isinstance(m, str) and m.strip()]
    return said[-1] if said else ""     # no text: the row got the empty answer (or its framework records none)


def answered(rehearsal: Rehearsal, run_dir: Path, sent: dict[int, str]) -> dict[int, Case]:
    """Which case each rehearsal row really played. Rows of one prompt that ran at once may have taken
    each other's answers: a row whose trajectory shows another case's answer (of its own prompt) played
    that case. Only the cases whose own rows showed something else are free to be taken (a gold answer
    is sent by its gold row and by the determinism copies: a row that got it played the copy whose row
    did not), and only exchanges are believed, so every case is played once; a row whose trajectory
    says nothing keeps its own case."""
    by_text: dict[tuple[str, str], list[int]] = {}
    for case in rehearsal.cases:
        by_text.setdefault((case.prompt.strip(), sent.get(case.number, "").strip()), []).append(case.number)
    shown = {case.number: _last_answer(run_dir, case.number) for case in rehearsal.cases}
    moved = {n for n, got in shown.items() if got is not None and got != sent.get(n, "").strip()}
    options = {n: sorted((m for m in by_text.get((rehearsal.cases[n].prompt.strip(), shown[n]), []) if m in moved and m != n),
                         key=lambda m, n=n: abs(m - n))   # a race is between rows dispatched close together
               for n in sorted(moved)}
    claims = _matching(options)
    changed = True
    while changed:   # keep the claims that form exchanges: each claimed case's own row claimed another
        changed = False
        for row, taken in list(claims.items()):
            if taken not in claims:
                del claims[row]
                changed = True
    playing = {case.number: case for case in rehearsal.cases}
    for row, taken in claims.items():
        playing[row] = rehearsal.cases[taken]
    return playing


def _matching(options: dict[int, list[int]]) -> dict[int, int]:
    """Row -> case, each case to one row, as many rows matched as can be (augmenting paths); ``options``
    lists each row's possible cases, the likeliest first."""
    holder: dict[int, int] = {}   # case -> the row it is matched to

    def place(row: int, visited: set[int]) -> bool:
        for case in options[row]:
            if case in visited:
                continue
            visited.add(case)
            if case not in holder or place(holder[case], visited):
                holder[case] = row
                return True
        return False

    # A failed search changes no pairing, so the cases it visited lead to no free case until a row is
    # placed: the next rows skip them (the same pairing, without walking thousands of rows' options again
    # when many rows want a few cases).
    visited: set[int] = set()
    for row in options:
        if place(row, visited):
            visited = set()
    return {row: case for case, row in holder.items()}


def read_outcome(rehearsal: Rehearsal, run_dir: Path, root: Path, process: EvalProcess,
                 sent: dict[int, str] | None = None) -> Outcome:
    records = _records(run_dir)
    playing = answered(rehearsal, run_dir, sent) if sent else {c.number: c for c in rehearsal.cases}
    rows = []
    for number in range(len(rehearsal.cases)):
        case = playing[number]
        record = records.get(number)
        if record is None:
            rows.append(Row(case, "missing"))
            continue
        reward = record.get("reward")
        duration = record.get("duration_ms")
        rows.append(Row(case, str(record.get("status") or "missing"),
                        float(reward) if isinstance(reward, (int, float)) and not isinstance(reward, bool) else None,
                        record.get("error_type") if isinstance(record.get("error_type"), str) else None,
                        duration / 1000 if isinstance(duration, (int, float)) else None))
    entries: list[tuple[datetime, str, str]] = []
    server_lines: list[str] = []
    for line in _read_capped(run_dir / "logs.txt").splitlines():
        parsed = _LINE.match(line)
        if not parsed:
            continue
        when = _when(parsed.group(1))
        if when is not None:
            entries.append((when, parsed.group(3), parsed.group(4)))
        if parsed.group(3) in ("rollout-server", "deps", "server"):
            server_lines.append(parsed.group(4))
    outcome = Outcome(rows, process, sync_s=_span(entries, "deps"),
                      server_start_s=_span(entries, "server", "rollout server healthy"))
    outcome.failure = first_traceback(server_lines, root)
    outcome.log_tail = [m for _, step, m in entries if step in ("server", "deps", "rollout-server")][-EXCERPT_LINES:]
    result = process.result()
    error = (result or {}).get("error")
    if isinstance(error, dict):
        message = str(error.get("message") or error.get("code") or "eval run failed").strip()
        outcome.sdk_error = message.splitlines()[0] if message else "eval run failed"
        details = error.get("details")
        if isinstance(details, dict) and details.get("exception_type"):
            outcome.sdk_error += f" ({details['exception_type']})"
    elif process.returncode not in (0, None) and result is None:
        tail = (process.stderr.strip() or process.stdout.strip()).splitlines()
        outcome.sdk_error = tail[-1][:300] if tail else f"eval run exited with code {process.returncode}"
    return outcome
