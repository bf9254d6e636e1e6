"""Entrypoint checks over whole workspaces: which module is the entrypoint, the rollout's
pyproject, server modules found by subclass, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner
from tests.workspace_builder import MAIN_PY, write

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.check.families.entrypoints import check_entrypoint_file, requirement_name
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace

SERVER_PY = '''\
from osmosis_ai.rollout import RolloutAgentLoop, create_app


class Calc(RolloutAgentLoop):
    name = "calc"

    def get_tools(self, request):
        return []

    async def run(self, ctx):
        return None


agent_loop = Calc()
app = create_app(agent_loop)
'''


def found(root: Path) -> list[tuple]:
    return sorted((d.code, d.path, d.line, d.column) for d in run_workspace_checks(Workspace(root), {"entrypoints"}))


def rollout(root: Path) -> Path:
    return root / "rollouts" / "multiply"


def point_configs_at(root: Path, entrypoint: str) -> None:
    for kind in ("eval", "training"):
        path = root / "configs" / kind / "multiply.toml"
        path.write_text(path.read_text().replace('entrypoint = "main.py"', f'entrypoint = "{entrypoint}"'))


def test_fresh_workspace_is_clean(workspace):
    assert found(workspace) == []


def test_entrypoint_named_by_the_configs_is_checked(workspace):
    write(rollout(workspace) / "agent.py", MAIN_PY.replace("async def run", "def run"))
    point_configs_at(workspace, "agent.py")
    # agent.py's sync run is reported once, though two configs name it
    assert found(workspace) == [("ENT006", "rollouts/multiply/agent.py", 5, 5)]


def test_default_main_py_when_no_config_names_the_rollout(workspace):
    for kind in ("eval", "training"):
        (workspace / "configs" / kind / "multiply.toml").unlink()
    write(rollout(workspace) / "main.py", MAIN_PY + MAIN_PY.replace("Multiply", "Second"))
    assert [c for c, *_ in found(workspace)] == ["ENT033", "ENT034"]   # the 0.3 codes: the workspace's SDK is 0.3


def test_missing_main_py(workspace):
    for kind in ("eval", "training"):
        (workspace / "configs" / kind / "multiply.toml").unlink()
    (rollout(workspace) / "main.py").unlink()
    assert found(workspace) == [("ENT001", "rollouts/multiply/main.py", None, None)]


def test_missing_entrypoint_named_by_a_config_is_left_to_the_config_checks(workspace):
    point_configs_at(workspace, "nope.py")
    assert found(workspace) == []


def test_entrypoint_escaping_the_rollout_is_not_followed(workspace):
    write(workspace / "rollouts" / "evil.py", "this is not python(\n")
    point_configs_at(workspace, "../evil.py")
    assert found(workspace) == []


# The remote-server API exists only in 0.2.7-0.2.17, none of which the index still serves: pinned
# there, the loop rules apply and the requirement is the one finding (ENT017).
REMOTE_ERA_PYPROJECT = '[project]\nname = "m"\ndependencies = ["osmosis-ai==0.2.17"]\n'
UNSATISFIABLE = ("ENT017", "rollouts/multiply/pyproject.toml", 3, 17)


def test_server_rollout_needs_no_main_py(workspace):
    (rollout(workspace) / "main.py").unlink()
    write(rollout(workspace) / "server.py", SERVER_PY)
    write(rollout(workspace) / "pyproject.toml", REMOTE_ERA_PYPROJECT)
    point_configs_at(workspace, "server.py")
    assert found(workspace) == [UNSATISFIABLE]


def test_server_module_found_by_subclass_not_by_file_name(workspace):
    write(rollout(workspace) / "remote_agent.py", SERVER_PY.replace("agent_loop = Calc()\napp = create_app(agent_loop)\n", ""))
    write(rollout(workspace) / "pyproject.toml", REMOTE_ERA_PYPROJECT)
    # main.py's AgentWorkflow (0.2.18+) is itself foreign to 0.2.17
    assert found(workspace) == [
        ("ENT014", "rollouts/multiply/remote_agent.py", 4, 1), UNSATISFIABLE, ("ENT019", "rollouts/multiply/main.py", 1, 32),
    ]


def test_server_code_under_0_3_is_one_import_finding(workspace):
    write(rollout(workspace) / "remote_agent.py", SERVER_PY.replace("agent_loop = Calc()\napp = create_app(agent_loop)\n", ""))
    # no ENT011-ENT014: the loop class does not exist in 0.3, so its shape is beside the point
    assert found(workspace) == [("ENT019", "rollouts/multiply/remote_agent.py", 1, 32)]


def test_test_modules_are_not_scanned_for_loops(workspace):
    write(rollout(workspace) / "test_server.py", "from osmosis_ai.rollout import RolloutAgentLoop\nclass Fake(RolloutAgentLoop):\n    pass\n")
    assert found(workspace) == []


def test_syntax_error_in_a_sibling_module(workspace):
    write(rollout(workspace) / "tools.py", "def add(a, b):\n    return a +\n")
    [(code, path, line, _)] = found(workspace)
    assert (code, path, line) == ("ENT002", "rollouts/multiply/tools.py", 2)


def test_missing_rollout_pyproject(workspace):
    (rollout(workspace) / "pyproject.toml").unlink()
    assert found(workspace) == [("ENT008", "rollouts/multiply/pyproject.toml", None, None)]


def test_rollout_pyproject_without_osmosis_ai(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\nname = "m"\ndependencies = ["strands-agents", "osmosis"]\n')
    assert found(workspace) == [("ENT009", "rollouts/multiply/pyproject.toml", 3, 1)]


def test_rollout_pyproject_without_dependencies_points_at_project(workspace):
    write(rollout(workspace) / "pyproject.toml", '# deps\n[project]\nname = "m"\n')
    assert found(workspace) == [("ENT009", "rollouts/multiply/pyproject.toml", 2, 1)]


def test_invalid_rollout_pyproject(workspace):
    write(rollout(workspace) / "pyproject.toml", '[project]\ndependencies = ["osmosis-ai"\n')
    [(code, path, line, column)] = found(workspace)
    assert (code, path) == ("ENT010", "rollouts/multiply/pyproject.toml") and line is not None


@pytest.mark.parametrize("spec", ["osmosis-ai", "osmosis-ai[server]>=0.2", "Osmosis_AI ==0.2.1", "osmosis.ai; python_version>'3.9'", "osmosis-ai @ git+https://example.com/sdk"])
def test_any_spelling_of_the_sdk_requirement_is_accepted(workspace, spec):
    write(rollout(workspace) / "pyproject.toml", f'[project]\nname = "m"\ndependencies = ["{spec}"]\n')
    # whether the version fits is ENT016/ENT017's business (tests/entrypoints/test_sdk_generations.py)
    assert [c for c, *_ in found(workspace) if c not in ("ENT016", "ENT017")] == []


def test_poetry_dependencies_are_accepted(workspace):
    write(rollout(workspace) / "pyproject.toml", '[tool.poetry.dependencies]\nosmosis-ai = { version = "^0.2", extras = ["server"] }\n')
    assert found(workspace) == []


@pytest.mark.parametrize("text, name", [("osmosis-ai[server]>=0.2", "osmosis-ai"), ("A.B_c", "a-b-c"), ("", None), ("[x]", None)])
def test_requirement_name(text, name):
    assert requirement_name(text) == name


def test_check_entrypoint_file_for_a_missing_file(tmp_path):
    [d] = check_entrypoint_file(tmp_path / "nope.py", "nope.py")
    assert (d.code, d.path) == ("ENT002", "nope.py")
    assert "cannot be read" in d.message


def test_check_entrypoint_file_never_follows_imports_out_of_its_folder(tmp_path):
    write(tmp_path / "outside.py", "from osmosis_ai.rollout import AgentWorkflow\nclass Base(AgentWorkflow):\n    async def run(self, ctx): ...\n")
    entry = write(tmp_path / "rollout" / "main.py", "from ..outside import Base\n\nclass W(Base):\n    pass\n")
    found = check_entrypoint_file(entry, "main.py")
    # Base is not resolved, so W is not known to be a workflow; the relative import itself fails
    # when `eval run` starts main.py as a script
    assert sorted(d.code for d in found) == ["ENT003", "ENT031"]


def test_circular_sibling_imports_terminate(tmp_path):
    write(tmp_path / "a.py", "from b import X\n")
    write(tmp_path / "b.py", "from a import X\n")
    entry = write(tmp_path / "main.py", "from a import X\n\nclass W(X):\n    async def run(self, ctx): ...\n")
    [d] = check_entrypoint_file(entry, "main.py")
    assert d.code == "ENT003"


def test_doctor_cli_end_to_end(workspace):
    main = rollout(workspace) / "main.py"
    main.write_text(main.read_text().replace("async def grade", "def grade"))
    result = CliRunner().invoke(app, ["doctor", str(workspace), "--format", "json", "--select", "ENT"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [(d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        ("ENT007", "rollouts/multiply/main.py", 10, 5)
    ]


def test_symlink_loops_are_findings_not_crashes(workspace, tmp_path):
    main = rollout(workspace) / "main.py"
    main.unlink()
    main.symlink_to(main)  # a loop
    (rollout(workspace) / "tools.py").symlink_to(rollout(workspace) / "tools.py")
    point_configs_at(workspace, "main.py")
    assert found(workspace) == []  # the named entrypoint is not a file: the config checks say so
    [d] = check_entrypoint_file(main, "main.py")
    assert d.code == "ENT002" and "cannot be read" in d.message and "UTF-8" in d.hint


def test_sibling_import_through_a_symlink_out_of_the_rollout_is_not_followed(workspace, tmp_path):
    write(tmp_path / "outside" / "base.py", "from osmosis_ai.rollout import AgentWorkflow\nclass Base(AgentWorkflow):\n    async def run(self, ctx): ...\n")
    (rollout(workspace) / "base.py").symlink_to(tmp_path / "outside" / "base.py")
    write(rollout(workspace) / "main.py", "from base import Base\n\nclass W(Base):\n    pass\n")
    assert found(workspace) == [("ENT003", "rollouts/multiply/main.py", None, None)]


@pytest.mark.parametrize("line", [
    "type Pair = tuple[int, int]",                     # PEP 695 alias
    "def first[T](items: list[T]) -> T:\n    return items[0]",  # PEP 695 generic function
    "class Box[T]:\n    pass",                        # PEP 695 generic class
    'label = f"{"nested"} quotes"',                   # PEP 701 f-string
])
def test_python_3_12_syntax_is_not_an_error_when_doctor_runs_on_an_older_python(workspace, line):
    """The platform runs 3.12; doctor may run on 3.10 or 3.11, whose parser rejects these lines."""
    import sys

    write(rollout(workspace) / "main.py", MAIN_PY + "\n\n" + line + "\n")
    findings = [d for d in run_workspace_checks(Workspace(workspace), {"entrypoints"})]
    if sys.version_info >= (3, 12):
        assert findings == []
    else:
        assert [(d.code, d.severity.value) for d in findings] == [("ENT032", "warning")]
        assert "looks like Python 3.12 syntax" in findings[0].message


def test_a_real_syntax_error_stays_an_error(workspace):
    write(rollout(workspace) / "main.py", MAIN_PY + "\n\ndef broken(:\n    pass\n")
    findings = list(run_workspace_checks(Workspace(workspace), {"entrypoints"}))
    assert [(d.code, d.severity.value) for d in findings] == [("ENT002", "error")]


def test_a_misspelt_module_of_the_rollout_package_gets_the_closest_name():
    """ENT027 for `from pkg.workflw import ...`: the rule's fix promises the closest name, for a module too."""
    case = Path(__file__).resolve().parents[1] / "cases" / "entrypoints" / "bad_local_import" / "main.py"
    found = {d.line: d for d in check_entrypoint_file(case, "main.py") if d.code == "ENT027"}
    assert found[9].hint == "Did you mean pkg.workflow?"
    assert "MultiplyGrader" in (found[8].hint or "")
