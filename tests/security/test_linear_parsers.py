"""MAJOR 4 (issue 14): the secret scan stays linear on adversarial text.

Each input made the old patterns backtrack quadratically (200k letters: ~38 s). The run goes through
the real CLI in a subprocess with a generous time limit: a hang fails the test instead of the suite.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osmosis_workspace.check.families.secrets import KNOWN_FORMATS, env_example_entries

LIMIT = 20  # seconds; the fixed scan takes well under one, the old one ~40 on the first input
SIZE = 200_000
OLD_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@'\"]+:[^/\s@'\"]+@")
URL = dict(KNOWN_FORMATS)["a password in a URL"]


def validate(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "validate", str(path), "--format", "json"],
                          capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("comment", [
    "a" * SIZE,                              # one long word: the scheme was retried at every letter
    "a1" * (SIZE // 2),
    "x://" + "a:" * (SIZE // 2),             # user info that never reaches an `@`
    "-----BEGIN " + "A " * (SIZE // 2),
    "eyJ" + "a" * SIZE,
])
def test_adversarial_comment_in_a_config(tmp_path, comment):
    config = tmp_path / "configs" / "eval" / "x.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'# {comment}\n[experiment]\nrollout = "x"\n# postgres://admin:hunter2@db/x\n')
    report = validate(config)
    codes = [d["code"] for d in report["diagnostics"]]
    assert "SEC001" in codes  # the real password at the end is still found
    line = next(d["line"] for d in report["diagnostics"] if d["code"] == "SEC001")
    assert line == 4


def test_env_example_line_of_spaces(tmp_path):
    env = tmp_path / ".env.example"
    env.write_text("OPENAI_API_KEY=" + " " * SIZE + "x\nGITHUB_TOKEN=ghp_" + "A1b2" * 10 + "\n")
    code = ("import sys; from osmosis_workspace.check.families.secrets import check_env_example; "
            "print([d.line for d in check_env_example(open(sys.argv[1]).read(), 'e')])")
    done = subprocess.run([sys.executable, "-c", code, str(env)], capture_output=True, text=True, timeout=LIMIT)
    assert done.stdout.strip() == "[2]", done.stderr


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab1+.-:/@ '\"\nhtps", max_size=60))
def test_url_finder_matches_what_the_old_pattern_found(text):
    old = [m.group(0) for m in OLD_URL.finditer(text)]
    new = [m.group(0) for m in URL.finditer(text)]
    assert bool(old) == bool(new)
    assert set(new) <= {m.group(0) for start in range(len(text)) for m in [OLD_URL.match(text, start)] if m}


def test_env_values_are_stripped_as_before():
    assert env_example_entries("A =  value  \nexport B=' x '\nC=v # note\n") == [
        ("A", "value", 1, 6), ("B", " x ", 2, 10), ("C", "v", 3, 3)]
