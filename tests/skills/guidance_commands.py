"""Every command line the guidance of a fresh workspace names, as the shape it is written in.

Where the guidance lives: the workspace's AGENTS.md, configs/AGENTS.md, READMEs and skills (with
their references), the next steps `osmosis init` and `osmosis rollout new` print, and the
`Example:` lines of every `--help`. A command line is a line of a fenced shell block, an inline code
span that starts with a program (`osmosis doctor`), or a next step; its shape is the line with the
workspace's own names put back as the placeholders the guidance uses (`<rollout>`), so every
workspace gives the same shapes. A mention that is not a runnable line (`osmosis eval ...`,
`osmosis init|doctor`, a bare `osmosis`) is no command.

Used by tests/skills/test_guidance_commands.py (the shapes are known, and the checker's own run) and
tests/sdk_real/test_guidance_commands_sdk.py (the platform's and uv's run on the real SDK).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

PROGRAMS = ("osmosis", "osmosis-workspace", "uv", "git", "pip", "cp", "ls", "ruff", "pytest", "python", "cd")
_FENCE = re.compile(r"^```(\w*)\s*$")
_SPAN = re.compile(r"`([^`\n]+)`")
_SHELL = {"", "bash", "sh", "shell", "console"}


def workspace_guidance(ws: Path) -> list[Path]:
    files = [ws / "AGENTS.md", ws / "configs" / "AGENTS.md", ws / "README.md",
             *sorted(ws.glob("rollouts/*/README.md")), *sorted((ws / ".agents" / "skills").rglob("*.md"))]
    return [f for f in files if f.is_file()]


def _is_command(text: str) -> bool:
    words = text.split()
    if len(words) < 2 or words[0] not in PROGRAMS:
        return False
    if "..." in text or "|" in words[1] or words[1].startswith("<"):
        return False  # a form (`osmosis eval ...`), a list of commands (`osmosis init|doctor`), a placeholder
    return not (words[0] == "osmosis" and words[1] in ("install", "and", "is", "or"))


def _strip_comment(line: str) -> str:
    return re.split(r"\s+#\s", " " + line, maxsplit=1)[0].strip() if not line.lstrip().startswith("#") else ""


def lines_in_markdown(text: str) -> Iterable[str]:
    """The command lines of a Markdown text: its shell blocks' lines and its command code spans."""
    fence: str | None = None
    pending = ""
    for raw in text.splitlines():
        match = _FENCE.match(raw.strip())
        if match:
            fence = None if fence is not None else match.group(1)
            continue
        if fence is not None:
            if fence in _SHELL:
                line = pending + _strip_comment(raw)
                if line.endswith("\\"):
                    pending = line[:-1] + " "
                    continue
                pending = ""
                if _is_command(line):
                    yield line
            continue
        for span in _SPAN.findall(raw):
            if _is_command(span.strip()):
                yield span.strip()


def lines_in_steps(output: str) -> Iterable[str]:
    """The command lines of the next steps `init` and `rollout new` print."""
    for raw in output.split("Next steps:", 1)[1].splitlines():
        line = _strip_comment(raw.strip())
        if line and _is_command(line):
            yield line


def lines_in_help(text: str) -> Iterable[str]:
    """The `Example:` lines of a --help text (up to a note in parentheses or a redirection)."""
    for match in re.finditer(r"Example:\s*(osmosis [^\n(>]+)", text):
        line = match.group(1).strip()
        if _is_command(line):
            yield line


def help_texts() -> dict[str, str]:
    """Every command's --help text of our CLI, by command path."""
    import typer

    from osmosis_workspace.cli import app

    out: dict[str, str] = {}

    def walk(command, path):
        out[" ".join(path)] = command.help or ""
        if hasattr(command, "list_commands"):
            for name in command.list_commands(None):
                walk(command.get_command(None, name), (*path, name))

    walk(typer.main.get_command(app), ("osmosis",))
    return out


def shape(line: str, names: dict[str, str]) -> str:
    """``line`` with the workspace's names (concrete -> placeholder) put back, spaces normalised."""
    out = " ".join(line.split())
    for concrete, placeholder in sorted(names.items(), key=lambda kv: -len(kv[0])):
        out = re.sub(rf"(?<![\w-]){re.escape(concrete)}(?![\w-])", placeholder, out)
    return out


def concrete(shape_: str, values: dict[str, str]) -> str:
    """A shape with its placeholders filled for one workspace."""
    out = shape_
    for placeholder, value in values.items():
        out = out.replace(placeholder, value)
    return out
