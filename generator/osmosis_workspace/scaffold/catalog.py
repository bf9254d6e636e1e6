"""The bundled templates: what each is (``templates/<name>/template.toml``) and what it asks
(``copier.yml``), read as plain files so `osmosis template list` never imports copier.
"""

from __future__ import annotations

import re
import sys
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from osmosis_workspace.core import resources
from osmosis_workspace.core.bounded import toml_loads
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.scaffold.copier_yml import copier_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

WORKSPACE_TEMPLATE = "workspace"
# Former template names that still work: each is a bundled template plus the answers it implies.
# The rollout is named after the alias unless told otherwise (what the old templates did).
ALIASES: dict[str, tuple[str, dict[str, str]]] = {
    "multiply-openai": ("multiply", {"integration": "openai-agents"}),
    "multiply-harbor": ("multiply", {"integration": "harbor"}),
    # the platform's recipe names (`osmosis template apply NAME` of osmosis-ai, contract section 1)
    "multiply-local-strands": ("multiply", {"integration": "strands"}),
    "multiply-local-openai": ("multiply", {"integration": "openai-agents"}),
    "multiply-harbor-strands": ("multiply", {"integration": "harbor"}),
}
RECIPES = ("multiply-harbor-strands", "multiply-local-openai", "multiply-local-strands")  # listed by `template list`
KINDS = ("workspace", "rollout")


@dataclass(frozen=True)
class TemplateInfo:
    name: str
    kind: str
    description: str
    path: Path

    def to_dict(self) -> dict[str, str]:
        data = asdict(self)
        data.pop("path")
        return data


def read_info(template_dir: Path) -> TemplateInfo:
    """A template folder's metadata; a folder without template.toml counts as a rollout template."""
    meta: dict[str, Any] = {}
    meta_file = template_dir / "template.toml"
    if meta_file.is_file():
        try:
            meta = toml_loads(meta_file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise UserError(f"{meta_file} is not valid TOML: {err}", exit_code=3) from None
    kind = meta.get("kind", "rollout")
    if kind not in KINDS:
        raise UserError(f"{meta_file}: kind must be one of {', '.join(KINDS)}, not {kind!r}", exit_code=3)
    return TemplateInfo(template_dir.name, kind, str(meta.get("description", "")).strip(), template_dir)


@lru_cache(maxsize=None)
def bundled_templates() -> tuple[TemplateInfo, ...]:
    """Every bundled template folder holding a copier.yml, sorted by name."""
    root = resources.templates_dir()
    return tuple(read_info(p) for p in sorted(root.iterdir()) if p.is_dir() and copier_file(p) is not None)


def rollout_templates() -> list[TemplateInfo]:
    return [t for t in bundled_templates() if t.kind == "rollout"]


def find_bundled(name: str) -> TemplateInfo | None:
    return next((t for t in bundled_templates() if t.name == name), None)


def resolve_alias(name: str) -> tuple[str, dict[str, str]]:
    """``(template, implied answers)`` for a former template name; other names pass through."""
    if name in ALIASES and find_bundled(name) is None:
        target, answers = ALIASES[name]
        return target, {"rollout_name": name, **answers}
    return name, {}


def workspace_template() -> TemplateInfo:
    found = find_bundled(WORKSPACE_TEMPLATE)
    if found is None or found.kind != "workspace":
        raise UserError("the bundled workspace template is missing from this installation", exit_code=3)
    return found


def questions(template_dir: Path) -> dict[str, dict[str, Any]]:
    """Question name -> its spec (a bare value in copier.yml is shorthand for its default; keys
    starting with ``_`` are settings)."""
    from osmosis_workspace.scaffold.copier_yml import load_config

    return {
        key: (value if isinstance(value, dict) else {"default": value})
        for key, value in load_config(template_dir).items()
        if not key.startswith("_")
    }


def did_you_mean(name: str) -> str:
    """"; did you mean 'multiply'?" for a misspelt bundled template name, else ""."""
    import difflib

    guess = difflib.get_close_matches(name, [t.name for t in bundled_templates()], n=1, cutoff=0.7)
    return f"; did you mean {guess[0]!r}?" if guess else ""


def answerable(spec: dict[str, dict[str, Any]]) -> set[str]:
    """Questions `--data` may answer: not the hidden ones (`when: false`), which osmosis fills in
    itself (the workspace's `osmosis_version` pins the CI's osmosis-workspace to the one installed)."""
    return {name for name, q in spec.items() if q.get("when", True) is not False}


def refuse_unasked(spec: dict[str, dict[str, Any]], answers: dict[str, str], label: str) -> None:
    """Refuse (exit 2) a `--data` answer to a question the template skips with the other answers
    (`n_concurrent` only exists for `integration=harbor`): silently ignored, it would look applied."""
    from jinja2.sandbox import SandboxedEnvironment

    refuse_mistyped(spec, answers, label)
    env = SandboxedEnvironment()
    context = {name: answers.get(name, q.get("default")) for name, q in spec.items()}
    for name in answers:
        when = spec.get(name, {}).get("when", True)
        if not isinstance(when, str):
            continue
        try:
            shown = env.from_string(when).render(**context).strip().lower()
        except Exception:  # noqa: BLE001  a broken condition is the template's: copier reports it when rendering
            continue
        if shown in ("", "false", "0", "no", "n", "off", "none", "null", "~"):  # what copier reads as false
            given = ", ".join(f"{k}={answers[k]}" for k in answers if k != name and k in when) or "the defaults"
            raise UserError(f"--data {name}: template {label} does not ask this question with {given} "
                            f"(only when {when_text(when)})", hint=f"leave out --data {name}=...")


_NUMBER_TYPES = {"int": (int, "a whole number"), "float": (float, "a number")}


def refuse_mistyped(spec: dict[str, dict[str, Any]], answers: dict[str, str], label: str) -> None:
    """Refuse (exit 2) a `--data` answer that copier could not cast to its question's type: copier's
    own error is Python's `invalid literal for int()`, which names neither the question nor the type.
    An answer outside a question's fixed choices is refused here too, before any render, with the
    closest choice (copier's own refusal comes after a second of rendering, with no suggestion)."""
    from osmosis_workspace.core.suggest import closest

    for name, value in answers.items():
        offered = _choice_values(spec.get(name, {}).get("choices"))
        if offered and isinstance(value, str) and value not in offered:
            guess = closest(value, offered)
            raise UserError(f"--data {name}={value}: template {label} offers {', '.join(offered)} for {name}"
                            + (f"; did you mean {guess!r}?" if guess else ""),
                            hint=f"for example --data {name}={guess or offered[0]}")
        kind = _NUMBER_TYPES.get(str(spec.get(name, {}).get("type", "")))
        if kind is None or not isinstance(value, str):
            continue
        try:
            kind[0](value)
        except ValueError:
            example = spec[name].get("default", 1)
            raise UserError(f"--data {name}={value}: template {label} expects {kind[1]} for {name}, not {value!r}",
                            hint=f"for example --data {name}={example}") from None


def _choice_values(choices: Any) -> list[str]:
    """The values a question's fixed `choices` allow (a list, `[label, value]` pairs or a label -> value
    mapping); none when they are computed by Jinja, which only copier can evaluate."""
    items = list(choices.values()) if isinstance(choices, dict) else choices if isinstance(choices, list) else []
    values = [str(i[1] if isinstance(i, (list, tuple)) and len(i) == 2 else i) for i in items]
    return [] if any("{{" in v or "{%" in v for v in values) else values


def rule_text(validator: str | None) -> str | None:
    """The message a copier validator shows, without its Jinja (what a person reads)."""
    if not validator:
        return None
    text = " ".join(re.sub(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", " ", validator, flags=re.DOTALL).split())
    return text or None


def when_text(when: Any) -> str:
    """A question's `when` condition as a person reads it: the expression, without its `{{ }}`."""
    match = re.fullmatch(r"\s*\{\{\s*(.*?)\s*\}\}\s*", str(when), flags=re.DOTALL)
    return match.group(1) if match else str(when)
