"""`osmosis lsp` driven by a real LSP client (pytest-lsp's, built on pygls) over stdio: the server runs
as its own process, exactly as an editor starts it, and every exchange is JSON-RPC on its pipes.

The first test records its exchange (one config with one error); with OSMOSIS_LSP_TRANSCRIPT=FILE
set it is written there as JSON (docs/editor.md shows it)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, make_test_lsp_client

SERVER = [sys.executable, "-m", "osmosis_workspace", "lsp"]
TIMEOUT = 60


def recorded(client: LanguageClient) -> list[dict]:
    """Every JSON-RPC message the client sends and receives, in order, as it went over the pipe."""
    log: list[dict] = []
    protocol = client.protocol
    send, structure = protocol._send_data, protocol.structure_message

    def sending(data):
        log.append({"client -> server": json.loads(json.dumps(data, default=protocol._serialize_message))})
        return send(data)

    def receiving(data):
        if isinstance(data, dict) and "jsonrpc" in data:
            log.append({"server -> client": json.loads(json.dumps(data))})
        return structure(data)

    protocol._send_data, protocol.structure_message = sending, receiving
    return log


async def started(root: Path, log: bool = False, server: list[str] = SERVER, **spawn) -> tuple[LanguageClient, list[dict]]:
    """A client talking to ``server`` (a command; ``spawn``: its env/cwd), initialised on ``root``."""
    client = make_test_lsp_client()
    messages = recorded(client) if log else []
    await client.start_io(*map(str, server), **spawn)
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]))
    return client, messages


async def diagnostics_for(client: LanguageClient, uri: str, published_before: int = 0) -> list[types.Diagnostic]:
    """The diagnostics of ``uri`` once the server has published them more than ``published_before`` times."""
    async def wait() -> list[types.Diagnostic]:
        while client.published.count(uri) <= published_before:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), TIMEOUT)


def counting(client: LanguageClient) -> None:
    """client.published: the URI of every publishDiagnostics, in order."""
    client.published = []
    handler = client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(params):
        client.published.append(params.uri)
        return handler(params)

    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish


def open_doc(client: LanguageClient, path: Path, text: str, language: str = "toml", version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)))
    return uri


def test_unsaved_config_error_hover_and_clear_on_save(make_workspace, tmp_path):
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    saved = config.read_text()
    broken = saved.replace("[experiment]\n", "[experiment]\nlearning_rat = 0.1\n", 1)
    assert broken != saved

    async def scenario():
        client, log = await started(root, log=True)
        counting(client)
        try:
            uri = open_doc(client, config, broken)  # only in the buffer: the file on disk is fine
            found = await diagnostics_for(client, uri)
            assert [(d.code, d.severity, d.source) for d in found] == [("CFG003", types.DiagnosticSeverity.Error, "osmosis")]
            line = broken.splitlines().index("learning_rat = 0.1")
            assert found[0].range.start.line == line and "learning_rat" in found[0].message

            hover = await client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(line, 3)))
            assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
            assert "**CFG003** `config-unknown-key` (error)" in hover.contents.value and "**Why:**" in hover.contents.value
            nothing = await client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(0, 0)))
            assert nothing is None

            client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri), text=saved))
            assert await diagnostics_for(client, uri, published_before=1) == []  # the saved text is fine: cleared
        finally:
            await client.shutdown_session()
        return log

    log = asyncio.run(scenario())
    methods = [next(iter(m.values())).get("method") for m in log]
    assert methods[0] == "initialize" and "textDocument/publishDiagnostics" in methods and methods[-1] == "exit"
    if target := os.environ.get("OSMOSIS_LSP_TRANSCRIPT"):
        Path(target).write_text(json.dumps(log, indent=1) + "\n")


def test_quick_fix_for_a_safe_rule_only_and_findings_of_every_file_kind(make_workspace):
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    lines = config.read_text().split("\n")
    assert lines[0].startswith("#:schema ")
    config.write_text("\n".join(lines[1:]))  # CFG022 (safe fix): the directive gone
    (root / "CLAUDE.md").write_text("# Notes\n")  # LAY008: an unsafe fix, never offered
    main = root / "rollouts" / "multiply" / "main.py"
    dataset = root / "data" / "multiply.jsonl"
    dataset.write_text(dataset.read_text() + "{not json\n")
    skill = next((root / ".agents" / "skills").iterdir()) / "SKILL.md"
    skill.write_text(skill.read_text().replace("\nname:", "\nnmae:", 1))
    subprocess.run(["git", "commit", "-qam", "broken on purpose"], cwd=root, check=True)  # no GIT001 in the way

    async def scenario():
        client, _ = await started(root)
        counting(client)
        try:
            uri = open_doc(client, config, config.read_text())
            found = await diagnostics_for(client, uri)
            assert [d.code for d in found] == ["CFG022"]
            actions = await client.text_document_code_action_async(types.CodeActionParams(
                types.TextDocumentIdentifier(uri), found[0].range, types.CodeActionContext(diagnostics=found)))
            assert len(actions) == 1 and actions[0].kind == types.CodeActionKind.QuickFix
            edits = actions[0].edit.document_changes
            assert len(edits) == 1 and edits[0].text_document.uri == uri
            (edit,) = edits[0].edits
            assert (edit.range.start.line, edit.range.start.character, edit.range.end.line, edit.range.end.character) == (0, 0, 0, 0)
            assert edit.new_text == lines[0] + "\n"  # the directive back, nothing else touched

            # every other file with findings has them published too, from the same run
            for path, code in ((root / "CLAUDE.md", "LAY008"), (dataset, "DAT004"), (skill, "SKL")):
                published = await diagnostics_for(client, path.as_uri())
                assert any(d.code.startswith(code) for d in published), (path, published)
            claude = root.joinpath("CLAUDE.md").as_uri()
            pointer = await diagnostics_for(client, claude)
            assert await client.text_document_code_action_async(types.CodeActionParams(
                types.TextDocumentIdentifier(claude), pointer[0].range, types.CodeActionContext(diagnostics=pointer))) in ([], (), None)

            # an entrypoint's unsaved text is what is checked
            text = main.read_text() + "\ndef broken(:\n"
            main_uri = open_doc(client, main, text, language="python")
            (syntax,) = await diagnostics_for(client, main_uri)
            assert syntax.code == "ENT002" and syntax.range.start.line == len(text.splitlines()) - 1

            # typing (a full-text change, no save) is checked once it pauses
            before = client.published.count(uri)
            typed = config.read_text().replace("[secrets]\n", "[secrets]\nrequird = []\n", 1)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [types.TextDocumentContentChangeWholeDocument(text=typed)]))
            assert "CFG003" in [d.code for d in await diagnostics_for(client, uri, published_before=before)]
        finally:
            await client.shutdown_session()

    asyncio.run(scenario())


def test_lsp_without_pygls_says_how_to_install_it():
    """pygls is installed here, so its absence is simulated: the import system is told it has none."""
    code = "import sys; sys.modules['pygls'] = None; sys.argv = ['osmosis', 'lsp']; from osmosis_workspace.entry import main; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: `osmosis lsp` needs pygls: pip install 'osmosis-workspace[lsp]' "
        "(or add pygls>=2 and lsprotocol to the same environment)"]


def test_an_edit_is_checked_from_memory_and_a_watched_change_on_disk_from_the_files(make_workspace):
    """Over the wire: typing is answered by an edit run (check/live.py), and a file changed on disk
    that the editor reports (workspace/didChangeWatchedFiles) gets a full run that sees it."""
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    saved = config.read_text()
    main = root / "rollouts" / "multiply" / "main.py"

    async def scenario():
        client, _ = await started(root)
        counting(client)
        try:
            uri = open_doc(client, config, saved.replace('rollout = "multiply"', 'rollout = "multiplx"'))
            assert [d.code for d in await diagnostics_for(client, uri)] == ["CFG016"]
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [types.TextDocumentContentChangeWholeDocument(text=saved.replace('rollout = "multiply"', 'rollout = "multiplz"'))]))
            found = await diagnostics_for(client, uri, published_before=1)
            assert [d.code for d in found] == ["CFG016"] and "multiplz" in found[0].message
            main.write_text("import osmosis_ai.no_such_module\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
            client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
                [types.FileEvent(uri=main.as_uri(), type=types.FileChangeType.Changed)]))
            assert any(d.code.startswith("ENT") for d in await diagnostics_for(client, main.as_uri()))
        finally:
            await client.shutdown_session()

    asyncio.run(scenario())


def _doctor_no_cache(root: Path) -> set[tuple[str, str, int]]:
    """(path, code, line) of every finding in a file, from a fresh `osmosis doctor --no-cache` process."""
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "doctor", "--no-cache", "--format", "json", str(root)],
                          capture_output=True, text=True, timeout=TIMEOUT * 4)
    assert done.returncode in (0, 1), done.stderr
    # (a finding without a line is shown on the file's first line)
    return {(d["path"], d["code"], d["line"] or 1) for d in json.loads(done.stdout)["diagnostics"]
            if d["path"] is not None and (root / d["path"]).is_file()}


def _shown(client: LanguageClient, root: Path) -> set[tuple[str, str, int]]:
    """What the editor shows now: the last diagnostics published for each file."""
    return {(Path(uri.removeprefix("file://")).relative_to(root).as_posix(), d.code, d.range.start.line + 1)
            for uri, found in client.diagnostics.items() for d in found}


def test_closing_an_edited_buffer_without_saving_shows_the_files_findings_again(make_workspace):
    """Open, edit, close (never saved) over stdio: the findings of the text thrown away go, and what the
    editor shows equals a fresh `doctor --no-cache` of the files (docs/editor.md: a close is a full run)."""
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    saved = config.read_text()
    # the file on disk has a finding of its own, which must come back on close
    on_disk = saved.replace("[experiment]\n", "[experiment]\nlearning_rat = 0.1\n", 1)
    config.write_text(on_disk, encoding="utf-8")
    expected = _doctor_no_cache(root)
    assert ("configs/eval/multiply.toml", "CFG003", on_disk.splitlines().index("learning_rat = 0.1") + 1) in expected

    async def scenario():
        client, _ = await started(root)
        counting(client)
        try:
            uri = open_doc(client, config, on_disk)
            # (GIT001 too: the change on disk is not committed)
            assert [d.code for d in await diagnostics_for(client, uri) if d.code.startswith("CFG")] == ["CFG003"]
            edited = saved.replace('rollout = "multiply"', 'rollout = "multiplz"')
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=2), [types.TextDocumentContentChangeWholeDocument(text=edited)]))
            assert [d.code for d in await diagnostics_for(client, uri, published_before=1) if d.code.startswith("CFG")] == ["CFG016"]
            assert config.read_text(encoding="utf-8") == on_disk   # never saved
            before = client.published.count(uri)
            client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
            found = await diagnostics_for(client, uri, published_before=before)
            assert [d.code for d in found if d.code.startswith("CFG")] == ["CFG003"]
            await asyncio.sleep(1.0)   # past the settle delay: nothing of the closed text comes back
            assert [d.code for d in client.diagnostics[uri] if d.code.startswith("CFG")] == ["CFG003"]
            return _shown(client, root)
        finally:
            await client.shutdown_session()

    assert asyncio.run(scenario()) == expected


def test_an_edit_sends_again_only_the_diagnostics_that_changed(make_workspace, tmp_path):
    """At 2,000 rollouts an edit run's findings are in thousands of files: the server sends a file's
    diagnostics when they (or its text) changed, and the edited file's always; a file whose findings
    went is cleared."""
    root = make_workspace()
    (root / "CLAUDE.md").write_text("# Notes\n")  # LAY008, in a file nobody edits
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "notes"], cwd=root, check=True)
    config = root / "configs" / "eval" / "multiply.toml"
    saved = config.read_text()
    broken = saved.replace("[experiment]\n", "[experiment]\nlearning_rat = 0.1\n", 1)
    claude = (root / "CLAUDE.md").as_uri()
    env = {**os.environ, "OSMOSIS_DOCTOR_CACHE": str(tmp_path / "doctor-cache")}  # cold: no priming run

    async def scenario():
        client, _ = await started(root, env=env)
        counting(client)
        try:
            uri = open_doc(client, config, broken)  # a file without findings is not sent: this one has one
            assert [d.code for d in await diagnostics_for(client, uri)] == ["CFG003"]
            assert any(d.code == "LAY008" for d in await diagnostics_for(client, claude))
            sent = client.published.count(claude)
            for version, text in enumerate((saved, broken, saved), start=2):
                before = client.published.count(uri)
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    [types.TextDocumentContentChangeWholeDocument(text=text)]))
                found = await diagnostics_for(client, uri, published_before=before)
                assert ("CFG003" in [d.code for d in found]) == (text is broken)
            assert client.published.count(claude) == sent  # unchanged: not sent again
            assert any(d.code == "LAY008" for d in client.diagnostics[claude])  # and still shown
            (root / "CLAUDE.md").unlink()
            client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
                [types.FileEvent(uri=claude, type=types.FileChangeType.Deleted)]))
            assert await diagnostics_for(client, claude, published_before=sent) == []
        finally:
            await client.shutdown_session()

    asyncio.run(scenario())
