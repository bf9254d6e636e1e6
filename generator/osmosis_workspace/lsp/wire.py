"""What comes over stdin is the editor's, and is bounded and answered like any other input.

pygls trusted it: `Content-Length: 99999999999999` made it allocate the body and die (MemoryError,
exit 3); a 5,000-digit length raised from `int()`; a request whose params did not fit the protocol
(a hover without `position`) was logged and never answered, so the client waited forever.

- `Frames` stands between stdin and pygls's reader: header lines are capped, a message up to
  `MAX_MESSAGE` passes, a larger one (a big dataset an editor opened: the whole text comes in
  `didOpen`) is read and dropped in chunks and replaced by a `SKIPPED` notification, and a length
  past `MAX_SKIPPED` is refused: no editor sends that, the stream is not LSP framing, and skipping
  it would swallow every later message. `FrameRefused` ends the server (one line, exit 2).
- `Protocol` answers every request: params that do not fit get an InvalidParams error with the
  request's id, a message that is not JSON-RPC 2.0 an InvalidRequest, a body that is not JSON a
  ParseError (id null, as JSON-RPC says when the id cannot be read).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.protocol import LanguageServerProtocol

MAX_HEADER_LINE = 8 * 1024
MAX_MESSAGE = 64 * 1024 * 1024       # a message parsed: a buffer far past doctor's 2 MB cap still gets its finding
MAX_SKIPPED = 1024 * 1024 * 1024     # a message read and dropped; past this the stream is refused
_CHUNK = 1024 * 1024
# JSON values a message may build: `[{},{},...]` costs some 70 bytes of memory per 3 bytes of body, so
# a 57 MB message of them took 1.5 GB; a text buffer is one string, and no request holds a million values
MAX_VALUES = 1_000_000
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
SKIPPED = "$/osmosis/skippedMessage"
_LENGTH = re.compile(rb"content-length:[ \t]*([0-9]+)[ \t]*\r?\n?", re.IGNORECASE)
_ANSWERED = object()  # what a request already answered with an error becomes: nothing left to do

logger = logging.getLogger("osmosis.lsp")


class FrameRefused(Exception):
    """The input is not LSP framing any bound allows: the server stops (one line, exit 2)."""


def _size(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.0f} {unit}"
    return f"{n} bytes"


class Frames:
    """stdin as pygls's reader uses it (`readline`, `read`), with every frame's size checked first."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        line = self.raw.readline(MAX_HEADER_LINE + 1)
        if len(line) > MAX_HEADER_LINE:
            raise FrameRefused(f"a message header line is longer than {_size(MAX_HEADER_LINE)}: "
                               "the input is not LSP framing (Content-Length headers, a blank line, a JSON body), so the server stopped")
        match = _LENGTH.fullmatch(line)
        if match is not None:
            digits = match.group(1)
            if len(digits) > 12 or int(digits) > MAX_SKIPPED:
                shown = digits.decode()[:20] + ("..." if len(digits) > 20 else "")
                raise FrameRefused(f"a message header says Content-Length {shown}, past the {_size(MAX_SKIPPED)} "
                                   "any editor sends: the input is not LSP framing, so the server stopped")
        return line

    def read(self, n: int) -> bytes:
        if n <= MAX_MESSAGE:
            body = self.raw.read(n)
            if n > MAX_VALUES and _values(body) > MAX_VALUES:
                logger.warning("skipped a message of %s holding more than %d JSON values", _size(n), MAX_VALUES)
                return json.dumps({"jsonrpc": "2.0", "method": SKIPPED, "params": {"bytes": n}}).encode()
            return body
        left = n
        while left > 0:  # read and dropped: the stream stays in step, memory stays at one chunk
            chunk = self.raw.read(min(left, _CHUNK))
            if not chunk:
                return b""  # the client went away mid-message: pygls ends as at any end of input
            left -= len(chunk)
        logger.warning("skipped a message of %s (more than the %s a message may have)", _size(n), _size(MAX_MESSAGE))
        return json.dumps({"jsonrpc": "2.0", "method": SKIPPED, "params": {"bytes": n}}).encode()


def _values(body: bytes) -> int:
    """About how many JSON values ``body`` holds: its objects, arrays and commas outside strings."""
    bare = _STRING.sub(b"", body)
    return bare.count(b"{") + bare.count(b"[") + bare.count(b",")


def _request_id(data: Any) -> int | str | None:
    value = data.get("id") if isinstance(data, dict) else getattr(data, "id", None)
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _is_request(message: Any) -> bool:
    if isinstance(message, dict):
        return "method" in message and "id" in message
    return hasattr(message, "method") and hasattr(message, "id")


def _why(err: BaseException) -> str:
    """The first thing cattrs found wrong, as `required field missing @ $.params.position`."""
    cause = err.__cause__
    if cause is None:
        return str(err)
    from cattrs import transform_error

    try:
        found = transform_error(cause, path="$")
    except Exception:  # noqa: BLE001  not an error cattrs can describe: its own words will do
        found = []
    if not found:
        return " ".join(str(cause).split())[:200]
    what, _, where = found[0].partition(" @ ")
    # cattrs names attributes (text_document); the client sent the wire's names (textDocument)
    return f"{what} @ {re.sub(r'_([a-z])', lambda m: m.group(1).upper(), where)}" if where else what


class Protocol(LanguageServerProtocol):
    """pygls's protocol, with an answer for every request that reaches it."""

    def refuse(self, msg_id: int | str | None, error: JsonRpcException, detail: str) -> None:
        self._send_response(msg_id, None, types.ResponseError(code=error.code, message=f"{error.message}: {detail}"))

    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if "method" in data and "id" in data:
                self.refuse(_request_id(data), err, f"{data['method']}: {_why(err)}")
                return _ANSWERED
            raise

    def handle_message(self, message) -> None:
        if message is _ANSWERED:
            return
        if isinstance(message, dict) or getattr(message, "jsonrpc", None) != self.VERSION:
            # Not JSON-RPC 2.0 (no "jsonrpc": "2.0", or not an object at all): a request still gets its error.
            if _is_request(message):
                self.refuse(_request_id(message), JsonRpcInvalidRequest(), "not a JSON-RPC 2.0 request")
            else:
                logger.warning("ignored a message that is not JSON-RPC 2.0")
            return
        if self._shutdown and _is_request(message) and getattr(message, "method", "") != "exit":
            # pygls drops these silently; LSP says a request after `shutdown` is an InvalidRequest
            self.refuse(_request_id(message), JsonRpcInvalidRequest(), f"{message.method}: the server is shutting down")
            return
        super().handle_message(message)

    def parse_failed(self, err: BaseException) -> bool:
        """A body that is not JSON: a ParseError with id null. True when ``err`` was that."""
        if isinstance(err, (ValueError, RecursionError)) and not isinstance(err, JsonRpcException):
            self.refuse(None, JsonRpcParseError(), f"the message body is not JSON ({type(err).__name__})")
            return True
        return False
