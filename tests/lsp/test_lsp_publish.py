"""What the language server sends (lsp/server.py publish): a file's diagnostics go again only when they or its
text changed, the file the event was about always (docs/editor.md). Driven in process on the server object,
its publishDiagnostics recorded, on a real workspace."""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.workspace import Workspace

from osmosis_workspace.lsp.server import OsmosisServer, code_action, hover
from osmosis_workspace.lsp.session import path_uri


def recording() -> tuple[OsmosisServer, list[tuple[str, list[str]]], dict[str, list[str]]]:
    """A server whose sends are recorded: (server, every (uri, codes) sent, what the editor shows per uri)."""
    server, sent, shown = OsmosisServer(), [], {}

    def publish(params: types.PublishDiagnosticsParams) -> None:
        sent.append((params.uri, [d.code for d in params.diagnostics]))
        shown[params.uri] = [d.code for d in params.diagnostics]

    server.text_document_publish_diagnostics = publish
    return server, sent, shown


def misnamed(ws):
    """multiply's eval config naming a rollout with no folder (CFG016), on disk."""
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('rollout = "multiply"', 'rollout = "multiplx"'), encoding="utf-8")
    return config


def test_a_file_cleared_while_outside_any_workspace_gets_its_findings_when_the_workspace_is_back(make_workspace, monkeypatch, tmp_path):
    """A buffer checked while its folder is gone (a branch switched, a folder moved) is sent an empty list;
    when the folder is back, the workspace's next run sends the file's findings again, though they are what
    the server had sent before the empty list (it kept them as sent: the editor showed nothing, doctor CFG016)."""
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace()
    config = misnamed(ws)
    server, _, shown = recording()
    uri, other = path_uri(config), path_uri(ws / "pyproject.toml")
    server.session.buffers[other] = (ws / "pyproject.toml").read_text(encoding="utf-8")
    server.session.buffers[uri] = config.read_text(encoding="utf-8")

    async def steps() -> None:
        await server.recheck(uri)
        assert "CFG016" in shown[uri]
        (ws / "configs").rename(ws / "configs.away")
        server.session.disk_changed()
        await server.recheck(uri)  # no workspace holds it now
        assert shown[uri] == []
        (ws / "configs.away").rename(ws / "configs")
        server.session.disk_changed()
        await server.recheck(other)  # a watched-files change: one run of the workspace, about another buffer
        assert "CFG016" in shown[uri]

    asyncio.run(steps())


def test_the_file_asked_about_is_sent_again_however_the_editor_spells_its_uri(make_workspace, monkeypatch, tmp_path):
    """Neovim leaves `(` and `)` unescaped in a file URI, where Python writes %28 and %29: the file a save was
    about gets its diagnostics again (it got none: its URI was compared as a string with the server's), and
    hover finds the finding's rule under the editor's spelling."""
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace().rename(tmp_path / "demo(1)")
    config = misnamed(ws)
    uri = "file://" + str(config)
    assert uri != path_uri(config)
    server, sent, _ = recording()
    server.session.buffers[uri] = config.read_text(encoding="utf-8")

    async def saved() -> None:
        server.session.disk_changed()
        await server.recheck(uri)

    asyncio.run(saved())
    assert any(u == path_uri(config) and "CFG016" in codes for u, codes in sent), sent
    sent.clear()
    asyncio.run(saved())
    assert any(u == path_uri(config) and "CFG016" in codes for u, codes in sent), sent
    line = next(i for i, text in enumerate(config.read_text(encoding="utf-8").splitlines()) if text.startswith("rollout"))
    found = hover(server, types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, 12)))
    assert found is not None and "CFG016" in found.contents.value


def test_a_quick_fix_is_offered_however_the_editor_spells_the_uri(make_workspace, monkeypatch, tmp_path):
    """The safe fix of CFG022 (the `#:schema` line gone) offered under the editor's spelling of the URI (none was:
    the diagnostics were looked up by the editor's string, and the fix's file compared with it)."""
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace().rename(tmp_path / "demo(1)")
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    uri = "file://" + str(config)
    server, sent, _ = recording()
    server.protocol._workspace = Workspace(ws.as_uri())  # what initialize sets up
    server.session.buffers[uri] = config.read_text(encoding="utf-8")
    asyncio.run(server.recheck(uri))
    assert any("CFG022" in codes for _, codes in sent), sent
    actions = code_action(server, types.CodeActionParams(types.TextDocumentIdentifier(uri), types.Range(
        types.Position(0, 0), types.Position(0, 1)), types.CodeActionContext(diagnostics=[])))
    assert [a.title.split(" (")[0] for a in actions] == ["osmosis: fix CFG022"]
    (change,) = actions[0].edit.document_changes
    assert change.text_document.uri == path_uri(config)


def test_hover_over_a_uri_naming_no_possible_file_is_no_error():
    """A URI with a NUL byte (%00) names no file: hover answers nothing (the spelling of its path is not asked)."""
    server, _, _ = recording()
    assert hover(server, types.HoverParams(types.TextDocumentIdentifier("file:///tmp/a%00b/c.toml"), types.Position(0, 0))) is None


def test_a_uri_naming_no_possible_file_is_in_no_workspace():
    """An event about a URI with a NUL byte in a folder is answered with an empty list (finding its workspace raised
    ValueError out of the handler)."""
    server, sent, _ = recording()
    asyncio.run(server.recheck("file:///tmp/a%00b/c.toml"))
    assert sent == [("file:///tmp/a%00b/c.toml", [])]


def test_a_workspace_opened_through_a_link_gets_its_diagnostics_under_the_editors_paths(make_workspace, monkeypatch, tmp_path):
    """A workspace the editor opened through a link (a home folder on another disk, macOS's /tmp): the findings
    are published under the paths the editor has open, not the link's target (it showed none on the open file,
    and listed the target's path as another file); a second spelling of the same root takes over, clearing the first."""
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace()
    config = misnamed(ws)
    link = tmp_path / "through-a-link"
    link.symlink_to(ws, target_is_directory=True)
    uri = path_uri(link / "configs" / "eval" / "multiply.toml")
    server, sent, shown = recording()
    server.session.buffers[uri] = config.read_text(encoding="utf-8")
    asyncio.run(server.recheck(uri))
    assert "CFG016" in shown.get(uri, []), sent
    assert not any(u.startswith(path_uri(ws) + "/") for u, _ in sent), sent
    line = next(i for i, text in enumerate(config.read_text(encoding="utf-8").splitlines()) if text.startswith("rollout"))
    found = hover(server, types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, 12)))
    assert found is not None and "CFG016" in found.contents.value
    # the same workspace opened under its own path: published there, and cleared under the link
    real = path_uri(config)
    del server.session.buffers[uri]
    server.session.buffers[real] = config.read_text(encoding="utf-8")
    server.session.disk_changed()
    asyncio.run(server.recheck(real))
    assert "CFG016" in shown.get(real, []) and shown[uri] == [], sent
