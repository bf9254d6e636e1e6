"""`osmosis lsp`: doctor's findings in the editor, over stdio (pygls).

On open, save and close the whole workspace holding the document is checked, with every open buffer laid
over its file (`session.Session`), and diagnostics are published for each file with findings (and
cleared for files that had some before). Edits are checked too, once typing pauses for a moment.
Hover over a finding explains its rule; a safe fix is offered as a quick fix.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from osmosis_workspace import __version__
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.lsp import convert, wire
from osmosis_workspace.lsp.session import Checked, Session, path_uri, uri_path

SETTLE = 0.4  # seconds of no typing before an edited buffer is checked


class OsmosisServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("osmosis", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full,
                         protocol_cls=wire.Protocol)
        self.session = Session()
        self.sent: dict[Path, dict[str, tuple[list, str]]] = {}  # root -> uri -> (findings, text) last published
        self.shown: dict[str, list[tuple[types.Diagnostic, str]]] = {}  # uri -> (diagnostic, code)
        self.pending: dict[str, asyncio.Task] = {}

    async def recheck(self, uri: str) -> None:
        root = self.session.root_of(uri)
        if root is None:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
            for spelt in spellings(uri):  # cleared here: a workspace's next run sends them again
                self.shown.pop(spelt, None)
                for sent in self.sent.values():
                    sent.pop(spelt, None)
            return
        try:
            checked = await asyncio.to_thread(self.session.check, root)
        except Exception as err:  # noqa: BLE001  one line in the editor, never a dead server
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Error, f"osmosis: checking {root} failed: {type(err).__name__}: {err}"))
            return
        self.publish(checked, uri)
        if self.session.needs_priming(root):
            # answered from doctor's cache: a full run now gives the memory the next edit run needs
            asyncio.ensure_future(self.recheck(uri))

    def publish(self, checked: Checked, asked: str | None = None) -> None:
        """Each file's diagnostics that differ from what the editor was last sent, the file ``asked`` about
        always: at 2,000 rollouts an edit run's findings are in thousands of files, and converting and
        sending each of them again cost about as much as the run."""
        last = self.sent.get(checked.root, {})
        asked_as = spellings(asked) if asked is not None else ()  # the editor's spelling of the URI may not be ours
        sent: dict[str, tuple[list, str]] = {}
        now: dict[str, list[tuple[types.Diagnostic, str]]] = {}
        for path, found in checked.by_file.items():
            uri, text = path_uri(path), checked.texts.get(path, "")
            sent[uri] = (found, text)
            before = last.get(uri)
            if uri not in asked_as and before is not None and before[0] == found and before[1] == text:
                continue  # the editor shows these already (positions depend on the text too)
            now[uri] = [(convert.diagnostic(d, text), d.code) for d in found]
        for uri, (found, _) in last.items():
            if found and uri not in sent:
                now[uri] = []  # fixed since: clear what the editor still shows
        for uri, pairs in now.items():
            self.shown[uri] = pairs
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[d for d, _ in pairs]))
        self.sent[checked.root] = sent

    def report_server_error(self, error: Exception, source) -> None:
        if isinstance(self.protocol, wire.Protocol) and self.protocol.parse_failed(error):
            return  # answered with a ParseError: no pop-up for what the client sent wrong
        super().report_server_error(error, source)

    def settle_then_check(self, uri: str) -> None:
        if (task := self.pending.pop(uri, None)) is not None:
            task.cancel()

        async def later() -> None:
            await asyncio.sleep(SETTLE)
            self.pending.pop(uri, None)
            await self.recheck(uri)

        self.pending[uri] = asyncio.ensure_future(later())


def spellings(uri: str) -> tuple[str, ...]:
    """``uri`` and how the server spells the file it names (path_uri: its folder's real path, escapes as Python
    writes them), which an editor may not: Neovim leaves `(` unescaped, VS Code writes `c%3A` for `C:`."""
    if (path := uri_path(uri)) is None:
        return (uri,)
    try:
        return tuple(dict.fromkeys((uri, path_uri(path), path_uri(Path(os.path.realpath(path.parent)) / path.name))))
    except (OSError, ValueError):  # a NUL byte (%00) in the path: no file of ours
        return (uri,)


def _shown(ls: OsmosisServer, uri: str) -> list[tuple[types.Diagnostic, str]]:
    """What was last published for the file ``uri`` names, however the editor spells it."""
    return next((ls.shown[spelt] for spelt in spellings(uri) if spelt in ls.shown), [])


server = OsmosisServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: OsmosisServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.session.buffers[params.text_document.uri] = params.text_document.text
    ls.session.disk_changed()
    await ls.recheck(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: OsmosisServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.session.buffers[uri] = ls.workspace.get_text_document(uri).source
    ls.settle_then_check(uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: OsmosisServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if params.text is not None:
        ls.session.buffers[uri] = params.text
    ls.session.disk_changed()
    await ls.recheck(uri)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(ls: OsmosisServer, params: types.DidChangeWatchedFilesParams) -> None:
    """Files changed outside the editor (a checkout, a terminal): each open workspace gets a full run."""
    ls.session.disk_changed()
    roots = {}
    for uri in list(ls.session.buffers):
        if (root := ls.session.root_of(uri)) is not None:
            roots.setdefault(root, uri)
    for uri in roots.values():
        await ls.recheck(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: OsmosisServer, params: types.DidCloseTextDocumentParams) -> None:
    """The buffer is gone, saved or not: its workspace is checked again from the files (a full run), so
    the findings of text thrown away go, and the file's own stay."""
    uri = params.text_document.uri
    if (task := ls.pending.pop(uri, None)) is not None:
        task.cancel()   # an edit run of the closed text would publish its findings again
    ls.session.buffers.pop(uri, None)
    ls.session.disk_changed()
    await ls.recheck(uri)


@server.feature(wire.SKIPPED)
def skipped(ls: OsmosisServer, params) -> None:
    size = getattr(params, "bytes", None) or 0
    ls.window_show_message(types.ShowMessageParams(
        types.MessageType.Warning,
        f"osmosis: a message of {size // (1024 * 1024)} MB from the editor was skipped (over the "
        f"{wire.MAX_MESSAGE // (1024 * 1024)} MB or {wire.MAX_VALUES:,} JSON values a message may have); a document that large is not checked"))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: OsmosisServer, params: types.HoverParams) -> types.Hover | None:
    from osmosis_workspace.check.registry import RULES

    codes = [code for d, code in _shown(ls, params.text_document.uri) if convert.contains(d.range, params.position)]
    rules = [RULES[c] for c in dict.fromkeys(codes) if c in RULES]
    if not rules:
        return None
    text = "\n\n---\n\n".join(convert.hover_text(r) for r in rules)
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: OsmosisServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from osmosis_workspace.check.registry import RULES

    uri = params.text_document.uri
    root = ls.session.root_of(uri)
    if root is None or ls.session.is_dirty(uri):
        return []  # fixes are worked out from the files: on an unsaved buffer they could undo its edits
    spelt = spellings(uri)
    here = [(d, code) for d, code in _shown(ls, uri) if convert.overlaps(d.range, params.range)]
    versions = {u: doc.version for u, doc in ls.workspace.text_documents.items() if doc.version is not None}
    actions = []
    for code in dict.fromkeys(code for _, code in here):
        if code not in RULES or RULES[code].fixability != "safe":
            continue
        fixes = ls.session.fixes(root, code)
        mine = [f for f in fixes if path_uri(root / f.rel) in spelt]
        edit = convert.workspace_edit(root, mine or fixes, ls.session.buffers, versions)
        if edit is None:
            continue
        what = "; ".join(f.what for f in (mine or fixes) if f.what)
        actions.append(types.CodeAction(
            title=f"osmosis: fix {code} ({what})", kind=types.CodeActionKind.QuickFix,
            diagnostics=[d for d, c in here if c == code], is_preferred=True, edit=edit))
    return actions


class _OneLine(logging.Formatter):
    """pygls logs what it cannot handle (a malformed message) with its traceback: one line is enough."""

    def formatException(self, ei) -> str:  # noqa: N802  (logging's name)
        return ""

    def format(self, record: logging.LogRecord) -> str:
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        # pygls puts a formatted traceback into some messages themselves: the first line says it
        record.msg, record.args = record.getMessage().split("\n", 1)[0], None
        return super().format(record).replace("\n", " ")


def serve() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("osmosis lsp: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    try:
        server.start_io(stdin=wire.Frames(sys.stdin.buffer))
    except wire.FrameRefused as err:
        raise UserError(str(err)) from None
    finally:
        sys.stdout = open(os.devnull, "w")  # pygls closed the real one on exit; the CLI's last flush must not fail
