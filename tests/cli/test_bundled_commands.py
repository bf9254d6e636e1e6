"""Every `osmosis ...` command line in the text we ship must exist: our own CLI (walked from the typer
app) or the platform CLI (osmosis_workspace.cli.platform_cli, the one list of its commands). An agent that runs a
command from a skill, AGENTS.md, a reference config or a template comment must not meet "No such
command" or "No such option"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer

from osmosis_workspace.cli import platform_cli
from osmosis_workspace.cli import app
from osmosis_workspace.core.resources import skills_dir, templates_dir

TEXT_SUFFIXES = {".md", ".jinja", ".toml", ".py", ".yml", ".yaml", ".txt", ".cfg", ".sh", ".json"}

# `osmosis` (or `osmosis-workspace`, ours only) followed by something that can start a command.
_START = re.compile(r"(?<![\w./$-])(osmosis(?:-workspace)?)[ \t]+(?=[-a-z<{\[A-Z])")
# Where a command ends on its line: code span end, shell operators, a comment, a table cell.
_END = re.compile(r"`|&&|\|\||;|\s\|\s|\s#|\)(?:[\s,.;:]|$)|\s-\s")
_WORD = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Cli:
    commands: dict[tuple[str, ...], frozenset[str]]
    root_flags: frozenset[str]
    root_value_options: frozenset[str]

    @property
    def groups(self) -> set[tuple[str, ...]]:
        return platform_cli.groups(self.commands) | {()}


def _ours() -> Cli:
    def walk(command, path, out):
        options = {o for p in command.params for o in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))
                   if o.startswith("-")}
        if hasattr(command, "list_commands"):
            out[path] = frozenset(options)  # the root's options; groups below have none of their own
            for name in command.list_commands(None):
                walk(command.get_command(None, name), (*path, name), out)
        else:
            out[path] = frozenset(options | {"--help"})
        return out

    table = walk(typer.main.get_command(app), (), {})
    root = table.pop(())
    return Cli(table, frozenset(root | {"--help"}), frozenset())


OURS = _ours()
PLATFORM = Cli(dict(platform_cli.COMMANDS), platform_cli.ROOT_FLAGS, platform_cli.ROOT_VALUE_OPTIONS)


def problem(cli: Cli, tokens: list[str]) -> str | None:
    """Why ``tokens`` (after the program name) is not a command line of ``cli``; None when it is."""
    rest = list(tokens)
    while rest and rest[0].startswith("-"):
        head = rest.pop(0).split("=", 1)[0]
        if head in cli.root_value_options:
            if rest:
                rest.pop(0)
        elif head not in cli.root_flags:
            return f"unknown option {head}"
    if cli is PLATFORM:  # --json / --plain work anywhere on the platform CLI's line
        rest = [t for t in rest if t not in ("--json", "--plain")]
    path: tuple[str, ...] = ()
    while rest and path in cli.groups:
        word = rest[0]
        alternatives = word.split("|")
        if all(_WORD.match(a) for a in alternatives) and len(alternatives) > 1:
            missing = [a for a in alternatives if (*path, a) not in cli.commands and (*path, a) not in cli.groups]
            return f"unknown command {' '.join((*path, missing[0]))}" if missing else None
        if not _WORD.match(word):
            return None  # `osmosis eval ...`, `osmosis <command>`: a mention of the group, not a command line
        if (*path, word) not in cli.commands and (*path, word) not in cli.groups:
            return f"unknown command {' '.join((*path, word))}"
        path = (*path, word)
        rest.pop(0)
    if path in cli.groups:
        return None  # a group named on its own (`osmosis eval`)
    for token in rest:
        if token.startswith("-") and len(token) > 1 and not token[1:2].isdigit():
            option = token.split("=", 1)[0]
            if option not in cli.commands[path] | {"--help", "-h"}:
                return f"unknown option {option} for `osmosis {' '.join(path)}`"
            if cli is PLATFORM and option in platform_cli.DEPRECATED_OPTIONS.get(path, ()):
                return f"deprecated option {option} for `osmosis {' '.join(path)}` (osmosis-ai {platform_cli.SDK_VERSION})"
    return None


# `pip install osmosis-workspace pytest` names a package, not a command.
_INSTALLING = re.compile(r"\b(?:install|add)\s+(?:[\w.\[\],<>=-]+\s+)*$")


def command_lines(text: str) -> list[tuple[int, str, list[str]]]:
    """(line number, program, tokens) of every `osmosis ...` command written in ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _START.finditer(line):
            if _INSTALLING.search(line[:match.start()]):
                continue
            tail = line[match.end():]
            end = _END.search(tail)
            tail = tail[:end.start()] if end else tail
            tokens = [t.rstrip(".,:;") for t in tail.split()]
            tokens = [t for t in tokens if t]
            if tokens:
                found.append((number, match.group(1), tokens))
    return found


def verdict(program: str, tokens: list[str]) -> str | None:
    ours = problem(OURS, tokens)
    if program == "osmosis-workspace" or ours is None:
        return ours
    theirs = problem(PLATFORM, tokens)
    return None if theirs is None else f"{ours} (ours); {theirs} (osmosis-ai {platform_cli.SDK_VERSION})"


def bundled_files() -> list[Path]:
    roots = [skills_dir(), templates_dir()]
    return sorted(p for root in roots for p in root.rglob("*")
                  if p.is_file() and (p.suffix in TEXT_SUFFIXES or p.name.endswith(".md.jinja"))
                  and "__pycache__" not in p.parts)


def _rel(path: Path) -> str:
    for root in (skills_dir().parent, templates_dir().parent):
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            continue
    return path.as_posix()



@pytest.mark.parametrize("path", bundled_files(), ids=lambda p: _rel(p))
def test_every_command_the_bundled_text_names_exists(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    bad = [f"{_rel(path)}:{number}: `{program} {' '.join(tokens)}`: {why}"
           for number, program, tokens in command_lines(text)
           if (why := verdict(program, tokens)) is not None]
    assert not bad, "\n".join(bad)


def test_the_bundled_text_names_commands_at_all():
    # The extraction finds what it must: otherwise the test above passes on nothing.
    lines = [tokens for p in bundled_files() for _, _, tokens in command_lines(p.read_text(encoding="utf-8"))]
    joined = {" ".join(t[:3]) for t in lines}
    for expected in ("eval submit configs/eval/<rollout>.toml", "doctor", "--json train submit"):
        assert any(j.startswith(expected) for j in joined), expected


@pytest.mark.parametrize("line, expected", [
    ("osmosis eval run CONFIG --limit 5", "unknown option --limit for `osmosis eval run`"),
    ("osmosis serve -m server:agent_loop", "unknown command serve"),
    ("osmosis eval frobnicate", "unknown command eval frobnicate"),
    ("osmosis doctor --format json", None),
    ("osmosis --json eval submit configs/eval/x.toml --yes", None),
    ("osmosis eval submit configs/eval/x.toml --json", None),
    ("osmosis --workspace team model list --type lora", None),
    ("osmosis benchmark runs info NAME", None),
    ("osmosis benchmark runs frob NAME", "unknown command benchmark runs frob"),
    ("osmosis init|doctor|validate|rollout|template|update", None),
    ("osmosis init|doctor|bogus", "unknown command bogus"),
    ("osmosis rollout new x --template multiply --defaults", None),
    ("osmosis rollout init x --force", None),
    ("osmosis eval ...", None),
])
def test_the_checker_tells_real_commands_from_invented_ones(line, expected):
    [(_, program, tokens)] = command_lines(f"run `{line}` now")
    why = verdict(program, tokens)
    if expected is None:
        assert why is None, why
    else:
        assert why is not None and expected in why, why


def test_our_own_program_name_is_checked_against_our_cli_only():
    [(_, program, tokens)] = command_lines("`osmosis-workspace eval submit x.toml`")
    assert verdict(program, tokens) == "unknown command eval"
    [(_, program, tokens)] = command_lines("`osmosis-workspace doctor --fix`")
    assert verdict(program, tokens) is None


def test_platform_table_and_our_app_agree_on_where_refusals_go():
    # A command both CLIs have is ours when typed here; a platform-only one is refused with a pointer.
    from osmosis_workspace.cli import command_paths

    ours = command_paths()
    assert set(OURS.commands) - OURS.groups == ours
    assert platform_cli.platform_command(["doctor", "--fix"], ours) is None
    assert platform_cli.platform_command(["template", "list"], ours) is None
    assert platform_cli.platform_command(["template", "apply", "x"], ours) == "osmosis template apply"
    assert platform_cli.platform_command(["--json", "eval", "submit", "c.toml"], ours) == "osmosis eval"
    assert platform_cli.platform_command(["--workspace", "w", "model", "list"], ours) == "osmosis model"
    assert platform_cli.platform_command(["frobnicate"], ours) is None  # click's own "No such command"


def test_0_3_8_flags_and_deprecations():
    """osmosis-ai 0.3.8 (cli/commands/train.py, eval.py): `train info --overwrite` exists; `eval
    rubric --api-key` still parses but warns DEPRECATION, so bundled text must not teach it."""
    assert platform_cli.SDK_VERSION == "0.3.8"
    assert problem(PLATFORM, ["train", "info", "run-1", "-o", "x.json", "--overwrite"]) is None
    assert "deprecated option --api-key" in problem(PLATFORM, ["eval", "rubric", "-d", "d.jsonl", "--api-key", "k"])
