"""`rehearse --changed`'s rule for data files and configs, on hand-made trees (no git): which rollouts
a changed path picks goes through plan.py's one reading of what a config's dataset names."""

from __future__ import annotations

from pathlib import Path

import pytest

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.rehearse.affected import affected
from osmosis_workspace.rehearse.plan import rollout_plans

ROLLOUTS = ["first", "second"]


def tree(tmp_path: Path, configs: dict[str, str]) -> Path:
    for name in ROLLOUTS:
        (tmp_path / "rollouts" / name).mkdir(parents=True)
    (tmp_path / "configs" / "eval").mkdir(parents=True)
    (tmp_path / "data").mkdir()
    for name, text in configs.items():
        (tmp_path / "configs" / "eval" / f"{name}.toml").write_text(text, encoding="utf-8")
    return tmp_path


def picks(root: Path, *changed: str) -> dict[str, list[str]]:
    return {a.rollout: a.reasons for a in affected(root, ROLLOUTS, list(changed)).picks}


@pytest.mark.parametrize("dataset", ["rows", "rows.jsonl", "data/rows.jsonl"])
def test_a_dataset_named_as_a_name_a_file_or_a_path_under_data_picks_the_config_that_reads_it(tmp_path, dataset):
    # rehearse reads data/rows.jsonl for each form (plan.local_dataset); the data/ path form was missed
    root = tree(tmp_path, {"second": f'[experiment]\nrollout = "second"\ndataset = "{dataset}"\n'})
    assert picks(root, "data/rows.jsonl") == {"second": ["data/rows.jsonl (the dataset configs/eval/second.toml names)"]}


def test_a_named_dataset_is_picked_under_any_dataset_suffix_and_any_case(tmp_path):
    root = tree(tmp_path, {"second": '[experiment]\nrollout = "second"\ndataset = "rows"\n'})
    for rel in ("data/rows.json", "data/rows.JSONL", "data/rows.parquet"):
        assert list(picks(root, rel)) == ["second"], rel
    assert picks(root, "data/rows.txt", "data/other/rows.jsonl", "data/rowsx.jsonl") == {}


def test_a_rollouts_default_rows_pick_it(tmp_path):
    root = tree(tmp_path, {})
    assert picks(root, "data/first.csv") == {"first": ["data/first.csv (its default rows)"]}


def test_configs_past_the_size_or_depth_cap_or_not_a_table_are_passed_over(tmp_path):
    huge = '[experiment]\nrollout = "first"\ndataset = "rows"\n' + "# pad\n" * (1 << 18)
    deep = '[experiment]\nrollout = "first"\ndataset = "rows"\nx = ' + "[" * 200 + "]" * 200 + "\n"
    root = tree(tmp_path, {"huge": huge, "deep": deep, "odd": 'experiment = 3\n',
                           "second": '[experiment]\nrollout = "second"\ndataset = "rows"\n'})
    assert list(picks(root, "data/rows.jsonl")) == ["second"]
    assert picks(root, "configs/eval/odd.toml") == {}


def test_rehearse_finds_a_rollouts_eval_config_past_configs_that_are_not_tables(tmp_path):
    # `experiment = 3` used to stop the scan for the config that runs a rollout with a traceback
    root = tree(tmp_path, {"a-odd": "experiment = 3\n", "b": '[experiment]\nrollout = "first"\ndataset = "rows"\n'})
    assert [p.config_rel for p in rollout_plans(root, ["first"], None)] == ["configs/eval/b.toml"]
    with pytest.raises(UserError, match="no eval config"):
        rollout_plans(root, ["second"], None)


def project(folder: Path, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(text, encoding="utf-8")


def test_workspace_members_and_sources_of_sources_are_read_from_pyproject_without_running_uv(tmp_path):
    root = tree(tmp_path, {})
    project(root / "rollouts/first", '[project]\nname = "first"\n[tool.uv.workspace]\nmembers = ["libs/*", "../../vendored/*"]\n'
            'exclude = ["libs/skip"]\n[tool.uv.sources]\nlocal = { workspace = true }\n')
    project(root / "rollouts/first/libs/local", '[project]\nname = "local"\n')
    project(root / "rollouts/first/libs/skip", '[project]\nname = "skip"\n')
    project(root / "vendored/tool", '[project]\nname = "tool"\n[tool.uv.sources]\ndeep = { path = "../../packages/deep" }\n')
    project(root / "packages/deep", '[project]\nname = "deep"\n')
    project(root / "packages/unused", '[project]\nname = "unused"\n')
    got = picks(root, "vendored/tool/tool.py", "packages/deep/deep.py", "packages/unused/x.py", "rollouts/first/libs/skip/x.py")
    assert got == {"first": [
        "vendored/tool/tool.py (a workspace member in rollouts/first/pyproject.toml)",
        "packages/deep/deep.py (deep (a path source in vendored/tool/pyproject.toml))",
        "rollouts/first/libs/skip/x.py (under the rollout)"]}


def test_a_workspace_source_is_the_enclosing_workspaces_member_of_that_name(tmp_path):
    root = tree(tmp_path, {})
    project(root, '[project]\nname = "ws"\n[tool.uv.workspace]\nmembers = ["packages/*", "rollouts/*"]\n')
    project(root / "rollouts/second", '[project]\nname = "second"\n[tool.uv.sources]\nMy_Lib = { workspace = true }\n')
    project(root / "packages/my-lib", '[project]\nname = "my.lib"\n')
    project(root / "packages/other", '[project]\nname = "other"\n')
    assert picks(root, "packages/my-lib/a.py", "packages/other/a.py") == {
        "second": ["packages/my-lib/a.py (My_Lib (a workspace source in rollouts/second/pyproject.toml))"]}


def test_a_source_out_of_the_workspace_is_a_warning_and_a_pick(tmp_path):
    root = tree(tmp_path / "ws", {})
    project(root / "rollouts/first", '[tool.uv.sources]\nx = { path = "../../../outside" }\n'
            'broken = "not a table"\nlisted = [{ path = "../../packages/l", marker = "sys_platform == \'linux\'" }, 3]\n')
    change = affected(root, ROLLOUTS, ["docs/x.md", "packages/l/a.py"])
    assert change.warnings == ["rollouts/first/pyproject.toml: x = { path = '../../../outside' } lies outside the workspace"]
    assert [a.reasons for a in change.picks] == [[
        f"{change.warnings[0]}: a change there is not in the diff, so it is rehearsed on any change",
        "packages/l/a.py (listed (a path source in rollouts/first/pyproject.toml))"]]


def test_an_unreadable_or_hostile_pyproject_picks_nothing_more(tmp_path):
    root = tree(tmp_path, {})
    project(root / "rollouts/first", "[tool.uv.sources\n")
    project(root / "rollouts/second", "x = " + "[" * 300 + "]" * 300 + "\n")
    assert picks(root, "packages/a.py") == {}
