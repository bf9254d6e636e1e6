"""Issue 38, points 2 and 3: every path the guidance names exists in a fresh workspace (or is one a
later step makes, listed here with the step), every cross-reference resolves, what `--help` cites is
in the workspace, and every list the code owns (probes, verdicts, output formats, rule codes and
their ranges, the rollout's file names) is generated from its table or compared with it here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guidance_blocks as blocks  # noqa: E402
import guidance_commands as g  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = ("multiply", "blank", "llm-judge", "calculator-remote", "code")
ROLLOUT = "demo"
AGENTS = REPO / "templates" / "workspace" / "template" / "AGENTS.md.jinja"
PROBE_REFERENCE = ".agents/skills/debug-rollouts/references/rehearse-probes.md"


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("sources")
    out = {}
    for template in TEMPLATES:
        result = CliRunner().invoke(app, ["init", str(base / template), "--template", template, "--defaults", "--no-git",
                                          "--data", f"rollout_name={ROLLOUT}"])
        assert result.exit_code == 0, result.output
        out[template] = base / template
    return out


# -- one source for every list ------------------------------------------------------------------------

def test_every_generated_passage_is_what_its_table_makes_now():
    """A passage between `<!-- generated:NAME -->` markers is BLOCKS[NAME]() exactly: after a table
    changes, `python tests/skills/guidance_blocks.py` rewrites them, and this fails until it has."""
    stale = [path.relative_to(REPO).as_posix() for path in blocks.guidance_files()
             if blocks.refreshed(text := path.read_text(encoding="utf-8")) != text]
    assert not stale, f"stale generated passages in {stale}: run `python tests/skills/guidance_blocks.py`"
    used = {m.group(2) for path in blocks.guidance_files() for m in blocks.MARKED.finditer(path.read_text(encoding="utf-8"))}
    assert used == set(blocks.BLOCKS), used


def test_a_stale_passage_is_caught():
    """The check above can fail: a probe list with one probe left out is rewritten."""
    from osmosis_workspace.rehearse.probes import PROBES

    stale = "<!-- generated:probe-names -->" + ", ".join(f"`{p}`" for p in PROBES[:-1]) + "<!-- /generated -->"
    assert blocks.refreshed(stale) != stale and f"`{PROBES[-1]}`" in blocks.refreshed(stale)


def _outside_passages(text: str) -> str:
    return blocks.MARKED.sub("", text)


def test_no_probe_list_is_written_by_hand():
    """The probe names are the rehearse table's: a paragraph naming three or more of them outside a
    generated passage is a hand-written copy that the next probe makes stale."""
    from osmosis_workspace.rehearse.probes import PROBES

    found = []
    for path in blocks.guidance_files():
        for paragraph in re.split(r"\n\s*\n", _outside_passages(path.read_text(encoding="utf-8"))):
            named = [p for p in PROBES if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", paragraph)]
            if len(named) >= 3:
                found.append(f"{path.relative_to(REPO)}: {named}: {paragraph.strip()[:120]!r}")
    assert not found, "\n".join(found)


def test_rehearse_help_lists_the_tables_probes_and_verdicts():
    from osmosis_workspace.cli.rehearse import HELP
    from osmosis_workspace.rehearse.probes import PROBES, TABLE

    text = " ".join(HELP.split())
    assert ", ".join(PROBES) in text
    assert ", ".join(e.name for e in TABLE if e.kind == "verdict") in text


def test_every_format_list_is_the_reporters_table():
    """`--format text|json|github|sarif` in the READMEs' tables and the guidance is REPORTERS."""
    from osmosis_workspace.report import REPORTERS

    lists = []
    for path in [*blocks.guidance_files(), REPO / "README.md"]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"osmosis (?:doctor|validate|dataset validate)[^`\n]*?--format ((?:\w+\\?\|)+\w+)", text):
            lists.append((path.name, match.group(1).replace("\\", "")))
    assert lists, "the README's command table lists no formats"
    assert {names for _, names in lists} == {"|".join(REPORTERS)}, lists


def _registered() -> dict[str, object]:
    from osmosis_workspace.check.doctor import load_rules

    return {rule.code: rule for rule in load_rules()}


def _documents() -> list[Path]:
    """The guidance and every page of docs/ (the ranges a map of the code states, e.g. DAT026-DAT029)."""
    return [*blocks.guidance_files(), *sorted((REPO / "docs").glob("*.md"))]


def test_every_rule_code_range_names_registered_codes_of_one_family():
    rules = _registered()
    ranges = []
    for path in _documents():
        for low, high in re.findall(r"\b([A-Z]{3}\d{3})\s*[-\u2013]\s*([A-Z]{3}\d{3})\b", path.read_text(encoding="utf-8")):
            ranges.append((path.name, low, high))
            assert low in rules and high in rules, (path.name, low, high)
            assert low[:3] == high[:3] and low < high, (path.name, low, high)
    assert ranges, "no range found: the check above would pass on nothing"


def test_every_rule_code_a_page_names_is_registered():
    rules = _registered()
    unknown = sorted({(path.name, code) for path in _documents()
                      for code in re.findall(r"\b(?:LAY|CFG|SEC|ENT|DEP|DAT|SKL|GIT|SET)\d{3}\b", path.read_text(encoding="utf-8"))
                      if code not in rules})
    assert not unknown, unknown


def test_the_readmes_family_table_is_the_registrys():
    rules = _registered()
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| family | codes | what |"):]
    table = table[:table.index("\n\n")]
    assert set(re.findall(r"^\| [^|]+ \| `([A-Z]{3})` \|", table, re.M)) == {code[:3] for code in rules}


# -- the rollout's files, and what AGENTS.md says where --------------------------------------------------

def test_agents_md_scoring_table_names_each_templates_own_files(workspaces):
    text = AGENTS.read_text(encoding="utf-8")
    table = text[text.index("| template | the rule"):]
    rows = re.findall(r"^\| `([\w-]+)` \| (.+) \|$", table[:table.index("\n\n")], re.M)
    assert {template for template, _ in rows} == set(TEMPLATES)
    for template, cells in rows:
        package = workspaces[template] / "rollouts" / ROLLOUT / f"{ROLLOUT}_rollout"
        for name in re.findall(r"`<package>/([\w.]+)`", cells):
            assert (package / name).is_file(), (template, name)
    # the rule's class: the Grader is where the table says
    for template, cells in rows:
        grader = re.findall(r"`<package>/([\w.]+)`", cells)[-1]
        source = (workspaces[template] / "rollouts" / ROLLOUT / f"{ROLLOUT}_rollout" / grader).read_text(encoding="utf-8")
        assert re.search(r"class \w+\(Grader\)", source), (template, grader)


def test_no_page_puts_the_scoring_elsewhere():
    """Issue 38: AGENTS.md and create-rollouts once put the scoring in grading.py, the template in scoring.py."""
    for path in blocks.guidance_files():
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert not re.search(r"scoring in (a plain module )?\(?`grading\.py`", text), path
        assert "puts it in `grading.py`" not in text, path


# -- paths and cross-references -----------------------------------------------------------------------

# Paths the guidance names that a fresh workspace does not have, and the step that makes them.
LATER = {
    ".osmosis/evals/": "the first `eval run` or `rehearse`",
    ".osmosis/evals/<run>/": "an `eval run`",
    ".venv/": "`uv sync`", ".venv/bin/osmosis": "`uv sync`", "rollouts/<rollout>/.venv": "`uv sync --project`",
    "rollouts/<rollout>/server.py": "the osmosis-ai 0.2 layout AGENTS.md tells apart",
    "multiply_rollout/": "the platform's own template",
    "data/my-task-eval.jsonl": "an example of a held-out file to make",
    "configs/eval/<rollout>-<variant>.toml": "an example of a variant config to make",
    "data/x.jsonl": "an example of a dataset name's file",
    "my_task/workflow.py": "an example package of a rollout to write",
    "tests/test.sh": "a Harbor task's (`--data integration=harbor`)",
    "environment/Dockerfile": "a Harbor task's (`--data integration=harbor`)",
    "vendor/osmosis_workspace-<version>-py3-none-any.whl": "an example of a checker_source to vendor",
    "rollouts/my-task/": "the rollout the create-rollouts example makes",
    "configs/eval/my-task.toml": "the rollout the create-rollouts example makes",
    "configs/training/my-task.toml": "the rollout the create-rollouts example makes",
    "data/my-task.jsonl": "the rollout the create-rollouts example makes",
    "data/multiply.jsonl": "the example of `dataset = \"multiply\"` (the default workspace's file)",
    "rollouts/py-tasks/": "the rollout the code-graders example makes",
    "data/py-tasks.jsonl": "the rollout the code-graders example makes",
}
NOT_PATHS = re.compile(r"://|^git\+|^Qwen/|^openai/|^n/m$|^<chat_completions_url>")


def _paths(ws: Path) -> dict[str, set[str]]:
    from osmosis_workspace import __version__

    found: dict[str, set[str]] = {}
    for path in g.workspace_guidance(ws):
        for span in re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8")):
            span = span.strip().replace(__version__, "<version>")
            if " " in span or "/" not in span or NOT_PATHS.search(span) or span.startswith(("-", "../")):
                continue
            found.setdefault(span, set()).add(path.relative_to(ws).as_posix())
    return found


def _exists(ws: Path, written: str, where: set[str]) -> bool:
    """Whether ``written`` names a file of ``ws``, from the root or from where such a path is read
    (configs/, the rollout, its package, the page's own skill), placeholders filled."""
    rel = written.replace("<rollout>", ROLLOUT).replace("<package>", f"{ROLLOUT}_rollout")
    rel = rel.replace("<dataset>", ROLLOUT).replace("configs/*/", "configs/eval/")
    bases = [ws, ws / "configs", ws / "rollouts" / ROLLOUT, ws / "rollouts" / ROLLOUT / f"{ROLLOUT}_rollout"]
    bases += [ws / Path(w).parent for w in where] + [ws / Path(w).parent.parent for w in where if "references/" in w]
    names = [ROLLOUT, "default", "create-rollouts"] if "<name>" in rel else [""]
    return any((base / rel.replace("<name>", name)).exists() or (base / rel.replace("<name>", name)).is_symlink()
               for base in bases for name in names)


def test_every_path_the_guidance_names_exists_in_a_fresh_workspace(workspaces):
    """The guidance is the same in every workspace: each path it names is in a fresh workspace of one
    bundled template at least (`scoring.py` is multiply's), or LATER says which step makes it."""
    named: dict[str, set[str]] = {}
    missing = []
    for ws in workspaces.values():
        for written, where in _paths(ws).items():
            named.setdefault(written, set()).update(where)
    for written, where in sorted(named.items()):
        if written in LATER:
            continue
        if "<" in written and not re.fullmatch(r"[^<]*(<(rollout|package|name|dataset|version)>[^<]*)+", written):
            missing.append(f"{written} (a placeholder this test cannot fill), in {sorted(where)}")
        elif not any(_exists(ws, written, where) for ws in workspaces.values()):
            missing.append(f"{written}, in {sorted(where)}")
    assert not missing, "\n".join(missing)
    assert set(LATER) <= set(named), f"LATER lists paths no guidance names any more: {sorted(set(LATER) - set(named))}"


def _loop() -> dict[int, str]:
    text = AGENTS.read_text(encoding="utf-8")
    section = text[text.index("## The loop and its gates"):text.index("**The submit gate**")]
    return {int(n): title for n, title in re.findall(r"^(\d+)\. \*\*([^*]+)\*\*", section, re.M)}


# Each page that cites a step of AGENTS.md's loop, and the step (by its title) that it means.
CITED = {"Test": (3,), "Rehearse": (4,), "Evaluate locally": (5,), "Train": (9,)}


def test_every_citation_of_the_loops_steps_resolves():
    loop = _loop()
    assert [loop[n] for n in sorted(loop)] == list(loop.values()) and sorted(loop) == list(range(1, len(loop) + 1))
    for title, numbers in CITED.items():
        assert all(loop[n].startswith(title) for n in numbers), (title, loop)
    cited = 0
    for path in blocks.guidance_files():
        text = " ".join(path.read_text(encoding="utf-8").split())
        for match in re.finditer(r"(?:AGENTS\.md(?:'s loop)?|the loop's|AGENTS\.md's loop),? (?:loop )?steps? (\d+)(?: (?:to|and) (\d+))?", text):
            first, last = int(match.group(1)), int(match.group(2) or match.group(1))
            assert first in loop and last in loop, (path.name, match.group(0))
            cited += 1
    assert cited >= 6, cited


def test_every_skill_a_page_names_is_bundled():
    skills = {p.name for p in (REPO / "skills").iterdir() if (p / "SKILL.md").is_file()}
    for path in blocks.guidance_files():
        for name in re.findall(r"`([a-z]+-[a-z]+(?:-[a-z]+)?)`", path.read_text(encoding="utf-8")):
            if name.split("-")[0] in ("plan", "create", "evaluate", "debug", "submit", "deploy") and name.endswith(("s", "n", "l")):
                assert name in skills, (path.name, name)


def test_rehearse_help_cites_only_what_a_workspace_has(workspaces):
    from osmosis_workspace.cli.rehearse import HELP, REFERENCE

    assert "docs/" not in HELP
    for ws in workspaces.values():
        assert (ws / REFERENCE).is_file()
    result = CliRunner().invoke(app, ["rehearse", "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.output.split())
    assert REFERENCE in text
    # --dataset-file's default is the eval config's dataset, as plan.local_dataset reads it
    assert "the dataset the eval config names" in text


def test_every_help_cites_a_workspace_file_or_a_url(workspaces):
    """A --help names a file an agent can open where it runs: in the workspace, or a full URL."""
    cited = []
    for command, text in g.help_texts().items():
        for path in re.findall(r"(?<![\w/:.-])((?:\.?[\w-]+/)+[\w.-]+\.md)\b", text):
            cited.append(path)
            assert all((ws / path).is_file() for ws in workspaces.values()), f"{command} --help cites {path}"
    assert cited, "no --help cites a page: the check above would pass on nothing"


# -- what rehearse sends: one place -------------------------------------------------------------------

def test_the_label_as_gold_rule_and_the_gold_column_are_said_in_one_place():
    owner = REPO / "skills" / "debug-rollouts" / "references" / "rehearse-probes.md"
    for path in blocks.guidance_files():
        text = " ".join(path.read_text(encoding="utf-8").split())
        says = "must itself be a correct answer" in text or "gold-column =" in text
        assert says == (path == owner), path
    # the others link to it
    linking = [p for p in blocks.guidance_files() if "rehearse-probes.md" in p.read_text(encoding="utf-8")]
    assert {p.parent.name if p.name == "SKILL.md" else p.name for p in linking} >= {
        "AGENTS.md.jinja", "create-rollouts", "evaluate-rollouts", "plan-training", "set-rewards.md"}


def test_the_set_reward_example_scores_as_its_page_says():
    text = (REPO / "skills" / "create-rollouts" / "references" / "set-rewards.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    space: dict = {}
    exec(compile(code, "set-rewards.md", "exec"), space)
    f1 = space["set_f1"]
    label = '["billing", "refund"]'
    assert f1('#### ["billing", "refund"]', label) == 1.0
    assert f1('#### ["refund", "billing"]', label) == 1.0                      # another order
    assert f1('#### ["billing", "billing", "refund"]', label) == 1.0           # an item twice counts once
    assert round(f1('#### ["billing"]', label), 2) == 0.67                     # one of two items
    assert round(f1('#### ["billing", "refund", "shipping"]', label), 2) == 0.8  # plus one other valid option
    space_all = '#### ' + str([f"tag{i}" for i in range(8)] + ["billing", "refund"]).replace("'", '"')
    assert f1(space_all, label) == 0.0                                          # every option: a hedge
    for bad in ("billing, refund", "#### [billing", "#### []", "", None):
        assert f1(bad, label) == 0.0
    assert f1('#### ["billing"]', None) == 0.0
