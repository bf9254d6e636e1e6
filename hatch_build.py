"""hatch's build hook for editable installs: the folder generator/ is the import package osmosis_workspace.

hatch maps the folder onto that name in the wheel (`sources` in pyproject.toml) but cannot do so in an
editable install, so this writes the editable wheel's two files itself: a module holding a finder that
answers `osmosis_workspace` with this checkout's generator/ folder, and the .pth file that installs it
at start-up. Every other build is left as hatch makes it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NAME = "osmosis_workspace"
FINDER = '''"""Editable install of osmosis-workspace: `{name}` is the checkout's folder {folder!r}."""

import importlib.abc
import importlib.util
import sys

_FOLDER = {folder!r}


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != {name!r}:
            return None
        return importlib.util.spec_from_file_location(fullname, _FOLDER + "/__init__.py",
                                                      submodule_search_locations=[_FOLDER])


if not any(type(f).__name__ == "_Finder" and getattr(f, "__module__", "") == __name__ for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
'''


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if version != "editable":
            return
        self._tmp = Path(tempfile.mkdtemp(prefix="osmosis-editable-"))
        folder = (Path(self.root) / "generator").resolve().as_posix()
        finder = self._tmp / f"_{NAME}_editable.py"
        finder.write_text(FINDER.format(name=NAME, folder=folder), encoding="utf-8")
        pth = self._tmp / f"_{NAME}_editable.pth"
        pth.write_text(f"import _{NAME}_editable\n", encoding="utf-8")
        # Only these two: the wheel's force-include (templates, skills) stays in the checkout, where
        # core/resources.py finds it beside the package.
        build_data["force_include_editable"] = {str(finder): finder.name, str(pth): pth.name}

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if version == "editable":
            shutil.rmtree(self._tmp, ignore_errors=True)
