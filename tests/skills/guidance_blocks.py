"""The passages of the bundled guidance that a table of the code owns, written between markers:

    <!-- generated:NAME -->...<!-- /generated -->

NAME is one of BLOCKS; what stands between the markers is BLOCKS[NAME]() and nothing else.
tests/skills/test_guidance_sources.py fails while a passage is stale; to refresh them all after a
table changed (a new probe, a new output format), run from the repository root:

    python tests/skills/guidance_blocks.py
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "generator") not in sys.path:
    sys.path.insert(0, str(REPO / "generator"))

MARKED = re.compile(r"(<!-- generated:([a-z-]+) -->)(.*?)(<!-- /generated -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def probe_names() -> str:
    from osmosis_workspace.rehearse.probes import PROBES

    return ", ".join(f"`{name}`" for name in PROBES)


def verdict_names() -> str:
    from osmosis_workspace.rehearse.probes import TABLE

    return ", ".join(f"`{e.name}`" for e in TABLE if e.kind == "verdict")


def probe_table() -> str:
    from osmosis_workspace.rehearse.probes import TABLE

    rows = ["| probe | what it sends | holds when | on failure, look at |", "|---|---|---|---|"]
    rows += [f"| {e.name} | {_cell(e.sends)} | {_cell(e.threshold)} | {_cell(e.hint)} |" for e in TABLE if e.kind == "probe"]
    return "\n" + "\n".join(rows) + "\n"


def doctor_formats() -> str:
    from osmosis_workspace.report import REPORTERS

    return ", ".join(f"`{name}`" for name in REPORTERS)


BLOCKS: dict[str, Callable[[], str]] = {
    "probe-names": probe_names,
    "verdict-names": verdict_names,
    "probe-table": probe_table,
    "doctor-formats": doctor_formats,
}


def guidance_files() -> list[Path]:
    """Every file of ours an agent reads in a workspace, or a user in this repository."""
    files = [*sorted((REPO / "skills").rglob("*.md")), REPO / "README.md"]
    for template in sorted((REPO / "templates").iterdir()):
        files += sorted(p for p in (template / "template").rglob("*") if p.is_file()
                        and (p.name.endswith(".md") or p.name.endswith(".md.jinja")))
    return files


def refreshed(text: str) -> str:
    """``text`` with every marked passage rewritten from its table (an unknown NAME raises KeyError)."""
    return MARKED.sub(lambda m: m.group(1) + BLOCKS[m.group(2)]() + m.group(4), text)


def main() -> int:
    for path in guidance_files():
        text = path.read_text(encoding="utf-8")
        new = refreshed(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
