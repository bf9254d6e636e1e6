"""GitHub Actions workflow commands: one annotation per finding on the PR diff.

Escaping follows the runner's rules (actions/toolkit `command.ts`): the message escapes % CR LF;
property values also escape ':' and ','.
"""

from __future__ import annotations

from typing import TextIO

from osmosis_workspace.core.diagnostics import Severity
from osmosis_workspace.report import Report

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write(report: Report, stream: TextIO) -> None:
    for d in report.diagnostics:
        props = []
        path = report.repo_path(d)
        if path is not None:
            props.append(f"file={escape_property(path)}")
            if d.line is not None:
                props.append(f"line={d.line}")
                if d.column is not None:
                    props.append(f"col={d.column}")
        props.append(f"title={escape_property(d.code)}")
        stream.write(f"::{_COMMAND[d.severity]} {','.join(props)}::{escape_data(d.message)}\n")
