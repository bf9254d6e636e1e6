"""Issue 28 points 2, 7 and 9: what the editor sends is bounded and answered like any other input.

A buffer is held to doctor's size cap (a 3 MB config buffer cost 440 MB and 15 s parsed); every
request gets a result or an error (a hover without `position` went unanswered and the client waited
forever); a frame whose Content-Length no editor sends ends the server with one line and exit 2
(99999999999999 was a MemoryError, exit 3), and a large frame an editor does send (a big dataset's
text in didOpen) is skipped in chunks while the server goes on answering. The first two drive the
server with pytest-lsp's real client; the framing tests write bytes a client never would."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import uuid
from concurrent.futures import Future
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from test_lsp_server import (
    SERVER,
    TIMEOUT,
    counting,
    diagnostics_for,
    open_doc,
    started,
)

from osmosis_workspace.core.workspace import MAX_TEXT_BYTES


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_buffer_over_doctors_cap_is_reported_unread_as_doctor_reports_the_file(make_workspace):
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    saved = config.read_text()
    # What the campaign opened: a config grown past 3 MB of keys (valid TOML, every key unknown).
    big = saved + "".join(f"k{i} = {i}\n" for i in range(330_000))
    assert 3_000_000 < len(big.encode()) and len(saved.encode()) < MAX_TEXT_BYTES

    async def scenario():
        client, _ = await started(root)
        counting(client)
        try:
            started_at = time.monotonic()
            uri = open_doc(client, config, big)
            found = await diagnostics_for(client, uri)
            seconds = time.monotonic() - started_at
            assert [(d.code, d.severity) for d in found] == [("CFG001", types.DiagnosticSeverity.Error)], \
                [(d.code, d.message) for d in found[:5]]
            assert f"larger than {MAX_TEXT_BYTES} bytes, so it was not read" in found[0].message
            # the server still answers, and its cost stayed that of holding the text, not of parsing it
            hover = await client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(0, 0)))
            assert hover is not None and "**CFG001**" in hover.contents.value
            peak = peak_mb(client._server.pid)
            # back under the cap (the editor's undo): read and checked again, the finding gone
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=2), [types.TextDocumentContentChangeWholeDocument(text=saved)]))
            again = await diagnostics_for(client, uri, published_before=client.published.count(uri))
            assert "CFG001" not in [d.code for d in again]
        finally:
            await client.shutdown_session()
        return seconds, peak

    seconds, peak = asyncio.run(scenario())
    print(f"3 MB buffer: {seconds:.1f} s to its finding, server peak {peak:.0f} MB")
    assert seconds < 10 and peak < 200, (seconds, peak)


async def raw_request(client, method: str, params):
    """A request as a buggy or hostile client sends it: ``params`` as given, not typed by lsprotocol."""
    msg_id = str(uuid.uuid4())
    future: Future = Future()
    client.protocol._request_futures[msg_id] = future
    message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    client.protocol._send_data(message)
    return await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT)


def test_a_malformed_request_gets_an_error_not_silence(make_workspace):
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"

    async def scenario():
        client, _ = await started(root)
        try:
            uri = config.as_uri()
            for params in ({"textDocument": {"uri": uri}},                       # no position
                           {"textDocument": {"uri": uri}, "position": {"line": "x", "character": None}},
                           [1, 2], None):
                with pytest.raises(JsonRpcException) as raised:
                    await raw_request(client, "textDocument/hover", params)
                assert raised.value.code == -32602, raised.value
            with pytest.raises(JsonRpcException) as raised:
                await raw_request(client, "textDocument/codeAction", {})
            assert raised.value.code == -32602 and "textDocument" in raised.value.message
            # and a well-formed request still gets its result afterwards
            assert await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(0, 0))), TIMEOUT) is None
        finally:
            await client.shutdown_session()

    asyncio.run(scenario())


# -- framing: raw bytes over stdio -----------------------------------------------------------------


def frame(body: bytes | dict) -> bytes:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


INITIALIZE = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
GOODBYE = frame({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"})


def talk(data: bytes, tmp_path: Path, timeout: float = 60) -> tuple[int, list[dict], str, float]:
    """``data`` written to `osmosis lsp` (then stdin closed): exit code, the JSON bodies it sent, stderr, peak MB."""
    stdin = tmp_path / "stdin.bin"
    stdin.write_bytes(data)
    with stdin.open("rb") as source:
        process = subprocess.Popen(SERVER, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        peak = 0.0
        deadline = time.monotonic() + timeout
        while process.poll() is None and time.monotonic() < deadline:
            try:
                peak = max(peak, peak_mb(process.pid))
            except (OSError, AssertionError):
                pass
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
            raise AssertionError(f"osmosis lsp still running after {timeout} s")
        out, err = process.stdout.read(), process.stderr.read().decode()
    bodies = [json.loads(part.split(b"Content-Length")[0]) for part in out.split(b"\r\n\r\n")[1:]]
    return process.returncode, bodies, err, peak


@pytest.mark.parametrize("header", [b"Content-Length: 99999999999999\r\n", b"Content-Length: " + b"9" * 5000 + b"\r\n",
                                    b"X-Padding: " + b"x" * 100_000 + b"\r\n"], ids=["absurd-length", "5000-digits", "endless-header"])
def test_a_frame_no_editor_sends_ends_the_server_with_one_line_and_exit_2(tmp_path, header):
    code, bodies, err, peak = talk(INITIALIZE + header + b"\r\n{}" + GOODBYE, tmp_path)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "not LSP framing" in lines[0], err
    assert "Traceback" not in err and "MemoryError" not in err
    assert [b.get("id") for b in bodies] == [1]  # initialize answered before, nothing after
    assert peak < 200, peak


def test_a_large_frame_is_skipped_in_chunks_and_the_server_goes_on(tmp_path):
    from osmosis_workspace.lsp.wire import MAX_MESSAGE

    text = "x" * (MAX_MESSAGE + 1024)
    did_open = frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": (tmp_path / "big.jsonl").as_uri(), "languageId": "jsonl", "version": 1, "text": text}}})
    hover = frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": (tmp_path / "x.toml").as_uri()}, "position": {"line": 0, "character": 0}}})
    code, bodies, err, peak = talk(INITIALIZE + did_open + hover + GOODBYE, tmp_path)
    assert code == 0, err
    answered = {b["id"]: b for b in bodies if "id" in b}
    assert set(answered) == {1, 2, 99} and answered[2]["result"] is None
    shown = [b["params"]["message"] for b in bodies if b.get("method") == "window/showMessage"]
    assert len(shown) == 1 and "skipped" in shown[0], shown
    assert "skipped a message of 64 MB" in err and "Traceback" not in err
    assert peak < 150, peak  # the body was never held whole


def test_bodies_that_are_not_json_rpc_get_errors_over_stdio(tmp_path):
    data = (INITIALIZE + frame(b"{not json") + frame(b"[" * 100_000)
            + frame({"id": 3, "method": "textDocument/hover", "params": {}})             # no "jsonrpc": "2.0"
            + frame({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover"})        # no params at all
            + GOODBYE)
    code, bodies, err, _ = talk(data, tmp_path)
    assert code == 0, err
    errors = [(b.get("id"), b["error"]["code"]) for b in bodies if "error" in b]
    assert errors == [(None, -32700), (None, -32700), (3, -32600), (4, -32602)], bodies
    assert "Traceback" not in err and all(len(line) < 300 for line in err.splitlines())


def test_an_entrypoint_buffer_over_the_cap_is_not_parsed(make_workspace):
    """The entrypoint checks read open buffers through their own resolver (readers/pyast.py): the same cap."""
    root = make_workspace()
    main = root / "rollouts" / "multiply" / "main.py"
    big = main.read_text() + "".join(f"x{i} = {i}\n" for i in range(330_000))

    async def scenario():
        client, _ = await started(root)
        counting(client)
        try:
            uri = open_doc(client, main, big, language="python")
            found = await diagnostics_for(client, uri)
            return [(d.code, d.message) for d in found], peak_mb(client._server.pid)
        finally:
            await client.shutdown_session()

    found, peak = asyncio.run(scenario())
    assert any(f"larger than {MAX_TEXT_BYTES} bytes, so it was not read" in message for _, message in found), found
    assert peak < 200, peak


def test_a_request_after_shutdown_gets_an_error(tmp_path):
    hover = {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": (tmp_path / "x.toml").as_uri()}, "position": {"line": 0, "character": 0}}}
    data = (INITIALIZE + frame({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}) + frame(hover)
            + frame({"jsonrpc": "2.0", "method": "exit"}))
    code, bodies, err, _ = talk(data, tmp_path)
    answered = {b["id"]: b for b in bodies if "id" in b}
    assert set(answered) == {1, 4, 5}, bodies
    assert answered[5]["error"]["code"] == -32600 and "shutting down" in answered[5]["error"]["message"]


def test_a_message_of_a_million_values_is_skipped_not_built(tmp_path):
    """Attack round: a 57 MB body of `{},{},...` is under the 64 MB cap, and building its values took
    1.5 GB; it is skipped like an oversized one (the server goes on, memory stays low)."""
    flood = b'{"jsonrpc":"2.0","method":"$/anything","params":[' + b"{}," * 20_000_000 + b"{}]}"
    hover = frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": (tmp_path / "x.toml").as_uri()}, "position": {"line": 0, "character": 0}}})
    code, bodies, err, peak = talk(INITIALIZE + frame(flood) + hover + GOODBYE, tmp_path)
    assert code == 0, err
    assert {b["id"] for b in bodies if "id" in b} == {1, 2, 99}
    shown = [b["params"]["message"] for b in bodies if b.get("method") == "window/showMessage"]
    assert len(shown) == 1 and "skipped" in shown[0] and "JSON values" in shown[0], shown
    assert "Traceback" not in err
    assert peak < 500, peak


def test_a_large_text_buffer_with_many_commas_is_still_read():
    from osmosis_workspace.lsp.wire import MAX_VALUES, Frames

    import io

    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///x.csv", "languageId": "csv", "version": 1, "text": 'a,"b",\\c\n' * (MAX_VALUES // 2)}}}).encode()
    assert Frames(io.BytesIO(body)).read(len(body)) == body
