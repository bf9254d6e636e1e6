"""docs/ARCHITECTURE.md stays true where it lists things the code also lists: the "Where to add"
checklists name files that exist, the "Rule codes" table names the modules that declare and check each
prefix's rules, each wing's row names the wing's modules, the arrows it allows are the ones
tests/test_architecture.py enforces, and the tests' hand-written lists of template renders (the template
checklist's step 4) hold every bundled template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from osmosis_workspace.scaffold.catalog import rollout_templates

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "generator" / "osmosis_workspace"
DOC = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")

KINDS = ["A template", "A check", "A dataset row rule", "A dataset file rule", "A config rule", "A reporter",
         "A rehearse verdict", "A rehearse probe", "A skill", "An SDK generation", "An SDK release"]


def _section(title: str) -> str:
    return DOC.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def _checklists() -> dict[str, str]:
    """Each checklist's body by its kind (the bold line, without its parenthesis)."""
    parts = re.split(r"^\*\*(.+?)\*\*.*$", _section("Where to add"), flags=re.M)
    return {kind: body for kind, body in zip(parts[1::2], parts[2::2])}


def _paths(text: str) -> list[str]:
    """The backticked tokens that are paths: no space, a slash, no call or quote."""
    return [t for t in re.findall(r"`([^`\s]+)`", text) if "/" in t and not re.search(r"[(\"']", t)]


def _exists(token: str) -> bool:
    """A path under the repository or the package; with a <placeholder>, the folder before it."""
    if "<" in token:
        token = token[: token.index("<")].rsplit("/", 1)[0] + "/"
    return any((base / token).exists() for base in (REPO, PACKAGE))


def test_there_is_one_checklist_per_kind_of_change():
    assert list(_checklists()) == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_a_checklist_is_numbered_steps_with_a_test(kind):
    body = _checklists()[kind]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", body, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers, f"{kind}: steps {numbers}"
    assert any(p.startswith("tests/") for p in _paths(body)), f"{kind} names no test"


@pytest.mark.parametrize("kind", KINDS)
def test_every_path_a_checklist_names_exists(kind):
    missing = [p for p in _paths(_checklists()[kind]) if not _exists(p)]
    assert missing == [], f"{kind}: {missing}"


def test_the_paths_test_would_see_a_wrong_path():
    assert _exists("rehearse/verdicts.py") and _exists("templates/<name>/copier.yml")
    assert not _exists("rehearse/verdict.py") and not _exists("nowhere/<name>/x.py")
    assert _paths("`rehearse/render.py` (text) and `probes.markdown()` and `osmosis doctor -o docs/x.md`") == ["rehearse/render.py"]


def _step_files(kind: str) -> list[str]:
    """The first path each step of a checklist names: the file that step is about."""
    steps = re.split(r"^\d+\. ", _checklists()[kind], flags=re.M)[1:]
    return [(_paths(step) or [""])[0] for step in steps]


def test_the_rehearse_checklists_point_at_the_modules_that_decide():
    assert _step_files("A rehearse verdict")[:3] == ["rehearse/probes.py", "rehearse/verdicts.py", "docs/rehearse.md"]
    assert _step_files("A rehearse probe")[:4] == ["rehearse/probes.py", "rehearse/probe_cases.py", "rehearse/probe_verdicts.py",
                                                    "docs/rehearse.md"]


# -- the rule codes table -----------------------------------------------------------------------

DECLARED = re.compile(r'^\s*"([A-Z]{3}\d{3})", "[a-z0-9-]+",', re.MULTILINE)  # as tests/doctor/test_docstring_ranges.py reads them


def _code_rows() -> dict[str, str]:
    rows = re.findall(r"^\| `([A-Z]{3})` \| \w+ \| (.+) \|$", _section("Rule codes (stable; a retired code is never reused)"), re.M)
    return dict(rows)


def _module(token: str) -> Path:
    return PACKAGE / token if "/" in token else PACKAGE / "check" / "families" / token


def _codes(text: str) -> set[str]:
    codes = set(re.findall(r"\b[A-Z]{3}\d{3}\b", text))
    for prefix, start, end in re.findall(r"\b([A-Z]{3})(\d{3})-[A-Z]{3}(\d{3})\b", text):
        codes |= {f"{prefix}{n:03d}" for n in range(int(start), int(end) + 1)}
    return codes


def test_each_prefix_row_names_the_modules_declaring_its_rules_and_only_codes_that_exist():
    from osmosis_workspace.check.doctor import load_rules

    registered = {r.code for r in load_rules()}
    declaring: dict[str, set[Path]] = {}
    for path in PACKAGE.rglob("*.py"):
        for code in DECLARED.findall(path.read_text(encoding="utf-8")):
            declaring.setdefault(code[:3], set()).add(path)
    rows = _code_rows()
    assert set(rows) == set(declaring), sorted(set(rows) ^ set(declaring))
    for prefix, text in rows.items():
        named = {_module(t) for t in re.findall(r"`([\w/]+\.py)`", text)}
        assert all(p.is_file() for p in named), (prefix, sorted(str(p) for p in named if not p.is_file()))
        assert declaring[prefix] <= named, (prefix, sorted(p.name for p in declaring[prefix] - named))
        codes = _codes(text)
        assert {c[:3] for c in codes} <= {prefix} and codes <= registered, (prefix, sorted(codes - registered))


def test_the_codes_beside_a_declaring_module_are_all_it_declares():
    for prefix, text in _code_rows().items():
        for token, said in re.findall(r"`([\w/]+\.py)` \(([^()]*)\)", text):
            declared = set(DECLARED.findall(_module(token).read_text(encoding="utf-8")))
            if declared and _codes(said):
                assert _codes(said) == declared, f"the {prefix} row says {token} holds {sorted(_codes(said))}; it declares {sorted(declared)}"


def test_every_family_module_is_in_the_rule_codes_table():
    named = {_module(t) for text in _code_rows().values() for t in re.findall(r"`([\w/]+\.py)`", text)}
    families = {p for p in (PACKAGE / "check" / "families").glob("*.py") if p.name != "__init__.py"}
    assert sorted(p.name for p in families - named) == []


# -- the wings table ----------------------------------------------------------------------------


def _wing_rows() -> dict[str, str]:
    return dict(re.findall(r"^\| `(\w+)/` \| (.+) \|$", _section("Wings"), re.M))


def test_each_wing_row_names_the_wings_modules():
    from osmosis_workspace.cli import command_paths

    commands = {path[0] for path in command_paths()}  # cli: "one module per command"
    rows = _wing_rows()
    assert set(rows) == {"core", "readers", "report", "check", "scaffold", "rehearse", "lsp", "cli"}
    for wing, text in rows.items():
        named = set(re.findall(r"`([\w./]+)`", text))
        for path in (PACKAGE / wing).rglob("*.py"):
            rel = path.relative_to(PACKAGE / wing)
            if "_bundled" in rel.parts or path.name == "__init__.py" or (wing == "cli" and path.stem in commands):
                continue
            folder = f"{rel.parts[0]}/" if len(rel.parts) > 1 else None
            assert {path.name, path.stem, rel.as_posix()} & named or folder in named, f"{wing}/{rel} is in no row"
        for token in (t for t in named if t.endswith(".py")):
            found = {p for p in (PACKAGE / wing).rglob(token.rsplit("/", 1)[-1])} or {PACKAGE / token}
            assert any(p.is_file() for p in found), f"the {wing} row names {token}, which is not there"


# -- the tests' lists of template renders (the template checklist's step 4) ---------------------------

# (file, the list's name, templates it leaves out on purpose)
RENDER_LISTS = [
    ("tests/datasets/test_data_checks.py", "RENDERS", set()),
    ("tests/templates/test_generated_ruff_format.py", "RENDERS", set()),
    ("tests/doctor/test_sdk_misses.py", "TEMPLATE_VARIANTS", set()),
    ("tests/templates/test_tests_need_only_the_dev_group.py", "CASES", set()),
    ("tests/templates/template_helpers.py", "TEMPLATES", {"multiply"}),  # multiply: the init tests and tests/sdk_real
]


def _literal(file: str, name: str):
    tree = ast.parse((REPO / file).read_text(encoding="utf-8"))
    [value] = [n.value for n in tree.body if isinstance(n, ast.Assign) and any(getattr(t, "id", None) == name for t in n.targets)]
    return ast.literal_eval(value)


def _templates_of(value) -> set[str]:
    items = value.values() if isinstance(value, dict) else value
    return {item if isinstance(item, str) else item[0] for item in items}


@pytest.mark.parametrize("file, name, left_out", RENDER_LISTS, ids=[f"{f}:{n}" for f, n, _ in RENDER_LISTS])
def test_each_list_of_template_renders_holds_every_bundled_template(file, name, left_out):
    bundled = {t.name for t in rollout_templates()}
    listed = _templates_of(_literal(file, name))
    assert listed <= bundled, f"{file} {name} renders templates that do not exist: {sorted(listed - bundled)}"
    assert listed == bundled - left_out, f"add to {file} {name}: {sorted(bundled - left_out - listed)}"


# -- the arrows allowed ---------------------------------------------------------------------------


def test_the_arrows_the_doc_allows_are_the_ones_test_architecture_enforces():
    from tests.test_architecture import ALLOWED

    sentence = " ".join(DOC.split("Arrows allowed", 1)[1].split("\nOutside the wings", 1)[0].split())
    said = {}
    for wing, targets in re.findall(r"`(\w+)` → ([^;.]+)", sentence):
        said[wing] = set(ALLOWED) - {wing} if targets == "any wing" else set() if "nothing" in targets else {
            t.strip() for t in targets.split(",")}
    assert said == ALLOWED
