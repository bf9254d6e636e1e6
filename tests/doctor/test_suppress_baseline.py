"""Suppressions in every file kind, `--add-ignores`, and baselines, end to end through the CLI.

The checks here are test rules (9xx codes, tests/doctor/conftest.py): ENT901 at each `bad` word in a
rollout's Python, a skill's SKILL.md or a YAML file; CFG901 (the `standard` fixture's) in configs.
"""

from __future__ import annotations

import json

import pytest


def found(result) -> list[tuple[str, str | None, int | None]]:
    return [(d["code"], d["path"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]]


@pytest.fixture
def anywhere(standard):
    """ENT901 (error) at every `bad` word in rollouts/**/*.py, .agents/skills/*/SKILL.md and data/*.yml."""
    ent = standard.rule("ENT901", "entrypoints", "error")

    @standard.check("entrypoints")
    def bad_words(ws):
        hits = []
        files = [*ws.root.glob("rollouts/*/*.py"), *ws.root.glob(".agents/skills/*/SKILL.md"), *ws.root.glob("data/*.yml")]
        for path in sorted(files):
            for number, line in enumerate((ws.read_text(path) or "").split("\n"), start=1):
                if "bad" in line.split("#")[0].split("<!--")[0]:
                    hits.append(ent.at(ws.rel(path), "the word bad", line=number, column=1))
        return hits

    return standard


SKILL = "---\nname: demo\ndescription: bad skill  # osmosis: ignore[ENT901]\n---\n\nA bad body. <!-- osmosis: ignore[ENT901] -->\nbad again\n"


def test_comments_in_python_markdown_and_front_matter(anywhere, mini_ws, run):
    (mini_ws / "rollouts/r").mkdir()
    (mini_ws / "rollouts/r/main.py").write_text("x = 'bad'  # osmosis: ignore[ENT901]\ny = 'bad'\n", encoding="utf-8")
    (mini_ws / ".agents/skills/demo").mkdir(parents=True)
    (mini_ws / ".agents/skills/demo/SKILL.md").write_text(SKILL, encoding="utf-8")
    result = run("doctor", mini_ws, "-f", "json")
    assert found(result) == [("ENT901", ".agents/skills/demo/SKILL.md", 7), ("ENT901", "rollouts/r/main.py", 2)]


def test_a_hash_comment_in_a_markdown_body_is_not_a_suppression(anywhere, mini_ws, run):
    (mini_ws / ".agents/skills/demo").mkdir(parents=True)
    (mini_ws / ".agents/skills/demo/SKILL.md").write_text("---\nname: demo\n---\nbad body  # osmosis: ignore[ENT901]\n", encoding="utf-8")
    assert ("ENT901", ".agents/skills/demo/SKILL.md", 4) in found(run("doctor", mini_ws, "-f", "json"))


def test_ignore_file_silences_the_whole_file_and_unused_ones_are_reported(anywhere, mini_ws, run):
    (mini_ws / "rollouts/r").mkdir()
    (mini_ws / "rollouts/r/main.py").write_text("x = 'bad'\ny = 'bad'\n# osmosis: ignore-file[ENT901]\n", encoding="utf-8")
    (mini_ws / "rollouts/r/clean.py").write_text("ok = 1\n# osmosis: ignore-file[ENT901, ENT9Z]\n", encoding="utf-8")
    result = run("doctor", mini_ws, "-f", "json")
    assert sorted(found(result)) == [("SET003", "rollouts/r/clean.py", 2), ("SET004", "rollouts/r/clean.py", 2)]
    messages = [d["message"] for d in json.loads(result.stdout)["diagnostics"]]
    assert "suppression of ENT901 is unused in this file" in messages
    assert result.exit_code == 0


def test_add_ignores_writes_comments_that_silence_todays_findings(anywhere, mini_ws, run):
    (mini_ws / "rollouts/r").mkdir()
    (mini_ws / "rollouts/r/main.py").write_text("x = 'bad'\ndoc = '''\nbad inside a string\n'''\n", encoding="utf-8")
    (mini_ws / "configs/eval/a.toml").write_text('#:schema x\nname = "bad"\ntext = """\nbad\n"""\n', encoding="utf-8")
    (mini_ws / ".agents/skills/demo").mkdir(parents=True)
    (mini_ws / ".agents/skills/demo/SKILL.md").write_text("---\nname: demo\ndescription: bad\n---\nbad body\n", encoding="utf-8")
    (mini_ws / "data").rmdir()  # LAY901: a folder, no file to carry a comment
    result = run("doctor", mini_ws, "--add-ignores")
    assert result.exit_code == 0, result.output
    assert "Added suppressions for 6 findings in 3 files." in result.stderr
    assert "not suppressible: LAY901 in data" in result.stderr
    py = (mini_ws / "rollouts/r/main.py").read_text(encoding="utf-8")
    # the line inside the string cannot take a comment without changing the string: file level instead
    assert py.startswith("x = 'bad'  # osmosis: ignore[ENT901]\ndoc = '''\nbad inside a string\n'''\n")
    assert py.endswith("# osmosis: ignore-file[ENT901]\n")
    toml = (mini_ws / "configs/eval/a.toml").read_text(encoding="utf-8")
    assert toml.startswith('#:schema x\nname = "bad"  # osmosis: ignore[CFG901]\n') and toml.endswith("# osmosis: ignore-file[CFG901]\n")
    skill = (mini_ws / ".agents/skills/demo/SKILL.md").read_text(encoding="utf-8")
    assert skill == "---\nname: demo\ndescription: bad  # osmosis: ignore[ENT901]\n---\nbad body  <!-- osmosis: ignore[ENT901] -->\n"
    again = run("doctor", mini_ws, "-f", "json")
    assert found(again) == [("LAY901", "data", None)]  # nothing else, and no suppression unused
    assert not list(mini_ws.glob(".osmosis-undo-*"))


def test_add_ignores_merges_into_a_comment_already_on_the_line(anywhere, mini_ws, run):
    (mini_ws / "configs/eval/a.toml").write_text("a = 'bad'  # osmosis: ignore[SEC]\n", encoding="utf-8")
    assert run("doctor", mini_ws, "--add-ignores").exit_code == 0
    assert (mini_ws / "configs/eval/a.toml").read_text(encoding="utf-8") == "a = 'bad'  # osmosis: ignore[SEC,CFG901]\n"


@pytest.fixture
def errors(rules):
    """CFG902 (error) at each `bad` word in configs."""
    cfg = rules.rule("CFG902", "configs", "error")

    @rules.check("configs")
    def bad_words(ws):
        hits = []
        for path in ws.config_files("eval"):
            for number, line in enumerate((ws.read_text(path) or "").split("\n"), start=1):
                if "bad" in line:
                    hits.append(cfg.at(ws.rel(path), "the word bad", line=number, column=1))
        return hits

    return rules


def test_baseline_fails_only_on_new_findings_and_survives_moved_lines(errors, mini_ws, run, tmp_path):
    config = mini_ws / "configs/eval/a.toml"
    config.write_text("a = 'bad'\nb = 'bad'\n", encoding="utf-8")
    base = tmp_path / "baseline.json"
    wrote = run("doctor", mini_ws, "--write-baseline", base)
    assert wrote.exit_code == 0 and "Wrote 2 findings" in wrote.stderr
    assert run("doctor", mini_ws).exit_code == 1
    assert run("doctor", mini_ws, "--baseline", base).exit_code == 0
    config.write_text("# a comment above moves every line\n\nb = 'bad'\na = 'bad'\n", encoding="utf-8")
    kept = run("doctor", mini_ws, "--baseline", base, "-f", "json")
    assert kept.exit_code == 0 and found(kept) == []
    config.write_text("b = 'bad'\na = 'bad'\nc = 'bad'\n", encoding="utf-8")
    new = run("doctor", mini_ws, "--baseline", base, "-f", "json")
    assert new.exit_code == 1 and found(new) == [("CFG902", "configs/eval/a.toml", 3)]


def test_a_fixed_finding_leaves_a_stale_entry(errors, mini_ws, run, tmp_path):
    config = mini_ws / "configs/eval/a.toml"
    config.write_text("a = 'bad'\nb = 'bad'\n", encoding="utf-8")
    base = mini_ws / "doctor-baseline.json"
    run("doctor", mini_ws, "--write-baseline", base)
    config.write_text("a = 'bad'\nb = 'good'\n", encoding="utf-8")
    result = run("doctor", mini_ws, "--baseline", base, "-f", "json")
    data = json.loads(result.stdout)["diagnostics"]
    assert result.exit_code == 0 and [(d["code"], d["path"], d["severity"]) for d in data] == [("SET005", "doctor-baseline.json", "info")]
    assert "CFG902 in configs/eval/a.toml" in data[0]["message"]


@pytest.mark.parametrize("content, says", [
    (None, "no such file"),
    (b"{not json", "not JSON"),
    (b'{"findings": []}', "no \"osmosis-doctor-baseline\""),
    (b'{"osmosis-doctor-baseline": 1, "findings": [{"code": 1}]}', "entry 1 is not a finding"),
    (b"\xff\xfe", "not a baseline"),
    (b"[" * 100_000 + b"]" * 100_000, "nested more than 100 deep"),  # was RecursionError, exit 3
    (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, "nested more than 100 deep"),
])
def test_a_bad_baseline_file_is_one_line_exit_2(errors, mini_ws, run, tmp_path, content, says):
    base = tmp_path / "b.json"
    if content is not None:
        base.write_bytes(content)
    result = run("doctor", mini_ws, "--baseline", base)
    assert result.exit_code == 2 and says in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) <= 2 and f"--baseline {base}" in result.stderr  # the line and its hint


def test_an_unused_suppression_in_a_skill_or_rollout_without_findings_is_reported(anywhere, mini_ws, run):
    (mini_ws / "rollouts/r").mkdir()
    (mini_ws / "rollouts/r/main.py").write_text("x = 1  # osmosis: ignore[ENT901]\n", encoding="utf-8")
    (mini_ws / ".agents/skills/demo").mkdir(parents=True)
    (mini_ws / ".agents/skills/demo/SKILL.md").write_text("---\nname: demo\n---\nfine <!-- osmosis: ignore[ENT901] -->\n", encoding="utf-8")
    result = run("doctor", mini_ws, "-f", "json")
    assert sorted(found(result)) == [("SET004", ".agents/skills/demo/SKILL.md", 4), ("SET004", "rollouts/r/main.py", 1)]


def test_add_ignores_keeps_crlf_line_endings(anywhere, mini_ws, run):
    (mini_ws / "rollouts/r").mkdir()
    (mini_ws / "rollouts/r/main.py").write_bytes(b"x = 'bad'\r\ny = 1\r\n")
    assert run("doctor", mini_ws, "--add-ignores").exit_code == 0
    assert (mini_ws / "rollouts/r/main.py").read_bytes() == b"x = 'bad'  # osmosis: ignore[ENT901]\r\ny = 1\r\n"
