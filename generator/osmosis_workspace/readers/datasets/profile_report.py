"""The data checks' findings from a finished profile (osmosis_workspace.readers.datasets.profile),
and the thresholds they apply: at most one finding of each kind, two for leaks (system prompts, user prompts)."""

from __future__ import annotations

import json

SHOWN_LINES = 5  # rows a finding names
DOMINANT_SHARE = 0.75
DOMINANT_MIN_ROWS = 20
LEAK_MIN_CHARS = 3
LEAK_SHARE = 0.10
LEAK_MIN_ROWS = 2
CLASS_MIN_ROWS = 3
CLASS_SHARE = 0.05

_MENU = object()  # a system prompt that holds the labels of rows with different labels


def lines_text(lines: list[int]) -> str:
    return ", ".join(str(n) for n in lines)


def report(profile, findings) -> None:  # profile: a readers.datasets.profile.Profile
    """At most one finding per data check into ``findings``."""
    if profile.repeats:
        what = ("prompt (system prompt, user prompt and metadata" if profile.metadata else "prompt (system and user prompt") + \
            ", compared ignoring case, spacing and punctuation)"
        past = f"; digests of the first {profile.cap:,} distinct prompts are kept" if len(profile.seen) >= profile.cap else ""
        findings.add("duplicate-rows", f"{profile.repeats:,} row{'s repeat' if profile.repeats != 1 else ' repeats'} an earlier row's "
                     f"{what}: line{'s' if len(profile.repeat_lines) > 1 else ''} {lines_text(profile.repeat_lines)}"
                     f"{', ...' if profile.repeats > len(profile.repeat_lines) else ''}{past}", profile.repeat_lines[0],
                     hint="Drop the repeats (keep one row per prompt): a repeated prompt is trained on more often, "
                          "and one prompt with two answers rewards both.")
    _dominant(profile, findings)
    _leaked(profile, findings)
    _user_leaked(profile, findings)
    _off_options(profile, findings)


def _dominant(profile, findings) -> None:
    rows = profile.labelled_rows
    if not profile.labels or rows < DOMINANT_MIN_ROWS:
        return
    key, count = max(profile.labels.items(), key=lambda item: item[1])
    share = count / rows
    if share < DOMINANT_SHARE:
        return
    label = json.dumps(key[:40] + ("..." if len(key) > 40 else ""), ensure_ascii=False) if isinstance(key, str) else "one long label"
    findings.add("dominant-label", f"{count:,} of {rows:,} rows ({share:.0%}) have the label {label}: a model answering {label} "
                 f"every time would earn {share:.2f} of the reward an exact-match grader pays, first at line {profile.label_lines[key]}",
                 profile.label_lines[key],
                 hint="Balance the labels (add rows of the others, or sample the common one down), or grade so that a "
                      "constant answer cannot score: RL finds the constant answer quickly.")


def _leaked(profile, findings) -> None:
    # (rows, first line) per system prompt that is not a list of choices
    _leak_finding(profile, findings, "system", [(e[1], e[2]) for e in profile.leaks.values() if e[0] is not _MENU and e[1]],
                  "Take the answer out of the system prompt (keep the instructions and the answer's format): ")


def _user_leaked(profile, findings) -> None:
    rows_of, labelled = profile.labels.get, profile.labelled_rows
    # (rows, first line) per label, but for class labels: a question may name a class
    entries = [(rows, line) for key, (rows, line) in profile.user_leaks.items()
               if not ((rows_of(key) or 0) >= CLASS_MIN_ROWS and (rows_of(key) or 0) >= CLASS_SHARE * labelled)]
    _leak_finding(profile, findings, "user", entries,
                  "Take the answer out of those user prompts (or list it among choices if the task is to pick one): ")


def _leak_finding(profile, findings, which: str, entries: list[tuple[int, int]], fix: str) -> None:
    """DAT028's finding for one kind of prompt, when the rows it counts pass the thresholds."""
    rows = sum(e[0] for e in entries)
    if not entries or rows < LEAK_MIN_ROWS or rows < LEAK_SHARE * profile.rows:
        return
    lines = sorted(e[1] for e in entries)[:SHOWN_LINES]
    findings.add(f"label-in-{which}-prompt", f"{rows:,} of {profile.rows:,} rows have their label written verbatim in their "
                 f"{which} prompt: line{'s' if len(lines) > 1 else ''} {lines_text(lines)}{', ...' if rows > len(lines) else ''}",
                 lines[0], hint=fix + "the model can copy it instead of working it out.")


def _off_options(profile, findings) -> None:
    count, shown = profile.off_list
    if not count:
        return
    line, item, options = shown[0]
    listed = ", ".join(json.dumps(o, ensure_ascii=False) for o in options[:8]) + (", ..." if len(options) > 8 else "")
    lines = [entry[0] for entry in shown]
    findings.add("label-off-options", f"{count:,} row{'s have a label' if count != 1 else ' has a label'} outside the options "
                 f"their system prompt lists: line{'s' if len(lines) > 1 else ''} {lines_text(lines)}"
                 f"{', ...' if count > len(lines) else ''} ({f'line {line}: ' if len(lines) > 1 else ''}"
                 f"{json.dumps(item, ensure_ascii=False)} is not one of {listed})", line,
                 hint="Add it to the list the prompt offers, or fix the label: a model that keeps to the prompt's "
                      "options can never earn this row's reward.")
