"""A buffer open under a link's own name (configs/eval/linked.toml -> multiply.toml): the editor's findings are
the ones `osmosis doctor --no-cache` gives once the buffer is saved (the save writes the target, and doctor reads
the config through the link's name too), in the first run and in the edit runs after it."""

from __future__ import annotations

import subprocess
import sys

from osmosis_workspace.lsp.session import Session, path_uri


def _doctor_no_cache(ws) -> list[tuple]:
    import json

    out = subprocess.run([sys.executable, "-m", "osmosis_workspace", "doctor", str(ws), "--no-cache", "-f", "json"],
                         capture_output=True, text=True, check=False).stdout
    return sorted((d["path"], d["code"], d["line"], d["message"]) for d in json.loads(out)["diagnostics"]
                  if d["path"] and (ws / d["path"]).is_file() and not d["code"].startswith("GIT"))


def _shown(checked, ws) -> list[tuple]:
    return sorted((str(path.relative_to(ws)), d.code, d.line, d.message) for path, found in checked.by_file.items() for d in found
                  if not d.code.startswith("GIT"))  # git's answer is the files' (a save changes what is uncommitted)


def test_a_buffer_open_under_a_links_name_is_what_the_checks_read_through_it(make_workspace, monkeypatch, tmp_path):
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace()
    target = ws / "configs" / "eval" / "multiply.toml"
    link = ws / "configs" / "eval" / "linked.toml"
    link.symlink_to("multiply.toml")
    original = target.read_text(encoding="utf-8")
    session = Session()
    for rollout in ("multiplx", "multiplz", "multiply"):  # a full run, then edit runs
        text = original.replace('rollout = "multiply"', f'rollout = "{rollout}"')
        session.buffers[path_uri(link)] = text
        shown = _shown(session.check(ws), ws)
        target.write_text(text, encoding="utf-8")  # saved: through the link, the target
        assert shown == _doctor_no_cache(ws), rollout
        target.write_text(original, encoding="utf-8")
        if rollout != "multiply":
            assert any(path == "configs/eval/linked.toml" and code == "CFG016" for path, code, _, _ in shown)
    assert session.live[ws].edit_runs == 2
