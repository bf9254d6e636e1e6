"""The standard json module's error messages made whole sentences.

`json.JSONDecodeError.msg` is the message without its position ("Unterminated string starting
at"), the position being appended only to str(err), with offsets into the text it was given (one
line of a JSONL file, or a chunk of a JSON array). Findings carry the real line and column, so a
message that ends on "at" is completed with them.
"""

from __future__ import annotations

import json


def json_error(err: json.JSONDecodeError, line: int | None, column: int | None) -> str:
    """"not valid JSON: <message>", with the position where the message expects one."""
    message = err.msg
    if message.endswith(" at") and line is not None and column is not None:
        message += f" line {line}, column {column}"
    return f"not valid JSON: {message}"
