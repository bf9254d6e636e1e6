"""Units of osmosis_workspace.check.families.skills: positions, hints, body links, and the file-level entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from osmosis_workspace.check.families.skills import check_skill_dir, check_skill_text
from osmosis_workspace.check.registry import RULES


def _skill(tmp_path: Path, text: str, name: str = "my-skill", files: dict[str, str] | None = None) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    for rel, content in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(content, encoding="utf-8")
    return folder


HEAD = "---\nname: my-skill\ndescription: Does a thing. Use when testing.\n---\n"


def test_every_skills_rule_is_documented():
    rules = [r for r in RULES.values() if r.family == "skills"]
    assert len(rules) >= 30
    for r in rules:
        assert r.code.startswith("SKL") and len(r.code) == 6
        assert r.summary and r.why and r.fix, r.code


def test_unknown_key_points_at_its_line_and_column():
    text = "---\nname: my-skill\ndescription: d\n  \nversion: 2\n---\n"
    [finding] = check_skill_text(text, "my-skill", "s/SKILL.md")
    assert (finding.code, finding.path, finding.line, finding.column) == ("SKL010", "s/SKILL.md", 5, 1)
    assert "'version'" in finding.message


def test_invalid_yaml_points_at_the_problem_line():
    text = "---\nname: my-skill\ndescription: Use when: x\n---\n"
    [finding] = check_skill_text(text, "my-skill", "SKILL.md")
    assert finding.code == "SKL006" and finding.line == 3


def test_flow_style_points_at_the_brace():
    text = "---\nname: my-skill\ndescription: d\nmetadata: {a: b}\n---\n"
    [finding] = check_skill_text(text, "my-skill", "SKILL.md")
    assert (finding.code, finding.line, finding.column) == ("SKL007", 4, 11)


def test_key_on_the_opening_line_gets_the_column_after_the_dashes():
    findings = check_skill_text("---nme: my-skill\ndescription: d\n---\n", "my-skill", "SKILL.md")
    unknown = [f for f in findings if f.code == "SKL010"]
    assert [(f.line, f.column) for f in unknown] == [(1, 4)]


def test_scalars_are_strings_as_in_strictyaml():
    # pyyaml's default loader would make these a bool and an int; the reference reads text.
    assert check_skill_text("---\nname: my-skill\ndescription: yes\ncompatibility: 3\n---\n", "my-skill", "S") == []


def test_name_hints_name_the_fix():
    [finding] = check_skill_text("---\nname: other\ndescription: d\n---\n", "my-skill", "S")
    assert finding.code == "SKL017" and "my-skill" in finding.hint
    [finding] = check_skill_text("---\ndescription: d\n---\n", "my-skill", "S")
    assert finding.code == "SKL011" and finding.hint == "add `name: my-skill`"


def test_byte_order_mark_gets_its_own_hint():
    [finding] = check_skill_text("\ufeff" + HEAD, "my-skill", "S")
    assert finding.code == "SKL004" and "byte-order mark" in finding.hint


def test_description_length_limit_is_inclusive():
    ok = f"---\nname: my-skill\ndescription: {'x' * 1024}\n---\n"
    too_long = f"---\nname: my-skill\ndescription: {'x' * 1025}\n---\n"
    assert check_skill_text(ok, "my-skill", "S") == []
    assert [f.code for f in check_skill_text(too_long, "my-skill", "S")] == ["SKL020"]


def test_body_length_warning_starts_after_500_lines():
    assert check_skill_text(HEAD + "x\n" * 500, "my-skill", "S") == []
    [finding] = check_skill_text(HEAD + "x\n" * 501, "my-skill", "S")
    assert finding.code == "SKL024" and finding.severity.value == "warning"


@pytest.mark.parametrize(
    "body",
    [
        "[web](https://example.com) [mail](mailto:a@b.c) [top](#steps) [proto](//cdn.example.com/x.js)",
        "```\n[fenced](missing.md)\n```",
        "~~~~\n```\n[nested fence](missing.md)\n~~~~",
        "Use `[code](missing.md)` literally.",
        "Plain text with (parentheses) and [brackets] but no link.",
    ],
)
def test_links_that_are_not_files_are_ignored(tmp_path, body):
    assert check_skill_dir(_skill(tmp_path, HEAD + body + "\n"), "my-skill") == []


def test_missing_link_target_has_line_and_column_of_the_target(tmp_path):
    folder = _skill(tmp_path, HEAD + "intro\n\nSee [the guide](references/guide.md) and [ok](references/ok.md).\n",
                    files={"references/ok.md": "ok"})
    [finding] = check_skill_dir(folder, "skills/my-skill")
    assert (finding.code, finding.path, finding.line, finding.column) == ("SKL025", "skills/my-skill/SKILL.md", 7, 17)


def test_link_on_the_closing_delimiter_line_counts_columns_after_it(tmp_path):
    folder = _skill(tmp_path, "---\nname: my-skill\ndescription: d\n--- [x](gone.md)\n")
    codes = {(f.code, f.line, f.column) for f in check_skill_dir(folder, "s")}
    assert ("SKL025", 4, 9) in codes


@pytest.mark.parametrize("target", ["../notes/x.md", "references/../../x.md", "/etc/passwd"])
def test_links_out_of_the_skill_are_warned_even_when_the_file_exists(tmp_path, target):
    (tmp_path / "notes").mkdir()  # a folder beside the skill, but not a skill (no SKILL.md)
    (tmp_path / "notes" / "x.md").write_text("x")
    (tmp_path / "x.md").write_text("x")
    [finding] = check_skill_dir(_skill(tmp_path, HEAD + f"[t]({target})\n"), "s")
    assert (finding.code, finding.severity.value) == ("SKL026", "warning")


def test_link_rules_are_warnings_spec_validity_alone_decides_errors(tmp_path):
    # 67 spec-valid public skills failed `osmosis validate` on dead or outward links alone.
    assert RULES["SKL025"].severity.value == RULES["SKL026"].severity.value == "warning"
    folder = _skill(tmp_path, HEAD + "[gone](references/gone.md) [out](../../x.md) [abs](/etc/passwd)\n")
    findings = check_skill_dir(folder, "s")
    assert sorted(f.code for f in findings) == ["SKL025", "SKL026", "SKL026"]
    assert {f.severity.value for f in findings} == {"warning"}


def test_basedir_placeholder_is_the_skill_folder(tmp_path):
    body = ("Read [the API]({baseDir}/references/api.md), [scripts](<{baseDir}/scripts/run.py>) "
            "and [root]({baseDir}).\n\n[ref]: {baseDir}/references/api.md\n")
    folder = _skill(tmp_path, HEAD + body, files={"references/api.md": "a", "scripts/run.py": "pass"})
    assert check_skill_dir(folder, "s") == []
    (folder / "references" / "api.md").unlink()
    findings = check_skill_dir(folder, "s")
    assert [(f.code, f.line) for f in findings] == [("SKL025", 5), ("SKL025", 7)]
    assert "references/api.md" in findings[0].message and "skill folder" in findings[0].message


def test_footnotes_are_not_links(tmp_path):
    body = ("A claim[^1] and another[^long-note].\n\n"
            "[^1]: Smith et al. (2020), Learning to rank. See references/paper.md.\n"
            "[^long-note]: notes.md is where we keep them.\n"
            "    A continued footnote line [^1]: not a definition.\n")
    assert check_skill_dir(_skill(tmp_path, HEAD + body), "s") == []


def test_links_to_sibling_skills_are_fine_when_the_sibling_exists(tmp_path):
    (tmp_path / "other-skill" / "references").mkdir(parents=True)
    (tmp_path / "other-skill" / "SKILL.md").write_text(HEAD.replace("my-skill", "other-skill"))
    (tmp_path / "other-skill" / "references" / "x.md").write_text("x")
    body = ("See [other](../other-skill/SKILL.md), [its folder](../other-skill/), "
            "[its reference](../other-skill/references/x.md),\n"
            "[a dead one](../other-skill/references/gone.md) and [no such skill](../ghost-skill/SKILL.md).\n")
    findings = check_skill_dir(_skill(tmp_path, HEAD + body), "s")
    assert [(f.code, f.severity.value) for f in findings] == [("SKL025", "warning"), ("SKL026", "warning")]
    assert "gone.md" in findings[0].message and "ghost-skill" in findings[1].message


def test_link_forms_title_angle_fragment_encoded_and_reference(tmp_path):
    body = ('[a](references/a.md "title") [b](<references/b c.md>) [c](references/a.md#part) '
            "[d](references/b%20c.md)\n\n[e]: references/missing-e.md\n")
    folder = _skill(tmp_path, HEAD + body, files={"references/a.md": "a", "references/b c.md": "b"})
    [finding] = check_skill_dir(folder, "s")
    assert finding.code == "SKL025" and "missing-e.md" in finding.message


def test_skill_md_path_is_accepted_for_its_folder(tmp_path):
    folder = _skill(tmp_path, "---\nname: Wrong\ndescription: d\n---\n")
    findings = check_skill_dir(folder / "SKILL.md", "skills/my-skill/SKILL.md")
    [finding] = findings  # one wrong name, one finding (issue 12, point 11)
    assert finding.code == "SKL014" and "differs from the folder name 'my-skill'" in finding.message
    assert finding.hint == "set `name: my-skill`"
    assert {f.path for f in findings} == {"skills/my-skill/SKILL.md"}


def test_folder_name_of_dot_is_the_current_folder(tmp_path, monkeypatch):
    # A deliberate difference: `agentskills validate .` compares the name with Path(".").name, which
    # is "" (so it rejects every skill validated as `.`); we compare with the folder's real name.
    folder = _skill(tmp_path, HEAD)
    monkeypatch.chdir(folder)
    assert check_skill_dir(Path("."), ".") == []


def test_not_a_folder_and_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    assert [f.code for f in check_skill_dir(tmp_path / "empty", "empty")] == ["SKL001"]
    assert [f.code for f in check_skill_dir(tmp_path / "nothing", "nothing")] == ["SKL001"]


def test_plain_skills_are_read_without_importing_yaml():
    # doctor runs this on every call: the common front matter needs no YAML parser at all.
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from osmosis_workspace.check.families.skills import check_skill_dir\n"
        "from osmosis_workspace.core.resources import SKILL_NAMES, skills_dir\n"
        "assert all(check_skill_dir(skills_dir() / n, n) == [] for n in SKILL_NAMES)\n"
        "print('yaml' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
