"""Reading [tool.osmosis]: values, findings with lines, and the skills check's extra-skills hook."""

from __future__ import annotations

import pytest

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.check.settings import Settings, extra_skills, key_line, load_settings, refuse_unknown_codes
from osmosis_workspace.core.workspace import Workspace


def ws_with(tmp_path, body: str) -> Workspace:
    (tmp_path / "rollouts").mkdir(exist_ok=True)
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n{body}\n', encoding="utf-8")
    return Workspace(tmp_path)


def test_no_table_means_defaults(tmp_path):
    assert load_settings(ws_with(tmp_path, "")) == (Settings(), [])


def test_all_settings_are_read(tmp_path):
    ws = ws_with(tmp_path, """[tool.osmosis]
select = ["SET", "set001"]
ignore = ["SET003"]
strict = true
extra-skills = ["my-skill", "my-skill"]

[tool.osmosis.per-file-ignores]
"configs/eval/*" = ["SET001"]
""")
    settings, found = load_settings(ws)
    assert found == []
    assert settings.select == ("SET", "SET001")
    assert settings.ignore == ("SET003",)
    assert settings.strict is True
    assert settings.extra_skills == ("my-skill",)
    assert settings.per_file_ignores == (("configs/eval/*", ("SET001",)),)


def test_wrong_types_are_findings_at_their_line(tmp_path):
    ws = ws_with(tmp_path, '[tool.osmosis]\nselect = "CFG"\nstrict = 1\nextra-skills = ["Bad_Name"]\nper-file-ignores = 3\n')
    settings, found = load_settings(ws)
    assert settings == Settings()
    assert [(d.code, d.line) for d in found] == [("SET002", 5), ("SET002", 6), ("SET002", 7), ("SET002", 8)]
    assert "must be a list of strings" in found[0].message
    assert "lowercase" in found[2].message


def test_unknown_key_suggests_the_known_one(tmp_path):
    _, [d] = load_settings(ws_with(tmp_path, "[tool.osmosis]\nextra_skills = []\n"))
    assert d.code == "SET001" and d.message.endswith("did you mean `extra-skills`?") and d.line == 5


def test_unknown_code_suggests_a_real_one(tmp_path):
    _, found = load_settings(ws_with(tmp_path, '[tool.osmosis]\nignore = ["SET00"]\n'))
    assert found == []  # a prefix of SET001 is a valid selector
    ws = ws_with(tmp_path, '[tool.osmosis]\nignore = ["STE001"]\n')
    assert load_settings(ws)[1] == []  # not a finding: a usage error
    with pytest.raises(UserError) as err:
        refuse_unknown_codes(ws)
    assert "ignore names 'STE001'" in err.value.message and "did you mean 'SET001'?" in err.value.message


def test_extra_skills_hook_returns_valid_names_only(tmp_path):
    ws = ws_with(tmp_path, '[tool.osmosis]\nextra-skills = ["alpha", "Beta", "gamma-2"]\n')
    assert extra_skills(ws) == ["alpha", "gamma-2"]
    assert extra_skills(ws_with(tmp_path, "")) == []


def test_key_line_finds_keys_tables_and_quoted_keys():
    text = '[tool.other]\nselect = 1\n[tool.osmosis]\n"select" = []\n[tool.osmosis.per-file-ignores]\n"a/*" = []\n'
    assert key_line(text, "select") == 4
    assert key_line(text, "per-file-ignores") == 5
    assert key_line(text, "a/*", "tool.osmosis.per-file-ignores") == 6
    assert key_line(text, "strict") is None


def test_empty_select_means_everything(tmp_path):
    settings, found = load_settings(ws_with(tmp_path, "[tool.osmosis]\nselect = []\n"))
    assert settings.select is None and found == []


def test_the_rehearse_table_is_known_and_its_bad_values_are_findings_at_their_line(tmp_path):
    good = ws_with(tmp_path, '[tool.osmosis.rehearse]\nreward-range = [0, 10]\nstochastic = ["judge"]\n'
                             'accept = { "judge/length" = "the rubric pays for detail" }\n')
    assert load_settings(good)[1] == []
    bad = ws_with(tmp_path, '[tool.osmosis.rehearse]\nreward-range = [1, 0]\nstochastic = "yes"\n')
    found = load_settings(bad)[1]
    assert [(d.code, d.line) for d in found] == [("SET002", 5), ("SET002", 6)]
    assert "reward-range" in found[0].message and "LOW < HIGH" in found[0].message
