"""Issue 10, point 4: eval/training config verdicts agree with osmosis-ai 0.3.7's loader
(platform/cli/shared_config.py, eval_run.py). Every "error" case here the SDK rejects (the loader;
a path-like or `..` rollout in validate_workspace_rollout_paths at submit and `eval run`; an eval's
n < 1 in `eval run`), every case without one it accepts (checked against the real SDK when
written); where we stay stricter (value ranges, naming), the finding is a warning that says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from osmosis_workspace.check.families.configs import check_config_file

from .conftest import codes, run_json

BASE = '''[experiment]
rollout = "{rollout}"
entrypoint = "main.py"
model_path = "openai/gpt-5-mini"
dataset = "multiply"
{extra}
[secrets]
required = []
'''

CASES = [
    # (id, rollout, extra lines, kind, error codes, warning codes)
    ("clean", "multiply", "", "eval", [], []),
    ("branch-with-space", "multiply", 'branch = "my feature"', "eval", ["CFG006"], []),
    ("branch-with-tab", "multiply", 'branch = "main\\t"', "eval", ["CFG006"], []),
    ("branch-ok", "multiply", 'branch = "feature/x-1"', "eval", [], []),
    ("underscore-rollout", "my_rollout", "", "eval", [], ["CFG029"]),
    ("uppercase-rollout", "MyRollout", "", "eval", [], ["CFG029"]),
    ("path-rollout", "rollouts/multiply", "", "eval", ["CFG015"], []),
    ("dotdot-rollout", "..", "", "eval", ["CFG015"], []),
    ("github-token-env", "multiply", '[env]\nGITHUB_TOKEN = "read-only"\nROLLOUT_PORT = "9000"', "eval", [], []),
    ("osmosis-env", "multiply", '[env]\n_OSMOSIS_ROLLOUT_PORT = "9000"', "eval", ["CFG010"], []),
    ("threshold-above-one", "multiply", "[evaluation]\npass_threshold = 1.5", "eval", [], ["CFG028"]),
    ("zero-n", "multiply", "[evaluation]\nn = 0", "eval", ["CFG005"], []),
    # issue 20: values no run can use are errors; an unusual one (a temperature above 2) a warning
    ("training-negative-lr", "multiply", "[training]\nlr = -1.0", "training", ["CFG005"], []),
    ("training-top-p", "multiply", "[sampling]\nrollout_top_p = 1.5", "training", ["CFG005"], []),
    ("training-zero-epochs", "multiply", "[training]\ntotal_epochs = 0", "training", ["CFG005"], []),
    ("training-negative-temperature", "multiply", "[sampling]\nrollout_temperature = -0.5", "training", ["CFG005"], []),
    ("training-hot-temperature", "multiply", "[sampling]\nrollout_temperature = 2.5", "training", [], ["CFG028"]),
    ("training-zero-batch", "multiply", "[training]\nrollout_batch_size = 0", "training", ["CFG005"], []),
    ("eval-zero-batch", "multiply", "[evaluation]\nbatch_size = 0", "eval", ["CFG005"], []),
    # eval run: `evaluation.pass_threshold must be finite` (eval_run._numeric); one finding, not also a range one
    ("eval-inf-threshold", "multiply", "[evaluation]\npass_threshold = inf", "eval", ["CFG023"], []),
    ("eval-inf-timeout", "multiply", "[evaluation]\ngrader_timeout_s = -inf", "eval", ["CFG023"], []),
    ("training-inf-temperature", "multiply", "[sampling]\nrollout_temperature = inf", "training", ["CFG023"], []),
]


@pytest.mark.parametrize("name, rollout, extra, kind, errors, warnings", CASES, ids=[c[0] for c in CASES])
def test_config_verdicts_match_the_sdk(tmp_path: Path, name, rollout, extra, kind, errors, warnings):
    # [env] must come after [experiment]'s keys: put table-starting extras after the table
    text = BASE.format(rollout=rollout, extra="" if extra.startswith("[") else extra)
    if extra.startswith("["):
        text = text.replace("[secrets]", extra + "\n\n[secrets]")
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    found = check_config_file(path, kind, None, path.name)
    assert sorted(d.code for d in found if d.severity.value == "error") == errors
    assert sorted(d.code for d in found if d.severity.value == "warning") == warnings


def test_range_warning_says_it_is_our_advice(tmp_path: Path):
    path = tmp_path / "t.toml"
    path.write_text(BASE.format(rollout="multiply", extra="").replace("[secrets]", "[evaluation]\npass_threshold = 1.5\n\n[secrets]"))
    [finding] = check_config_file(path, "eval", None, "t.toml")
    assert "advise" in finding.message and "unusual" in finding.message and finding.severity.value == "warning"


def test_underscore_rollout_folder_is_only_advice_in_doctor(platform_template: Path):
    """rollouts/my_rollout with its configs: osmosis-ai runs it, `rollout init` would not name it so."""
    import shutil

    root = platform_template
    shutil.move(root / "rollouts/my-rollout", root / "rollouts/my_rollout")
    for kind in ("eval", "training"):
        old = root / f"configs/{kind}/my-rollout.toml"
        (root / f"configs/{kind}/my_rollout.toml").write_text(old.read_text().replace('"my-rollout"', '"my_rollout"'))
        old.unlink()
    from .conftest import commit_all

    commit_all(root)
    code, found = run_json("doctor", str(root))
    assert code == 0, found
    unpushed = ("GIT005", "GIT008")  # the test's own commit is not on origin: true, and not what this test is about
    assert {(d["code"], d["severity"]) for d in found if d["code"] not in unpushed} == {("LAY006", "warning"), ("CFG029", "warning")}
