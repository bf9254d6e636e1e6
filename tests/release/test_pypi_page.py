"""What the package index shows: the README as the project page (relative links break there), and the
metadata beside it (project URLs, authors, classifiers, keywords, the license)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
BLOB = "https://github.com/osmosis-ai/osmosis-workspace/blob/main/"
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_readme_links_absolutely_to_files_that_exist():
    links = re.findall(r"\]\(([^)\s]+)\)", (REPO / "README.md").read_text(encoding="utf-8"))
    relative = [link for link in links if not re.match(r"https?://|#", link)]
    assert relative == [], "the index renders the README away from the repository: " + ", ".join(relative)
    ours = [link[len(BLOB):].split("#")[0] for link in links if link.startswith(BLOB)]
    assert ours and all((REPO / rel).is_file() for rel in ours), [rel for rel in ours if not (REPO / rel).is_file()]


def test_the_metadata_names_the_project():
    assert PROJECT["license"] == "Apache-2.0" and PROJECT["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text(encoding="utf-8").lstrip().startswith("Apache License")
    assert PROJECT["authors"] and PROJECT["keywords"]
    urls = PROJECT["urls"]
    assert {"Homepage", "Repository", "Documentation", "Issues", "Changelog"} <= set(urls)
    assert all(u.startswith("https://github.com/osmosis-ai/osmosis-workspace") for u in urls.values())
    # one classifier per Python version CI runs, from requires-python up
    versions = {c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    ci = (REPO / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    (matrix,) = re.findall(r"^\s+python: \[(.*)\]$", ci, re.M)
    assert versions == set(re.findall(r'"(3\.\d+)"', matrix))
    assert min(versions, key=lambda v: int(v.split(".")[1])) == PROJECT["requires-python"].removeprefix(">=")
    assert any(c.startswith("Topic :: ") for c in PROJECT["classifiers"])
