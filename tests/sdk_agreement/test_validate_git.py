"""Issue 10, point 5 of the issue (6 of the brief): `osmosis validate` on a config inside a git work
tree checks `commit_sha` and `branch` against that repository, as `doctor` does (GIT002, GIT003)."""

from __future__ import annotations

from pathlib import Path

from .conftest import commit_all, run_json


def _pin(root: Path, line: str) -> Path:
    config = root / "configs/eval/my-rollout.toml"
    config.write_text(config.read_text().replace('# commit_sha =', line, 1))
    commit_all(root)
    return config


def test_unknown_commit_is_reported_by_validate(platform_template: Path):
    config = _pin(platform_template, 'commit_sha = "abcdef1234567"')
    code, found = run_json("validate", str(config))
    assert code == 1
    [finding] = [d for d in found if d["code"].startswith("GIT")]
    assert finding["code"] == "GIT002" and finding["path"] == "configs/eval/my-rollout.toml" and finding["line"]
    _, from_doctor = run_json("doctor", str(platform_template), "--select", "GIT")
    # the pin is committed after the clone, so doctor also says it is not pushed (GIT005): true, and one finding each
    assert [d["code"] for d in from_doctor if d["code"] != "GIT005"] == ["GIT002"]


def test_unknown_branch_is_reported_and_a_real_one_is_not(platform_template: Path):
    config = _pin(platform_template, 'branch = "no-such-branch"')
    code, found = run_json("validate", str(config))
    assert [d["code"] for d in found if d["code"].startswith("GIT")] == ["GIT003"]
    config.write_text(config.read_text().replace('"no-such-branch"', '"main"'))
    commit_all(platform_template)
    assert run_json("validate", str(config)) == (0, [])


def test_a_config_outside_git_gets_no_git_finding(tmp_path: Path):
    import shutil

    from .conftest import TEMPLATE

    root = tmp_path / "no-git"
    shutil.copytree(TEMPLATE, root, symlinks=True)
    config = root / "configs/eval/my-rollout.toml"
    config.write_text(config.read_text().replace('# commit_sha =', 'commit_sha = "abcdef1234567"', 1))
    code, found = run_json("validate", str(config))
    assert (code, found) == (0, [])
