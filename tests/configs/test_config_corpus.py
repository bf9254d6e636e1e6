"""Every case under tests/cases/configs/ produces exactly the findings its `# expect:` lines list,
codes and positions both (see that folder's README)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from osmosis_workspace.check.families.configs import check_config_file
from osmosis_workspace.check.families.secrets import check_config_secrets
from osmosis_workspace.core.schemas import load_schema
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.workspace import Workspace

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES = Path(__file__).resolve().parents[1] / "cases" / "configs"
ALL = sorted(CASES.glob("*/*.toml"))
_EXPECT = re.compile(r"^# expect: (?:(nothing)|([A-Z]{3}\d{3}) (\d+):(\d+))\s*$", re.M)
_FILE = re.compile(r"^# file: (\S+\.toml)\s*$", re.M)


def expectations(text: str) -> list[tuple[str, int, int]]:
    found = _EXPECT.findall(text)
    assert found, "a case must say what it expects"
    if any(nothing for nothing, *_ in found):
        assert len(found) == 1, "`# expect: nothing` cannot be combined with findings"
        return []
    return sorted((code, int(line), int(col)) for _, code, line, col in found)


def install(case: Path, root: Path) -> Path:
    text = case.read_text(encoding="utf-8")
    named = _FILE.search(text)
    target = root / "configs" / case.parent.name / (named.group(1) if named else "multiply.toml")
    target.write_text(text, encoding="utf-8")
    return target


def findings(path: Path, kind: str, root: Path):
    ws = Workspace(root)
    display = ws.rel(path)
    found = check_config_file(path, kind, ws, display)
    found += check_config_secrets(TomlDoc.parse(path.read_text(encoding="utf-8")), display)
    return found


def test_corpus_covers_every_config_rule():
    from osmosis_workspace.check.registry import RULES

    import osmosis_workspace.check.families  # noqa: F401  (fills the table)

    # CFG020 (a rollout without an eval config): tested in test_config_workspace; CFG024 (a config
    # symlinked from outside the workspace) needs a link, not a file: tests/doctor/test_issue3_checklist.py
    workspace_level = {"CFG020", "CFG024", "CFG031"}  # about a file's name or place: tests/doctor/test_sdk_misses.py, the issue-3 checklist
    codes = {c for c in RULES if c.startswith("CFG")} - workspace_level
    covered = {name.split("-")[0].upper() for name in (p.stem for p in ALL)}
    assert codes <= covered, f"no corpus case for {sorted(codes - covered)}"
    assert any(p.stem.startswith("good-") for p in ALL)


@pytest.mark.parametrize("case", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_case(case: Path, config_ws: Path):
    expected = expectations(case.read_text(encoding="utf-8"))
    path = install(case, config_ws)
    found = findings(path, case.parent.name, config_ws)
    got = sorted((d.code, d.line, d.column) for d in found)
    assert got == expected, "\n".join(f"{d.code} {d.line}:{d.column} {d.message}" for d in found)
    for d in found:
        assert d.path == f"configs/{case.parent.name}/{path.name}"
        assert d.message and "\n" not in d.message and d.hint


def _non_finite_range(error) -> bool:
    """`inf` past a bound: CFG023 (not finite, as `eval run` says) is our one finding, not CFG005."""
    import math

    return error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") \
        and isinstance(error.instance, float) and not math.isfinite(error.instance)


@pytest.mark.parametrize("case", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_schema_verdict_agrees_with_jsonschema(case: Path):
    """On the schema-expressible codes our verdict is jsonschema's (Draft 7)."""
    import jsonschema

    text = case.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # CFG001: nothing for a schema to judge
    kind = case.parent.name
    schema_codes = {"CFG002", "CFG003", "CFG004", "CFG005", "CFG028", "CFG006", "CFG007", "CFG008", "CFG009", "CFG010",
                    "CFG011", "CFG012", "CFG014", "CFG015"}
    ours = {code for code, _, _ in expectations(text)} & schema_codes
    theirs = [e for e in jsonschema.Draft7Validator(load_schema(kind)).iter_errors(data) if not _non_finite_range(e)]
    assert bool(ours) == bool(theirs), [e.message for e in theirs]
