"""Issue 18 point 5: ownership globs are matched by a linear automaton, not a backtracking regex.

The table is the meaning the update policy (`.osmosis/template.json`, `.osmosis/template-ignore`) documents (`*` within a folder, `?` one character,
`**` anything, `**/` no or any folders); the pathological patterns are ones a backtracking matcher
needs minutes for, checked here for their answer (the time is bench's: bench/adversarial)."""

from __future__ import annotations

import pytest

from osmosis_workspace.core.globs import glob_match
from osmosis_workspace.scaffold.policy import parse_ignore, parse_json

TABLE = [
    ("*.py", "main.py", True), ("*.py", "a/main.py", False), ("*.py", ".py", True), ("*.py", "main.pyc", False),
    ("?.md", "a.md", True), ("?.md", "ab.md", False), ("?.md", "/.md", False),
    ("rollouts/**", "rollouts/a/b/c.py", True), ("rollouts/**", "rollouts/", True), ("rollouts/**", "rollouts", False),
    ("**/*.py", "main.py", True), ("**/*.py", "a/b/main.py", True), ("**/*.py", "a/b/main.txt", False),
    ("a/**/b", "a/b", True), ("a/**/b", "a/x/y/b", True), ("a/**/b", "a/xb", False), ("a/**/b", "ab", False),
    ("a**b", "a/x/b", True), ("a*b", "a/b", False), ("a*b", "axxb", True), ("**", "", True), ("*", "", True),
    ("", "", True), ("", "a", False), ("a", "", False), ("**/**/x", "x", True), ("**/**/x", "p/q/x", True),
    ("**/x/**", "x/", True), ("**/x/**", "a/x/b", True), ("**/x/**", "a/xb", False),
    ("configs/*/default.toml", "configs/eval/default.toml", True),
    ("configs/*/default.toml", "configs/a/b/default.toml", False),
    ("[x].py", "[x].py", True), ("a.b", "axb", False), ("***.py", "a/b.py", True), ("*?", "", False), ("*?", "a", True),
]


@pytest.mark.parametrize("glob, path, expected", TABLE)
def test_glob_table(glob, path, expected):
    assert glob_match(glob, path) is expected


def test_pathological_patterns_answer_correctly():
    path = "a" * 4000
    assert glob_match("*" * 1000 + "Q", path) is False
    assert glob_match("*a" * 500 + "Q", path) is False
    assert glob_match("*a" * 500, path) is True
    assert glob_match("**/" * 300 + "a" * 10 + "Q", "/".join(["a" * 10] * 300)) is False
    assert glob_match("?" * 1000 + "*", path) is True
    assert glob_match("?" * 1000 + "*", "a" * 999) is False


def test_a_policy_pattern_too_long_is_one_clear_line():
    from osmosis_workspace.core.errors import UserError

    with pytest.raises(UserError, match="at most 1024"):
        parse_json('{"overwriteManaged": ["' + "*" * 5000 + '"]}')
    with pytest.raises(UserError, match="at most 1024"):
        parse_ignore("*" * 5000 + "\n")


def test_update_dry_run_with_a_pathological_policy(make_workspace):
    """The campaign's case end to end: `update --dry-run` over a policy of `****...Q`."""
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    ws = make_workspace(template="blank", name="ws")
    (ws / ".osmosis" / "template.json").write_text('{"overwriteManaged": ["' + "*" * 1000 + 'Q", "**"]}\n')
    (ws / ".osmosis" / "template-ignore").write_text("*a" * 500 + "Q\n" + ("**/" * 300 + "Q\n") * 3)
    result = CliRunner().invoke(app, ["update", str(ws), "--dry-run"])
    assert result.exit_code == 0, result.output


def _reference(glob: str):
    """The regex translation ownership used before (fine for short globs): the meaning must not change."""
    import re

    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] in "*?":
            out.append("[^/]*" if glob[i] == "*" else "[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def test_same_answers_as_the_old_regex_on_short_globs():
    import random

    rnd = random.Random(18)
    for _ in range(20000):
        glob = "".join(rnd.choice("ab/*?**") for _ in range(rnd.randint(0, 8)))
        path = "".join(rnd.choice("ab/") for _ in range(rnd.randint(0, 8)))
        assert glob_match(glob, path) is bool(_reference(glob).match(path)), (glob, path)


def test_covering_and_ignore_rules_stay_linear_on_deep_paths():
    """A policy pattern covers a path or a folder holding it; a template-ignore line is gitignore-style.
    Both on a 300-folder path with patterns a backtracking matcher chokes on: right answers."""
    from osmosis_workspace.core.globs import IgnoreRules, covers

    deep = "/".join(["a" * 10] * 300)
    assert covers("*" * 1000 + "Q", deep) is False
    assert covers("a" * 10, deep) is True and covers("a" * 10 + "/*", deep) is True
    rules = IgnoreRules("*a" * 500 + "Q\n" + "**/" * 300 + "Q\n")
    assert rules.ignored(deep) is False
    assert IgnoreRules("aaaaaaaaaa/\n!" + deep[:1000] + "\n").ignored(deep[:1000]) is True  # no re-include below an excluded folder
