"""The SDK generations table (generator/osmosis_workspace/core/sdk_generations.py), the requirement reader and the
generation-aware entrypoint rules over whole workspaces (ENT016-ENT026)."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version as RefVersion
from tests.workspace_builder import MAIN_PY, write

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.core.diagnostics import Severity
from osmosis_workspace.core.pep440 import Requirement, Specifier, Version
from osmosis_workspace.core.sdk_generations import (
    ATTRIBUTES,
    BY_KEY,
    GENERATIONS,
    HARBOR_ARGUMENT_INSTEAD,
    KNOWN_RELEASES,
    NAMES,
    ON_INDEX,
    generation_of,
    harbor_arguments_known,
)
from osmosis_workspace.check.sdk_target import python_floor_breach, read_target, target_for
from osmosis_workspace.core.workspace import Workspace

SPECIFIERS = [
    "", ">=0.2", ">=0.2,<0.3", "<0.3", ">=0.3.1,<0.4", "~=0.3.1", "~=0.3", "==0.3.*", "==0.2.*", "!=0.3.8",
    "==0.3.0rc2", ">=0.3.0rc1,<0.3.1", "<0.3.0", ">0.3.7", "<=0.2.25", "==0.2.15", ">=0.4", "==0.3",
    ">=0.2.18,<0.2.25", "~=0.2.20", "!=0.3.*", ">=0.3.2rc1",
]


# -- the PEP 440 reader agrees with `packaging` ---------------------------------------------------


@pytest.mark.parametrize("spec", SPECIFIERS)
def test_specifier_filter_agrees_with_packaging(spec):
    ours = [str(v) for v in Specifier.parse(spec).filter(list(KNOWN_RELEASES))]
    theirs = [str(v) for v in SpecifierSet(spec).filter([str(v) for v in KNOWN_RELEASES])]
    assert ours == theirs


def test_version_order_agrees_with_packaging():
    texts = ["1.0.dev0", "1.0a1", "1.0a2.dev1", "1.0b1", "1.0rc1", "1.0", "1.0.post1", "1.0.1", "1!0.1", "0.3.0rc1", "0.3", "0.3.0.post2"]
    assert sorted(texts, key=Version.parse) == sorted(texts, key=RefVersion)


def test_listed_releases_are_what_the_general_reader_makes_of_them():
    from osmosis_workspace.core.pep440 import _VERSION
    from osmosis_workspace.core.sdk_generations import _FIRSTS

    assert [str(v) for v in _FIRSTS] == [g.first for g in GENERATIONS]
    for listed in KNOWN_RELEASES + _FIRSTS:
        m = _VERSION.match(listed.text)
        pre = (2, int(m["pre_n"])) if m["pre_l"] else None
        assert (listed.epoch, listed.release, listed.pre, listed.post, listed.dev) == (
            0, tuple(int(n) for n in m["release"].split(".")), pre, None, None)


@pytest.mark.parametrize("text", ["0.3.8", " v1.2 ", "V2", "10.0.0.0", "0.3.8\n", "0", "1.", ".1", "1..2", "v", "",
                                  "\u0661.2", "1.2\u00b2", "1.0rc1", "0.3.2rc12", "v1.0rc2", "1.0rc", "1.0RC1", "1.0.rc1",
                                  "1.0-rc1", "rc1", "1.0rc1rc2", "1.0rc\u0661", "1.0.post1", "1!2.0", "1.0+local"])
def test_plain_release_shortcut_reads_as_the_pattern_does(text):
    from osmosis_workspace.core.pep440 import _PRE_RANK, _VERSION

    parsed, m = Version.parse(text), _VERSION.match(text)
    if m is None:
        assert parsed is None
        return
    assert parsed is not None and parsed.text == text.strip()
    assert parsed.release == tuple(int(n) for n in m["release"].split(".")) and parsed.epoch == int(m["epoch"] or 0)
    assert parsed.pre == ((_PRE_RANK[m["pre_l"].lower()], int(m["pre_n"] or 0)) if m["pre_l"] else None)


@pytest.mark.parametrize("text", ["nope", ">>0.2", "osmosis-ai[server", ""])
def test_bad_requirement_or_specifier_is_none_not_a_crash(text):
    parsed = Requirement.parse(text)
    assert parsed is None or parsed.name != "osmosis-ai"


def test_requirement_parts():
    req = Requirement.parse("Osmosis_AI[Server, strands] (>=0.3.1,<0.4) ; python_version >= '3.12'")
    assert (req.name, req.extras, str(req.specifier), req.marker) == ("osmosis-ai", ("server", "strands"), ">=0.3.1,<0.4", "python_version >= '3.12'")
    assert Requirement.parse("osmosis-ai @ git+https://example.com/sdk").url == "git+https://example.com/sdk"


# -- the table ----------------------------------------------------------------------------------


def test_generations_are_ordered_rows_and_releases_map_onto_them():
    firsts = [Version.parse(g.first) for g in GENERATIONS]
    assert firsts == sorted(firsts)
    assert [generation_of(Version.parse(v)).key for v in ("0.2.7", "0.2.17", "0.2.18", "0.2.31", "0.3.0rc1", "0.3.8")] == list("RRAABB")
    assert generation_of(Version.parse("0.2.6")) is None
    assert min(ON_INDEX) == Version.parse("0.2.25") and max(ON_INDEX) == Version.parse("0.3.8")


def test_rows_name_only_known_generations_and_sdk_modules():
    keys = set(BY_KEY)
    for row in NAMES:
        assert set(row.where) <= keys and set(row.instead) <= keys, row.name
        assert all(m.startswith("osmosis_ai") for mods in row.where.values() for m in mods)
        # a generation lacking the name needs advice, unless nothing replaces it (protocol types)
    for attr in ATTRIBUTES:
        assert attr.gens <= keys and set(attr.instead) <= keys - attr.gens
    for argument, instead in HARBOR_ARGUMENT_INSTEAD.items():
        assert argument in harbor_arguments_known()
        assert all(argument not in BY_KEY[k].harbor_arguments for k in instead)


# -- the target: which generation a requirement installs --------------------------------------------


@pytest.mark.parametrize(("spec", "generation", "release", "unbounded"), [
    ("osmosis-ai", "B", "0.3.8", True),
    ("osmosis-ai[server]>=0.2", "B", "0.3.8", True),
    ("osmosis-ai[server]>=0.2,<0.3", "A", "0.2.31", False),
    ("osmosis-ai>=0.3.1,<0.4", "B", "0.3.8", False),
    ("osmosis-ai~=0.3.1", "B", "0.3.8", False),
    ("osmosis-ai==0.2.15", "R", None, False),  # admitted, but gone from the index
    ("osmosis-ai>=0.2.18,<0.2.25", "A", None, False),
])
def test_target_generation_and_release(spec, generation, release, unbounded):
    target = read_target([(Path("pyproject.toml"), f'[project]\ndependencies = ["{spec}"]\n')])
    assert target.generation.key == generation
    assert (str(target.release) if target.release else None) == release
    assert target.unbounded is unbounded


def test_no_requirement_is_judged_as_unpinned():
    target = target_for([])
    assert (target.generation.key, str(target.release)) == ("B", "0.3.8")
    assert "pip install osmosis-ai" in target.describe()


def test_uv_lock_pin_wins_when_it_satisfies_the_requirement():
    lock = '[[package]]\nname = "osmosis-ai"\nversion = "0.2.27"\n'
    target = read_target([(Path("p"), '[project]\ndependencies = ["osmosis-ai>=0.2"]\n')], lock)
    assert (target.generation.key, str(target.release), target.locked) == ("A", "0.2.27", True)
    outside = read_target([(Path("p"), '[project]\ndependencies = ["osmosis-ai>=0.3"]\n')], lock)
    assert (str(outside.release), outside.locked) == ("0.3.8", False)


@pytest.mark.parametrize(("requires", "below"), [(">=3.10", "3.11"), (">=3.11.4", "3.11"), (">=3.12", None), ("==3.12.*", None), (">=3.9,<3.11", "3.10")])
def test_python_floor_breach(requires, below):
    assert python_floor_breach(requires, (3, 12)) == below


# -- whole workspaces -------------------------------------------------------------------------------


def findings(root: Path) -> list:
    return [d for d in run_workspace_checks(Workspace(root), {"entrypoints"})]


def codes(root: Path) -> list[tuple]:
    return sorted((d.code, d.path, d.line) for d in findings(root))


def rollout(root: Path) -> Path:
    return root / "rollouts" / "multiply"


def test_fresh_builder_workspace_is_clean(workspace):
    assert codes(workspace) == []


def test_unbounded_requirement_warns_and_says_what_it_resolves_to(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\ndependencies = [\n  "strands-agents",\n  "osmosis-ai[server]",\n]\n')
    [d] = findings(workspace)
    assert (d.code, d.severity, d.path, d.line, d.column) == ("ENT016", Severity.WARNING, "rollouts/multiply/pyproject.toml", 5, 3)
    assert "resolves to 0.3.8" in d.message and "osmosis-ai 0.3.x" in d.message
    assert '"osmosis-ai[server]>=0.3.1,<0.4"' in d.hint


def test_requirement_only_gone_releases_is_an_error(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\ndependencies = ["osmosis-ai>=0.2.18,<0.2.25"]\n')
    [d] = findings(workspace)
    assert (d.code, d.severity) == ("ENT017", Severity.ERROR)
    assert "0.2.18-0.2.31" in d.message


def test_dependency_groups_are_read_and_narrow_the_requirement(workspace):
    write(rollout(workspace) / "pyproject.toml", textwrap.dedent('''\
        [project]
        name = "m"
        dependencies = ["strands-agents", "osmosis-ai"]

        [dependency-groups]
        dev = ["pytest", {include-group = "x"}, "osmosis-ai<0.4"]
        '''))
    assert codes(workspace) == []  # `osmosis-ai` and `osmosis-ai<0.4` together are bounded


def test_rollout_without_requirement_falls_back_to_the_root(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\ndependencies = ["strands-agents"]\n')
    write(workspace / "pyproject.toml", '[project]\nname = "demo"\nrequires-python = ">=3.10"\ndependencies = ["osmosis-ai[eval]>=0.2,<0.3"]\n')
    write(rollout(workspace) / "main.py", (rollout(workspace) / "main.py").read_text() + "\nfrom osmosis_ai.rollout import AgentWorkflowOutput\n")
    got = codes(workspace)
    # ENT009: the rollout must still declare the SDK itself; the code is judged as 0.2 (the root's pin)
    assert got == [
        ("ENT009", "rollouts/multiply/pyproject.toml", 3),
        ("ENT018", "pyproject.toml", 3),
        ("ENT019", "rollouts/multiply/main.py", 13),
    ]


def test_requires_python_below_the_floor_is_an_error_at_the_key(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\nrequires-python = ">=3.10"\ndependencies = ["osmosis-ai[server]>=0.3.1,<0.4"]\n')
    [d] = findings(workspace)
    assert (d.code, d.severity, d.line, d.column) == ("ENT018", Severity.ERROR, 3, 19)
    assert "admits Python 3.11" in d.message and ">=3.12" in d.hint


def test_code_in_a_package_module_is_judged_too(workspace):
    write(rollout(workspace) / "multiply_rollout" / "__init__.py", "")
    write(rollout(workspace) / "multiply_rollout" / "agent.py", "from osmosis_ai.rollout import OsmosisStrandsAgent\n")
    write(rollout(workspace) / "tests" / "test_agent.py", "from osmosis_ai.rollout import OsmosisStrandsAgent\n")
    assert codes(workspace) == [("ENT019", "rollouts/multiply/multiply_rollout/agent.py", 1)]


TWO_CONFIGS = '''\
from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowConfig, Grader
from abc import ABC


class Base(AgentWorkflow, ABC):
    pass


class MultiplyWorkflow(Base):
    async def run(self, ctx):
        return None


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        return None


FAST = AgentWorkflowConfig(name="fast")
SLOW = AgentWorkflowConfig(name="slow")
'''


@pytest.mark.parametrize(("spec", "codes", "severity"), [("osmosis-ai[server]>=0.2,<0.3", ["ENT035", "ENT036"], Severity.ERROR),
                                                    ("osmosis-ai[server]>=0.3.1,<0.4", ["ENT024", "ENT025"], Severity.WARNING)])
def test_submit_scan_rules_are_errors_under_0_2_and_warnings_under_0_3(workspace, spec, codes, severity):
    write(rollout(workspace) / "pyproject.toml", f'[project]\nname = "m"\ndependencies = ["{spec}"]\n')
    write(rollout(workspace) / "main.py", TWO_CONFIGS)
    got = {d.code: d for d in findings(workspace)}
    assert sorted(got) == codes   # one code per severity: the 0.2 submit check's refusal is its own rule
    assert (got[codes[0]].line, got[codes[1]].line) == (5, 20)
    assert {d.severity for d in got.values()} == {severity}


def test_two_concrete_workflows_warn_under_0_3_and_fail_under_0_2(workspace):
    second = (rollout(workspace) / "main.py").read_text().replace("Multiply", "Second")
    write(rollout(workspace) / "main.py", (rollout(workspace) / "main.py").read_text() + second)
    assert {d.code: d.severity for d in findings(workspace)} == {"ENT033": Severity.WARNING, "ENT034": Severity.WARNING}
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\ndependencies = ["osmosis-ai>=0.2,<0.3"]\n')
    assert {d.code: d.severity for d in findings(workspace)} == {"ENT004": Severity.ERROR, "ENT005": Severity.ERROR}


def test_validate_reads_the_pyproject_beside_the_entrypoint(tmp_path):
    from osmosis_workspace.check.families.entrypoints import check_entrypoint_file

    main = write(tmp_path / "main.py", "from osmosis_ai.rollout import create_rollout_server\n" + MAIN_PY)
    assert [d.code for d in check_entrypoint_file(main, "main.py")] == ["ENT019"]  # unpinned: 0.3
    write(tmp_path / "pyproject.toml", '[project]\ndependencies = ["osmosis-ai>=0.2.25,<0.3"]\n')
    assert check_entrypoint_file(main, "main.py") == []


# -- the real SDK agrees (opt-in: set OSMOSIS_SDK_PYTHON to a Python with osmosis-ai 0.3) -----------

_PROBE = r'''
import importlib, inspect, json, sys
rows = json.loads(sys.argv[1])
out = {"missing": [], "present_but_absent": [], "harbor": None, "grader_context": None}
for name, modules, absent in rows:
    for module in modules:
        if not hasattr(importlib.import_module(module), name):
            out["missing"].append(f"{module}.{name}")
    for module in absent:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        if name in getattr(mod, "__all__", dir(mod)):
            out["present_but_absent"].append(f"{module}.{name}")
from osmosis_ai.rollout.backend.harbor import HarborBackend
out["harbor"] = sorted(p for p in inspect.signature(HarborBackend.__init__).parameters if p != "self")
from osmosis_ai.rollout.context import GraderContext, RolloutContext
out["grader_context"] = sorted(n for n in dir(GraderContext) if not n.startswith("_"))
out["rollout_context"] = sorted(n for n in dir(RolloutContext) if not n.startswith("_"))
from osmosis_ai.consts import PACKAGE_VERSION
out["version"] = PACKAGE_VERSION
print(json.dumps(out))
'''


def check_real_sdk_agrees_with_generation_b(python: str, env: dict[str, str] | None = None) -> None:
    """Run by tests/sdk_real/test_generation_table.py with the real osmosis-ai's interpreter (and its environment)."""
    rows = []
    for row in NAMES:
        present = row.where.get("B", ())
        # modules that had the name in another generation must not have it in B
        absent = sorted({m for k, mods in row.where.items() if k != "B" for m in mods} - set(present))
        rows.append((row.name, list(present), absent))
    result = subprocess.run([python, "-c", _PROBE, json.dumps(rows)], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    got = json.loads(result.stdout)
    assert got["version"].startswith("0.3.")
    assert got["missing"] == []
    assert got["present_but_absent"] == []
    newer = {"prewarm", "verified_tasks"}  # 0.3.8
    assert set(got["harbor"]) | (newer if got["version"] != "0.3.8" else set()) == set(BY_KEY["B"].harbor_arguments)
    for owner, listed in (("GraderContext", got["grader_context"]), ("RolloutContext", got["rollout_context"])):
        for attr in ATTRIBUTES:
            if attr.owner == owner:
                assert (attr.name in listed) == ("B" in attr.gens), f"{owner}.{attr.name}"


def test_a_forked_lock_pin_that_satisfies_the_requirement_is_found_past_the_first():
    """uv.lock pins a package twice in a forked resolution; the pin read without a full parse
    (readers/uvlock.py) must still pick the one the requirement admits."""
    lock = ('version = 1\n\n[[package]]\nname = "osmosis-ai"\nversion = "0.2.27"\n\n'
            '[[package]]\nname = "osmosis-ai"\nversion = "0.3.8"\n')
    target = read_target([(Path("p"), '[project]\ndependencies = ["osmosis-ai>=0.3"]\n')], lock)
    assert (str(target.release), target.locked) == ("0.3.8", True)
