"""safe_git empties the filter drivers a repository's own config defines, found by one config probe per
repository and kept in memory. A long-lived process (the language server) must probe again on its next
run: a driver the config gained since (a received archive unpacked over the workspace while the editor is
open) would otherwise run on the next `git status`, which hashes a file whose timestamp changed."""

from __future__ import annotations

import os
import time

from osmosis_workspace.core import safe_git
from osmosis_workspace.lsp.session import Session, path_uri


def test_a_filter_driver_added_between_two_editor_runs_never_runs(make_workspace, monkeypatch, tmp_path):
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    safe_git._FILTER_CACHE.clear()
    ws = make_workspace()
    main = ws / "rollouts" / "multiply" / "main.py"
    session = Session()
    session.buffers[path_uri(main)] = main.read_text(encoding="utf-8")
    session.check(ws)  # the first run probes the config: no driver then
    marker = tmp_path / "PWNED"
    with open(ws / ".git" / "config", "a", encoding="utf-8") as f:
        f.write(f'[filter "evil"]\n\tclean = touch {marker}; cat\n')
    (ws / ".gitattributes").write_text("*.py filter=evil\n", encoding="utf-8")
    later = time.time() + 5
    os.utime(main, (later, later))  # same size, newer: `git status` hashes it through its clean filter
    session.disk_changed()
    session.check(ws)
    assert not marker.exists()


def test_one_doctor_run_probes_once_and_the_next_run_again(tmp_path):
    """Within a run the probe is kept (one git process per repository); stop_early, which ends every
    doctor run, forgets it."""
    import subprocess

    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    safe_git._FILTER_CACHE.clear()
    safe_git.run(repo, "status")
    assert safe_git._local_filters(repo, safe_git.clean_env()) == []
    with open(repo / ".git" / "config", "a", encoding="utf-8") as f:
        f.write('[filter "late"]\n\tclean = cat\n')
    assert safe_git._local_filters(repo, safe_git.clean_env()) == []  # the run's probe
    safe_git.stop_early()
    assert safe_git._local_filters(repo, safe_git.clean_env()) == ["late"]
