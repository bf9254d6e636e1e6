"""Issue 3's "done when", one case per check: break a fresh `osmosis init` workspace in exactly one
way a person would, run `osmosis doctor --format json`, and see the right code at the right place.

Each case is (id, edit, code, path, line): ``edit`` takes the workspace root; ``line`` None means
the finding is about a whole file or folder. The workspace is the multiply template's, so line
numbers refer to its rendered files (configs/eval/multiply.toml: [experiment] on line 9,
`rollout` 10, `entrypoint` 11, `model_path` 12, `dataset` 13, `required` 17, `n` 20, last line 24).
Its configs name the platform dataset "multiply"; cases about a local dataset file write one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

EVAL = "configs/eval/multiply.toml"
TRAIN = "configs/training/multiply.toml"
MAIN = "rollouts/multiply/main.py"
# main.py imports its workflow and grader from the rollout's package
WORKFLOW_PY = "rollouts/multiply/multiply_rollout/workflow.py"
GRADER_PY = "rollouts/multiply/multiply_rollout/grader.py"
RPY = "rollouts/multiply/pyproject.toml"
DATA = "data/multiply.jsonl"
SKILL = ".agents/skills/plan-training/SKILL.md"


def sub(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{rel} no longer holds {old!r}: update this case"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return edit


def append(rel: str, text: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        with (root / rel).open("a", encoding="utf-8") as fh:
            fh.write(text)
    return edit


def prepend(rel: str, text: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        path.write_text(text + path.read_text(encoding="utf-8"), encoding="utf-8")
    return edit


def remove(rel: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return edit


def relink(rel: str, target: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        (root / rel).unlink()
        (root / rel).symlink_to(target)
    return edit


def outside_link(rel: str, content: str | None) -> Callable[[Path], None]:
    """Replace ``rel`` with a symlink to a file (or, content None, a folder) outside the workspace."""
    def edit(root: Path) -> None:
        target = root.parent / ("elsewhere-" + rel.replace("/", "-"))
        if content is None:
            target.mkdir()
            (target / "main.py").write_text("raise SystemExit('never read')\n", encoding="utf-8")
        else:
            target.write_text(content, encoding="utf-8")
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.symlink_to(target)
    return edit


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)


def track_env(root: Path) -> None:
    (root / ".env").write_text("OPENAI_API_KEY=sk-live\n", encoding="utf-8")
    git(root, "add", "-f", ".env")
    git(root, "commit", "-m", "oops")


def rename_rollout(root: Path) -> None:
    (root / "rollouts/multiply").rename(root / "rollouts/Multiply_2")


def rename_training_config(root: Path) -> None:
    (root / TRAIN).rename(root / "configs/training/other.toml")


def latin1_env_example(root: Path) -> None:
    # a Latin-1 comment must not make the file look absent (it used to: "there is no .env.example")
    (root / ".env.example").write_bytes(b"# caf\xe9\nOPENAI_API_KEY=\n")
    sub(EVAL, '["OPENAI_API_KEY"]', '["OPENAI_API_KEY", "HF_TOKEN"]')(root)


def no_entrypoint(root: Path) -> None:
    # without configs naming another module, main.py is the entrypoint the rollout must have
    for rel in (MAIN, EVAL, TRAIN):
        (root / rel).unlink()


WORKFLOW = "class MultiplyWorkflow(AgentWorkflow):"

CASES = [
    # Layout
    ("LAY001", remove("data"), "LAY001", "data", None),
    ("LAY002", remove("AGENTS.md"), "LAY002", "AGENTS.md", None),
    ("LAY003", remove("pyproject.toml"), "LAY003", "pyproject.toml", None),
    ("LAY004", sub("pyproject.toml", 'name = "demo"', 'name = "demo'), "LAY004", "pyproject.toml", 6),
    ("LAY005", sub("pyproject.toml", 'name = "demo"', 'name = "My_WS"'), "LAY005", "pyproject.toml", 6),
    ("LAY006", rename_rollout, "LAY006", "rollouts/Multiply_2", None),
    ("LAY007", remove(".git"), "LAY007", None, None),
    ("LAY008", lambda r: (r / "CLAUDE.md").write_text("# Notes\n", encoding="utf-8"), "LAY008", "CLAUDE.md", None),
    ("LAY009", lambda r: (r / ".osmosis/schemas/eval.schema.json").write_text("{}", encoding="utf-8"),
     "LAY009", ".osmosis/schemas/eval.schema.json", None),
    ("LAY010-rollout-linked-out", outside_link("rollouts/multiply", None), "LAY010", "rollouts/multiply", None),
    ("LAY110", append(MAIN + ".rej", "--- a/main.py\n+++ b/main.py\n"), "LAY110", MAIN + ".rej", None),
    ("LAY111", prepend(MAIN, "<<<<<<< yours\nX = 1\n=======\nX = 2\n>>>>>>> installed template\n"), "LAY111", MAIN, 1),
    # Configs
    ("CFG001", sub(EVAL, 'rollout = "multiply"', "rollout = multiply"), "CFG001", EVAL, 10),
    # the first byte that is not UTF-8 (the Latin-1 é) is on line 2, column 15
    ("CFG001-not-utf8", lambda r: (r / EVAL).write_bytes(b'[experiment]\nrollout = "caf\xe9"\n'), "CFG001", EVAL, 2),
    ("CFG002", sub(EVAL, 'model_path = "openai/gpt-5-mini"\n', ""), "CFG002", EVAL, 9),
    ("CFG003", sub(EVAL, "batch_size", "batchsize"), "CFG003", EVAL, 23),
    ("CFG004", sub(EVAL, "n = 1", 'n = "4"'), "CFG004", EVAL, 22),
    ("CFG005", sub(EVAL, "n = 1", "n = 0"), "CFG005", EVAL, 22),
    ("CFG006", sub(EVAL, '"openai/gpt-5-mini"', '""'), "CFG006", EVAL, 12),
    ("CFG007", sub(EVAL, 'dataset = "multiply"', 'dataset = "multiply"\ncommit_sha = "HEAD~1"'),
     "CFG007", EVAL, 14),
    ("CFG008", sub(EVAL, 'dataset = "multiply"',
                   'dataset = "multiply"\nbranch = "main"\ncommit_sha = "abcdef1"'), "CFG008", EVAL, 15),
    ("CFG009", append(EVAL, '\n[env]\nlog_level = "debug"\n'), "CFG009", EVAL, 29),
    ("CFG010", append(EVAL, '\n[env]\n_OSMOSIS_ROLLOUT_PORT = "9000"\n'), "CFG010", EVAL, 29),
    ("CFG011", sub(EVAL, '["OPENAI_API_KEY"]', '["OPENAI_API_KEY", "openai_key"]'), "CFG011", EVAL, 17),
    ("CFG012", sub(EVAL, '["OPENAI_API_KEY"]', '["OPENAI_API_KEY", "OPENAI_API_KEY"]'), "CFG012", EVAL, 17),
    ("CFG013", append(EVAL, '\n[env]\nOPENAI_API_KEY = "x"\n'), "CFG013", EVAL, 29),  # at the [env] key the hint says to remove
    ("CFG014", sub(EVAL, '[secrets]\n', "[secret_names]\n"), "CFG014", EVAL, 1),
    ("CFG015", sub(EVAL, 'rollout = "multiply"', 'rollout = "a/b"'), "CFG015", EVAL, 10),
    ("CFG016", sub(EVAL, 'rollout = "multiply"', 'rollout = "multiplyy"'), "CFG016", EVAL, 10),
    ("CFG017", sub(EVAL, 'entrypoint = "main.py"', 'entrypoint = "../other/main.py"'), "CFG017", EVAL, 11),
    ("CFG018", sub(EVAL, 'entrypoint = "main.py"', 'entrypoint = "server.py"'), "CFG018", EVAL, 11),
    ("CFG019", sub(EVAL, 'dataset = "multiply"', 'dataset = "data/multiplied.jsonl"'), "CFG019", EVAL, 13),
    ("CFG019-data-link-out", lambda r: (outside_link("data/ext.jsonl", (r / DATA).read_text())(r),
                                        sub(EVAL, 'dataset = "multiply"', 'dataset = "data/ext.jsonl"')(r)), "CFG019", EVAL, 13),
    ("CFG020", remove(EVAL), "CFG020", "rollouts/multiply", None),
    ("CFG021", rename_training_config, "CFG021", "configs/training/other.toml", 7),
    ("CFG022", sub(EVAL, "#:schema ../../.osmosis/schemas/eval.schema.json", "#:schema ./eval.json"), "CFG022", EVAL, 1),
    ("CFG023", sub(TRAIN, "lr = 1e-6", "lr = nan"), "CFG023", TRAIN, 13),
    ("CFG024-config-linked-out", outside_link(EVAL, '[experiment]\nrollout = "multiply"\n'), "CFG024", EVAL, None),
    # Secrets
    ("SEC001", append(EVAL, '\n[env]\nLLM = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"\n'), "SEC001", EVAL, 29),
    ("SEC002", append(EVAL, '\n[env]\nMY_API_KEY = "hunter2hunter2"\n'), "SEC002", EVAL, 29),
    ("SEC003", append(EVAL, '\n[env]\nFOO = "Zx8Qp2Lm9Vb7Nc4Kd1Rt6Yh3Wj5Ge0Sa"\n'), "SEC003", EVAL, 29),
    ("SEC004", track_env, "SEC004", ".env", None),
    ("SEC005", sub(EVAL, '["OPENAI_API_KEY"]', '["OPENAI_API_KEY", "HF_TOKEN"]'), "SEC005", EVAL, 17),
    ("SEC005-latin1-env-example", latin1_env_example, "SEC005", EVAL, 17),
    ("SEC006", append(".env.example", "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF\n"), "SEC006", ".env.example", 5),
    # Entrypoints
    ("ENT001", no_entrypoint, "ENT001", MAIN, None),
    ("ENT002", sub(WORKFLOW_PY, WORKFLOW, WORKFLOW[:-1]), "ENT002", WORKFLOW_PY, 24),
    ("ENT003", sub(WORKFLOW_PY, WORKFLOW, "class MultiplyWorkflow:"), "ENT003", MAIN, None),
    # ENT033/ENT034 (ENT004/ENT005 under 0.2) are about the entrypoint's namespace (0.3 runs the classes its
    # backend names, so a second class left in workflow.py is no finding): the second class goes in main.py (29 lines)
    ("ENT033", append(MAIN, "\n\nfrom osmosis_ai.rollout import AgentWorkflow\n\n\n"
                            "class Other(AgentWorkflow):\n    async def run(self, ctx):\n        pass\n"), "ENT033", MAIN, 35),
    ("ENT034", append(MAIN, "\n\nfrom osmosis_ai.rollout import Grader\n\n\n"
                            "class G2(Grader):\n    async def grade(self, ctx):\n        pass\n"), "ENT034", MAIN, 35),
    ("ENT006", sub(WORKFLOW_PY, "    async def run(self", "    def run(self"), "ENT006", WORKFLOW_PY, 25),
    ("ENT007", sub(GRADER_PY, "    async def grade(self", "    def grade(self"), "ENT007", GRADER_PY, 19),
    # issue 20: each of these the real osmosis-ai 0.3.8 refuses (bench/sdk_agreement.py judges them)
    ("ENT019-not-exported", sub(MAIN, "from osmosis_ai.rollout import LocalBackend", "from osmosis_ai import LocalBackend"), "ENT019", MAIN, 11),
    ("ENT023-grader-not-passed", sub(MAIN, "    grader=MultiplyGrader,\n", ""), "ENT023", MAIN, 17),
    ("ENT027", sub(MAIN, "import MultiplyGrader,", "import MultiplyGraderX,"), "ENT027", MAIN, 14),
    ("ENT028", sub(MAIN, "create_rollout_server(backend=backend)", "create_rollout_server()"), "ENT028", MAIN, 23),
    ("ENT029", sub(MAIN, 'port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))', "port=8000"), "ENT029", MAIN, 29),
    ("ENT030", sub(MAIN, 'if __name__ == "__main__":', "if False:"), "ENT030", MAIN, None),
    ("ENT031", sub(MAIN, "from multiply_rollout.grader", "from .multiply_rollout.grader"), "ENT031", MAIN, 14),
    ("CFG026", sub(EVAL, 'entrypoint = "main.py"', 'entrypoint = "README.md"'), "CFG026", EVAL, 11),
    # issue 29: more the real osmosis-ai 0.3.8 refuses (tests/doctor/test_sdk_misses.py has the rest)
    ("CFG031", lambda r: (r / EVAL).rename(r / "configs/eval/multiply.tml"), "CFG031", "configs/eval/multiply.tml", None),
    ("ENT037", sub(MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=backnd)"), "ENT037", MAIN, 23),
    ("ENT038", sub(MAIN, "import os\n", "import os\n\nimport osmosis\n"), "ENT038", MAIN, 11),
    ("ENT039", sub(MAIN, "backend = LocalBackend(", 'raise RuntimeError("not ready")\nbackend = LocalBackend('), "ENT039", MAIN, 17),
    ("ENT040", sub(MAIN, "backend = LocalBackend(", 'KEY = os.environ["MULTIPLY_API_KEY"]\nbackend = LocalBackend('), "ENT040", MAIN, 17),
    # 25 rows / batch 8 = 4 steps per epoch x 2 epochs = 8 steps: a checkpoint every 9 is never saved
    ("CFG027", sub(TRAIN, "checkpoint_save_freq = 4", "checkpoint_save_freq = 9"), "CFG027", TRAIN, 30),
    ("GIT006", lambda r: git(r, "remote", "rename", "origin", "upstream"), "GIT006", None, None),
    ("GIT009", lambda r: git(r, "remote", "remove", "origin"), "GIT009", None, None),
    ("GIT007", lambda r: git(r, "remote", "set-url", "origin", "https://gitlab.com/example/demo.git"), "GIT007", None, None),
    ("ENT008", remove(RPY), "ENT008", RPY, None),
    ("ENT009", sub(RPY, '  "osmosis-ai[server,strands]>=0.3.1,<0.4",\n', ""), "ENT009", RPY, 6),
    ("ENT010", append(RPY, "[[[\n"), "ENT010", RPY, 31),
    # Datasets
    ("DAT003", lambda r: (r / DATA).open("ab").write(b"\xff\xfe\n"), "DAT003", DATA, 26),
    ("DAT004", lambda r: (r / DATA).write_text("\n".join(
        ("{bad json" if i == 2 else line) for i, line in enumerate((r / DATA).read_text().splitlines())) + "\n"),
     "DAT004", DATA, 3),
    ("DAT009", sub(DATA, '"ground_truth": "171304.4148"', '"ground_truth": ""'), "DAT009", DATA, 1),
    ("DAT019-data-link-out", outside_link("data/ext.jsonl", "{}\n"), "DAT019", "data/ext.jsonl", None),
    ("DAT011", lambda r: (r / "data/small.jsonl").write_text(
        "".join((r / DATA).read_text().splitlines(True)[:2])), "DAT011", "data/small.jsonl", None),
    # Skills
    ("SKL004", sub(SKILL, "---\nname:", "name:"), "SKL004", SKILL, 1),
    ("SKL010", sub(SKILL, "license:", "licence:"), "SKL010", SKILL, 4),
    ("SKL017", sub(SKILL, "name: plan-training", "name: plan-train"), "SKL017", SKILL, 2),
    ("SKL025", lambda r: (r / SKILL).write_text(
        "---\nname: plan-training\ndescription: Plans a run. Use when planning.\n---\n\nSee [notes](references/nope.md).\n",
        encoding="utf-8"), "SKL025", SKILL, 6),
    ("SKL027", remove(".agents/skills/plan-training"), "SKL027", ".agents/skills/plan-training", None),
    ("SKL028", remove(".claude/skills/plan-training"), "SKL028", ".claude/skills/plan-training", None),
    ("SKL029", lambda r: relink(".claude/skills/plan-training", str(r / ".agents/skills/plan-training"))(r),
     "SKL029", ".claude/skills/plan-training", None),
    ("SKL030", relink(".claude/skills/plan-training", "../../.agents/skills/nothing"), "SKL030", ".claude/skills/plan-training", None),
    ("SKL031", relink(".claude/skills/plan-training", "../../.agents/skills/debug-rollouts"), "SKL031",
     ".claude/skills/plan-training", None),
    ("SKL033-skill-md-linked-out", outside_link(SKILL, "---\nname: plan-training\ndescription: d\n---\n"), "SKL033", SKILL, None),
    # Git Sync
    ("GIT001", append(MAIN, "# edited\n"), "GIT001", MAIN, None),
    ("GIT002", sub(EVAL, 'dataset = "multiply"', 'dataset = "multiply"\ncommit_sha = "deadbeef"'),
     "GIT002", EVAL, 14),
    ("GIT003", sub(EVAL, 'dataset = "multiply"', 'dataset = "multiply"\nbranch = "no-such-branch"'),
     "GIT003", EVAL, 14),
]


def doctor_json(root: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["doctor", str(root), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


_PRISTINE: dict[str, Path] = {}


@pytest.fixture
def fresh(make_workspace, tmp_path_factory, tmp_path) -> Path:
    """A fresh workspace: `osmosis init` runs once (through make_workspace) and each test gets a
    copy of it, git history and skill links included, under its own tmp_path."""
    if "root" not in _PRISTINE:
        built = make_workspace()
        keep = tmp_path_factory.mktemp("pristine") / "demo"
        shutil.copytree(built, keep, symlinks=True)
        _PRISTINE["root"] = keep
    root = tmp_path / "copy" / "demo"
    shutil.copytree(_PRISTINE["root"], root, symlinks=True)
    return root


@pytest.mark.parametrize(("edit", "code", "path", "line"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_break_is_reported_at_its_place(fresh, edit, code, path, line):
    root = fresh
    edit(root)
    exit_code, report = doctor_json(root)
    mine = [d for d in report["diagnostics"] if d["code"] == code]
    assert mine, f"no {code}; got {[(d['code'], d['path'], d['line']) for d in report['diagnostics']]}"
    assert (path, line) in [(d["path"], d["line"]) for d in mine], mine
    for d in mine:
        assert d["message"] and "\n" not in d["message"] and d["hint"], d
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert exit_code == (1 if errors else 0) and report["ok"] is (not errors)


def test_every_workspace_rule_has_a_case_or_a_reason():
    """A new rule needs a case above (or a stated reason it cannot be made from one edit)."""
    from osmosis_workspace.check.doctor import load_rules

    elsewhere = {
        # need more than one edit of a fresh workspace, or are exercised by their own suites:
        "LAY100",  # templates' TODO(osmosis) placeholders: tests/layout (the multiply template has none)
        "LAY013",  # a rollout folder whose name starts with '-': a rename, tests/layout and tests/rehearse/test_changed.py
        "ENT041",  # a local package whose __init__ raises: a new package, tests/entrypoints (test_sdk_misses)
        "GIT004", "GIT005", "GIT008",  # unreadable repository / unpushed commits: tests/gitsync (real bare remotes)
        "CFG028", "CFG029", "CFG030",  # advice-only variants of CFG005, CFG015, CFG013: tests/cases/configs
        "ENT032",  # 3.12 syntax read by an older Python: tests/entrypoints (only reachable below 3.12)
        "LAY011", "LAY012",  # paths nobody may read: root reads them anyway, so tests/security/test_unreadable.py (setpriv)
        "SET001", "SET002", "SET003", "SET004",  # settings and suppressions: tests/doctor/test_doctor_settings.py
        "ENT011", "ENT012", "ENT013", "ENT014", "ENT015",  # remote-rollout server / model client: tests/entrypoints
        # which osmosis-ai generation the code is judged under is itself an edit of the pin: these
        # rules have cases per generation in tests/cases/entrypoints and tests/entrypoints/test_sdk_generations.py
        "ENT016", "ENT017", "ENT018", "ENT019", "ENT020", "ENT021", "ENT022", "ENT023", "ENT024", "ENT025", "ENT026",
        "ENT004", "ENT005", "ENT035", "ENT036",  # the 0.2.23-0.2.31 submit check's refusals
        "CFG025",  # a benchmark agent's harness secret: tests/sdk_agreement/test_benchmark_configs.py
        "LAY112",  # a writer killed part-way (its journal is sealed per user): tests/security/test_killed_writers.py
        "LAY120", "LAY121",  # which checker is running is part of the case: tests/init/test_checker_origin.py
    }
    covered = {c[2] for c in CASES}
    families = ("LAY", "CFG", "SEC", "ENT", "GIT")  # datasets and skills keep exhaustive corpora of their own
    missing = sorted(r.code for r in load_rules()
                     if r.code.startswith(families) and r.code not in covered | elsewhere)
    assert not missing, f"no fresh-workspace case for {missing}"


def test_a_latin1_env_example_still_lists_its_names_and_fix_appends_bytes(fresh):
    latin1_env_example(fresh)
    _, report = doctor_json(fresh)
    missing = [d["message"] for d in report["diagnostics"] if d["code"] == "SEC005"]
    assert missing == ["secret HF_TOKEN is required but .env.example does not list it"], missing
    result = CliRunner().invoke(app, ["doctor", str(fresh), "--fix"])
    assert "added HF_TOKEN=" in result.output
    data = (fresh / ".env.example").read_bytes()
    assert data.startswith(b"# caf\xe9\nOPENAI_API_KEY=\n") and data.endswith(b"HF_TOKEN=\n")


def test_a_secret_listed_twice_is_missing_from_env_example_once(fresh):
    sub(EVAL, '["OPENAI_API_KEY"]', '["OPENAI_API_KEY", "HF_TOKEN", "HF_TOKEN"]')(fresh)
    _, report = doctor_json(fresh)
    assert [d["code"] for d in report["diagnostics"] if d["code"] == "SEC005"] == ["SEC005"]


def test_files_linked_in_from_outside_are_never_read(fresh):
    # A pull request can add links to any file on the CI machine: doctor must not read (or echo) it.
    leak = '[experiment]\nrollout = "multiply"\n[env]\nLEAK = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"\n'
    outside_link(EVAL, leak)(fresh)
    outside_link(".env.example", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\n")(fresh)
    outside_link("CLAUDE.md", "@AGENTS.md\n")(fresh)
    _, report = doctor_json(fresh)
    codes = {d["code"] for d in report["diagnostics"]}
    assert "CFG024" in codes and not codes & {"SEC001", "SEC006", "CFG002"}, report["diagnostics"]
    claude = [d["message"] for d in report["diagnostics"] if d["path"] == "CLAUDE.md"]
    assert claude == ["CLAUDE.md links outside the workspace, so it was not read; whether it points to AGENTS.md is unknown"], claude


def test_a_data_file_linked_out_is_named_as_such(fresh):
    outside_link("data/ext.jsonl", "{}\n")(fresh)
    sub(EVAL, 'dataset = "multiply"', 'dataset = "data/ext.jsonl"')(fresh)
    _, report = doctor_json(fresh)
    assert [d["message"] for d in report["diagnostics"] if d["code"] == "CFG019"] == [
        'dataset "data/ext.jsonl" links outside the workspace (and `dataset` takes a platform dataset name, not a path)']


def test_a_huge_config_is_reported_unread_not_parsed(fresh):
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    with (fresh / EVAL).open("a", encoding="utf-8") as fh:
        fh.write("\n[advanced]\n" + "".join(f'k{i} = "{i}"\n' for i in range(MAX_TEXT_BYTES // 10)))
    _, report = doctor_json(fresh)
    found = [(d["code"], d["message"]) for d in report["diagnostics"] if d["path"] == EVAL and d["code"] != "GIT001"]
    assert found == [("CFG001", f"multiply.toml is larger than {MAX_TEXT_BYTES} bytes, so it was not read")], found


def test_the_uppercase_name_hint_suggests_a_valid_name(fresh):
    sub(SKILL, "name: plan-training", "name: Plan_Training")(fresh)
    _, report = doctor_json(fresh)
    hints = [d["hint"] for d in report["diagnostics"] if d["code"] == "SKL014"]
    assert hints == ["set `name: plan-training`"], hints  # the folder's name is the valid spelling
    # one wrong name is one finding: no SKL015 for the '_' nor SKL017 for the folder (issue 12, point 11)
    assert not {"SKL015", "SKL017"} & {d["code"] for d in report["diagnostics"]}


@pytest.mark.parametrize("where", ["file", "command line"])
def test_a_misspelt_setting_is_reported_even_when_select_leaves_out_settings(fresh, where):
    # Issue 6: "unknown settings are reported, not ignored"; a `select` that names only the
    # families a team cares about must not hide a typo in the settings themselves.
    select_line = 'select = ["CFG"]\n' if where == "file" else ""
    append("pyproject.toml", f"\n[tool.osmosis]\n{select_line}ignroe = [\"CFG005\"]\n")(fresh)
    args = ["doctor", str(fresh), "--format", "json"] + (["--select", "CFG"] if where != "file" else [])
    report = json.loads(CliRunner().invoke(app, args).stdout)
    assert [d["code"] for d in report["diagnostics"] if d["code"].startswith("SET")] == ["SET001"], report


def test_an_explicitly_ignored_settings_code_stays_quiet(fresh):
    append("pyproject.toml", '\n[tool.osmosis]\nignore = ["SET001"]\nignroe = []\n')(fresh)
    _, report = doctor_json(fresh)
    assert [d for d in report["diagnostics"] if d["code"] != "GIT001"] == []  # (the edit itself is uncommitted)


REMOTE = "rollouts/calculator-remote/server.py"
# A remote rollout server of osmosis-ai 0.2.7-0.2.17 (what calculator-remote was before 0.3), planted
# beside the rollout: doctor finds such loops by subclass in any top-level module of a rollout. The
# rollout's pin goes back to that generation too: under 0.3 the class does not exist, so the import
# is the one finding (ENT019) and the loop's shape is beside the point.
REMOTE_SERVER = """\
from osmosis_ai.rollout import RolloutAgentLoop, RolloutContext, RolloutRequest, RolloutResult, create_app


class CalculatorAgentLoop(RolloutAgentLoop):
    name = "calculator-remote"

    def get_tools(self, request: RolloutRequest) -> list[dict]:
        return []

    async def run(self, ctx: RolloutContext) -> RolloutResult:
        return ctx.complete(list(ctx.request.messages))


agent_loop = CalculatorAgentLoop()
app = create_app(agent_loop)
"""


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize(("old", "new", "code", "at"), [
    ('    name = "calculator-remote"', '    title = "calculator-remote"', "ENT011", "class "),
    ("def get_tools(", "def tools(", "ENT012", "class "),
    ("    async def run(self, ctx: RolloutContext)", "    def run(self, ctx: RolloutContext)", "ENT013", "    async def run"),
    ("agent_loop = CalculatorAgentLoop()\napp = create_app(agent_loop)", "app = None", "ENT014", "class "),
], ids=["ENT011", "ENT012", "ENT013", "ENT014"])
def test_remote_rollout_server_breaks(make_workspace, old, new, code, at):
    root = make_workspace(template="calculator-remote")
    (root / REMOTE).write_text(REMOTE_SERVER, encoding="utf-8")
    sub("rollouts/calculator-remote/pyproject.toml", '"osmosis-ai[server]>=0.3.1,<0.4"', '"osmosis-ai[server]==0.2.17"')(root)
    sub(REMOTE, old, new)(root)
    line = _line_of(REMOTE_SERVER, at)
    exit_code, report = doctor_json(root)
    assert (code, REMOTE, line) in [(d["code"], d["path"], d["line"]) for d in report["diagnostics"]], report
    assert exit_code == 1


@pytest.mark.parametrize("inner", ["rollouts/multiply/configs", "rollouts/multiply/tests/rollouts"])
def test_a_subfolder_with_its_own_configs_or_rollouts_folder_is_not_the_root(fresh, inner):
    # The root holds rollouts/ AND configs/; a rollout keeping e.g. model configs in configs/ is
    # still inside the workspace, so doctor run from there checks the whole workspace.
    (fresh / inner).mkdir(parents=True)
    start = (fresh / inner).parent
    result = CliRunner().invoke(app, ["doctor", str(start), "--format", "json"])
    report = json.loads(result.stdout)
    assert Path(report["workspace"]).resolve() == fresh.resolve(), report["workspace"]
    assert result.exit_code == 0 and report["diagnostics"] == [], report["diagnostics"]


def _loop(rel: str) -> Callable[[Path], None]:
    """Replace ``rel`` with a symlink to itself."""
    def edit(root: Path) -> None:
        remove(rel)(root)
        (root / rel).symlink_to(Path(rel).name)
    return edit


@pytest.mark.parametrize("rel", ["data", ".osmosis", "configs/eval", "rollouts/multiply", MAIN, EVAL, ".env.example",
                                 "pyproject.toml", RPY, "CLAUDE.md", ".agents/skills", ".claude/skills"])
def test_a_symlink_loop_is_a_finding_not_a_crash(fresh, rel):
    _loop(rel)(fresh)
    result = CliRunner().invoke(app, ["doctor", str(fresh), "--format", "json"])
    assert result.exit_code in (0, 1), result.output  # findings (some only warnings), never exit 3
    assert json.loads(result.stdout)["diagnostics"]


def test_a_named_pipe_among_the_configs_does_not_block(fresh):
    import sys

    os.mkfifo(fresh / "configs/eval/pipe.toml")
    os.mkfifo(fresh / "data/pipe.jsonl")
    # a subprocess with a timeout: if reading the pipe blocked, the test fails instead of hanging
    result = subprocess.run([sys.executable, "-m", "osmosis_workspace", "doctor", str(fresh), "--format", "json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    found = [(d["code"], d["path"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert ("CFG001", "configs/eval/pipe.toml") in found, found


def test_fix_never_writes_through_a_config_folder_linked_out(fresh, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    foreign = elsewhere / "multiply.toml"
    foreign.write_text('[experiment]\nrollout = "multiply"\n', encoding="utf-8")
    shutil.rmtree(fresh / "configs/training")
    (fresh / "configs/training").symlink_to(elsewhere)
    CliRunner().invoke(app, ["doctor", str(fresh), "--fix"])
    assert foreign.read_text(encoding="utf-8") == '[experiment]\nrollout = "multiply"\n'


def test_schemas_linked_out_are_not_called_missing_nor_fixable(fresh, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(fresh / ".osmosis", elsewhere)
    shutil.rmtree(fresh / ".osmosis")
    (fresh / ".osmosis").symlink_to(elsewhere)
    _, report = doctor_json(fresh)
    lay009 = [d for d in report["diagnostics"] if d["code"] == "LAY009"]
    assert len(lay009) == 4 and all("links outside the workspace" in d["message"] and not d["fixable"] for d in lay009)


@pytest.mark.parametrize("inside", [True, False], ids=["in-workspace", "loose-file"])
def test_validate_finds_a_credential_in_a_config(fresh, tmp_path, inside):
    # osmosis validate is what the pre-commit hook runs on a changed config: it must catch the
    # committed credential doctor catches (SEC001), not only the config rules.
    append(TRAIN, '\n[env]\nHF_TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEF"\n')(fresh)
    target = fresh / TRAIN
    if not inside:
        target = tmp_path / "loose.toml"
        shutil.copy(fresh / TRAIN, target)
    result = CliRunner().invoke(app, ["validate", str(target), "--kind", "training", "--format", "json"])
    found = [(d["code"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert ("SEC001", 33) in found and result.exit_code == 1, found


def test_a_syntax_error_in_the_rollout_package_is_one_finding_there(fresh):
    # main.py imports its workflow from the package: the broken module is the place to fix, and
    # main.py must not also be called workflow-less (the parse failure hides what it defines).
    sub(WORKFLOW_PY, WORKFLOW, WORKFLOW[:-1])(fresh)
    _, report = doctor_json(fresh)
    found = [(d["code"], d["path"], d["line"]) for d in report["diagnostics"] if d["code"].startswith("ENT")]
    assert found == [("ENT002", WORKFLOW_PY, 24)], found
