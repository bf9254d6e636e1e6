"""Issue 37: a file that changes while doctor runs costs the run's findings (they may be of a text the
key's walk did not see), but only the units whose inputs hold it: a `git gc` packing refs in the git
folder during a long cold run used to leave nothing in the cache at all. Nothing is walked again after
a run (check/cache_index.py): the run is stored, and the next run's walk sees the change and takes
neither its findings nor the units the change reaches. Every answer after such a run, and after edits,
renames and deletes, is the one `--no-cache` gives."""

from __future__ import annotations

import importlib
import json
import re
import shutil

run_stage = importlib.import_module("osmosis_workspace.check.pipeline.run")  # the package re-exports its `run`


def units_reused(result) -> tuple[int, int] | None:
    assert result.exit_code in (0, 1), result.output
    found = re.search(r"(\d+) of (\d+) units of work reused from the cache", result.output)
    return (int(found[1]), int(found[2])) if found else None


def findings(run, ws, *extra: str) -> list[tuple]:
    result = run("doctor", ws, "-f", "json", *extra)
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["line"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def same_as_no_cache(run, ws) -> None:
    assert findings(run, ws) == findings(run, ws, "--no-cache")


def changing(monkeypatch, change) -> None:
    """The next run's checks call ``change()`` once they are done, before the cache is written."""
    real = run_stage.run_checks

    def checks_then_change(*args, **kwargs):
        found = real(*args, **kwargs)
        change()
        monkeypatch.setattr(run_stage, "run_checks", real)
        return found

    monkeypatch.setattr(run_stage, "run_checks", checks_then_change)


def folder_of(ws):
    """This workspace's folder in doctor's cache (the fixture's folder is the session's)."""
    from osmosis_workspace.check.cache import Cache
    from osmosis_workspace.core.workspace import Workspace

    return Cache.for_workspace(Workspace(ws)).folder


def cached_runs(ws) -> list:
    return [p for p in folder_of(ws).glob("*.json") if p.name not in ("hashes.json", "units.json", "walk.json")]


def test_the_git_folder_changing_under_a_run_keeps_every_unit(three, run, doctor_cache, monkeypatch):
    packed = three / ".git" / "packed-refs"
    changing(monkeypatch, lambda: packed.write_text("# pack-refs with: peeled fully-peeled sorted\n", encoding="utf-8"))
    first = run("doctor", three, "-v")
    assert first.exit_code in (0, 1), first.output
    assert len(cached_runs(three)) == 1  # stored, but its walk is not what the next one sees:
    second = run("doctor", three, "-v")
    assert "answered from the cache" not in second.output  # its findings are not taken,
    assert (units := units_reused(second)) is not None and units[0] == units[1], units  # every unit is
    same_as_no_cache(run, three)


def test_a_rollout_edited_under_a_run_is_computed_again_alone(three, run, doctor_cache, monkeypatch):
    main = three / "rollouts" / "second" / "main.py"
    text = main.read_text(encoding="utf-8")
    changing(monkeypatch, lambda: main.write_text("from osmosis_ai.rollout import NoSuchThing\n" + text, encoding="utf-8"))
    run("doctor", three)
    assert len(cached_runs(three)) == 1
    second = run("doctor", three, "-v")
    assert "answered from the cache" not in second.output
    reused, total = units_reused(second)
    assert 0 < total - reused <= 8, (reused, total)  # second's units of its folder (and the comments a new finding names)
    assert any(path == "rollouts/second/main.py" for _, path, _, _ in findings(run, three))
    same_as_no_cache(run, three)


def test_edits_renames_and_deletes_after_a_partial_keep_match_no_cache(three, run, doctor_cache, monkeypatch):
    config = three / "configs" / "eval" / "multiply.toml"
    changing(monkeypatch, lambda: config.write_text(config.read_text(encoding="utf-8") + "\n# typed\n", encoding="utf-8"))
    run("doctor", three)
    same_as_no_cache(run, three)
    # edit: a config's rollout renamed to one that does not exist
    config.write_text(config.read_text(encoding="utf-8").replace('rollout = "multiply"', 'rollout = "nowhere"'), encoding="utf-8")
    same_as_no_cache(run, three)
    # rename: a rollout's folder, then a config file
    (three / "rollouts" / "third").rename(three / "rollouts" / "fourth")
    same_as_no_cache(run, three)
    config.rename(config.with_name("renamed.toml"))
    same_as_no_cache(run, three)
    # delete: a rollout's main.py, then a whole rollout
    (three / "rollouts" / "second" / "main.py").unlink()
    same_as_no_cache(run, three)
    shutil.rmtree(three / "rollouts" / "fourth")
    same_as_no_cache(run, three)


def test_a_units_file_with_deep_values_beside_its_fields_is_read_safely(three, run, doctor_cache):
    run("doctor", three)
    units = folder_of(three) / "units.json"
    data = json.loads(units.read_text(encoding="utf-8"))
    deep = "[" * 1000 + "]" * 1000  # past what json.dumps and str() recurse through, within orjson's limit
    body = ", ".join(f'{json.dumps(key)}: {json.dumps(entry)[:-1]}, "extra": {deep}}}' for key, entry in data["units"].items())
    units.write_text(f'{{"base": {json.dumps(data["base"])}, "units": {{{body}}}}}', encoding="utf-8")
    (three / "data" / "extra.jsonl").write_text('{"x": 1}\n', encoding="utf-8")  # a miss: the units are read
    same_as_no_cache(run, three)
    assert "[[[[" not in units.read_text(encoding="utf-8")  # rewritten from what was decoded: the deep values are gone
