"""`osmosis lsp`, the language server (docs/editor.md): `session` (open buffers, doctor over an
overlaid snapshot; no LSP library), `convert` (findings, rules and fixes as lsprotocol types),
`wire` (stdin's frames bounded, an answer for every request) and `server` (pygls wiring). The only wing that imports pygls or lsprotocol; only `cli/lsp.py` imports it,
so doctor and validate never load them."""
