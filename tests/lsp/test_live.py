"""The language server's memory between runs (check/live.py): after typing, only what the edited
buffers touch is checked again, and the answer is always the one a fresh full run over the same
buffers gives. Driven through the session the server uses (`lsp/session.py`), on a real workspace."""

from __future__ import annotations

import json
import shutil

import pytest

from osmosis_workspace.check.config_refs import workspace_configs
from osmosis_workspace.check.families.config_crossrefs import judged_on
from osmosis_workspace.lsp.session import Session, path_uri


def answer(checked) -> list[tuple]:
    return sorted((str(path), d.code, d.line, d.column, d.message) for path, found in checked.by_file.items() for d in found)


def opened(ws, path, text):
    """A session with ``path``'s buffer holding ``text``, after its first (full) run: (session, uri)."""
    session = Session()
    uri = path_uri(path)
    session.buffers[uri] = text
    session.check(ws)
    return session, uri


def edit_as_fresh(session, ws, uri, text, why):
    """Set the buffer, run the edit run, and check it answers as a fresh session's full run does."""
    session.buffers[uri] = text
    edited = session.check(ws)
    fresh = Session()
    fresh.buffers = dict(session.buffers)
    assert answer(edited) == answer(fresh.check(ws)), why
    return edited


@pytest.fixture
def three(make_workspace, monkeypatch, tmp_path):
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace()
    for name in ("second", "third"):
        shutil.copytree(ws / "rollouts" / "multiply", ws / "rollouts" / name, ignore=shutil.ignore_patterns(".venv"))
        text = (ws / "configs" / "eval" / "multiply.toml").read_text(encoding="utf-8")
        (ws / "configs" / "eval" / f"{name}.toml").write_text(text.replace('rollout = "multiply"', f'rollout = "{name}"'), encoding="utf-8")
    (ws / "rollouts" / "second" / "other.py").write_text("x = 1\n", encoding="utf-8")  # no rollout in it
    return ws


def edits(ws):
    """(file, how its buffer changes): each one a check family's own input."""
    config = ws / "configs" / "eval" / "second.toml"
    main = ws / "rollouts" / "third" / "main.py"
    return [
        (config, lambda t: t.replace('rollout = "second"', 'rollout = "secnod"')),  # CFG016, and third keeps its config
        (config, lambda t: t.replace('entrypoint = "main.py"', 'entrypoint = "missing.py"')),  # CFG
        # ENT: the entrypoints check learns what configs name from a view of them it shares with others
        (config, lambda t: t.replace('entrypoint = "main.py"', 'entrypoint = "other.py"')),
        (config, lambda t: t + '\n[secrets]\nrequired = ["NEW_KEY"]\n'),  # SEC: not in .env.example
        (config, lambda t: t + "\napi_key = \"sk-live-0123456789abcdefghijklmnopqrstuv\"\n"),
        (config, lambda t: t),  # back as it was
        # LAY100 and LAY111 in a config: the loops over every config's file (check/units.remember_each) keep a
        # check's findings when the edited config's item gives what it gave; here it does not
        (config, lambda t: t + "\n# TODO(osmosis): pick a dataset\n"),
        (config, lambda t: "# TODO(osmosis): pick a dataset\n" + t),  # the same finding on another line
        (config, lambda t: t.replace("[experiment]", "<<<<<<< ours\n[experiment]\n=======\n>>>>>>> theirs\n", 1)),
        (config, lambda t: t.replace('rollout = "second"', 'rollout = "secnod"  # osmosis: ignore[CFG016]')),  # suppressed
        (config, lambda t: t.replace('rollout = "second"', 'rollout = "secnod"  # osmosis: ignore[CFG017]')),  # not this one
        # GIT: the pins the git check reads are a value it compares (check/units.view)
        (config, lambda t: t.replace("[experiment]", '[experiment]\nbranch = "no-such-branch"', 1)),
        (config, lambda t: t.replace("[experiment]", '[experiment]\nbranch = "no-such-brunch"', 1)),
        (config, lambda t: t),
        (main, lambda t: "from osmosis_ai.rollout import NoSuchThing\n" + t),  # ENT
        (main, lambda t: t + "\n<<<<<<< yours\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n"),  # LAY111
        (main, lambda t: t + "\nTODO_MARK = 'TODO(osmosis): the task'\n"),  # LAY100
        (main, lambda t: t + "\ndef (:\n"),  # a syntax error
        (main, lambda t: t),
    ]


def test_every_edit_run_answers_as_a_full_run(three):
    session = Session()
    for path in {p for p, _ in edits(three)}:
        session.buffers[path_uri(path)] = path.read_text(encoding="utf-8")
    session.check(three)
    live = session.live[three]
    assert live.full_runs == 1
    texts = {p: p.read_text(encoding="utf-8") for p, _ in edits(three)}
    for path, change in edits(three):
        session.buffers[path_uri(path)] = change(texts[path])
        edited = session.check(three)
        fresh = Session()
        fresh.buffers = dict(session.buffers)
        assert answer(edited) == answer(fresh.check(three)), (path.name, live.last_rerun)
    assert live.full_runs == 1 and live.edit_runs == len(edits(three))


def test_edit_runs_that_rename_a_configs_rollout_answer_as_full_runs(three):
    """Which rollout names are folders is kept from one edit run to the next (live.py's DISK_VIEWS):
    renaming to a folder, to no folder, back, and deleting the name each answer as a fresh run."""
    config = three / "configs" / "eval" / "second.toml"
    text = config.read_text(encoding="utf-8")
    session = Session()
    uri = path_uri(config)
    session.buffers[uri] = text
    session.check(three)
    for name in ("third", "thrid", "third", "multiply", None, "second"):
        session.buffers[uri] = text.replace('rollout = "second"\n', "" if name is None else f'rollout = "{name}"\n')
        edited = session.check(three)
        fresh = Session()
        fresh.buffers = dict(session.buffers)
        assert answer(edited) == answer(fresh.check(three)), name
    assert session.live[three].full_runs == 1 and session.live[three].edit_runs == 6
    assert session.live[three].checks  # the memory answered: the edit runs were no full runs


def test_what_a_config_is_judged_on_is_kept_per_rollout_and_dataset_never_stale(three):
    """check_configs' inputs and extra per config (config_crossrefs.judgement) are kept from one edit run
    to the next (live.py's DISK_VIEWS) by the rollout and dataset the config names: changing either,
    or both at once, to a name with a local copy, one without, a path, or a text that does not parse,
    answers as a fresh run; a copy made on disk is seen by the next full run, as doctor --no-cache sees it."""
    config = three / "configs" / "eval" / "second.toml"
    text = config.read_text(encoding="utf-8")
    assert 'dataset = "multiply"' in text and 'rollout = "second"' in text
    session = Session()
    uri = path_uri(config)
    session.buffers[uri] = text
    session.check(three)
    for rollout, dataset in (("second", "third"), ("second", "data/multiply.jsonl"), ("thrid", "multiply"), ("third", "third"),
                             ("second", "multiply"), (None, None), ("thrid", "third")):
        changed = text.replace('rollout = "second"', f'rollout = "{rollout}"').replace('dataset = "multiply"', f'dataset = "{dataset}"')
        session.buffers[uri] = changed if rollout is not None else text.replace("[experiment]", "[experiment")  # no TOML
        edited = session.check(three)
        fresh = Session()
        fresh.buffers = dict(session.buffers)
        assert answer(edited) == answer(fresh.check(three)), (rollout, dataset)
        # the unit's inputs as kept are what judged_on says of the text now (what a buffer under them would re-run)
        ws = session.snapshot(three)
        ref = next((r for r in workspace_configs(ws) if r.path == config), None)
        if (now := judged_on(ws, config, ref)) is not None:
            assert session.live[three].units["config:configs/eval/second.toml"][0] == tuple(now), (rollout, dataset)
    live = session.live[three]
    assert live.full_runs == 1 and live.edit_runs == 7
    config.write_text(session.buffers[uri], encoding="utf-8")  # names dataset "third", with no copy in data/
    session.disk_changed()
    session.check(three)
    shutil.copy(three / "data" / "multiply.jsonl", three / "data" / "third.jsonl")
    session.disk_changed()
    seen = session.check(three)
    assert live.full_runs == 3
    assert _as_doctor(seen, three) == _files_of(_doctor(three, "--no-cache"), three)


def test_a_buffer_over_a_config_not_named_toml_is_read_by_each_edit_run(three):
    """The listing of configs/eval/'s files not named *.toml is kept across edit runs (live.py's
    DISK_VIEWS); whether one is meant as a config (CFG031: an [experiment] table) is its text, a buffer's."""
    notes = three / "configs" / "eval" / "notes.txt"
    notes.write_text("just notes\n", encoding="utf-8")
    session = Session()
    uri = path_uri(notes)
    session.buffers[uri] = "just notes\n"
    session.check(three)
    for text in ('[experiment]\nrollout = "second"\n', "just notes, again\n", '[experiment]\nrollout = "third"\n'):
        session.buffers[uri] = text
        edited = session.check(three)
        fresh = Session()
        fresh.buffers = dict(session.buffers)
        assert answer(edited) == answer(fresh.check(three)), text
        assert any(d.code == "CFG031" for d in edited.by_file.get(notes, [])) == text.startswith("[experiment]")
    assert session.live[three].full_runs == 1 and session.live[three].edit_runs == 3


def test_a_check_whose_edited_items_answer_as_before_keeps_its_findings(three):
    """A check that reached the edited config only through its loop over every config's file (the
    placeholder and merge-marker scans) keeps its findings when that config's item gives what it gave,
    and runs again when it gives anything else: the same code on another line included."""
    config = three / "configs" / "eval" / "second.toml"
    text = config.read_text(encoding="utf-8")
    session, uri = opened(three, config, text)
    live = session.live[three]
    placeholders = "osmosis_workspace.check.families.todos.check_template_placeholders"
    steps = [(text + "\n# typed\n", False), (text.replace('rollout = "second"', 'rollout = "secnod"'), False),
             (text + "\n# TODO(osmosis): pick a dataset\n", True), ("# TODO(osmosis): pick a dataset\n" + text, True),
             ("# TODO(osmosis): pick a dataset\n" + text + "\n# typed\n", False), (text, True)]
    for changed, reruns in steps:
        edit_as_fresh(session, three, uri, changed, changed)
        assert (placeholders in live.last_rerun) == reruns, (changed, live.last_rerun)
    assert live.full_runs == 1 and live.edit_runs == len(steps)


def test_a_check_that_reached_an_edit_only_through_compared_views_keeps_its_findings(three):
    """The datasets and entrypoints checks learn what configs say through values an edit run makes again
    and compares (check/units.view): renaming a config's rollout from one name with no folder to another
    keeps them; naming a folder, another entrypoint or another dataset runs them again, answering as a fresh run."""
    config = three / "configs" / "eval" / "second.toml"
    text = config.read_text(encoding="utf-8")
    (three / "data" / "other.txt").write_text("rows\n", encoding="utf-8")  # DAT001 once a config names dataset "other"
    session, uri = opened(three, config, text)
    live = session.live[three]
    data, entry = "osmosis_workspace.check.families.datasets.check_data_folder", "osmosis_workspace.check.families.entrypoints.check_rollout_entrypoints"
    renamed = lambda name: text.replace('rollout = "second"', f'rollout = "{name}"')  # noqa: E731
    steps = [(renamed("secnod"), {entry}), (renamed("secodn"), set()), (renamed("third"), {entry}),
             (renamed("third").replace('entrypoint = "main.py"', 'entrypoint = "other.py"'), {entry}),
             (renamed("secodn").replace('dataset = "multiply"', 'dataset = "other"'), {data, entry}),
             (renamed("secnod").replace('dataset = "multiply"', 'dataset = "other"'), set()), (text, {data, entry})]
    for changed, reruns in steps:
        edit_as_fresh(session, three, uri, changed, changed)
        assert {data, entry} & set(live.last_rerun) == reruns, (changed, live.last_rerun)
    assert live.full_runs == 1 and live.edit_runs == len(steps)


def test_a_suppression_is_read_again_when_the_files_with_findings_change(three):
    """The suppression comments are kept from one edit run to the next only for the same files with
    findings: a rollout's YAML file is read for comments only once a finding names it, so the edit that
    makes its first finding must meet the comment already in it (and the one that removes it, not)."""
    readme = three / "rollouts" / "third" / "notes.yaml"
    quiet = "# third\n# osmosis: ignore-file[LAY100]\n"
    readme.write_text(quiet, encoding="utf-8")
    session, uri = opened(three, readme, quiet)
    for changed in (quiet + "note: TODO(osmosis) describe it\n", quiet, quiet.replace("LAY100", "LAY101") + "note: TODO(osmosis) x\n"):
        edited = edit_as_fresh(session, three, uri, changed, changed)
        shown = {d.code for d in edited.by_file.get(readme, [])}
        assert ("LAY100" in shown) == ("LAY101" in changed), (changed, shown)
    assert session.live[three].full_runs == 1 and session.live[three].edit_runs == 3


def test_an_edit_runs_only_the_checks_that_read_the_buffer(three):
    session = Session()
    main = three / "rollouts" / "third" / "main.py"
    uri = path_uri(main)
    session.buffers[uri] = main.read_text(encoding="utf-8")
    session.check(three)
    everything = set(session.live[three].last_rerun)
    session.buffers[uri] += "\n# typed\n"
    session.check(three)
    again = set(session.live[three].last_rerun)
    assert again and again < everything
    assert not any("gitsync" in name or "skills" in name or "datasets" in name for name in again), again


def test_a_save_or_a_changed_root_pyproject_is_a_full_run(three):
    session = Session()
    pyproject = three / "pyproject.toml"
    session.buffers[path_uri(pyproject)] = pyproject.read_text(encoding="utf-8")
    session.check(three)
    session.buffers[path_uri(pyproject)] += "\n[tool.osmosis]\nstrict = true\n"
    session.check(three)
    assert session.live[three].full_runs == 2  # settings and opted-in are read once a snapshot: never kept across
    session.disk_changed()
    session.check(three)
    assert session.live[three].full_runs == 3


def test_a_file_changed_on_disk_is_seen_by_the_next_full_run(three):
    session = Session()
    config = three / "configs" / "eval" / "second.toml"
    session.buffers[path_uri(config)] = config.read_text(encoding="utf-8")
    before = answer(session.check(three))
    (three / "rollouts" / "third" / "main.py").write_text("import osmosis_ai.no_such_module\n", encoding="utf-8")
    session.disk_changed()  # what a save or the editor's file watcher says
    after = answer(session.check(three))
    assert after != before and any("rollouts/third/main.py" in row[0] for row in after)


def test_unsaved_buffers_never_reach_doctors_cache_on_disk(three):
    """The editor's full run fills doctor's units on disk only from what the files hold."""
    session = Session()
    main = three / "rollouts" / "second" / "main.py"
    session.buffers[path_uri(main)] = "from osmosis_ai.rollout import NoSuchThing\n" + main.read_text(encoding="utf-8")
    assert any("rollouts/second/main.py" in row[0] for row in answer(session.check(three)))
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    cached = CliRunner().invoke(app, ["doctor", str(three), "-f", "json"])
    fresh = CliRunner().invoke(app, ["doctor", str(three), "-f", "json", "--no-cache"])
    assert json.loads(cached.stdout)["diagnostics"] == json.loads(fresh.stdout)["diagnostics"]
    assert not any(d["path"] == "rollouts/second/main.py" for d in json.loads(cached.stdout)["diagnostics"])


def test_a_buffer_read_by_a_check_outside_any_unit_is_seen_by_an_edit_run(three):
    """.env.example is read by the secrets check alone, through Workspace.read_text: the buffer's text is
    in the snapshot before any check runs, yet the check that reads it must be the one re-run."""
    example = three / ".env.example"
    session = Session()
    session.buffers[path_uri(example)] = example.read_text(encoding="utf-8")
    session.check(three)
    session.buffers[path_uri(example)] += "\nOPENAI_API_KEY=sk-live-0123456789abcdefghijklmnopqrstuv\n"
    edited = session.check(three)
    assert session.live[three].edit_runs == 1
    assert any(code == "SEC006" for _, code, *_ in answer(edited))
    fresh = Session()
    fresh.buffers = dict(session.buffers)
    assert answer(edited) == answer(fresh.check(three))


def test_a_buffer_under_a_linked_rollout_is_seen_by_an_edit_run(three):
    """rollouts/link -> second: the entrypoint checks of `link` read second's modules where they really
    are, buffers included; an edit of second/main.py must re-check `link` too."""
    (three / "rollouts" / "link").symlink_to("second", target_is_directory=True)
    text = (three / "configs" / "eval" / "second.toml").read_text(encoding="utf-8")
    (three / "configs" / "eval" / "link.toml").write_text(text.replace('rollout = "second"', 'rollout = "link"'), encoding="utf-8")
    main = three / "rollouts" / "second" / "main.py"
    session = Session()
    session.buffers[path_uri(main)] = main.read_text(encoding="utf-8")
    session.check(three)
    session.buffers[path_uri(main)] = "from osmosis_ai.rollout import NoSuchThing\n" + main.read_text(encoding="utf-8")
    edited = session.check(three)
    assert session.live[three].edit_runs == 1
    assert any(path.endswith("rollouts/link/main.py") for path, *_ in answer(edited))
    fresh = Session()
    fresh.buffers = dict(session.buffers)
    assert answer(edited) == answer(fresh.check(three))


def _doctor(ws, *args) -> list[dict]:
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    return json.loads(CliRunner().invoke(app, ["doctor", str(ws), "-f", "json", *args]).stdout)["diagnostics"]


def _as_doctor(checked, root) -> list[tuple]:
    return sorted((str(path.relative_to(root)), d.code, d.line, d.message) for path, found in checked.by_file.items() for d in found)


def _files_of(found: list[dict], root) -> list[tuple]:
    return sorted((d["path"], d["code"], d["line"], d["message"]) for d in found if d["path"] and (root / d["path"]).is_file())


def test_a_first_run_on_a_warm_doctor_cache_is_doctors_answer_then_the_memory_is_primed(three):
    config = three / "configs" / "eval" / "second.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('rollout = "second"', 'rollout = "secnod"'), encoding="utf-8")
    _doctor(three)   # fills doctor's cache on disk for these very files
    truth = _files_of(_doctor(three, "--no-cache"), three)
    session = Session()
    session.buffers[path_uri(config)] = config.read_text(encoding="utf-8")   # open, not edited: the file's text
    first = session.check(three)
    live = session.live[three]
    assert live.served_from_disk and session.needs_priming(three)
    assert _as_doctor(first, three) == truth
    primed = session.check(three)   # what the server starts at once after publishing
    assert not live.served_from_disk and not session.needs_priming(three) and live.full_runs == 2
    assert _as_doctor(primed, three) == truth
    # the memory now serves edit runs, each answering as a fresh full run over the same buffers
    session.buffers[path_uri(config)] = config.read_text(encoding="utf-8").replace('rollout = "secnod"', 'rollout = "second"')
    edited = session.check(three)
    assert live.edit_runs == 1
    fresh = Session()
    fresh.buffers = dict(session.buffers)
    assert answer(edited) == answer(fresh.check(three))


def test_a_warm_cache_of_other_files_or_an_unsaved_buffer_is_never_served(three):
    """Stale answers: a file changed since doctor filled its cache, or a buffer that differs from its file,
    gets a run of its own, never doctor's cached answer."""
    main = three / "rollouts" / "third" / "main.py"
    _doctor(three)
    main.write_text("import osmosis_ai.no_such_module\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    session = Session()
    session.buffers[path_uri(main)] = main.read_text(encoding="utf-8")
    found = session.check(three)
    assert not session.live[three].served_from_disk
    assert _as_doctor(found, three) == _files_of(_doctor(three, "--no-cache"), three)
    assert any(path == main for path in found.by_file)
    _doctor(three)   # doctor's cache now holds these files; the buffer says something else
    other = Session()
    other.buffers[path_uri(main)] = main.read_text(encoding="utf-8").replace("import osmosis_ai.no_such_module\n", "")
    assert not any(path == main and any(d.code.startswith("ENT") for d in f) for path, f in other.check(three).by_file.items())
    assert not other.live[three].served_from_disk


def whole(session, root) -> list[tuple]:
    """Everything ``session``'s next run finds (folders included, which Session.check leaves out), run as
    the session runs it."""
    from osmosis_workspace.check.doctor import diagnose
    from osmosis_workspace.check.live import Live

    ws = session.snapshot(root)
    memory = session.live.setdefault(root, Live())
    memory.begin(ws)
    return sorted((d.path, d.code, d.line, d.column, d.message) for d in diagnose(ws, run_stage=memory.run).diagnostics)


def fresh_whole(session, root) -> list[tuple]:
    """What a fresh session's full run finds over ``session``'s buffers (doctor's cached answer when no buffer
    differs from its file)."""
    return whole(Session(buffers=dict(session.buffers)), root)


def test_configs_kept_item_by_item_answer_as_full_runs(three):
    """An edit run judges again only the configs whose text or inputs changed (check/units.remember_items),
    keeps each unchanged config's facts (config_refs), makes again only the edited configs' part of the
    views over every config (config_refs.by_config: dataset pairs, entrypoints of folders, data files used)
    and updates the rollouts-without-eval aggregate (CFG020) from them: a rollout misspelt and fixed, a config
    naming the one rollout without an eval config and then not, a config that stops parsing and parses again,
    a dataset pair made and unmade, an entrypoint of a folder renamed, a rollout's main.py edited; then configs
    added, renamed and deleted on disk, each answer equal to doctor's own run over the same buffers."""
    shutil.copytree(three / "rollouts" / "multiply", three / "rollouts" / "fourth", ignore=shutil.ignore_patterns(".venv"))
    shutil.copy(three / "data" / "multiply.jsonl", three / "data" / "other.jsonl")
    second, evals = three / "configs" / "eval" / "second.toml", three / "configs" / "eval" / "multiply.toml"
    main = three / "rollouts" / "fourth" / "main.py"
    texts = {p: p.read_text(encoding="utf-8") for p in (second, evals, main)}
    session = Session()
    for path, text in texts.items():
        session.buffers[path_uri(path)] = text
    assert whole(session, three) == fresh_whole(session, three)
    live = session.live[three]
    assert any(code == "CFG020" and "fourth" in message for _, code, _, _, message in whole(session, three))

    def named(rollout, *more):
        text = texts[second].replace('rollout = "second"', f'rollout = "{rollout}"')
        for old, new in more:
            text = text.replace(old, new)
        return text

    steps = [
        (second, named("secnod")), (second, named("second")),  # misspelt, fixed
        (second, named("fourth")), (second, named("fourth") + "\n# typed\n"),  # fourth has an eval config now: no CFG020
        (second, named("fourth").replace("[experiment]", "[experiment")),  # no TOML: its facts are gone, CFG020 is back
        (second, named("fourth", ('entrypoint = "main.py"', 'entrypoint = "missing.py"'))),  # parses again
        (evals, texts[evals].replace('dataset = "multiply"', 'dataset = "other"')),  # a pair of two files: DAT overlap
        (second, named("fourth", ('dataset = "multiply"', 'dataset = "other"'))),
        (evals, texts[evals]),
        (main, texts[main].replace("def ", "def renamed_", 1)),  # what the configs naming fourth are judged on
        (main, texts[main]), (second, texts[second]),
    ]
    for path, text in steps:
        session.buffers[path_uri(path)] = text
        assert whole(session, three) == fresh_whole(session, three), (path.name, text)
    assert live.full_runs == 1 and live.edit_runs == len(steps) + 1
    # on disk: a config added, one renamed, one deleted; a full run, then edit runs from it
    (three / "configs" / "eval" / "fifth.toml").write_text(named("fourth"), encoding="utf-8")
    (three / "configs" / "eval" / "third.toml").rename(three / "configs" / "eval" / "thrid.toml")
    (three / "configs" / "eval" / "multiply.toml").unlink()
    del session.buffers[path_uri(evals)]
    session.disk_changed()
    assert whole(session, three) == fresh_whole(session, three)
    for text in (named("multiply"), named("thrid"), named("fourth"), texts[second]):
        session.buffers[path_uri(second)] = text
        assert whole(session, three) == fresh_whole(session, three), text
    assert live.full_runs == 2
