"""The lockfiles the templates ship: which rendered project each one locks, and how it is made.

Every bundled rollout template (and each integration of `multiply`) ships the ``uv.lock`` that
``uv sync --project rollouts/<rollout>`` (what the SDK's ``osmosis eval run`` runs) installs; the
workspace template ships the root's. A lock is made by rendering a workspace with our own CLI,
running ``uv lock`` on the rendered project, and storing the result with the project's name
replaced by the template variable that names it (the only line of a lock that depends on the
answers). ``bench/locks.py`` writes them; tests/sdk_real runs the rendered workspaces from them.

Besides the shipped (newest) locks, each variant has a *floor* lock: the same project resolved with
``--resolution lowest-direct``, so ``osmosis-ai`` sits at the lowest release its requirement
admits. It is not shipped; tests/sdk_real runs the same checks from it (``UV_RESOLUTION`` set to
match, so ``uv sync`` takes it as it is).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import sdk_harness as h

REPO = Path(__file__).resolve().parents[2]
FLOOR_DIR = Path(__file__).resolve().parent / "floor_locks"
ROOT_ID = "workspace"
FLOOR_RESOLUTION = "lowest-direct"


@dataclass(frozen=True)
class LockVariant:
    id: str                  # a scenario id of sdk_harness, or ROOT_ID for the workspace root
    template_file: str       # the lock's file in the repository (a copier template file)
    variable: str            # the template variable that names the locked project
    project: str             # the project's folder in a rendered scenario workspace ("." = the root)

    @property
    def shipped(self) -> Path:
        return REPO / self.template_file

    @property
    def floor(self) -> Path:
        return FLOOR_DIR / f"{self.id}.uv.lock"


def _rollout_lock(template: str, condition: str | None = None) -> str:
    name = f"{{% if {condition} %}}uv.lock{{% endif %}}.jinja" if condition else "uv.lock.jinja"
    return f"templates/{template}/template/rollouts/{{{{ rollout_name }}}}/{name}"


def _variant(scenario: h.Scenario) -> LockVariant:
    integration = next((d.split("=", 1)[1] for d in scenario.data if d.startswith("integration=")), "strands")
    condition = f"integration == '{integration}'" if scenario.template == "multiply" else None
    return LockVariant(scenario.id, _rollout_lock(scenario.template, condition), "rollout_name",
                       f"rollouts/{scenario.rollout}")


VARIANTS: list[LockVariant] = [
    LockVariant(ROOT_ID, "templates/workspace/template/uv.lock.jinja", "workspace_name", "."),
    *(_variant(s) for s in h.SCENARIOS),
]
BY_ID = {v.id: v for v in VARIANTS}


def scenario_of(variant: LockVariant) -> h.Scenario:
    """The scenario whose rendered workspace holds the variant's project (the root: the first one)."""
    return next((s for s in h.SCENARIOS if s.id == variant.id), h.SCENARIOS[0])


def project_name(project_dir: Path) -> str:
    text = (project_dir / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'(?m)^name = "([^"]+)"', text)
    assert found, f"no [project] name in {project_dir}/pyproject.toml"
    return found.group(1)


def lock(project_dir: Path, *, resolution: str | None = None, upgrade: bool = False) -> str:
    """``uv lock`` the project in ``project_dir`` (a rendered workspace's folder); its lock text."""
    argv = [h.uv_binary(), "lock", "--project", str(project_dir)]
    if resolution:
        argv += ["--resolution", resolution]
    if upgrade:
        argv.append("--upgrade")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900,
                          env=h.uv_environment(h.find_python312(), drop=("UV_INDEX_URL", "UV_DEFAULT_INDEX", "UV_EXTRA_INDEX_URL")))
    if done.returncode != 0:
        raise h.HarnessError(f"uv lock failed in {project_dir}:\n{done.stderr.strip()[-3000:]}")
    return (project_dir / "uv.lock").read_text(encoding="utf-8")


_RAW_OPEN, _RAW_CLOSE = "{% raw %}", "{% endraw %}"


def to_template(lock_text: str, name: str, variable: str) -> str:
    """A lock as a copier template: verbatim, but for the project's own name."""
    line = f'name = "{name}"\n'
    assert lock_text.count(line) == 1, f"the lock names {name!r} {lock_text.count(line)} times, not once"
    assert _RAW_CLOSE not in lock_text, "a lock holding '{% endraw %}' cannot be stored verbatim"
    before, after = lock_text.split(line)
    return f'{_RAW_OPEN}{before}{_RAW_CLOSE}name = "{{{{ {variable} }}}}"\n{_RAW_OPEN}{after}{_RAW_CLOSE}'


def from_template(template_text: str, variable: str, name: str) -> str:
    """The inverse of ``to_template`` (what copier renders), for comparing and for tests."""
    text = template_text.replace(f'name = "{{{{ {variable} }}}}"\n', f'name = "{name}"\n', 1)
    return text.replace(_RAW_OPEN, "").replace(_RAW_CLOSE, "")
