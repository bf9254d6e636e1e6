"""The reference for `osmosis init`: copier itself rendering the same bundled templates.

Usage: python bench/copier_reference.py DST TEMPLATE_DIR=ANSWERS_FILE [TEMPLATE_DIR=ANSWERS_FILE ...]

`osmosis init --template multiply` renders two copier templates (workspace, then multiply) into
one folder in one process. The fair reference does the same in one process, through copier's own
API, with the answers init recorded in each `.copier-answers.yml`: same templates, same answers,
same output, one interpreter start-up. What copier cannot see (the `osmosis` CLI start-up, skill
and schema copies, writing the answers) is exactly the overhead this row measures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml


def answers_from(path: Path) -> dict:
    """The user's answers in a `.copier-answers.yml` (copier's own `_src_path`, `_commit`... dropped)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {k: v for k, v in data.items() if not k.startswith("_")}


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    dst = Path(argv[0])
    jobs = []
    for spec in argv[1:]:
        template, _, answers = spec.partition("=")
        jobs.append((template, answers_from(Path(answers)) if answers else {}))

    from copier import run_copy  # timed: init pays for this import too

    for template, data in jobs:
        run_copy(template, dst, data=data, defaults=True, quiet=True, overwrite=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
