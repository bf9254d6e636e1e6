"""doctor's cache per unit of work: after an edit the run misses, but each rollout whose inputs did
not change keeps its findings from the last run. With `--select ENT` each rollout is three units:
its entrypoint checks (its folder, the root pyproject.toml, the entrypoints configs name), its SDK
requirement (its pyproject.toml and uv.lock, the root pyproject.toml), and the suppression comments
of its Python (its folder; read whatever is selected). The answer must be the one a run without the
cache gives, whatever was edited."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest


def reused(result) -> tuple[int, int] | None:
    """(reused, total) from doctor -v's cache note; None when nothing was reused."""
    assert result.exit_code in (0, 1), result.output
    found = re.search(r"(\d+) of (\d+) units of work reused from the cache", result.output)
    return (int(found[1]), int(found[2])) if found else None


def recomputed(result) -> int:
    """How many units the run computed afresh (the rest were reused from the cache)."""
    done, total = reused(result) or (0, None)
    assert total is not None, result.output
    return total - done


def findings(run, ws, *extra: str) -> list[tuple]:
    result = run("doctor", ws, "-f", "json", *(extra if "--select" in extra else ("--select", "ENT", *extra)))
    return sorted((d["code"], d["path"], d["line"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def test_an_edit_in_one_rollout_reuses_the_others(three, run):
    first = run("doctor", three, "-v", "--select", "ENT")
    assert reused(first) is None and "nothing reused from the cache" in first.output
    main = three / "rollouts" / "second" / "main.py"
    main.write_text("from osmosis_ai.rollout import NoSuchThing\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    second = run("doctor", three, "-v", "--select", "ENT")
    # second's entrypoint checks and comments, and the comments of main.py, which a finding now names
    assert recomputed(second) == 3
    cached = findings(run, three)
    assert any(path == "rollouts/second/main.py" for _, path, _, _ in cached)
    assert cached == findings(run, three, "--no-cache")


def test_an_edit_outside_the_rollouts_reuses_them_all(three, run):
    run("doctor", three, "--select", "ENT")
    (three / "data" / "extra.jsonl").write_text('{"x": 1}\n', encoding="utf-8")
    assert recomputed(run("doctor", three, "-v", "--select", "ENT")) == 0


def test_the_root_pyproject_is_an_input_of_every_rollout(three, run):
    run("doctor", three, "--select", "ENT")
    pyproject = three / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    # each rollout's entrypoint checks and SDK requirement, and the root file's own comments
    assert recomputed(run("doctor", three, "-v", "--select", "ENT")) == 7


def test_a_config_naming_another_entrypoint_recomputes_that_rollout(three, run):
    (three / "rollouts" / "second" / "other.py").write_text("x = 1\n", encoding="utf-8")
    run("doctor", three, "--select", "ENT")
    config = three / "configs" / "eval" / "second.toml"
    text = (three / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8")
    config.write_text(text.replace('rollout = "multiply"', 'rollout = "second"').replace('entrypoint = "main.py"', 'entrypoint = "other.py"'),
                      encoding="utf-8")
    # second's entrypoint checks, the new config's own facts and comments, and other.py's comments (a finding names it)
    assert recomputed(run("doctor", three, "-v", "--select", "ENT")) == 4
    cached = findings(run, three)
    assert any(path == "rollouts/second/other.py" for _, path, _, _ in cached)  # other.py has no workflow
    assert cached == findings(run, three, "--no-cache")


def test_a_rollout_holding_a_symlink_is_never_reused(three, run):
    os.symlink("main.py", three / "rollouts" / "third" / "helper.py")  # what it leads to is not in the walk
    run("doctor", three, "--select", "ENT")
    (three / "data" / "extra.jsonl").write_text('{"x": 1}\n', encoding="utf-8")
    result = run("doctor", three, "-v", "--select", "ENT")
    assert recomputed(result) == 0  # third's entrypoint checks and comments are not among the units: computed each run


def test_a_corrupt_units_file_is_no_units_file(three, run, tmp_path, monkeypatch):
    cache = tmp_path / "own-cache"  # this test's alone: other tests of the session corrupt the shared one on purpose
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(cache))
    run("doctor", three, "--select", "ENT")
    assert list(cache.rglob("units.json"))
    for units in cache.rglob("units.json"):
        data = json.loads(units.read_text(encoding="utf-8"))
        units.write_text(json.dumps({key: {"items": [{"code": 7}], "read": 3} for key in data}), encoding="utf-8")
    main = three / "rollouts" / "second" / "main.py"
    main.write_text("import os\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("doctor", three, "-v", "--select", "ENT")
    assert reused(result) is None and "Traceback" not in result.output
    assert findings(run, three) == findings(run, three, "--no-cache")


def test_a_rollout_lock_edited_is_checked_again(three, run):
    """The locks family's unit per rollout: its pyproject.toml and uv.lock."""
    run("doctor", three, "--select", "DEP")
    lock = three / "rollouts" / "second" / "uv.lock"
    lock.write_text("this is not a lock\n", encoding="utf-8")
    assert recomputed(run("doctor", three, "-v", "--select", "DEP")) == 2  # second's lock and comments recomputed
    cached = findings(run, three, "--select", "DEP")
    assert any(path == "rollouts/second/uv.lock" for _, path, _, _ in cached)
    assert cached == findings(run, three, "--select", "DEP", "--no-cache")


def test_layout_units_see_markers_and_placeholders_added_to_one_rollout(three, run):
    """The layout family's units per rollout folder: leftover merge markers (LAY111) and template
    placeholders (LAY100), each over the folder's own files."""
    run("doctor", three, "--select", "LAY")
    main = three / "rollouts" / "third" / "main.py"
    main.write_text(main.read_text(encoding="utf-8") + "\n<<<<<<< yours\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n", encoding="utf-8")
    (three / "rollouts" / "third" / "prompts.py").write_text('PROMPT = "TODO(osmosis): the task"\n', encoding="utf-8")
    # third's markers, placeholders and comments, and the comments of the two files findings now name
    assert recomputed(run("doctor", three, "-v", "--select", "LAY")) == 5
    cached = findings(run, three, "--select", "LAY")
    assert {(code, path) for code, path, _, _ in cached if path.startswith("rollouts/third/")} == {
        ("LAY111", "rollouts/third/main.py"), ("LAY100", "rollouts/third/prompts.py")}
    assert cached == findings(run, three, "--select", "LAY", "--no-cache")


def test_a_suppression_added_to_one_rollout_is_read(three, run):
    """The suppression comments of a rollout's Python are a unit too: one added after a cached run
    silences its finding, and one left unused is reported (SET004), as without the cache."""
    main = three / "rollouts" / "second" / "main.py"
    main.write_text("from osmosis_ai.rollout import NoSuchThing\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    first = findings(run, three, "--select", "ENT,SET")
    code = next(c for c, path, line, _ in first if path == "rollouts/second/main.py" and line == 1)
    lines = main.read_text(encoding="utf-8").splitlines()
    lines[0] += f"  # osmosis: ignore[{code}]"
    main.write_text("\n".join(lines) + "\n", encoding="utf-8")
    third = three / "rollouts" / "third" / "main.py"
    third.write_text("import os  # osmosis: ignore[ENT001]\n" + third.read_text(encoding="utf-8"), encoding="utf-8")
    cached = findings(run, three, "--select", "ENT,SET")
    assert not any(path == "rollouts/second/main.py" and line == 1 for _, path, line, _ in cached)
    assert ("SET004", "rollouts/third/main.py") in {(c, path) for c, path, _, _ in cached}
    assert cached == findings(run, three, "--select", "ENT,SET", "--no-cache")


CONFIG_DEPENDENCIES = {
    # what a config's findings are judged on besides its own text, each changed after a cached run
    "its rollout folder removed": lambda ws: shutil.rmtree(ws / "rollouts" / "second"),
    "its entrypoint removed": lambda ws: (ws / "rollouts" / "second" / "main.py").unlink(),
    "its dataset copy removed": lambda ws: (ws / "data" / "multiply.jsonl").unlink(),
    "the schema files removed": lambda ws: shutil.rmtree(ws / ".osmosis" / "schemas"),
    "the rollout's copier answers removed": lambda ws: (ws / "rollouts" / "second" / ".copier-answers.yml").unlink(),
    "the root pyproject opting in": lambda ws: (ws / "pyproject.toml").write_text(
        (ws / "pyproject.toml").read_text(encoding="utf-8") + "\n[tool.osmosis]\nstrict = false\n", encoding="utf-8"),
}


@pytest.mark.parametrize("change", sorted(CONFIG_DEPENDENCIES))
def test_a_configs_cached_findings_follow_what_it_reads(three, run, change):
    """Each config is a unit keyed on what it reads: whatever of that changes, the cached answer is the
    one a run without the cache gives."""
    text = (three / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8")
    (three / "configs" / "eval" / "second.toml").write_text(text.replace('rollout = "multiply"', 'rollout = "second"'), encoding="utf-8")
    every = ("--select", "CFG,SEC,DAT,ENT,LAY")
    before = findings(run, three, *every)
    CONFIG_DEPENDENCIES[change](three)
    cached = findings(run, three, *every)
    assert cached == findings(run, three, *every, "--no-cache")
    # these three leave this workspace's answer as it was (the configs already carry their `#:schema` line,
    # and the eval config's steps are not judged on rows): the cached answer must still be the fresh one
    unchanged = {"the root pyproject opting in", "its dataset copy removed", "the rollout's copier answers removed"}
    assert (cached != before) is (change not in unchanged), change


def test_one_config_edited_recomputes_its_own_units_only(three, run):
    every = ("--select", "CFG,SEC")
    run("doctor", three, *every)
    config = three / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    # its facts, its findings, its secrets and its comments
    assert recomputed(run("doctor", three, "-v", *every)) == 4
    assert findings(run, three, *every) == findings(run, three, *every, "--no-cache")


def test_a_config_naming_a_missing_rollout_sees_a_rollout_added(three, run):
    """CFG016 guesses among the rollouts there are and lists them: a rollout added leaves the missing
    folder as absent as it was, yet changes the finding."""
    text = (three / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8")
    (three / "configs" / "eval" / "calcs.toml").write_text(text.replace('rollout = "multiply"', 'rollout = "calcs"'), encoding="utf-8")
    every = ("--select", "CFG")
    assert not any("calcz" in message for *_, message in findings(run, three, *every))
    shutil.copytree(three / "rollouts" / "second", three / "rollouts" / "calcz")
    cached = findings(run, three, *every)
    assert any("did you mean 'calcz'" in message for *_, message in cached)
    assert cached == findings(run, three, *every, "--no-cache")


def test_a_dataset_path_outside_data_follows_a_link_made_there(three, run):
    """`dataset = "datasets/x.jsonl"` is judged on that path too: a link `datasets -> data` made after a
    cached run turns "not under data/" into the file-path finding, with data/ itself unchanged."""
    config = three / "configs" / "eval" / "second.toml"
    text = (three / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8").replace('rollout = "multiply"', 'rollout = "second"')
    config.write_text(re.sub(r'(?m)^dataset = .*$', 'dataset = "datasets/multiply.jsonl"', text), encoding="utf-8")
    every = ("--select", "CFG")
    assert any("is not under data/" in message for *_, message in findings(run, three, *every))
    (three / "datasets").symlink_to("data", target_is_directory=True)
    cached = findings(run, three, *every)
    assert not any("is not under data/" in message for *_, message in cached)
    assert cached == findings(run, three, *every, "--no-cache")


def test_a_package_installed_in_a_rollouts_venv_is_seen(three, run):
    """ENT038 counts what a rollout's synced .venv holds as provided; the .venv is a tool's folder, one
    line in the key, but for the names of its site-packages: installing the package after a cached run
    clears the finding, removing it brings it back."""
    main = three / "rollouts" / "second" / "main.py"
    main.write_text("import zzfancy\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    venv = three / "rollouts" / "second" / ".venv"
    site = venv / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (venv / ".gitignore").write_text("*\n", encoding="utf-8")

    def ent038() -> list:
        return [row for row in findings(run, three) if row[0] == "ENT038"]
    assert ent038()
    (site / "zzfancy").mkdir()
    assert ent038() == [] == [row for row in findings(run, three, "--no-cache") if row[0] == "ENT038"]
    (site / "zzfancy").rmdir()
    assert ent038()


def test_a_small_edit_leaves_the_memo_files_alone_and_its_units_are_recomputed(three, run, doctor_cache):
    """The units file is rewritten only when enough of it changed: a handful of changed units are
    computed again by the next run (never reused stale), which costs less than rewriting megabytes."""
    run("doctor", three, "--select", "ENT")
    units = next(doctor_cache.rglob("units.json"))
    before = units.read_bytes()
    main = three / "rollouts" / "second" / "main.py"
    main.write_text("from osmosis_ai.rollout import NoSuchThing\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    assert recomputed(run("doctor", three, "-v", "--select", "ENT")) == 3
    assert units.read_bytes() == before
    main.write_text(main.read_text(encoding="utf-8") + "\n# and again\n", encoding="utf-8")
    assert recomputed(run("doctor", three, "-v", "--select", "ENT")) == 3
    assert findings(run, three) == findings(run, three, "--no-cache")
