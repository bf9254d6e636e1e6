"""Run another checkout's osmosis_workspace, not this one's, for a benchmark's "before" column.

`python -m osmosis_workspace` anywhere finds this checkout's package first: the editable install puts
its generator/ on sys.path, and older checkouts installed an import hook in sys.meta_path. The launcher
below goes first in sys.meta_path and answers for the other checkout's package folder, whatever its layout.
"""

from __future__ import annotations

import sys
from pathlib import Path

_LAUNCH_OTHER = """import importlib.abc, importlib.util, runpy, sys
package, folder = sys.argv.pop(1), sys.argv.pop(1)
class Other(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == package:
            return importlib.util.spec_from_file_location(name, folder + "/__init__.py", submodule_search_locations=[folder])
sys.meta_path.insert(0, Other())
runpy.run_module(package, run_name="__main__", alter_sys=True)
"""


def package_folder(checkout: Path) -> Path:
    """The package folder of a checkout: generator/osmosis_workspace/ now, generator/ itself before."""
    folder = checkout / "generator"
    return folder / "osmosis_workspace" if (folder / "osmosis_workspace").is_dir() else folder


def other_checkout_cmd(checkout: Path) -> list[str]:
    """The command that runs ``checkout``'s package as `python -m` would; append the CLI arguments.

    Older checkouts imported their folder as `generator`, their own name for it then.
    """
    folder = package_folder(checkout)
    package = "generator" if "from generator" in (folder / "__main__.py").read_text() else "osmosis_workspace"
    return [sys.executable, "-c", _LAUNCH_OTHER, package, str(folder)]
