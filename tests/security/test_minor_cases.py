"""MINOR cases of issue 14, each through the CLI: a clear finding or one-line refusal, never exit 3 or a hang."""

from __future__ import annotations

import importlib.util

import json
import re
import subprocess
import sys


import pytest

LIMIT = 60


def osmosis(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *map(str, args)], capture_output=True, text=True, timeout=LIMIT)


def codes(done: subprocess.CompletedProcess) -> dict[str, list[dict]]:
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found: dict[str, list[dict]] = {}
    for d in json.loads(done.stdout)["diagnostics"]:
        found.setdefault(d["code"], []).append(d)
    return found


def test_validate_a_data_link_to_the_root_folder_is_refused_not_walked(make_workspace):
    ws = make_workspace(git=False)
    (ws / "data" / "root").symlink_to("/")
    done = osmosis("validate", ws / "data" / "root")
    assert done.returncode == 2 and "links outside the workspace" in done.stderr, done.stderr


def test_lone_cr_line_endings_in_a_config_are_invalid_toml(make_workspace):
    ws = make_workspace(git=False)
    config = next((ws / "configs" / "eval").glob("*.toml"))
    config.write_bytes(config.read_bytes().replace(b"\n", b"\r"))
    found = codes(osmosis("validate", config, "--format", "json"))
    assert "CFG001" in found


def test_crlf_configs_still_parse(make_workspace):
    ws = make_workspace(git=False)
    config = next((ws / "configs" / "eval").glob("*.toml"))
    config.write_bytes(config.read_bytes().replace(b"\n", b"\r\n"))
    assert "CFG001" not in codes(osmosis("validate", config, "--format", "json"))


@pytest.mark.parametrize("key,value,code", [
    ("entrypoint", "ma\\u0000in.py", "CFG018"), ("entrypoint", "m" * 5000 + ".py", "CFG018"),
    ("dataset", "data/a\\u0000b.jsonl", "CFG019"), ("dataset", "data/" + "b" * 5000 + ".jsonl", "CFG019"),
    ("dataset", "data/" + "c" * 300 + ".jsonl", "CFG019"),
])
def test_impossible_path_values_are_findings(make_workspace, key, value, code):
    ws = make_workspace(git=False)
    config = next((ws / "configs" / "eval").glob("*.toml"))
    text = re.sub(rf"^{key} = .*$", lambda _: f'{key} = "{value}"', config.read_text(), count=1, flags=re.M)
    config.write_text(text)
    for done in (osmosis("doctor", ws, "--format", "json"), osmosis("validate", config, "--format", "json")):
        found = codes(done)
        assert code in found and "no such file can exist" in found[code][0]["message"], found.get(code)
        assert "internal error" not in done.stderr


def test_fix_on_a_read_only_workspace_exits_2_with_one_line(make_workspace, monkeypatch):
    """Simulated (tests may run as root, who writes anyway): every write and mkdir fails as on a read-only mount."""
    import errno
    import os
    from pathlib import Path

    from typer.testing import CliRunner

    from osmosis_workspace.core import safe_write
    from osmosis_workspace.cli import app

    ws = make_workspace(git=False)
    (ws / ".osmosis" / "schemas" / "eval.schema.json").write_text("{}")
    (ws / "configs" / "AGENTS.md").unlink()
    (ws / "data").rename(ws / "moved")

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(args[0]) if args else None)

    monkeypatch.setattr(safe_write, "_write", read_only)
    monkeypatch.setattr(Path, "mkdir", read_only)
    result = CliRunner().invoke(app, ["doctor", str(ws), "--fix"])
    assert result.exit_code == 2, result.output
    assert "cannot write" in result.output and "Read-only file system" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


def _broken_template(tmp_path, name: str):
    from hostile import blank_copy

    return blank_copy(tmp_path / name)


@pytest.mark.parametrize("case,words", [
    ("sandbox", "SecurityError"), ("notfound", "TemplateNotFound"), ("absolute-answers", "_answers_file"),
    ("divide", "ZeroDivisionError"), ("range", "OverflowError"), ("deep-yaml", "levels deep"),
    ("laughs", "YAML aliases"),
])
def test_template_errors_are_the_templates_fault_exit_2(tmp_path, case, words):
    from hostile import add_file, cli

    template = _broken_template(tmp_path, case)
    if case == "sandbox":
        add_file(template, "x.txt.jinja", "{{ ''.__class__.__mro__[1].__subclasses__() }}")
    elif case == "notfound":
        add_file(template, "y.txt.jinja", "{% include 'nope.txt' %}")
    elif case == "divide":  # found by bench/adversarial (exit 3 before)
        add_file(template, "d.txt.jinja", "{{ 1 / 0 }}")
    elif case == "range":
        add_file(template, "r.txt.jinja", "{{ range(999999999) | list | length }}")
    elif case == "laughs":  # nine lines that expand to 9**9 values (bench/adversarial: a hang before)
        config = template / "copier.yml"
        laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"a{i}: &a{i} [{', '.join(['*a%d' % (i - 1)] * 9)}]\n" for i in range(1, 9))
        config.write_text(config.read_text() + laughs)
    elif case == "deep-yaml":
        config = template / "copier.yml"
        config.write_text(config.read_text() + "deep:\n  type: str\n  when: false\n  default: " + "[" * 5000 + "]" * 5000 + "\n")
    else:
        config = template / "copier.yml"
        config.write_text(re.sub(r"(?m)^_answers_file: .*$", f"_answers_file: {tmp_path / 'abs.yml'}", config.read_text()))
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2, result.output
    assert ("the template's fault" in result.output or "fix the template" in result.output) and words in result.output
    assert "internal error" not in result.output and not (tmp_path / "ws").exists() and not (tmp_path / "abs.yml").exists()


def test_a_huge_copier_yml_is_refused_unread(tmp_path):
    """Found by bench/adversarial: a 20 MB copier.yml kept init parsing for minutes (a hang)."""
    from hostile import cli

    template = _broken_template(tmp_path, "huge")
    config = template / "copier.yml"
    config.write_text(config.read_text() + "x: |\n" + ("  " + "y" * 1000 + "\n") * 3000)
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2, result.output
    assert "larger than 1 MB" in result.output and "internal error" not in result.output
    assert not (tmp_path / "ws").exists()


@pytest.mark.parametrize("include", ["---\n!include extra.yml\n", "_tasks: !include extra.yml\n"])
def test_unsafe_settings_behind_include_are_refused(tmp_path, include):
    from hostile import cli

    template = _broken_template(tmp_path, "inc")
    marker = tmp_path / "ran"
    body = (f"_migrations:\n  - version: v2\n    command: touch {marker}\n" if include.startswith("---")
            else f"- touch {marker}\n")
    (template / "extra.yml").write_text(body)
    with open(template / "copier.yml", "a") as config:
        config.write("\n" + include)
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2 and "would run code" in result.output and f"touch {marker}" in result.output, result.output
    assert not marker.exists()


# (module interrupted, command): `doctor` in its plain form starts without typer (cli/fast.py); other
# commands load typer, and a typer that vendors click (>= 0.20) is all they import; an older one
# brings click itself.
_STARTUP = [("typer", "rule"), ("osmosis_workspace.cli.fast", "doctor"), ("osmosis_workspace.check.doctor", "doctor")] + (
    [] if importlib.util.find_spec("typer._click") else [("click", "rule")])


@pytest.mark.parametrize(("module", "command"), _STARTUP)
def test_ctrl_c_during_start_up_imports_is_one_line(module, command):
    """The Ctrl-C is delivered exactly while ``module`` is imported (a real signal would make this flaky)."""
    argv = ["osmosis", "doctor", "."] if command == "doctor" else ["osmosis", "rule", "CFG001"]
    code = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def interrupting(name, *args, **kwargs):\n"
        f"    if name == {module!r}:\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = interrupting\n"
        f"sys.argv = {argv!r}\n"
        "from osmosis_workspace.entry import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 130, done.stderr
    # before a command runs, our line; inside a command, the quiet end typer also gives
    in_command = module == "osmosis_workspace.check.doctor"
    assert done.stderr.strip() == ("" if in_command else "interrupted"), done.stderr


def test_full_disk_during_the_first_commit_rolls_init_back(tmp_path, monkeypatch):
    import errno
    import os

    from hostile import cli
    from osmosis_workspace.scaffold import init_workspace

    def disk_full(target, **_):  # make_first_commit(target, only=...)
        (target / ".git").mkdir()  # git had started
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(init_workspace, "make_first_commit", disk_full)
    result = cli("init", tmp_path / "ws", "--defaults")
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.output and "nothing was created" in result.output
    assert not (tmp_path / "ws").exists() and list(tmp_path.iterdir()) == []


def test_full_disk_while_rendering_leaves_nothing(tmp_path, monkeypatch):
    import errno
    import os

    from hostile import cli
    import osmosis_workspace.scaffold.render

    def disk_full(src, dst, **kwargs):
        (dst / "half-written").write_text("x")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst / "half-written"))

    monkeypatch.setattr(osmosis_workspace.scaffold.render, "render", disk_full)
    result = cli("init", tmp_path / "ws", "--defaults", "--no-git")
    assert result.exit_code == 2 and "No space left on device" in result.output, result.output
    assert list(tmp_path.iterdir()) == []
