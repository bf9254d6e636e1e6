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
    return {a.rollout: a.reasons for a in affected(root, ROLLOUTS, list(changed))}


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
