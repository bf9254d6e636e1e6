"""Git Sync checks over real (temporary) git repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner
from tests.workspace_builder import build_workspace, git, git_init, write

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def git_findings(root: Path):
    # The origin rules (GIT006, GIT007, GIT009) have their own tests (test_git_origin.py): these repositories
    # have no remote or a local bare one, which submit would refuse, beside the point here.
    return [d for d in run_workspace_checks(Workspace(root), {"git"}) if d.code not in ("GIT006", "GIT007", "GIT009")]


def set_experiment(root: Path, kind: str, extra: str) -> Path:
    path = root / "configs" / kind / "multiply.toml"
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_clean_committed_workspace_has_no_findings(repo):
    assert git_findings(repo) == []


def test_modified_rollout_file_is_reported(repo):
    main = repo / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    [d] = git_findings(repo)
    assert (d.code, d.severity.value, d.path) == ("GIT001", "warning", "rollouts/multiply/main.py")
    assert "1 file" in d.message and "rollouts/multiply/main.py" in d.message
    assert "committed on the default branch" in d.message


def test_untracked_config_is_reported(repo):
    write(repo / "configs" / "eval" / "extra.toml", "[experiment]\n")
    [d] = git_findings(repo)
    assert d.code == "GIT001" and "configs/eval/extra.toml" in d.message


def test_staged_but_uncommitted_change_is_reported(repo):
    write(repo / "rollouts" / "multiply" / "tools.py", "X = 1\n")
    git(repo, "add", "rollouts/multiply/tools.py")
    [d] = git_findings(repo)
    assert "rollouts/multiply/tools.py" in d.message


def test_deleted_and_renamed_files_are_reported(repo):
    git(repo, "mv", "rollouts/multiply/pyproject.toml", "rollouts/multiply/pyproject2.toml")
    (repo / "configs" / "training" / "multiply.toml").unlink()
    [d] = git_findings(repo)
    assert "2 files" in d.message
    assert "rollouts/multiply/pyproject2.toml" in d.message and "configs/training/multiply.toml" in d.message


def test_changes_outside_rollouts_and_configs_are_not_reported(repo):
    write(repo / "README.md", "notes\n")
    write(repo / "data" / "more.jsonl", "{}\n")
    (repo / "AGENTS.md").write_text("changed\n")
    assert git_findings(repo) == []


def test_bytecode_caches_are_not_reported(repo):
    write(repo / "rollouts" / "multiply" / "__pycache__" / "main.cpython-311.pyc", "x")
    assert git_findings(repo) == []


def test_many_changes_are_listed_with_a_count(repo):
    for i in range(7):
        write(repo / "rollouts" / "multiply" / f"mod{i}.py", "X = 1\n")
    [d] = git_findings(repo)
    assert "7 files" in d.message and "and 2 more" in d.message
    assert d.message.count("rollouts/multiply/mod") == 5


def test_workspace_in_a_subfolder_reports_workspace_relative_paths(tmp_path):
    top = tmp_path / "monorepo"
    build_workspace(top / "ml" / "demo", git_dir=False)
    write(top / "rollouts" / "elsewhere.py", "X = 1\n")  # outside the workspace: not ours
    git_init(top)
    main = top / "ml" / "demo" / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    write(top / "rollouts" / "untracked.py", "Y = 2\n")
    [d] = git_findings(top / "ml" / "demo")
    assert "1 file" in d.message
    assert "rollouts/multiply/main.py" in d.message and "ml/demo" not in d.message


def test_existing_commit_sha_full_and_short(repo):
    sha = git(repo, "rev-parse", "HEAD").strip()
    set_experiment(repo, "eval", f'commit_sha = "{sha}"\n')
    set_experiment(repo, "training", f'commit_sha = "{sha[:7]}"\n')
    git(repo, "commit", "-qam", "pin")
    assert git_findings(repo) == []


def test_unknown_commit_sha_is_an_error_at_its_value(repo):
    set_experiment(repo, "eval", 'commit_sha = "deadbeefdeadbeef"\n')
    git(repo, "commit", "-qam", "pin")
    [d] = git_findings(repo)
    assert (d.code, d.severity.value, d.path, d.line, d.column) == (
        "GIT002", "error", "configs/eval/multiply.toml", 6, 14,
    )
    assert "deadbeefdeadbeef" in d.message


def test_malformed_commit_sha_is_left_to_the_config_checks(repo):
    set_experiment(repo, "eval", 'commit_sha = "not-a-sha"\n')
    git(repo, "commit", "-qam", "pin")
    assert git_findings(repo) == []


def test_existing_local_branch(repo):
    set_experiment(repo, "training", 'branch = "main"\n')
    git(repo, "commit", "-qam", "branch")
    assert git_findings(repo) == []


def test_remote_tracking_branch_counts_as_existing(repo):
    git(repo, "remote", "add", "origin", "https://example.invalid/repo.git")
    set_experiment(repo, "training", 'branch = "feature"\n')
    git(repo, "commit", "-qam", "branch")
    git(repo, "update-ref", "refs/remotes/origin/feature", "HEAD")   # as a push of HEAD to feature leaves it (GIT008 otherwise)
    assert git_findings(repo) == []


def test_unknown_branch_is_a_warning_at_its_value(repo):
    set_experiment(repo, "training", 'branch = "mian"\n')
    git(repo, "commit", "-qam", "branch")
    [d] = git_findings(repo)
    assert (d.code, d.severity.value, d.path, d.line, d.column) == (
        "GIT003", "warning", "configs/training/multiply.toml", 6, 10,
    )
    assert d.message.endswith("; did you mean 'main'?")  # issue 12, point 12


def test_unknown_branch_suggests_a_remote_tracking_branch(tmp_path, repo):
    _with_upstream(tmp_path, repo)
    git(repo, "push", "-q", "origin", "main:release-2")
    git(repo, "fetch", "-q", "origin")
    set_experiment(repo, "training", 'branch = "relaese-2"\n')
    git(repo, "commit", "-qam", "branch")
    [d] = [d for d in git_findings(repo) if d.code == "GIT003"]
    assert d.message.endswith("; did you mean 'release-2'?")
    set_experiment(repo, "eval", 'branch = "zzzzzz"\n')
    assert all("did you mean" not in d.message for d in git_findings(repo) if "zzzzzz" in d.message)


def test_unparsable_config_is_skipped_without_a_crash(repo):
    set_experiment(repo, "eval", 'commit_sha = "abc\n')
    git(repo, "commit", "-qam", "broken")
    assert git_findings(repo) == []


def test_broken_git_folder_is_reported_not_raised(tmp_path):
    root = build_workspace(tmp_path / "demo", git_dir=True)  # an empty .git folder
    [d] = git_findings(root)
    assert (d.code, d.severity.value) == ("GIT004", "warning")


def test_no_git_no_git_findings(tmp_path):
    root = build_workspace(tmp_path / "demo", git_dir=False)
    assert git_findings(root) == []


def test_gitpython_is_not_imported_outside_git_or_by_other_families(tmp_path):
    root = build_workspace(tmp_path / "demo", git_dir=False)
    code = (
        "import sys; from pathlib import Path;"
        "from osmosis_workspace.check.families import run_workspace_checks;"
        "from osmosis_workspace.core.workspace import Workspace;"
        f"ws = Workspace(Path({str(root)!r}));"
        "run_workspace_checks(ws);"
        "assert 'git' not in sys.modules, 'gitpython imported';"
        "assert 'copier' not in sys.modules, 'copier imported'"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr


def test_doctor_cli_exit_code_and_json(repo):
    set_experiment(repo, "eval", 'commit_sha = "0000000"\n')
    result = CliRunner().invoke(app, ["doctor", str(repo), "--format", "json", "--select", "GIT"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    codes = sorted(d["code"] for d in report["diagnostics"])
    # the edited config is also uncommitted; GIT009 (info): this repository has no remote yet
    assert codes == ["GIT001", "GIT002", "GIT009"]


def _with_upstream(tmp_path, repo):
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "-u", "origin", "main")


def test_pushed_branch_has_no_findings(tmp_path, repo):
    _with_upstream(tmp_path, repo)
    assert git_findings(repo) == []


def test_unpushed_rollout_commit_is_reported(tmp_path, repo):
    _with_upstream(tmp_path, repo)
    main = repo / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    git(repo, "commit", "-qam", "edit rollout")
    write(repo / "README.md", "notes\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "docs only: not counted")
    [d] = git_findings(repo)
    assert (d.code, d.severity.value) == ("GIT005", "warning")
    assert "1 commit on main" in d.message and "origin/main" in d.message


def test_unpushed_commits_outside_rollouts_and_configs_are_not_reported(tmp_path, repo):
    _with_upstream(tmp_path, repo)
    write(repo / "README.md", "notes\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "docs")
    assert git_findings(repo) == []


def test_repository_without_commits(tmp_path):
    root = build_workspace(tmp_path / "demo", git_dir=False)
    git(root, "init", "-q", "-b", "main")
    [d] = git_findings(root)  # everything is untracked; nothing to compare with an upstream
    assert d.code == "GIT001" and "not committed" in d.message


def test_detached_head_is_not_an_error(tmp_path, repo):
    _with_upstream(tmp_path, repo)
    git(repo, "checkout", "-q", "--detach", "HEAD")
    assert git_findings(repo) == []


# -- issue 12: everything a run uses counts; pre-commit; update leftovers; one location everywhere


def test_untracked_dataset_and_modified_root_pyproject_are_reported_and_named_in_the_hint(repo):
    # what `osmosis rollout new r` leaves after `git add rollouts configs && git commit`
    write(repo / "data" / "r.jsonl", '{"user_prompt": "2*3", "ground_truth": "6"}\n')
    write(repo / "data" / "scratch.jsonl", "{}\n")  # no config or rollout uses it: not reported
    config = repo / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text().replace('dataset = "multiply"', 'dataset = "r"'))  # uploaded from data/r.jsonl
    git(repo, "add", "configs")
    git(repo, "commit", "-qm", "use r.jsonl")
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# edited\n")
    [d] = git_findings(repo)
    assert d.code == "GIT001" and "2 files" in d.message, d.message
    assert "data/r.jsonl" in d.message and "pyproject.toml" in d.message and "scratch" not in d.message
    assert "git add data/r.jsonl pyproject.toml && git commit" in d.hint


def test_a_dataset_named_by_its_platform_name_or_after_a_rollout_counts(repo):
    set_experiment(repo, "training", "")
    config = repo / "configs" / "training" / "multiply.toml"
    config.write_text(config.read_text().replace('dataset = "multiply"', 'dataset = "numbers"'))
    git(repo, "commit", "-qam", "platform dataset name")
    write(repo / "data" / "numbers.parquet", "PAR1")  # `osmosis dataset upload data/numbers.parquet` -> numbers
    (repo / "data" / "multiply.jsonl").write_text("{}\n")  # the rollout's own dataset, edited
    [d] = git_findings(repo)
    assert "data/multiply.jsonl" in d.message and "data/numbers.parquet" in d.message


def test_under_pre_commit_staged_files_count_as_committed(repo, monkeypatch):
    write(repo / "rollouts" / "multiply" / "tools.py", "X = 1\n")
    write(repo / "data" / "multiply.jsonl", '{"user_prompt": "1", "ground_truth": "1"}\n')
    git(repo, "add", "rollouts")
    monkeypatch.setenv("PRE_COMMIT", "1")
    [d] = git_findings(repo)  # the staged rollout file is in the commit being made; the dataset is not
    assert d.path == "data/multiply.jsonl" and "1 file that runs use is not staged for this commit" in d.message
    assert "`git add data/multiply.jsonl`" in d.hint
    git(repo, "add", "data")
    assert git_findings(repo) == []
    monkeypatch.delenv("PRE_COMMIT")
    [d] = git_findings(repo)  # outside pre-commit, staged is still not committed
    assert "2 files" in d.message


def test_a_rej_file_is_not_something_to_commit(repo):
    write(repo / "rollouts" / "multiply" / "main.py.rej", "--- a\n+++ b\n")
    assert git_findings(repo) == []


def test_json_and_sarif_give_git001_the_same_location(repo):
    main = repo / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    runner = CliRunner()
    as_json = json.loads(runner.invoke(app, ["doctor", str(repo), "-f", "json", "--select", "GIT"]).stdout)
    as_sarif = json.loads(runner.invoke(app, ["doctor", str(repo), "-f", "sarif", "--select", "GIT"]).stdout)
    [d] = [d for d in as_json["diagnostics"] if d["code"] == "GIT001"]
    [r] = [r for r in as_sarif["runs"][0]["results"] if r["ruleId"] == "GIT001"]
    assert d["path"] == "rollouts/multiply/main.py"
    assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == d["path"]


def test_a_plain_git_pre_commit_hook_judges_the_staged_state(repo):
    # no pre-commit framework: a .git/hooks/pre-commit script that runs doctor (git exports GIT_INDEX_FILE)
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\nexec {sys.executable} -m osmosis_workspace doctor --strict --select GIT\n")
    hook.chmod(0o755)
    write(repo / "rollouts" / "multiply" / "tools.py", "X = 1\n")
    git(repo, "add", "rollouts")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PRE_COMMIT", None)
    done = subprocess.run(["git", "commit", "-qm", "tools"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_many_used_datasets_are_asked_as_data_and_the_answer_filtered(repo, monkeypatch):
    """Past FOLD_DATA used datasets `git status` is asked about data/ itself (2,000 pathspecs made git
    take 1.4 s instead of 0.1 s): the answer still names only the data files the configs use."""
    from osmosis_workspace.check.families.gitsync_early import FOLD_DATA
    from osmosis_workspace.core import safe_git

    template = (repo / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8")
    for i in range(FOLD_DATA + 4):
        write(repo / "configs" / "eval" / f"d{i}.toml", template.replace('dataset = "multiply"', f'dataset = "d{i}"'))
        write(repo / "data" / f"d{i}.jsonl", "{}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "many datasets")
    (repo / "data" / "d3.jsonl").write_text('{"edited": 1}\n')
    write(repo / "data" / "unused.jsonl", "{}\n")  # named by no config nor rollout: not what a run uses
    asked = []
    real_start = safe_git.start

    def start(cwd, *args, **kwargs):
        asked.append(args)
        return real_start(cwd, *args, **kwargs)

    monkeypatch.setattr(safe_git, "start", start)
    [d] = git_findings(repo)
    assert d.code == "GIT001" and "1 file " in d.message and "data/d3.jsonl" in d.message, d.message
    [status] = [args for args in asked if args[0] == "status"]
    assert ":(literal)data" in status and not any(a.startswith(":(literal)data/d") for a in status), status
