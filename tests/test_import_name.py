"""The import package is osmosis_workspace, not the generic `generator` another distribution on the
index already ships: the wheel installed beside such a distribution leaves both importable."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.test_wheel import BIN, install_wheel, run, wheel_env

REPO = Path(__file__).resolve().parents[1]


def _dummy_generator_wheel(folder: Path) -> Path:
    """A tiny wheel of a distribution `generator-dummy` whose top-level package is `generator`."""
    wheel = folder / "generator_dummy-1.0-py3-none-any.whl"
    info = "generator_dummy-1.0.dist-info"
    files = {
        "generator/__init__.py": "WHO = 'the other distribution'\n",
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: generator-dummy\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/top_level.txt": "generator\n",
    }
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr(f"{info}/RECORD", "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n")
    return wheel


@pytest.mark.slow
def test_the_wheel_and_a_distribution_shipping_generator_install_side_by_side(release_wheel, tmp_path):
    with zipfile.ZipFile(release_wheel) as zf:
        tops = {name.split("/", 1)[0] for name in zf.namelist() if "/" in name}
    assert tops == {"osmosis_workspace", release_wheel.name.split("-py3")[0] + ".dist-info"}, tops
    python = install_wheel(release_wheel, tmp_path / "venv")
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", _dummy_generator_wheel(tmp_path)])
    probe = ("import generator, osmosis_workspace, osmosis_workspace.core.resources as r; "
             "print(generator.WHO); print(osmosis_workspace.__file__); print(r.templates_dir())")
    who, ours, templates = run([python, "-c", probe], cwd=tmp_path, env=wheel_env()).stdout.splitlines()
    assert who == "the other distribution"
    assert Path(ours).is_relative_to(tmp_path / "venv") and "_bundled" in templates
    for command in ([python, "-m", "osmosis_workspace", "--version"], [python.parent / "osmosis", "--version"],
                    [python.parent / "osmosis-workspace", "--version"]):
        assert run(command, cwd=tmp_path, env=wheel_env()).stdout.startswith("osmosis-workspace ")
    # uninstalling the other distribution leaves ours whole (no shared files)
    run([python, "-m", "pip", "uninstall", "--yes", "--quiet", "generator-dummy"])
    assert run([python.parent / "osmosis", "template", "list"], cwd=tmp_path, env=wheel_env()).stdout


def test_nothing_imports_the_folder_name():
    """The folder is generator/, the import name osmosis_workspace: an `import generator` would work in
    a checkout whose root is on sys.path and fail from the wheel."""
    import ast

    offenders = []
    for root in ("generator", "tests", "bench"):
        for path in (REPO / root).rglob("*.py"):
            if "cases" in path.relative_to(REPO).parts or ".venv" in path.parts:
                continue
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                names = ([node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else
                         [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                offenders += [f"{path.relative_to(REPO)}:{node.lineno}" for n in names
                              if n == "generator" or n.startswith("generator.")]
    assert offenders == [], offenders


def test_python_dash_m_and_the_editable_install_answer_to_the_import_name():
    # from outside the checkout, so only the installed name can answer
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "--version"], capture_output=True, text=True,
                          cwd=REPO.parent)
    assert done.returncode == 0 and done.stdout.startswith("osmosis-workspace "), done.stderr
    import osmosis_workspace

    # the test environment is an editable install of this checkout (the README's `pip install -e`):
    # the name is the folder generator/osmosis_workspace/ itself, so an edit is seen without reinstalling
    assert Path(osmosis_workspace.__file__).resolve() == (REPO / "generator" / "osmosis_workspace" / "__init__.py").resolve()


def test_a_bare_clone_maps_every_import_to_its_file_by_name():
    """Folder = import name: with generator/ on the path, `osmosis_workspace.a.b` is the file
    generator/osmosis_workspace/a/b.py, so a reader, a type checker or a structure viewer needs no
    install; and no build hook maps one onto the other."""
    import ast

    root = REPO / "generator"
    assert sorted(p.name for p in root.iterdir() if p.name != "__pycache__") == ["osmosis_workspace"]
    assert not (REPO / "hatch_build.py").exists()
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "hooks.custom" not in pyproject and "sources" not in pyproject and "dev-mode-dirs" not in pyproject
    missing = []
    for path in (root / "osmosis_workspace").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("osmosis_workspace"):
                base = root.joinpath(*node.module.split("."))
                if not (base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()):
                    missing.append(f"{path.relative_to(REPO)}:{node.lineno} {node.module}")
    assert missing == [], missing
