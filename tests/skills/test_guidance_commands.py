"""Issue 38, point 1: every command the guidance names runs.

The command lines of a fresh workspace's guidance (AGENTS.md, configs/AGENTS.md, the READMEs, every
skill and reference), of `init`'s and `rollout new`'s next steps and of every `--help` example
(tests/skills/guidance_commands.py finds them) are compared, as shapes, with KNOWN below: a new shape
fails here until it is added, with what running it must do. Then each shape runs against a fresh
workspace of each bundled template (its rollout named `demo`; the `--help` examples, which name the
default workspace's `multiply`, against `osmosis init --defaults`):

- ``ok``: exits 0; ``findings``: exits 0 or 1 (a check that reports); ``refused``: exits 2 with its
  reason, never a parser's usage error or a traceback (e.g. `osmosis rehearse` before `uv sync`);
- ``mention``: a command named in a sentence, not a line to paste (`osmosis eval run`); that it
  exists is tests/cli/test_bundled_commands.py's;
- ``sdk:...``: the platform's CLI and uv, run on the real osmosis-ai by
  tests/sdk_real/test_guidance_commands_sdk.py (paid and networked ones to their refusal, no key):
  ``sdk:ok`` exits 0, ``sdk:ran`` a linter that ran (0 or 1), ``sdk:confirm`` `eval run` stopping
  at its question (what it would spend), ``sdk:refused`` the platform CLI's own refusal (no login,
  no `origin`, no key).
A ``mention`` that would change this machine (`osmosis upgrade`, `pip install`) is never run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guidance_commands as g  # noqa: E402

from tests.cli.test_bundled_commands import OURS, problem  # noqa: E402

TEMPLATES = ("multiply", "blank", "llm-judge", "calculator-remote", "code")
ROLLOUT = "demo"
RUNNER = CliRunner()

KNOWN: dict[str, str] = {
    'cd <workspace>': 'ok',  # init's and rollout new's next steps
    'cp .env.example .env': 'ok',  # README.md
    "git add -A && git commit -m 'Add rollout <rollout>'": 'ok',  # rollout new's next steps
    'git push': 'refused',  # .agents/skills/debug-rollouts/SKILL.md
    'git push -u origin HEAD': 'refused',  # .agents/skills/submit-eval/SKILL.md
    'git remote add origin URL': 'ok',  # .agents/skills/debug-rollouts/SKILL.md
    'git remote add origin https://github.com/OWNER/REPO.git': 'ok',  # init's next steps
    'git remote get-url origin': 'refused',  # .agents/skills/submit-eval/SKILL.md
    'git status': 'ok',  # .agents/skills/debug-rollouts/references/debugging-checklist.md
    'git status --short': 'ok',  # .agents/skills/submit-eval/SKILL.md
    'ls rollouts/ configs/eval/ configs/training/ data/': 'ok',  # .agents/skills/plan-training/SKILL.md
    'osmosis --json <command>': 'mention',  # .agents/skills/submit-eval/references/json-protocol.md
    'osmosis --json auth whoami': 'sdk:refused',  # AGENTS.md
    'osmosis --json benchmark info <benchmark-key>': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark info KEY': 'sdk:refused',  # .agents/skills/submit-benchmarks/references/benchmark-config.md
    'osmosis --json benchmark list': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark runs info <run-name>': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark runs info NAME': 'sdk:refused',  # AGENTS.md
    'osmosis --json benchmark runs list': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark runs logs <run-name>': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark submit configs/benchmark/<name>.toml': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json benchmark submit configs/benchmark/<name>.toml --yes': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis --json dataset list': 'sdk:refused',  # .agents/skills/plan-eval/SKILL.md
    'osmosis --json eval info <eval-name>': 'sdk:refused',  # .agents/skills/submit-training/SKILL.md
    'osmosis --json eval info <name>': 'sdk:refused',  # .agents/skills/plan-eval/references/eval-plan.md
    'osmosis --json eval info NAME': 'sdk:refused',  # AGENTS.md
    'osmosis --json eval logs <name>': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis --json eval run configs/eval/<name>.toml --dataset-file data/<dataset>.jsonl --rows 0-4': 'sdk:confirm',  # .agents/skills/evaluate-rollouts/SKILL.md
    'osmosis --json eval run configs/eval/<name>.toml --dataset-file data/<dataset>.jsonl --rows 0-4 --yes': 'sdk:refused',  # .agents/skills/evaluate-rollouts/SKILL.md
    'osmosis --json eval run configs/eval/<name>.toml --dataset-file data/<dataset>.jsonl --rows 3,7 --verbose': 'sdk:confirm',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis --json eval submit configs/eval/<name>.toml': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis --json eval submit configs/eval/<name>.toml --yes': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis --json model deploy <lora-model-name>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json model info <lora-model-name>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json model info <name>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json model info NAME': 'sdk:refused',  # .agents/skills/deploy-models/references/models.md
    'osmosis --json model list --type base': 'sdk:refused',  # .agents/skills/deploy-models/references/models.md
    'osmosis --json model list --type lora': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json model undeploy <lora-model-name>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json secret list': 'sdk:refused',  # .agents/skills/plan-eval/SKILL.md
    'osmosis --json train info <name>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json train info <run>': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis --json train logs <name>': 'sdk:refused',  # .agents/skills/submit-training/SKILL.md
    'osmosis --json train logs NAME': 'sdk:refused',  # AGENTS.md
    'osmosis --json train submit configs/training/<rollout>.toml': 'sdk:refused',  # .agents/skills/submit-training/SKILL.md
    'osmosis --json train submit configs/training/<rollout>.toml --yes': 'sdk:refused',  # .agents/skills/submit-training/SKILL.md
    'osmosis --version': 'findings',  # .agents/skills/debug-rollouts/references/failure-buckets.md
    'osmosis --workspace <name> model list': 'sdk:refused',  # .agents/skills/debug-rollouts/references/failure-buckets.md
    'osmosis --workspace <name> model list --type lora': 'sdk:refused',  # .agents/skills/deploy-models/references/models.md
    'osmosis auth login': 'sdk:refused',  # .agents/skills/deploy-models/SKILL.md
    'osmosis auth whoami': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis benchmark runs download <run-name> -o <dir>': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis benchmark runs stop <run-name>': 'sdk:refused',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis dataset upload': 'mention',
    'python -I -S': 'mention',  # the code template's README: how its sandbox starts the answer  # .agents/skills/plan-training/SKILL.md
    'osmosis dataset upload data/<dataset>.jsonl': 'sdk:refused',  # AGENTS.md
    'osmosis dataset upload data/<file>.jsonl': 'sdk:refused',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis dataset upload data/my-task.jsonl': 'sdk:refused',  # .agents/skills/plan-training/references/dataset-format.md
    'osmosis dataset validate': 'mention',  # .agents/skills/plan-training/references/dataset-format.md
    'osmosis dataset validate data/<file>': 'findings',  # .agents/skills/debug-rollouts/references/debugging-checklist.md
    'osmosis dataset validate data/<file>.jsonl': 'findings',  # .agents/skills/plan-training/SKILL.md
    'osmosis dataset validate data/multiply.jsonl': 'findings',  # osmosis dataset --help
    'osmosis dataset validate data/my-task.jsonl': 'findings',  # .agents/skills/plan-training/references/dataset-format.md
    'osmosis doctor': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis doctor --fix': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis doctor --format github': 'findings',  # osmosis --help
    'osmosis doctor --format json': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis doctor --list-checks': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis doctor --select ENT,CFG,SEC,DAT': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis doctor --select GIT': 'findings',  # .agents/skills/debug-rollouts/references/debugging-checklist.md
    'osmosis doctor --strict': 'findings',  # .agents/skills/submit-eval/SKILL.md
    'osmosis doctor --strict --select GIT': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis eval': 'mention',  # .agents/skills/debug-rollouts/references/failure-buckets.md
    'osmosis eval download <name> -o <dir>': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis eval retry <name>': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis eval run': 'mention',  # .agents/skills/create-rollouts/references/entrypoint-patterns.md
    'osmosis eval run CONFIG --dataset-file data/<file>.jsonl': 'sdk:confirm',  # .agents/skills/debug-rollouts/references/failure-buckets.md
    'osmosis eval run CONFIG --dataset-file data/<file>.jsonl --rows 0-4': 'sdk:confirm',  # .agents/skills/debug-rollouts/references/debugging-checklist.md
    'osmosis eval run configs/eval/<rollout>.toml --dataset-file data/<rollout>.jsonl': 'sdk:confirm',  # rollouts/demo/README.md
    'osmosis eval stop <name>': 'sdk:refused',  # .agents/skills/submit-eval/SKILL.md
    'osmosis eval submit': 'mention',  # .agents/skills/evaluate-rollouts/references/eval-config.md
    'osmosis eval upload': 'mention',  # AGENTS.md
    'osmosis eval upload <run>': 'sdk:refused',  # .agents/skills/debug-rollouts/references/failure-buckets.md
    'osmosis eval upload <run> --replace': 'sdk:refused',  # .agents/skills/evaluate-rollouts/SKILL.md
    'osmosis init': 'mention',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis init my-agent --template multiply --defaults': 'findings',  # osmosis init --help
    'osmosis lsp': 'mention',  # osmosis lsp --help
    'osmosis model deploy': 'mention',  # .agents/skills/deploy-models/SKILL.md
    'osmosis model deploy NAME': 'sdk:refused',  # .agents/skills/deploy-models/references/models.md
    'osmosis model undeploy NAME': 'sdk:refused',  # .agents/skills/deploy-models/references/models.md
    'osmosis rehearse': 'refused:uv sync',  # AGENTS.md
    'osmosis rehearse <rollout>': 'refused:uv sync',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis rehearse <rollout> --format json': 'refused:uv sync',
    'osmosis rehearse <rollout> --rows 0-30': 'refused:uv sync',  # the code template's README  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis rehearse multiply --rows 0-3': 'refused:uv sync',  # osmosis rehearse --help
    'osmosis rollout init my-task': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis rollout new': 'mention',  # .agents/skills/submit-training/references/training-config-gates.md
    'osmosis rollout new <name> --template <template>': 'findings',  # AGENTS.md
    'osmosis rollout new NAME --template T': 'findings',  # .agents/skills/create-rollouts/references/entrypoint-patterns.md
    'osmosis rollout new NAME --template multiply --data task=single-answer': 'findings',  # rollouts/demo/README.md
    'osmosis rollout new adder --template multiply --data integration=openai-agents': 'findings',  # osmosis rollout --help
    'osmosis rollout new adder --template multiply --data integration=openai-agents --defaults': 'findings',  # osmosis rollout new --help
    'osmosis rollout new my-qa --template multiply --data task=single-answer --defaults': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis rollout new my-task --template multiply --defaults': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis rollout new py-tasks --template code --defaults': 'findings',  # .agents/skills/create-rollouts/references/code-graders.md
    'osmosis rule <CODE>': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis rule CFG003 --format json': 'findings',  # osmosis rule --help
    'osmosis schema eval': 'findings',  # osmosis schema --help
    'osmosis schema training': 'findings',  # .agents/skills/submit-training/references/training-config.md
    'osmosis secret set': 'mention',  # AGENTS.md
    'osmosis secret set NAME': 'sdk:refused',  # .agents/skills/submit-training/references/training-config-gates.md
    'osmosis secret set NAME --env NAME': 'sdk:refused',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis secret set OPENAI_API_KEY': 'sdk:refused',  # rollouts/demo/README.md
    'osmosis secret set OPENAI_API_KEY --env OPENAI_API_KEY': 'sdk:refused',  # .agents/skills/evaluate-rollouts/references/eval-config.md
    'osmosis template inspect NAME': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis template inspect multiply': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis template inspect multiply --json': 'findings',  # osmosis template inspect --help
    'osmosis template list': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis template list --json': 'findings',  # osmosis template list --help
    'osmosis train stop <name>': 'sdk:refused',  # .agents/skills/submit-training/SKILL.md
    'osmosis update': 'findings',  # AGENTS.md
    'osmosis update --dry-run': 'findings',  # AGENTS.md
    'osmosis upgrade': 'mention',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis validate': 'mention',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis validate <config, dataset, entrypoint or skill folder>': 'findings',  # .agents/skills/debug-rollouts/SKILL.md
    'osmosis validate <path>': 'findings',  # AGENTS.md
    'osmosis validate CONFIG': 'findings',  # .agents/skills/submit-eval/references/json-protocol.md
    'osmosis validate configs/benchmark/<name>.toml': 'findings',  # .agents/skills/submit-benchmarks/SKILL.md
    'osmosis validate configs/eval/<name>.toml': 'findings',  # .agents/skills/submit-eval/SKILL.md
    'osmosis validate configs/eval/<name>.toml data/<dataset>.jsonl': 'findings',  # .agents/skills/evaluate-rollouts/SKILL.md
    'osmosis validate configs/eval/<rollout>.toml': 'findings',  # .agents/skills/evaluate-rollouts/references/eval-config.md
    'osmosis validate configs/eval/<rollout>.toml configs/training/<rollout>.toml': 'findings',  # .agents/skills/debug-rollouts/references/debugging-checklist.md
    'osmosis validate configs/eval/multiply.toml data/multiply.jsonl': 'findings',  # osmosis validate --help
    'osmosis validate configs/training/<rollout>.toml': 'findings',  # .agents/skills/submit-training/SKILL.md
    'osmosis validate data/': 'findings',  # .agents/skills/plan-training/references/dataset-format.md
    'osmosis validate rollouts/my-task/main.py configs/eval/my-task.toml configs/training/my-task.toml': 'findings',  # .agents/skills/create-rollouts/SKILL.md
    'osmosis-workspace doctor': 'findings',  # README.md
    'osmosis-workspace doctor --format json': 'findings',  # AGENTS.md
    'pip install': 'mention',  # README.md
    'pip install "osmosis-workspace==<version>"': 'mention',  # README.md
    'pip install --group dev': 'mention',  # README.md
    'python -m pytest': 'mention',  # README.md
    'ruff format': 'mention',  # .agents/skills/create-rollouts/SKILL.md
    'uv lock': 'sdk:ok',  # AGENTS.md
    'uv lock --project rollouts/<rollout>': 'sdk:ok',  # AGENTS.md
    'uv run --project rollouts/<rollout> --with pytest pytest rollouts/<rollout>': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
    'uv run --project rollouts/my-task --with pytest pytest rollouts/my-task': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
    'uv run --with ruff ruff check rollouts/<rollout>': 'sdk:ran',  # .agents/skills/create-rollouts/SKILL.md
    'uv run --with ruff ruff check rollouts/my-task': 'sdk:ran',  # .agents/skills/create-rollouts/SKILL.md
    'uv run --with ruff ruff format --check rollouts/<rollout>': 'sdk:ran',  # .agents/skills/create-rollouts/SKILL.md
    'uv run --with ruff ruff format rollouts/<rollout>': 'sdk:ok',  # AGENTS.md
    'uv run --with ruff ruff format rollouts/my-task': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
    'uv run osmosis --json dataset upload data/<rollout>.jsonl': 'sdk:refused',  # README.md
    'uv run osmosis --json eval run configs/eval/<rollout>.toml --dataset-file data/<rollout>.jsonl --rows 0-3': 'sdk:confirm',  # init's next steps
    'uv run osmosis --json eval run configs/eval/<rollout>.toml --dataset-file data/<rollout>.jsonl --rows 0-4': 'sdk:confirm',  # README.md
    'uv run osmosis --json eval submit configs/eval/<rollout>.toml': 'sdk:refused',  # README.md
    'uv run osmosis --json train submit configs/training/<rollout>.toml': 'sdk:refused',  # README.md
    'uv run osmosis auth login': 'sdk:refused',  # README.md
    'uv run osmosis dataset upload': 'mention',  # configs/AGENTS.md
    'uv run osmosis --json eval run': 'mention',
    'uv run osmosis --json benchmark submit configs/benchmark/<name>.toml': 'sdk:refused',  # configs/AGENTS.md
    'uv sync': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
    'uv sync --project rollouts/<rollout>': 'sdk:ok',  # .agents/skills/create-rollouts/SKILL.md
}


def _init(target: Path, *args: str) -> str:
    result = RUNNER.invoke(app, ["init", str(target), *args])
    assert result.exit_code == 0, result.output
    return result.output


def collect(base: Path) -> tuple[dict[str, set[str]], dict[str, Path]]:
    """(shape -> where it is written, template -> its fresh workspace)."""
    from osmosis_workspace import __version__

    shapes: dict[str, set[str]] = {}
    workspaces: dict[str, Path] = {}
    for template in TEMPLATES:
        ws = base / template / "ws"
        copy = base / template / "added"
        names = {ROLLOUT: "<rollout>", str(ws): "<workspace>", __version__: "<version>"}
        output = _init(ws, "--template", template, "--defaults", "--data", f"rollout_name={ROLLOUT}")
        workspaces[template] = ws
        workspaces[f"{template}+extra"] = copy
        for path in g.workspace_guidance(ws):
            for line in g.lines_in_markdown(path.read_text(encoding="utf-8")):
                shapes.setdefault(g.shape(line, names), set()).add(f"{template}: {path.relative_to(ws).as_posix()}")
        for line in g.lines_in_steps(output):
            shapes.setdefault(g.shape(line, names), set()).add(f"{template}: init's next steps")
        shutil.copytree(ws, copy, symlinks=True)
        result = RUNNER.invoke(app, ["rollout", "new", "extra", "--template", template, "--defaults", "--workspace", str(copy)])
        assert result.exit_code == 0, result.output
        for line in g.lines_in_steps(result.output):
            shapes.setdefault(g.shape(line, {"extra": "<rollout>", str(copy): "<workspace>"}),
                              set()).add(f"{template}: rollout new's next steps")
    for command, text in g.help_texts().items():
        for line in g.lines_in_help(text):
            shapes.setdefault(line, set()).add(f"{command} --help")
    return shapes, workspaces


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    base = tmp_path_factory.mktemp("guidance")
    shapes, workspaces = collect(base)
    default = base / "default" / "ws"
    _init(default, "--defaults")
    workspaces["default"] = default
    return shapes, workspaces


def test_every_command_shape_the_guidance_names_is_known(found):
    shapes, _ = found
    new = sorted(set(shapes) - set(KNOWN))
    gone = sorted(set(KNOWN) - set(shapes))
    assert not new, "shapes the guidance names that KNOWN does not list (add each, with what running it must do):\n" + \
        "\n".join(f"    {s!r}: '?',  # {sorted(shapes[s])[0]}" for s in new)
    assert not gone, f"KNOWN lists shapes no guidance names any more (remove them): {gone}"


def test_the_extraction_finds_each_kind_of_source(found):
    """It finds what it must, else the tests here pass on nothing."""
    shapes, _ = found
    sources = {where.split(": ", 1)[-1] for places in shapes.values() for where in places}
    for expected in ("AGENTS.md", "configs/AGENTS.md", "README.md", "rollouts/demo/README.md", "init's next steps",
                     "rollout new's next steps", "osmosis rehearse --help", ".agents/skills/create-rollouts/SKILL.md"):
        assert expected in sources, (expected, sorted(sources))
    assert len(shapes) > 100


# -- running them -------------------------------------------------------------------------------------

VALUES = {   # in order: the longer phrases first
    "rollout new <name> --template <template>": "rollout new other --template multiply",
    "rollout new NAME --template T": "rollout new other --template multiply",
    "template inspect NAME": "template inspect multiply",
    "configs/benchmark/<name>.toml": "configs/benchmark/default.toml",
    "data/<file>.jsonl": f"data/{ROLLOUT}.jsonl", "data/<file>": f"data/{ROLLOUT}.jsonl", "<workspace>": ".",
    "<config, dataset, entrypoint or skill folder>": f"configs/eval/{ROLLOUT}.toml",
    "<rollout>": ROLLOUT, "<name>": ROLLOUT, "<dataset>": ROLLOUT, "<file>": ROLLOUT, "<path>": f"configs/eval/{ROLLOUT}.toml",
    "CONFIG": f"configs/eval/{ROLLOUT}.toml", "<template>": "multiply", "<CODE>": "CFG003", "<dir>": "out",
    "URL": "https://github.com/OWNER/REPO.git", "rollouts/my-task": f"rollouts/{ROLLOUT}",
    "eval/my-task": f"eval/{ROLLOUT}", "training/my-task": f"training/{ROLLOUT}", "data/my-task": f"data/{ROLLOUT}",
}


def concrete(shape: str, rollout: str = ROLLOUT) -> str:
    line = g.concrete(shape, {k: v.replace(ROLLOUT, rollout) for k, v in VALUES.items()})
    return re.sub(r"<[\w -]+>|\bNAME\b|\bKEY\b", "demo-run", line)


def _ours(tokens: list[str]) -> bool:
    return problem(OURS, tokens) is None


def runs_here(shape: str) -> bool:
    return KNOWN.get(shape, "").split(":")[0] in ("ok", "findings", "refused")


# lines only `rollout new`'s next steps print: run in the workspace it left, for the rollout it added
AFTER_ROLLOUT_NEW = {"git add -A && git commit -m 'Add rollout <rollout>'"}


def _cases() -> list[tuple[str, str]]:
    out = []
    for shape in sorted(s for s in KNOWN if runs_here(s)):
        if shape in HELP_EXAMPLES:
            out.append(("default", shape))
        else:
            out += [(f"{t}+extra" if shape in AFTER_ROLLOUT_NEW else t, shape) for t in TEMPLATES]
    return out


# the --help examples: written for the default workspace (`osmosis init --defaults`, rollout multiply)
HELP_EXAMPLES = {
    'osmosis dataset validate data/multiply.jsonl',
    'osmosis doctor --format github',
    'osmosis init my-agent --template multiply --defaults',
    'osmosis lsp',
    'osmosis rehearse multiply --rows 0-3',
    'osmosis rollout new adder --template multiply --data integration=openai-agents',
    'osmosis rollout new adder --template multiply --data integration=openai-agents --defaults',
    'osmosis rule CFG003 --format json',
    'osmosis schema eval',
    'osmosis template inspect multiply --json',
    'osmosis template list',
    'osmosis template list --json',
    'osmosis update --dry-run',
    'osmosis validate configs/eval/multiply.toml data/multiply.jsonl',
}


def run_line(line: str, ws: Path, home: Path) -> tuple[int, str]:
    words = shlex.split(line)
    if words[0] in ("osmosis", "osmosis-workspace"):
        old = Path.cwd()
        os.chdir(ws)
        try:
            result = RUNNER.invoke(app, words[1:], env={"HOME": str(home), "NO_COLOR": "1"})
        finally:
            os.chdir(old)
        return result.exit_code, result.output
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "GIT_TERMINAL_PROMPT": "0",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C.UTF-8",
           **{f"GIT_{who}_{part}": value for who in ("AUTHOR", "COMMITTER")
              for part, value in (("NAME", "t"), ("EMAIL", "t@example.invalid"))}}
    done = subprocess.run(["bash", "-c", line], cwd=ws, capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("template, shape", _cases())
def test_each_command_runs_against_a_fresh_workspace(found, template, shape, tmp_path):
    _, workspaces = found
    ws = tmp_path / "ws"
    shutil.copytree(workspaces[template], ws, symlinks=True)
    home = tmp_path / "home"
    home.mkdir()
    line = concrete(shape, "extra" if template.endswith("+extra") else ROLLOUT)
    code, output = run_line(line, ws, home)
    expected, _, says = KNOWN[shape].partition(":")
    assert "Traceback" not in output and "No such option" not in output and "No such command" not in output, output
    assert code not in (126, 127), f"{line}: not found\n{output}"
    if expected == "ok":
        assert code == 0, f"{line}\n{output[-3000:]}"
    elif expected == "findings":
        assert code in (0, 1), f"{line}\n{output[-3000:]}"
    else:  # refused: a reason of its own, not a parser's usage error
        assert code != 0 and "Usage:" not in output and output.strip(), f"{line}\n{output[-3000:]}"
    assert says in " ".join(output.split()), f"{line}: the output does not say {says!r}\n{output[-3000:]}"
