"""Checks: where the workspace's CI installs this checker from (layout family, LAY120, LAY121).

`osmosis init` records it as `checker_source` in `.copier-answers.yml`, and the generated
`.github/workflows/osmosis.yml` installs from it. Two answers make CI check with something other
than what the user runs: a pinned version other than the running one (a CI verdict that disagrees
with the local one), and a path only this machine has (the first push is red). `pypi` always names
the version that rendered the workflow, which `osmosis update` moves along: nothing to say.
"""

from __future__ import annotations

import re

from osmosis_workspace.check.registry import rule, workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.install_origin import local_path, named_version
from osmosis_workspace.core.workspace import Workspace

FAMILY = "layout"
ANSWERS = ".copier-answers.yml"
_LINE = re.compile(r"^checker_source:[ \t]*(?P<value>.*?)[ \t]*$", re.M)
_HOW = "edit checker_source in .copier-answers.yml, commit, and run `osmosis update` (the workflow follows)"

OTHER_VERSION = rule(
    "LAY120", "checker-source-other-version", FAMILY, "warning",
    summary="`checker_source` pins an osmosis-workspace version other than the one running.",
    why="CI installs the checker from `checker_source`; pinned to another version, it judges the workspace "
        "with other rules than the doctor you run, so a push can fail (or pass) where your run did not.",
    fix="Pin the version you run (`osmosis --version`), or `pypi` for the version that rendered the workflow, "
        "in .copier-answers.yml, commit, and run `osmosis update`.",
    example="checker_source: osmosis-workspace==0.0.9   # osmosis --version says 0.1.0",
    source="ours",
)
LOCAL_PATH = rule(
    "LAY121", "checker-source-local-path", FAMILY, "warning",
    summary="`checker_source` names a path or file: URL on this machine, which CI cannot reach.",
    why="The GitHub runner installs the checker from `checker_source`; a folder or wheel on your disk is not "
        "there, so the workflow's install step fails on every push.",
    fix="Point it at something CI can install: `pypi`, a git URL at a tag or commit "
        "(git+https://github.com/OWNER/osmosis-workspace@COMMIT) or an index (--index-url URL osmosis-workspace==X).",
    example="checker_source: /home/me/dist/osmosis_workspace-0.1.0-py3-none-any.whl",
    source="ours",
)


@workspace_check(FAMILY)
def check_checker_source(ws: Workspace) -> list[Diagnostic]:
    text = ws.read_text(ws.root / ANSWERS)
    found = _LINE.search(text) if text is not None else None
    if found is None:
        return []  # not made by osmosis init, or an older answers file: nothing recorded to judge
    value = found.group("value").strip("'\"")
    line = text.count("\n", 0, found.start()) + 1
    column = found.start("value") - found.start() + 1
    from osmosis_workspace import __version__

    if (path := local_path(value)) is not None:
        return [LOCAL_PATH.at(ANSWERS, f"checker_source names {path}, a path on this machine that CI cannot reach",
                              line=line, column=column, hint=f"use `pypi`, a git URL at a commit or an index instead: {_HOW}")]
    version = named_version(value)
    if version is not None and version != __version__:
        return [OTHER_VERSION.at(ANSWERS, f"checker_source installs osmosis-workspace {version} in CI, "
                                          f"but this is {__version__}", line=line, column=column,
                                 hint=f"pin {__version__} (or `pypi`): {_HOW}")]
    return []
