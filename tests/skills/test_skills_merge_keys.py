"""YAML merge keys (`<<:`) in front matter: our verdict agrees with the reference validator.

Found by the hypothesis agreement test: a plain `<<` with a scalar value is a YAML error for
strictyaml (skills-ref's parser), while a mapping (or list of mappings) merges; at the top level
strictyaml's data leaves merged keys out, in nested mappings it keeps them.
"""

from __future__ import annotations

import pytest
from skills_ref.validator import validate as reference_validate

from osmosis_workspace.check.families.skills import check_skill_dir
from osmosis_workspace.core.diagnostics import Severity

CASES = [
    ("metadata:\n  <<: b\n", ["SKL006"]),
    ("<<: x\n", ["SKL006"]),
    ("<<:\n  - x\n", ["SKL006"]),
    ("metadata:\n  <<:\n    a: b\n", []),
    ("metadata:\n  x: y\n  <<:\n    x: z\n", []),
    ("metadata:\n  '<<': b\n", []),
    ("<<:\n  license: MIT\n", []),
    ("<<:\n  - license: MIT\n", []),
    ("<<:\n  bogus: 1\n", []),
    ("license: A\n<<:\n  license: B\n", []),
]


@pytest.mark.parametrize("extra, codes", CASES)
def test_merge_keys_agree_with_skills_ref(tmp_path, extra, codes):
    folder = tmp_path / "my-skill"
    folder.mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: my-skill\ndescription: Does things.\n{extra}---\nbody\n")
    ours = [d.code for d in check_skill_dir(folder, "my-skill") if d.severity == Severity.ERROR]
    assert ours == codes
    assert bool(reference_validate(folder)) == bool(codes)
