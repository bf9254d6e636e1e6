"""Issue 29, point 8: what doctor missed against osmosis-ai 0.3.8, one edit of a fresh multiply
workspace each (the SDK refuses every one: config suffix in workspace_directory_contract.py, dataset
formats in platform/constants.py VALID_EXTENSIONS, the rest at submit's import or `eval run`'s
launch; bench/sdk_agreement.py judges the same edits with the real SDK). And none of the new
findings fires on a bundled template or on the platform's workspace template.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

MAIN = "rollouts/multiply/main.py"
WF = "rollouts/multiply/multiply_rollout/workflow.py"
PORT = 'port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))'
BACKEND = "backend = LocalBackend("
INIT = "rollouts/multiply/multiply_rollout/__init__.py"
DOC_END = 'scoring rule."""\n'
NEW = {"CFG031", "ENT037", "ENT038", "ENT039", "ENT040", "ENT041"}
TOUCHED = NEW | {"DAT001", "ENT022", "ENT027", "ENT028", "ENT029"}
PLATFORM_TEMPLATE = Path(__file__).resolve().parents[1] / "cases" / "workspace_template"

# (id, file, old, new, the error doctor must report); old "MOVE" renames the file to new
MUTATIONS = [
    ("eval-config-tml", "configs/eval/multiply.toml", "MOVE", "configs/eval/multiply.tml", "CFG031"),
    ("training-config-upper", "configs/training/multiply.toml", "MOVE", "configs/training/multiply.TOML", "CFG031"),
    ("data-ndjson", "data/multiply.jsonl", "MOVE", "data/multiply.ndjson", "DAT001"),
    ("data-txt", "data/multiply.jsonl", "MOVE", "data/multiply.txt", "DAT001"),
    ("data-tsv", "data/multiply.jsonl", "MOVE", "data/multiply.tsv", "DAT001"),
    ("data-pq", "data/multiply.jsonl", "MOVE", "data/multiply.pq", "DAT001"),
    ("data-no-extension", "data/multiply.jsonl", "MOVE", "data/multiply", "DAT001"),
    ("unbound-backnd", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=backnd)", "ENT037"),
    ("grader-import-removed", MAIN, "import MultiplyGrader, grader_config", "import grader_config", "ENT037"),
    ("import-osmosis", MAIN, "import os\n", "import os\n\nimport osmosis\n", "ENT038"),
    ("import-misspelt", WF, "from strands import tool", "from strandz import tool", "ENT038"),
    ("raise-at-import", MAIN, BACKEND, 'raise RuntimeError("not ready")\n' + BACKEND, "ENT039"),
    ("exit-at-import", MAIN, "import os\n", "import os\nimport sys\n\nsys.exit(1)\n", "ENT039"),
    ("package-init-raises", INIT, DOC_END, DOC_END + '\nraise RuntimeError("configure me first")\n', "ENT041"),
    ("package-init-raises-bare", INIT, DOC_END, DOC_END + "\nimport os\n\nraise\n", "ENT041"),
    ("required-env", MAIN, BACKEND, 'KEY = os.environ["MULTIPLY_API_KEY"]\n' + BACKEND, "ENT040"),
    ("grader-path-unknown", MAIN, "grader=MultiplyGrader,", 'grader="multiply_rollout.grader:MultiplyGraderX",', "ENT027"),
    ("grader-path-no-colon", MAIN, "grader=MultiplyGrader,", 'grader="multiply_rollout.grader.MultiplyGrader",', "ENT028"),
    ("workflow-config-dict", MAIN, "workflow_config=workflow_config,", 'workflow_config={"name": "multiply"},', "ENT028"),
    ("backend-none", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=None)", "ENT028"),
    ("port-constant-other", MAIN, PORT, 'port=int(os.environ.get(PORT_ENV, "8000"))', "ENT029"),
    ("port-constant-retired", MAIN, PORT, 'port=int(os.environ.get(OLD_ENV, "8000"))', "ENT022"),
]
CONSTANTS = {"port-constant-other": 'PORT_ENV = "ROLLOUT_LISTEN"\n', "port-constant-retired": 'OLD_ENV = "OSMOSIS_ROLLOUT_PORT"\n'}
# Edits the SDK accepts: the same places, written the way that works.
FINE = [
    ("grader-path-ok", MAIN, "grader=MultiplyGrader,", 'grader="multiply_rollout.grader:MultiplyGrader",'),
    ("port-constant-ok", MAIN, PORT, 'port=int(os.environ.get(PORT_ENV, "8000"))'),
    ("env-get", MAIN, BACKEND, 'KEY = os.environ.get("MULTIPLY_API_KEY")\n' + BACKEND),
    ("package-init-raise-under-if", INIT, DOC_END, DOC_END + 'import os\n\nif os.environ.get("NEVER"):\n    raise RuntimeError("x")\n'),
    ("package-init-raise-in-try", INIT, DOC_END, DOC_END + 'try:\n    raise ImportError("x")\nexcept ImportError:\n    pass\n'),
    ("package-init-raise-in-def", INIT, DOC_END, DOC_END + '\ndef fail():\n    raise RuntimeError("x")\n'),
    ("package-init-raise-in-class-method", INIT, DOC_END, DOC_END + '\nclass C:\n    def m(self):\n        raise ValueError\n'),
    ("notes-beside-data", "data/multiply.jsonl", "COPY", "data/multiply.md"),
    ("readme-in-configs", "configs/eval/multiply.toml", "WRITE", "configs/eval/README.md"),
]


def _doctor(ws: Path) -> list[dict]:
    result = CliRunner().invoke(app, ["doctor", str(ws), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["diagnostics"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("misses") / "ws"
    result = CliRunner().invoke(app, ["init", str(root), "--template", "multiply", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    return root


def _mutated(fresh: Path, tmp_path: Path, ident: str, rel: str, old: str, new: str) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(fresh, ws, symlinks=True)
    path = ws / rel
    if old == "MOVE":
        path.rename(ws / new)
    elif old == "COPY":
        shutil.copy(path, ws / new)
    elif old == "WRITE":
        (ws / new).write_text("# Eval configs\n\nOne file per run; see multiply.toml.\n", encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
        assert old in text, ident
        text = text.replace(old, new, 1)
        if ident in CONSTANTS or ident == "port-constant-ok":
            text = text.replace(BACKEND, CONSTANTS.get(ident, 'PORT_ENV = "_OSMOSIS_ROLLOUT_PORT"\n') + BACKEND, 1)
        path.write_text(text, encoding="utf-8")
    return ws


@pytest.mark.parametrize(("ident", "rel", "old", "new", "code"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_each_mutation_the_sdk_refuses_is_an_error(fresh, tmp_path, ident, rel, old, new, code):
    found = _doctor(_mutated(fresh, tmp_path, ident, rel, old, new))
    errors = [d for d in found if d["code"] == code and d["severity"] == "error"]
    assert errors, [(d["code"], d["message"]) for d in found]
    assert all(d["path"] and d["message"] and d["hint"] for d in errors)
    if code.startswith("ENT"):
        assert all(d["line"] for d in errors)
    if ident == "eval-config-tml":  # one root cause: the misnamed file, not a rollout "without" an eval config
        assert "CFG020" not in [d["code"] for d in found]


@pytest.mark.parametrize(("ident", "rel", "old", "new"), FINE, ids=[m[0] for m in FINE])
def test_the_working_spelling_is_clean(fresh, tmp_path, ident, rel, old, new):
    found = _doctor(_mutated(fresh, tmp_path, ident, rel, old, new))
    assert [d for d in found if d["code"] in TOUCHED] == []


def test_a_data_file_nobody_names_stays_a_warning(fresh, tmp_path):
    ws = _mutated(fresh, tmp_path, "other", "data/multiply.jsonl", "COPY", "data/other.ndjson")
    found = [(d["code"], d["severity"]) for d in _doctor(ws) if d["path"] == "data/other.ndjson"]
    assert found == [("DAT020", "warning")]


TEMPLATE_VARIANTS = [
    ("multiply", ("integration=strands",)), ("multiply", ("integration=openai-agents",)),
    ("multiply", ("integration=harbor",)), ("multiply", ("integration=strands", "task=single-answer")),
    ("multiply", ("integration=openai-agents", "task=single-answer")),
    ("llm-judge", ()), ("calculator-remote", ()), ("blank", ()), ("code", ()),
]


@pytest.mark.parametrize(("template", "data"), TEMPLATE_VARIANTS, ids=[f"{t}-{'-'.join(d)}" for t, d in TEMPLATE_VARIANTS])
def test_no_new_finding_on_a_bundled_template(tmp_path, template, data):
    ws = tmp_path / "ws"
    args = ["init", str(ws), "--template", template, "--defaults", "--no-git"]
    for item in data:
        args += ["--data", item]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert [(d["code"], d["path"], d["message"]) for d in _doctor(ws) if d["code"] in TOUCHED] == []


def test_no_new_finding_on_the_platform_template(tmp_path):
    ws = tmp_path / "platform"
    shutil.copytree(PLATFORM_TEMPLATE, ws, symlinks=True)
    assert [(d["code"], d["path"], d["message"]) for d in _doctor(ws) if d["code"] in TOUCHED] == []


def test_a_raising_package_init_is_one_error_at_the_import_that_reaches_it(fresh, tmp_path):
    ws = _mutated(fresh, tmp_path, "init", INIT, DOC_END, DOC_END + '\nraise RuntimeError("configure me first")\n')
    found = [d for d in _doctor(ws) if d["code"] in ("ENT039", "ENT041")]
    main = (ws / MAIN).read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(main, 1) if line.startswith("from multiply_rollout."))
    # once per package, at the first import through it; the raise is named for the fix
    assert [(d["code"], d["path"], d["line"]) for d in found] == [("ENT041", MAIN, first)]
    assert "multiply_rollout/__init__.py" in found[0]["message"] and "RuntimeError('configure me first')" in found[0]["message"]
    assert f"{INIT}:3" in found[0]["hint"]


def test_a_package_the_entrypoint_imports_itself_keeps_ent039_at_its_raise_and_nested_packages_are_followed(fresh, tmp_path):
    ws = _mutated(fresh, tmp_path, "init", INIT, DOC_END, DOC_END + '\nraise RuntimeError("x")\n')
    main = ws / MAIN
    main.write_text(main.read_text(encoding="utf-8").replace("import os\n", "import os\n\nimport multiply_rollout\n", 1), encoding="utf-8")
    found = [(d["code"], d["path"]) for d in _doctor(ws) if d["code"] in ("ENT039", "ENT041")]
    assert found == [("ENT039", INIT)]   # one root cause, one finding: the package is read as a module itself
    # a package below the rollout's package, reached by a relative import from a module the entrypoint imports
    ws2 = _mutated(fresh, tmp_path / "nested", "nested", WF, "from strands import tool", "from strands import tool\nfrom .sub.deep import X")
    sub = ws2 / "rollouts/multiply/multiply_rollout/sub"
    sub.mkdir()
    (sub / "__init__.py").write_text('"""Sub."""\nraise NotImplementedError\n', encoding="utf-8")
    (sub / "deep.py").write_text("X = 1\n", encoding="utf-8")
    found = [(d["code"], d["path"]) for d in _doctor(ws2) if d["code"] in ("ENT039", "ENT041")]
    assert found == [("ENT041", WF)]
