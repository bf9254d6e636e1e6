"""The README's tree of what `osmosis init` creates is the tree a fresh multiply workspace has: every
entry it names exists, and every file at the top of the workspace, of its .osmosis/ and configs/ and
of the rollout's package is named (a trial found answer.py listed long after it went)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENTRY = re.compile(r"^[│ ]*[├└]── (\S+)")


def _tree() -> tuple[list[str], str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("```\nmy-agent/\n", 1)[1].split("```", 1)[0]
    entries, folder = [], ""
    for line in block.splitlines():
        found = ENTRY.match(line)
        if found:
            name = found.group(1)
            nested = line.startswith("    ")
            entries.append(f"{folder}{name}" if nested else name)
            if not nested and name.endswith("/"):
                folder = name
    return entries, block


def test_every_entry_of_the_readme_tree_exists(make_workspace):
    ws = make_workspace(name="my-agent", git=False)
    entries, block = _tree()
    pattern_entries = [e.replace("<skill>", "*") for e in entries]
    missing = [e for e in pattern_entries if not list(ws.glob(e.rstrip("/")))]
    assert missing == [], missing

    named = set(pattern_entries)
    top = sorted(p.name + ("/" if p.is_dir() else "") for p in ws.iterdir())
    covered = lambda rel: any(Path(rel).match(e.rstrip("/")) or rel.startswith(e) for e in named)  # noqa: E731
    for folder in ("", ".osmosis/", "configs/", "configs/eval/", "configs/training/", "configs/benchmark/"):
        for path in sorted((ws / folder).iterdir()):
            rel = f"{folder}{path.name}"
            if path.name in (".git",) or path.is_dir() and any(e.startswith(rel + "/") for e in named):
                continue
            assert covered(rel), f"{rel} is in a fresh workspace but not in the README's tree ({top})"
    package = next((ws / "rollouts/multiply").glob("*_rollout"))
    modules = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    listed = set(re.findall(r"\b(\w+\.py)\b", block.split(f"{package.name}/", 1)[1].split("pyproject.toml", 1)[0]))
    assert listed == modules, (listed, modules)
