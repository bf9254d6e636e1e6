"""Ownership in `osmosis update`: what osmosis owns is replaced or merged, what the user owns is only
added; `--dry-run` says per file what a real run does; `--adopt` takes over a workspace `osmosis init`
did not make (a platform-style one here) without touching its rollouts."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lifecycle_helpers import cli, commit_all, git, snapshot

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "templates" / "multiply"  # on its OpenAI Agents integration below
ROLLOUT_README = Path("template") / "rollouts" / "{{ rollout_name }}" / "README.md.jinja"
SKILLS = ".agents/skills"


def _statuses(output: str) -> dict[str, str]:
    """path -> status from update's per-file lines."""
    found = {}
    for line in output.splitlines():
        for status in ("left alone", "unchanged", "replaced", "conflict", "merged", "new"):
            prefix = f"  {status:10} "
            if line.startswith(prefix):
                found[line[len(prefix):].split("  (")[0]] = status
    return found


@pytest.fixture
def six_ways(tmp_path, monkeypatch):
    """A workspace and a 'new release' that gives each of the six outcomes at least once."""
    from osmosis_workspace.core import resources

    template = tmp_path / "tmpl"
    shutil.copytree(SOURCE, template, ignore=shutil.ignore_patterns("__pycache__"))
    ws = tmp_path / "ws"
    assert cli("init", ws, "--template", template, "--defaults", "--data", "rollout_name=mult",
               "--data", "integration=openai-agents").exit_code == 0
    # the user edits: one skill far from the coming change, one skill on the very line that changes
    merged_skill = ws / SKILLS / "debug-rollouts" / "SKILL.md"
    merged_skill.write_text(merged_skill.read_text() + "\nOur team: read the grader first.\n")
    conflict_skill = ws / SKILLS / "plan-eval" / "SKILL.md"
    conflict_skill.write_text(conflict_skill.read_text().replace("# Plan an evaluation", "# Plan an evaluation (OURS)"))
    commit_all(ws, "team edits")

    bundle = tmp_path / "bundle"  # the new release of the skills
    shutil.copytree(resources.skills_dir(), bundle)
    text = (bundle / "debug-rollouts" / "SKILL.md").read_text()
    (bundle / "debug-rollouts" / "SKILL.md").write_text(text.replace("# Debug rollouts\n", "# Debug rollouts\n\nNEW LINE.\n"))
    text = (bundle / "plan-eval" / "SKILL.md").read_text()
    (bundle / "plan-eval" / "SKILL.md").write_text(text.replace("# Plan an evaluation", "# Plan an evaluation (THEIRS)"))
    text = (bundle / "deploy-models" / "SKILL.md").read_text()
    (bundle / "deploy-models" / "SKILL.md").write_text(text + "\nReplaced in the new release.\n")
    (bundle / "submit-eval" / "references" / "new-page.md").write_text("# New page\n")
    monkeypatch.setattr(resources, "skills_dir", lambda: bundle)
    # ... and of the rollout template: a rollout is the user's, so this change must not arrive
    readme = template / ROLLOUT_README
    readme.write_text(readme.read_text() + "\nTEMPLATE CHANGE TO A ROLLOUT.\n")
    return ws


def test_dry_run_reports_every_outcome_and_writes_nothing(six_ways):
    ws = six_ways
    before = snapshot(ws)
    ref_before = git(ws, "rev-parse", "refs/osmosis/pristine")
    result = cli("update", ws, "--dry-run", "-v")
    assert result.exit_code == 1, result.output  # the real run would leave a conflict
    assert snapshot(ws) == before and git(ws, "rev-parse", "refs/osmosis/pristine") == ref_before
    got = _statuses(result.output)
    assert got[f"{SKILLS}/debug-rollouts/SKILL.md"] == "merged"
    assert got[f"{SKILLS}/plan-eval/SKILL.md"] == "conflict"
    assert got[f"{SKILLS}/deploy-models/SKILL.md"] == "replaced"
    assert got[f"{SKILLS}/submit-eval/references/new-page.md"] == "new"
    assert got["rollouts/mult/README.md"] == "left alone"
    assert got["AGENTS.md"] == "unchanged"
    assert "nothing was written" in result.output
    # without -v the unchanged files are a count, not sixty lines around the few that matter (issue 21)
    terse = cli("update", ws, "--dry-run")
    assert {k: v for k, v in got.items() if v != "unchanged"} == _statuses(terse.output)
    unchanged = sum(v == "unchanged" for v in got.values())
    assert unchanged > 10 and f"{unchanged} unchanged, " in terse.output
    assert terse.output.rstrip().endswith("(`-v` lists the unchanged files)")


def test_the_real_run_does_what_the_dry_run_said(six_ways):
    ws = six_ways
    predicted = _statuses(cli("update", ws, "--dry-run").output)
    result = cli("update", ws)
    assert result.exit_code == 1, result.output
    done = _statuses(result.output)
    assert {k: v for k, v in predicted.items() if v != "unchanged"} == done
    assert "NEW LINE." in (ws / SKILLS / "debug-rollouts/SKILL.md").read_text()
    assert "Our team: read the grader first." in (ws / SKILLS / "debug-rollouts/SKILL.md").read_text()
    assert "<<<<<<<" in (ws / SKILLS / "plan-eval/SKILL.md").read_text()
    assert "Replaced in the new release." in (ws / SKILLS / "deploy-models/SKILL.md").read_text()
    assert (ws / SKILLS / "submit-eval/references/new-page.md").read_text() == "# New page\n"
    assert "TEMPLATE CHANGE TO A ROLLOUT." not in (ws / "rollouts/mult/README.md").read_text()
    # recorded as current, but plan-eval/SKILL.md still holds the conflict (issue 20, point 4: before,
    # --check said "up to date" here)
    check = cli("update", ws, "--check")
    assert check.exit_code == 1 and "plan-eval/SKILL.md" in check.output and "LAY111" in check.output, check.output


def test_the_policy_file_is_the_users_to_edit(six_ways):
    ws = six_ways
    policy = ws / ".osmosis" / "template.json"
    # take the skills out of osmosis's hands: nothing of them changes any more
    policy.write_text(policy.read_text().replace('    ".agents/skills/**",\n', ""))
    commit_all(ws, "skills are ours now")
    got = _statuses(cli("update", ws, "--dry-run").output)
    assert {got[f"{SKILLS}/{n}/SKILL.md"] for n in ("debug-rollouts", "plan-eval", "deploy-models")} == {"left alone"}
    assert got[f"{SKILLS}/submit-eval/references/new-page.md"] == "left alone"  # covered by no list: not even added


def test_template_ignore_opts_paths_out(six_ways):
    """The platform's `.osmosis/template-ignore`: gitignore-style, the last matching line decides, and
    nothing below an opted-out folder comes back."""
    ws = six_ways
    ignore = ws / ".osmosis" / "template-ignore"
    ignore.write_text(ignore.read_text() + "debug-rollouts/\n.agents/skills/plan-eval/**\n!.agents/skills/plan-eval/SKILL.md\n"
                      "deploy-models/SKILL.md\n")
    commit_all(ws, "opt out")
    result = cli("update", ws, "--dry-run")
    got = _statuses(result.output)
    assert got[f"{SKILLS}/debug-rollouts/SKILL.md"] == "left alone"  # a folder at any depth
    assert got[f"{SKILLS}/plan-eval/SKILL.md"] == "conflict"  # taken back by the `!` line
    assert got[f"{SKILLS}/deploy-models/SKILL.md"] == "replaced"  # `a/b` is anchored at the root: no match
    assert got[f"{SKILLS}/submit-eval/references/new-page.md"] == "new"
    assert "opted out in .osmosis/template-ignore" in result.output
    ignore.write_text("/.agents/\n!.agents/skills/plan-eval/SKILL.md\n")  # below an excluded folder: stays out
    commit_all(ws, "all skills out")
    got = _statuses(cli("update", ws, "--dry-run").output)
    assert {got[f"{SKILLS}/{n}/SKILL.md"] for n in ("debug-rollouts", "plan-eval", "deploy-models")} == {"left alone"}


@pytest.mark.parametrize("name, text, expected", [
    ("template.json", '{"overwriteManaged": "AGENTS.md"}', "overwriteManaged must be a list"),
    ("template.json", "[1, 2]", "must hold one JSON object"),
    ("template.json", "{" * 100_000, "is not valid JSON"),
    ("template.json", '{"additive": ["' + "*" * 5000 + '"]}', "at most 1024"),
    ("template-ignore", "*" * 5000 + "\n", "at most 1024"),
    ("template-ignore", "a\n" * 1001, "more than 1000 patterns"),
])
def test_a_broken_policy_is_a_clear_usage_error(six_ways, name, text, expected):
    ws = six_ways
    (ws / ".osmosis" / name).write_text(text)
    commit_all(ws, "oops")
    result = cli("update", ws, "--dry-run")
    assert result.exit_code == 2 and expected in result.output and "Traceback" not in result.output, result.output


def test_the_policy_is_the_platforms_files_and_tracked(tmp_path):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    tracked = git(ws, "ls-files").split()
    assert ".osmosis/template.json" in tracked and ".osmosis/template-ignore" in tracked
    assert not (ws / ".osmosis-ownership.toml").exists()  # one format: the platform's
    from osmosis_workspace.scaffold import ownership

    policy = ownership.load(ws)
    assert policy.owner("AGENTS.md") == "managed" and policy.owner("configs/eval/default.toml") == "managed"
    assert policy.owner(".agents/skills/plan-eval/references/eval-plan.md") == "managed"
    assert policy.owner("rollouts/multiply/main.py") == "additive" and policy.owner("configs/eval/multiply.toml") == "additive"
    assert policy.owner("rollouts/multiply/.copier-answers.yml") == "managed"
    assert policy.owner("rollouts/multiply/uv.lock") == "managed" and policy.owner("uv.lock") == "managed"
    assert policy.owner("data/multiply.jsonl") == "additive" and policy.owner("pyproject.toml") == "managed"
    assert policy.owner("rollouts/multiply/pyproject.toml") == "additive"  # `pyproject.toml` is the root's only
    assert policy.owner("notes/todo.txt") is None


# -- adopting a workspace that `osmosis init` did not make ---------------------------------------

PLATFORM_SKILLS = ("plan-training", "plan-eval", "create-rollouts", "evaluate-rollouts", "debug-rollouts",
                   "submit-eval", "submit-training", "submit-benchmarks", "deploy-models")


def platform_style_workspace(root: Path) -> Path:
    """Shaped like the platform's own workspace template (contract section 1), with its own texts."""
    files = {
        "AGENTS.md": "# Workspace rules (platform template)\n",
        "CLAUDE.md": "Read AGENTS.md.\n",
        "README.md": "# team-ws\n\nOur README.\n",
        "pyproject.toml": '[project]\nname = "team-ws"\nversion = "0.1.0"\nrequires-python = ">=3.12"\n'
                          'dependencies = ["osmosis-ai[eval]>=0.3.1,<0.4"]\n',
        ".gitignore": ".osmosis/\n.env\n.env.*\n!.env.example\n.venv/\n",
        "configs/AGENTS.md": "# Config rules (platform template)\n",
        "configs/eval/default.toml": '[experiment]\nrollout = "<your-rollout>"\n',
        "configs/training/default.toml": '[experiment]\nrollout = "<your-rollout>"\n',
        "configs/eval/multiply-local-strands.toml": '[experiment]\nrollout = "multiply-local-strands"\n'
                                                     'entrypoint = "main.py"\nmodel_path = "openai/gpt-5-mini"\n'
                                                     'dataset = "multiply"\n\n[secrets]\nrequired = []\n',
        "configs/training/multiply-local-strands.toml": '[experiment]\nrollout = "multiply-local-strands"\n',
        "rollouts/multiply-local-strands/main.py": "# the team's rollout\n",
        "rollouts/multiply-local-strands/pyproject.toml": '[project]\nname = "multiply-local-strands"\n',
        "data/multiply.jsonl": '{"user_prompt": "2*3", "ground_truth": "6"}\n',
    }
    for name in PLATFORM_SKILLS:
        files[f".agents/skills/{name}/SKILL.md"] = f"---\nname: {name}\ndescription: Platform text. Use when needed.\n---\n"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".claude/skills").mkdir(parents=True)
    for name in PLATFORM_SKILLS:
        os.symlink(f"../../.agents/skills/{name}", root / ".claude/skills" / name)
    git(root, "init", "-q")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "t")
    commit_all(root, "platform template")
    return root


@pytest.fixture
def adopted_copy(tmp_path):
    return platform_style_workspace(tmp_path / "team-ws")


def test_adopt_dry_run_previews_and_writes_nothing(adopted_copy):
    ws = adopted_copy
    before = snapshot(ws)
    result = cli("update", ws, "--adopt", "--dry-run", "--verbose")
    assert result.exit_code == 0, result.output
    assert snapshot(ws) == before
    got = _statuses(result.output)
    assert got["AGENTS.md"] == "replaced" and got[f"{SKILLS}/plan-eval/SKILL.md"] == "replaced"
    assert got["configs/eval/default.toml"] == "replaced"
    assert got[".osmosis/template.json"] == "new" and got["configs/benchmark/default.toml"] == "new"
    assert got[".osmosis/template-ignore"] == "new" and ".osmosis-ownership.toml" not in got
    assert got["conftest.py"] == "new"  # pytest from the root runs every rollout's tests
    assert got["README.md"] == "unchanged" and got["pyproject.toml"] == "unchanged"  # shared: theirs kept
    assert not any(path.startswith("rollouts/") for path in got)


def test_adopt_takes_over_without_touching_rollouts_and_then_updates_like_our_own(adopted_copy, monkeypatch, tmp_path):
    ws = adopted_copy
    rollouts_before = {k: v for k, v in snapshot(ws).items() if k.startswith(("rollouts/", "data/", "configs/eval/multiply",
                                                                              "configs/training/multiply"))}
    result = cli("update", ws, "--adopt")
    assert result.exit_code == 0, result.output
    after = snapshot(ws)
    assert {k: v for k, v in after.items() if k in rollouts_before} == rollouts_before
    assert "Our README." in (ws / "README.md").read_text()
    assert 'name = "team-ws"' in (ws / "pyproject.toml").read_text()
    assert "one sample per run" in (ws / "AGENTS.md").read_text() or "**one sample**" in (ws / "AGENTS.md").read_text()
    assert "Platform text." not in (ws / SKILLS / "plan-eval/SKILL.md").read_text()
    assert (ws / ".copier-answers.yml").is_file() and (ws / "configs/benchmark/default.toml").is_file()
    assert (ws / ".claude/skills/plan-eval").is_symlink()
    assert git(ws, "rev-parse", "--verify", "refs/osmosis/pristine")

    commit_all(ws, "adopted")
    # the platform's .gitignore ignores .osmosis/: adopting keeps the schemas for clones, not the eval runs
    assert "eval.schema.json" in git(ws, "ls-files", ".osmosis/schemas")
    (ws / ".osmosis" / "evals").mkdir()
    (ws / ".osmosis" / "evals" / "run.json").write_text("{}")
    assert git(ws, "status", "--porcelain") == ""
    assert cli("update", ws, "--check").exit_code == 0
    assert "already up to date" in cli("update", ws).output
    assert cli("update", ws, "--adopt").exit_code == 2  # once adopted, it is an osmosis workspace

    # from now on: a newer skill bundle reaches it like any workspace of ours
    from osmosis_workspace.core import resources

    bundle = tmp_path / "bundle"
    shutil.copytree(resources.skills_dir(), bundle)
    page = bundle / "deploy-models" / "SKILL.md"
    page.write_text(page.read_text() + "\nNext release.\n")
    monkeypatch.setattr(resources, "skills_dir", lambda: bundle)
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert _statuses(result.output)[f"{SKILLS}/deploy-models/SKILL.md"] == "replaced"
    assert "Next release." in (ws / SKILLS / "deploy-models/SKILL.md").read_text()
    assert {k: v for k, v in snapshot(ws).items() if k in rollouts_before} == rollouts_before


def test_adopt_needs_a_name_git_and_a_clean_tree(tmp_path):
    ws = platform_style_workspace(tmp_path / "Bad_Name")
    (ws / "pyproject.toml").write_text('[project]\nname = "Bad Name"\n')
    commit_all(ws, "bad name")
    result = cli("update", ws, "--adopt")
    assert result.exit_code == 2 and "[project] name" in result.output
    (ws / "pyproject.toml").write_text('[project]\nname = "fixed"\n')
    result = cli("update", ws, "--adopt")
    assert result.exit_code == 2 and "uncommitted" in result.output
    commit_all(ws, "fixed")
    assert cli("update", ws, "--adopt").exit_code == 0


# The platform's own policy files, as Osmosis-AI/workspace-template ships them
PLATFORM_POLICY = """{
  "overwriteManaged": [
    ".agents/skills/**",
    ".claude/skills/**",
    "CLAUDE.md",
    "AGENTS.md",
    "configs/AGENTS.md",
    "configs/**/default.toml"
  ],
  "additive": [
    "rollouts/*",
    "data/*",
    "configs/**"
  ]
}
"""


def test_adopt_honours_the_platforms_policy_files(tmp_path):
    ws = platform_style_workspace(tmp_path / "team-ws")
    (ws / ".osmosis").mkdir()
    (ws / ".osmosis" / "template.json").write_text(PLATFORM_POLICY)
    (ws / ".osmosis" / "template-ignore").write_text("# ours\nCLAUDE.md\n.agents/skills/plan-eval/**\n")
    git(ws, "add", "-f", ".osmosis")  # the platform's .gitignore ignores .osmosis/**; the template tracks these
    commit_all(ws, "the platform's policy")
    result = cli("update", ws, "--adopt")
    assert result.exit_code == 0, result.output
    got = _statuses(result.output)
    assert got["AGENTS.md"] == "replaced" and got[f"{SKILLS}/deploy-models/SKILL.md"] == "replaced"
    assert got["configs/eval/default.toml"] == "replaced"  # configs/**/default.toml is theirs to overwrite
    assert "CLAUDE.md" not in got and f"{SKILLS}/plan-eval/SKILL.md" not in got  # opted out: kept as they were
    assert (ws / "CLAUDE.md").read_text() == "Read AGENTS.md.\n"
    assert "Platform text." in (ws / SKILLS / "plan-eval/SKILL.md").read_text()
    assert got["configs/benchmark/default.toml"] == "new"
    # paths their lists do not cover stay out, even ones we would add
    assert got["conftest.py"] == "left alone" and not (ws / "conftest.py").exists()
    assert "Our README." in (ws / "README.md").read_text() and 'name = "team-ws"' in (ws / "pyproject.toml").read_text()
    # our own records are added whatever the lists say: without them there is no next update
    assert got[".copier-answers.yml"] == "new" and got[".osmosis/schemas/eval.schema.json"] == "new"
    assert (ws / ".osmosis" / "template.json").read_text() == PLATFORM_POLICY  # one format, theirs: untouched
    assert not (ws / ".osmosis-ownership.toml").exists()
    commit_all(ws, "adopted")
    assert "eval.schema.json" in git(ws, "ls-files", ".osmosis/schemas")
    assert "already up to date" in cli("update", ws).output
