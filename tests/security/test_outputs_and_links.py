"""Issue 18, points 3, 4 and 11: what doctor and validate write and print.

3. `doctor --output FILE` writes like every other write (core/safe_write.py): never through a link a
   pull request committed at that name, never outside the folder the user named.
4. `validate` / `dataset validate` read no file through a link out of the workspace (doctor's DAT019,
   one rule), nor a file the system generates (/proc/self/environ holds the CI job's secrets); no finding
   quotes more than a short excerpt of a file.
11. Control characters in file names, keys and values reach no output format raw; a file name that is
    not UTF-8 makes no format fail or write invalid UTF-8.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import cli, make_workspace

REPO = Path(__file__).resolve().parents[2]


def _osmosis(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in a subprocess: bytes out, as a CI log or terminal receives them."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd, env=full_env, capture_output=True,
                          timeout=120)


# -- point 3 -----------------------------------------------------------------------------------------

def test_doctor_output_refuses_a_committed_link_at_the_report_name(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.write_text("precious\n")
    (ws / "osmosis.sarif").symlink_to("../outside")  # the Action's documented `sarif-file: osmosis.sarif`
    done = _osmosis(ws, "doctor", "--format", "sarif", "--output", "osmosis.sarif")
    assert done.returncode == 2, done.stdout + done.stderr
    err = done.stderr.decode()
    assert "refusing to write osmosis.sarif: it is a symbolic link" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2  # one line, and its hint
    assert outside.read_text() == "precious\n"
    assert (ws / "osmosis.sarif").is_symlink()


def test_doctor_output_refuses_a_folder_link_out_of_where_it_runs(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    away = tmp_path / "away"
    away.mkdir()
    (ws / "reports").symlink_to(away)
    done = _osmosis(ws, "doctor", "-o", "reports/doctor.json", "-f", "json")
    assert done.returncode == 2, done.stdout + done.stderr
    assert b"leads out of" in done.stderr and list(away.iterdir()) == []


def test_doctor_output_and_list_checks_output_still_write_a_plain_file(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    done = _osmosis(ws, "doctor", "-f", "json", "-o", "report.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((ws / "report.json").read_text())["summary"]["errors"] == 0
    (ws / "report.json").write_text("old")
    assert _osmosis(ws, "doctor", "-f", "json", "-o", str(ws / "report.json")).returncode == 0  # replaced
    assert (ws / "report.json").read_text().startswith("{")
    listed = _osmosis(tmp_path, "doctor", "--list-checks", "--format", "markdown", "-o", "checks.md")
    assert listed.returncode == 0 and "GIT004" in (tmp_path / "checks.md").read_text()
    assert not [p.name for p in ws.iterdir() if p.name.endswith(".osmosis-tmp")]


# -- point 4 -----------------------------------------------------------------------------------------

SECRET = "hunter2-very-secret-token"


@pytest.mark.parametrize("command", [("validate",), ("dataset", "validate")])
@pytest.mark.parametrize("name", ["x.csv", "x.jsonl"])
def test_validate_does_not_read_a_link_to_proc_self_environ_in_a_workspace(tmp_path, command, name):
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / name).symlink_to("/proc/self/environ")
    done = _osmosis(ws, *command, f"data/{name}", env={"CI_SECRET": SECRET})
    out = (done.stdout + done.stderr).decode()
    assert SECRET not in out and "SHELL=" not in out and "PATH=" not in out, out
    assert f"data/{name}: warning DAT019 links to a file outside the workspace" in out
    assert done.returncode == 0  # DAT019 is a warning, as in doctor
    folder = _osmosis(ws, *command, "data", env={"CI_SECRET": SECRET})
    assert SECRET not in (folder.stdout + folder.stderr).decode()


def test_validate_outside_a_workspace_does_not_read_a_system_file(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "x.csv").symlink_to("/proc/self/environ")
    (plain / "z.jsonl").symlink_to("/dev/zero")
    done = _osmosis(plain, "dataset", "validate", "x.csv", "z.jsonl", env={"CI_SECRET": SECRET})
    out = (done.stdout + done.stderr).decode()
    assert SECRET not in out and "PATH=" not in out, out
    assert "a file the system generates; not read" in out and "/proc/" in out
    assert "z.jsonl: error DAT002 not a regular file" in out
    assert done.returncode in (0, 1)


def test_a_csv_header_is_quoted_as_a_short_excerpt(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    header = "A" * 3000 + "\x1b]0;pwned\x07," + "B" * 500
    (ws / "data" / "wide.csv").write_text(header + "\n1,2\n")
    done = _osmosis(ws, "dataset", "validate", "data/wide.csv")
    out = done.stdout.decode()
    assert "A" * 41 not in out and "B" * 41 not in out
    assert "more characters" in out and "\x1b" not in out and "\x07" not in out


# -- point 11 ----------------------------------------------------------------------------------------

HOSTILE_NAME = "evil\x1b]0;owned\x07\r\n::error file=x::forged\x1b[2J.jsonl"


@pytest.fixture
def odd_names(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / HOSTILE_NAME).write_text("not json\n")
    (ws / "data" / os.fsdecode(b"bad\xff\xfename.jsonl")).write_bytes(b"{oops\n")
    config = ws / "configs" / "eval" / "my-rollout.toml"
    config.write_text(config.read_text() + '\n["\\u001b[31mkey\\r\\n::error::x"]\nvalue = 1\n')
    return ws


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_no_output_format_prints_a_control_character_or_invalid_utf8(odd_names, fmt):
    done = _osmosis(odd_names, "doctor", "--format", fmt)
    assert done.returncode in (0, 1), done.stderr
    out = done.stdout
    out.decode("utf-8")  # valid UTF-8, whatever the file names held
    assert not [c for c in out.decode() if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f]
    lines = out.decode().splitlines()
    assert not [ln for ln in lines if ln.startswith("::error file=x")]  # no forged annotation line
    assert "evil" in out.decode() and "bad" in out.decode()  # the files are still named, escaped
    if fmt in ("json", "sarif"):
        json.loads(out)


def test_validate_and_errors_escape_names_too(odd_names):
    done = _osmosis(odd_names, "validate", "data")
    text = done.stdout.decode() + done.stderr.decode()
    assert "\x1b" not in text and "\r" not in text and "\\x1b" in text
    result = cli("validate", odd_names / "data" / ("missing\x1b[31m.jsonl"))
    assert result.exit_code == 2 and "\x1b" not in result.output
