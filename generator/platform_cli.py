"""Commands of the Osmosis platform's own CLI (package osmosis-ai) that people type into this one.

Both packages install a command named `osmosis`, and init's next steps and the skills name the
platform's commands (contract section 6). Typed here, they get a line saying where they belong
instead of click's bare "No such command".
"""

from __future__ import annotations

# First words of the platform's commands; `dataset` is ours too (validate), so only its `upload` is theirs.
PLATFORM_COMMANDS = {("eval",), ("train",), ("auth",), ("serve",), ("dataset", "upload")}


def platform_command(argv: list[str]) -> str | None:
    """``osmosis eval`` (etc.) when ``argv`` (without the program name) starts a platform command."""
    for words in PLATFORM_COMMANDS:
        if tuple(argv[: len(words)]) == words:
            return "osmosis " + " ".join(words)
    return None


def refusal(command: str) -> str:
    return (f"error: `{command}` belongs to the Osmosis platform CLI (package osmosis-ai), not to this osmosis "
            f"(osmosis-workspace: init, doctor, validate, rollout, template, update)\n"
            "hint: pip install osmosis-ai; both install a command named `osmosis` and the one installed last wins, "
            "so in that environment run this one as `osmosis-workspace` (or `python -m generator`)")
