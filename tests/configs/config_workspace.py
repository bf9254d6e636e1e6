"""A small hand-built workspace for config checks (no `osmosis init`, so these tests stand alone).

Imported by the test modules here (a uniquely named module, not conftest: several test folders have
a conftest.py, and `import conftest` would pick whichever comes first on sys.path)."""

from __future__ import annotations

import json
from pathlib import Path

from osmosis_workspace.core.schemas import KINDS, schema_bytes, schema_filename

ROWS = [
    {"system_prompt": "Multiply. Answer after ####.", "user_prompt": f"val1 = {i}\nval2 = 2", "ground_truth": str(2 * i)}
    for i in range(1, 5)
]


def build_workspace(root: Path) -> Path:
    """rollouts/multiply/main.py (+ answers file), data/multiply.jsonl, .osmosis/schemas/, empty configs/ folders."""
    (root / "rollouts" / "multiply").mkdir(parents=True)
    (root / "rollouts" / "multiply" / "main.py").write_text("# entrypoint (never imported by the checks)\n")
    # made by osmosis: its configs opted into the `#:schema` line (CFG022; issue 29: not so for the platform's rollouts)
    (root / "rollouts" / "multiply" / ".copier-answers.yml").write_text("_src_path: multiply\n")
    (root / "configs" / "eval").mkdir(parents=True)
    (root / "configs" / "training").mkdir(parents=True)
    (root / "configs" / "benchmark").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "data" / "multiply.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    schemas = root / ".osmosis" / "schemas"
    schemas.mkdir(parents=True)
    for kind in KINDS:
        (schemas / schema_filename(kind)).write_bytes(schema_bytes(kind))
    return root
