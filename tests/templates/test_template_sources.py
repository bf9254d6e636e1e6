"""`--template` as a folder or git URL, the trust gate, and `osmosis template inspect`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from template_helpers import cli
from osmosis_workspace.scaffold import catalog
from osmosis_workspace.scaffold.external import UNSAFE_KEYS, load_config, unsafe_features

REPO = Path(__file__).resolve().parents[2]


def test_no_bundled_template_uses_unsafe_features():
    templates = catalog.bundled_templates()
    assert {t.name for t in templates} >= {"workspace", "multiply",
                                           "calculator-remote", "llm-judge", "blank", "code"}
    for info in templates:
        config = load_config(info.path)
        assert not any(key in config for key in UNSAFE_KEYS), info.name
        assert unsafe_features(config) == {}


def unsafe_copy(tmp_path: Path, marker: Path) -> Path:
    """A copy of the blank template with a post-render task (writes ``marker``) and a migration."""
    template = tmp_path / "tasky"
    shutil.copytree(REPO / "templates" / "blank", template)
    config = yaml.safe_load((template / "copier.yml").read_text())
    config["_tasks"] = [f"echo ran >> {marker}"]
    config["_migrations"] = [{"version": "v2", "command": "rm -rf data"}]
    (template / "copier.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    return template


def test_unsafe_template_is_refused_without_trust_and_lists_what_would_run(tmp_path):
    marker = tmp_path / "task-ran"
    template = unsafe_copy(tmp_path, marker)
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2
    assert "would run code" in result.output and f"echo ran >> {marker}" in result.output and "rm -rf data" in result.output
    assert "--trust" in result.output and "Traceback" not in result.output
    assert not target.exists() and not marker.exists()


def test_unsafe_template_runs_with_trust_exactly_once(tmp_path):
    marker = tmp_path / "task-ran"
    template = unsafe_copy(tmp_path, marker)
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults", "--trust")
    assert result.exit_code == 0, result.output
    assert (target / "rollouts/my-rollout/main.py").is_file()
    # the pristine re-render for `osmosis update` does not repeat the task
    assert marker.read_text() == "ran\n"
    answers = yaml.safe_load((target / "rollouts/my-rollout/.copier-answers.yml").read_text())
    assert answers["_osmosis_template"] == str(template)  # update finds it again by its path


def test_rollout_new_applies_the_same_gate(tmp_path, monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "T")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "t@example.invalid")
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    marker = tmp_path / "task-ran"
    template = unsafe_copy(tmp_path, marker)
    refused = cli("rollout", "new", "extra", "--template", template, "--workspace", ws, "--defaults")
    assert refused.exit_code == 2 and "would run code" in refused.output
    assert not (ws / "rollouts/extra").exists() and not marker.exists()
    trusted = cli("rollout", "new", "extra", "--template", template, "--workspace", ws, "--defaults", "--trust")
    assert trusted.exit_code == 0, trusted.output
    assert marker.read_text() == "ran\n" and (ws / "rollouts/extra/main.py").is_file()


def test_git_url_template(tmp_path, monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "T")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "t@example.invalid")
    remote = tmp_path / "remote-template"
    shutil.copytree(REPO / "templates" / "llm-judge", remote)
    subprocess.run(["git", "init", "-q", str(remote)], check=True)
    subprocess.run(["git", "-C", str(remote), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(remote), "commit", "-qm", "template"], check=True)
    url = remote.as_uri()  # file:// URL: cloned like any remote
    ws = tmp_path / "ws"
    result = cli("init", ws, "--template", url, "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    assert (ws / "rollouts/llm-judge/llm_judge_rollout/judge.py").is_file()
    answers = yaml.safe_load((ws / "rollouts/llm-judge/.copier-answers.yml").read_text())
    assert answers["_osmosis_template"] == url
    inspected = cli("template", "inspect", url, "--json")
    assert inspected.exit_code == 0 and "judge_model" in [q["name"] for q in json.loads(inspected.stdout)["questions"]]


def test_bad_template_sources_exit_2(tmp_path):
    (tmp_path / "not-a-template").mkdir()
    for spec, message in [("nope", "unknown template 'nope'"),
                          (str(tmp_path / "not-a-template"), "not a copier template"),
                          ("workspace", "not a rollout template"),
                          ((tmp_path / "missing.git").as_uri(), "could not clone template")]:
        result = cli("init", tmp_path / "ws", "--template", spec, "--defaults", "--no-git")
        assert result.exit_code == 2, (spec, result.output)
        assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "ws").exists()


def test_broken_copier_yml_is_one_line(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "copier.yml").write_text("rollout_name: [unclosed\n")
    result = cli("template", "inspect", bad)
    assert result.exit_code == 2 and "not valid YAML" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", ["calculator-remote", "llm-judge", "blank", "multiply", "code"])
def test_inspect_json_lists_every_question(name):
    result = cli("template", "inspect", name, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == name and data["kind"] == "rollout" and data["bundled"] is True and data["unsafe"] == {}
    config = yaml.safe_load((REPO / "templates" / name / "copier.yml").read_text())
    # hidden questions (`when: false`, e.g. the computed `package`) are osmosis's to answer, not listed
    assert [q["name"] for q in data["questions"]] == [
        k for k, v in config.items() if not k.startswith("_") and not (isinstance(v, dict) and v.get("when") is False)
    ]
    for q in data["questions"]:
        spec = config[q["name"]]
        assert q["type"] == spec["type"] and q["default"] == spec["default"] and q["help"] == spec["help"]
        assert set(q) >= {"name", "type", "help", "default", "choices", "validation"}
    rollout_name = next(q for q in data["questions"] if q["name"] == "rollout_name")
    assert "regex_search" in rollout_name["validation"]


def test_inspect_text_and_choices(tmp_path):
    template = tmp_path / "choosy"
    template.mkdir()
    (template / "copier.yml").write_text(yaml.safe_dump({
        "_tasks": ["echo hi"],
        "size": {"type": "str", "help": "How big", "default": "m", "choices": {"Small": "s", "Medium": "m"}},
        "flag": True,
    }, sort_keys=False))
    text = cli("template", "inspect", template)
    assert text.exit_code == 0
    assert "size (str)" in text.output and "How big" in text.output and "s (Small)" in text.output
    assert "flag (bool)" in text.output and "needs --trust" in text.output and "echo hi" in text.output
    data = json.loads(cli("template", "inspect", template, "--json").stdout)
    size = data["questions"][0]
    assert size["choices"] == [{"label": "Small", "value": "s"}, {"label": "Medium", "value": "m"}]
    assert data["questions"][1] == {**data["questions"][1], "name": "flag", "type": "bool", "default": True}
    assert data["unsafe"] == {"_tasks": ["echo hi"]}


def test_inspect_answers_feed_data_without_prompts(tmp_path):
    """An agent reads the questions, answers each with --data, and init asks nothing."""
    data = json.loads(cli("template", "inspect", "multiply", "--json").stdout)
    answers = {"rollout_name": "mult", "integration": "harbor", "model_path": "openai/gpt-5-mini",
               "training_model_path": "Qwen/Qwen3-8B", "n_concurrent": "3"}
    asked = {q["name"] for q in data["questions"] if q["when"] is not False}  # `when: false` is computed
    # `task` is asked only off Harbor (its `when` says so); answering it here would be refused
    assert asked == set(answers) | {"task"}
    assert "harbor" in str(next(q["when"] for q in data["questions"] if q["name"] == "task"))
    args = ["init", tmp_path / "ws", "--template", "multiply", "--no-git", "--defaults"]
    for k, v in answers.items():
        args += ["--data", f"{k}={v}"]
    assert cli(*args).exit_code == 0
    assert "N_CONCURRENT = 3" in (tmp_path / "ws/rollouts/mult/main.py").read_text()
