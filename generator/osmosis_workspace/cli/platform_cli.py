"""The Osmosis platform's own CLI (package osmosis-ai): its command tree, kept here and only here.

Both packages install a command named `osmosis`, and the bundled skills, AGENTS.md and reference
configs name the platform's commands (contract section 6). Two uses of one table:
- typed into this `osmosis`, a platform command gets a line saying where it belongs instead of
  click's bare "No such command";
- a test checks every `osmosis ...` line of the bundled text against this table or our own app.

The table is osmosis-ai 0.3.8's command tree (read from its cli/commands/*.py: every public command
with its options; 0.3.8 added `train info --overwrite` and deprecated `eval rubric --api-key`).
When a newer SDK adds commands or flags, add them here.
"""

from __future__ import annotations

from collections.abc import Iterable

SDK_VERSION = "0.3.8"

# Root options; `--json` / `--plain` are also accepted anywhere on the line (the SDK hoists them).
ROOT_FLAGS = frozenset({"--json", "--plain", "--version", "-V", "--help", "-h"})
ROOT_VALUE_OPTIONS = frozenset({"--env-file", "--platform", "--workspace"})
_LIST = frozenset({"--limit", "--all"})
_LOGS = frozenset({"--limit", "--cursor"})
_YES = frozenset({"--yes", "-y"})
_SUBMIT = _YES | {"--secrets-file"}

# Command path -> its options. A path that prefixes another is a group (it takes a subcommand).
COMMANDS: dict[tuple[str, ...], frozenset[str]] = {
    ("quickstart",): frozenset({"--workspace", "-w"}),
    ("doctor",): frozenset({"--fix"}),
    ("upgrade",): frozenset(),
    ("auth", "login"): frozenset({"--token"}),
    ("auth", "logout"): _YES,
    ("auth", "whoami"): frozenset(),
    ("secret", "list"): _LIST | {"--scope"},
    ("secret", "set"): frozenset({"--scope", "--env"}),
    ("secret", "delete"): _YES | {"--scope"},
    ("dataset", "upload"): _YES | {"--overwrite"},
    ("dataset", "download"): frozenset({"--output", "-o", "--overwrite"}),
    ("dataset", "list"): _LIST,
    ("dataset", "info"): frozenset(),
    ("dataset", "logs"): _LOGS,
    ("dataset", "preview"): frozenset({"--rows"}),
    ("dataset", "validate"): frozenset(),
    ("rollout", "init"): frozenset({"--force", "-f"}),
    ("rollout", "list"): _LIST | {"--branch"},
    ("template", "list"): frozenset(),
    ("template", "apply"): frozenset({"--force", "-f"}),
    ("eval", "run"): _YES | {"--name", "--output", "-o", "--dataset-file", "--secrets-file", "--rows", "--fresh",
                             "--retry-failed", "--max-in-flight", "--tunnel", "--rollout-port", "--listener-port",
                             "--advertise-url", "--verbose", "--upload"},
    ("eval", "upload"): frozenset({"--replace"}),
    ("eval", "submit"): _SUBMIT,
    ("eval", "retry"): _SUBMIT,
    ("eval", "list"): _LIST,
    ("eval", "info"): frozenset({"--output", "-o"}),
    ("eval", "logs"): _LOGS,
    ("eval", "download"): _YES | {"--output", "-o", "--type", "--rows", "--overwrite"},
    ("eval", "stop"): _YES,
    ("eval", "rubric"): frozenset({"-d", "--data", "-r", "--rubric", "--model", "-n", "--number", "-o", "--output",
                                   "--api-key", "--timeout", "--score-min", "--score-max"}),
    ("train", "submit"): _SUBMIT,
    ("train", "list"): _LIST,
    ("train", "info"): frozenset({"--output", "-o", "--overwrite"}),  # --overwrite: 0.3.8
    ("train", "logs"): _LOGS,
    ("train", "stop"): _YES,
    ("model", "list"): _LIST | {"--type"},
    ("model", "info"): frozenset(),
    ("model", "deploy"): frozenset(),
    ("model", "undeploy"): frozenset(),
    ("benchmark", "list"): _LIST,
    ("benchmark", "info"): _LIST,
    ("benchmark", "submit"): _SUBMIT,
    ("benchmark", "runs", "list"): _LIST,
    ("benchmark", "runs", "info"): frozenset(),
    ("benchmark", "runs", "logs"): _LOGS,
    ("benchmark", "runs", "stop"): _YES,
    ("benchmark", "runs", "download"): _YES | {"--output", "-o", "--type", "--overwrite"},
}

# Options the SDK still takes but deprecates (it warns and will remove them): bundled text never uses them.
# eval rubric --api-key: 0.3.8 cli/commands/eval.py warns DEPRECATION; the provider's variable replaces it.
DEPRECATED_OPTIONS: dict[tuple[str, ...], frozenset[str]] = {("eval", "rubric"): frozenset({"--api-key"})}

# Commands that spend money: the skills and AGENTS.md say the user decides before any of these runs.
PAID = frozenset({("eval", "submit"), ("eval", "retry"), ("train", "submit"), ("benchmark", "submit"),
                  ("model", "deploy")})

# osmosis-ai 0.2.7-0.2.17 only (remote rollout servers); gone in 0.3, still typed by people following old guides.
LEGACY_COMMANDS = frozenset({("serve",), ("test",)})


def groups(commands: Iterable[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """Every proper prefix of a command path: the paths that take a subcommand."""
    return {path[:i] for path in commands for i in range(1, len(path))}


def skip_root_options(argv: list[str]) -> list[str]:
    """``argv`` without the platform CLI's root options (and their values) before the command."""
    rest = list(argv)
    while rest and rest[0].startswith("-"):
        head = rest.pop(0)
        if head in ROOT_VALUE_OPTIONS and rest:
            rest.pop(0)
    return [token for token in rest if token not in ("--json", "--plain")]


def platform_command(argv: list[str], ours: Iterable[tuple[str, ...]] = ()) -> str | None:
    """``osmosis eval`` (etc.) when ``argv`` (without the program name) starts a platform-only command.

    ``ours`` are our own command paths; a path both CLIs have (`doctor`, `template list`) is ours here.
    """
    words = [w for w in skip_root_options(argv) if not w.startswith("-")]
    if not words:
        return None
    ours = set(ours)
    ours_prefixes = ours | groups(ours)
    platform = set(COMMANDS) | groups(COMMANDS) | set(LEGACY_COMMANDS)
    if (words[0],) not in ours_prefixes:
        return f"osmosis {words[0]}" if (words[0],) in platform else None
    if len(words) > 1 and (words[0], words[1]) not in ours_prefixes and (words[0], words[1]) in platform:
        return f"osmosis {words[0]} {words[1]}"
    return None


def refusal(command: str) -> str:
    legacy = tuple(command.split()[1:]) in LEGACY_COMMANDS
    where = ("belongs to osmosis-ai 0.2 (package osmosis-ai <= 0.2.17) and no longer exists in 0.3; local runs are "
             "`osmosis eval run CONFIG --dataset-file FILE` there") if legacy else \
        "belongs to the Osmosis platform CLI (package osmosis-ai)"
    return (f"error: `{command}` {where}, not to this osmosis "
            f"(osmosis-workspace: init, doctor, validate, rehearse, rollout, rule, template, update, schema, "
            f"dataset validate, lsp)\n"
            "hint: in a workspace, `uv run osmosis ...` reaches the platform CLI that `uv sync` installed into .venv; "
            "elsewhere pip install osmosis-ai. Both packages install a command named `osmosis` and the one installed "
            "last wins; `osmosis-workspace` always reaches this one")
