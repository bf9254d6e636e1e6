"""Editors validate configs live through the `#:schema` first line (Taplo / Even Better TOML).

Runs the real `taplo` CLI (a test dependency) on a freshly initialised workspace: the relative
schema path must resolve from the config's folder, good configs must pass, and a config that
breaks the schema must fail, so the schemas are proven to be in a dialect Taplo understands.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest



def _taplo_check(path, cwd):
    taplo = shutil.which("taplo")
    # Not a skip: the [test] extra installs taplo, and a missing tool must not pass silently.
    assert taplo, "taplo is not installed; `pip install -e '.[test]'` installs it"
    return subprocess.run([taplo, "check", str(path)], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("kind", ["eval", "training"])
def test_taplo_accepts_fresh_configs_through_the_schema_directive(make_workspace, tmp_path, kind):
    ws = make_workspace(git=False)
    config = ws / "configs" / kind / "multiply.toml"
    assert config.read_text().startswith(f"#:schema ../../.osmosis/schemas/{kind}.schema.json")
    # Run from elsewhere: the relative path must resolve from the config's own folder.
    result = _taplo_check(config, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "kind, edit, needle",
    [
        ("eval", ("[evaluation]", "[evaluation]\nbogus_key = 1"), "bogus_key"),
        ("training", ("[training]", "[training]\nlr = \"fast\""), "lr"),
    ],
)
def test_taplo_rejects_a_config_that_breaks_the_schema(make_workspace, tmp_path, kind, edit, needle):
    ws = make_workspace(git=False)
    config = ws / "configs" / kind / "multiply.toml"
    text = config.read_text()
    assert edit[0] in text
    config.write_text(text.replace(edit[0], edit[1], 1))
    result = _taplo_check(config, cwd=tmp_path)
    assert result.returncode != 0
    assert needle in result.stdout + result.stderr


def test_taplo_fails_when_the_schema_file_is_missing(make_workspace, tmp_path):
    # Proves taplo really loads the directive's file (a missing schema is an error, not ignored).
    ws = make_workspace(git=False)
    (ws / ".osmosis" / "schemas" / "eval.schema.json").unlink()
    result = _taplo_check(ws / "configs" / "eval" / "multiply.toml", cwd=tmp_path)
    assert result.returncode != 0
