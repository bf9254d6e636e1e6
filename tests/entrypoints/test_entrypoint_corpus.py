"""The entrypoint corpus (tests/cases/entrypoints/): each case's `# expect:` lines, exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from osmosis_workspace.check.families.entrypoints import check_entrypoint_file

CASES = Path(__file__).resolve().parents[1] / "cases" / "entrypoints"
_EXPECT = re.compile(r"^# expect: (?P<what>.+)$")
_SDK = re.compile(r"^# sdk: (?P<requirement>.+)$")


def _cases() -> list[Path]:
    files = [p for p in CASES.glob("*.py")]
    folders = [p / "main.py" for p in CASES.iterdir() if p.is_dir() and (p / "main.py").is_file()]
    return sorted(files + folders)


def _case_id(entry: Path) -> str:
    return entry.parent.name if entry.name == "main.py" else entry.stem


def _sdk_requirement(entry: Path) -> str | None:
    """The case's `# sdk: REQUIREMENT` line (the osmosis-ai requirement it is judged under), if any."""
    for line in entry.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# "):
            return None
        match = _SDK.match(line)
        if match:
            return match.group("requirement").strip()
    return None


def _expected(entry: Path, display: str) -> set[tuple]:
    expected = set()
    for line in entry.read_text(encoding="utf-8").splitlines():
        if _SDK.match(line):
            continue
        match = _EXPECT.match(line)
        if not match:
            break
        parts = match.group("what").split()
        if parts == ["nothing"]:
            continue
        code, where = parts[0], parts[1]
        path = f"{Path(display).parent.as_posix()}/{parts[2]}" if len(parts) > 2 else display
        line_no, col = (None, None) if where == "-" else map(int, where.split(":"))
        expected.add((code, path, line_no, col))
    return expected


def test_corpus_is_not_empty_and_every_case_declares_expectations():
    cases = _cases()
    assert len(cases) >= 20
    for entry in cases:
        assert entry.read_text(encoding="utf-8").startswith(("# expect: ", "# sdk: ")), entry
        kind = _case_id(entry).split("_")[0]
        assert kind in ("good", "bad"), entry


@pytest.mark.parametrize("entry", _cases(), ids=_case_id)
def test_case(entry: Path):
    display = f"rollouts/case/{entry.name}" if entry.name != "main.py" else "rollouts/case/main.py"
    found = check_entrypoint_file(entry, display, sdk_requirement=_sdk_requirement(entry))
    got = {(d.code, d.path, d.line, d.column) for d in found}
    expected = _expected(entry, display)
    assert got == expected, "\n".join(f"{d.code} {d.line}:{d.column} {d.message}" for d in found)
    if _case_id(entry).startswith("good"):
        assert expected == set()
    else:
        assert expected, "a bad case must expect at least one finding"
    for d in found:
        assert d.message and "\n" not in d.message
        assert d.hint
