"""Checks: eval, training and benchmark configs (contract section 3).

The JSON Schemas in generator/osmosis_workspace/core/schemas/ are the single source of truth for everything a schema can
say (tables, keys, types, ranges, patterns, branch-xor-commit_sha); this module walks them with
osmosis_workspace.core.schemas.evaluate and turns each violation into a located finding. Python adds what a
draft-07 schema cannot say: non-finite numbers, a secret also set in [env], a benchmark agent's
harness credential, and the cross-file rules (rollout folder, entrypoint, local dataset, schema
directive, file naming).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from osmosis_workspace.check.families.config_crossrefs import _cross_file, _plain, _show, judgement, misnamed_configs, with_eval_names
from osmosis_workspace.check.families.config_rules import (
    _KIND_TABLES, BRANCH_AND_COMMIT, CONFIG_OUTSIDE, DUPLICATE_SECRET, FAMILY, HARNESS_KEYS, HARNESS_SECRET,
    BENCHMARK_SECRET_IN_ENV, INVALID_COMMIT_SHA, INVALID_ENV_NAME, INVALID_ROLLOUT_NAME, INVALID_SECRET_NAME, INVALID_VALUE,
    UNCONVENTIONAL_ROLLOUT_NAME, UNUSUAL_VALUE,
    MINI_SWE_AGENT_KEY, MISSING_REQUIRED, MISSING_SECRETS_TABLE, NON_FINITE, OUT_OF_RANGE, RESERVED_ENV_NAME,
    ROLLOUT_WITHOUT_EVAL, SECRET_IN_ENV, TOML_SYNTAX, UNKNOWN_KEY, WRONG_TYPE,
)
from osmosis_workspace.check.families.config_values import ADVISORY_BOUNDS, BLANK_PATTERN, RANGE_KEYWORDS
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic, quoted, with_article
from osmosis_workspace.core.suggest import did_you_mean
from osmosis_workspace.core.schemas import CONFIG_KINDS, load_schema
from osmosis_workspace.core.schemas.evaluate import Violation, violations
from osmosis_workspace.core.bounded import first_bad_utf8
from osmosis_workspace.core.workspace import NOT_UTF8, Workspace
from osmosis_workspace.readers.toml_locate import TomlDoc

# -- one file (osmosis validate) ----------------------------------------------------------------


def guess_config_kind(path: Path, text: str | None = None) -> str | None:
    """eval, training or benchmark: from the folder (configs/<kind>/), else from the tables."""
    for part in reversed(path.parts[:-1]):
        if part in CONFIG_KINDS:
            return part
    if text is not None:
        doc = TomlDoc.parse(text)
        tables = set(doc.data or {})
        for kind, own in _KIND_TABLES.items():
            if tables & own:
                return kind
    return None


def check_config_file(path: Path, kind: str | None, ws: Workspace | None, display: str) -> list[Diagnostic]:
    """Every finding for the config at ``path``; ``ws`` None skips the cross-file rules.

    ``kind`` None guesses it from the folder or the tables (eval when nothing tells).
    """
    if ws is not None and ws.outside(path):
        return [CONFIG_OUTSIDE.at(display, f"{display} links outside the workspace (to {os.path.realpath(path)}); not checked")]
    from osmosis_workspace.core.bounded import Unreadable

    try:
        text = ws.read_text(path) if ws is not None else _read(path)
    except Unreadable as err:  # a FIFO or a link to /dev/zero named like a config
        return [TOML_SYNTAX.at(display, f"{path.name} {err}", hint="replace it with a regular TOML file")]
    if text is None:
        if not path.is_file():
            return [TOML_SYNTAX.at(display, f"{path.name} cannot be read")]
        reason = ws.unread_reason(path) if ws is not None else NOT_UTF8
        hint = ws.unread_hint(path) if ws is not None else None
        if reason != NOT_UTF8:
            return [TOML_SYNTAX.at(display, f"{path.name} {reason}", hint=hint)]
        line, column = first_bad_utf8(path) or (1, 1)
        return [TOML_SYNTAX.at(display, f"{path.name} is not UTF-8 text (TOML must be)", line=line, column=column,
                               hint="Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE`), or fix the reported bytes.")]
    kind = kind or guess_config_kind(path, text) or "eval"
    doc = TomlDoc.parse(text)
    return sorted(check_config_doc(doc, kind, ws, path, display), key=Diagnostic.sort_key)


def _read(path: Path) -> str | None:
    """The config's text outside a workspace; capped, never a blocking read (`Unreadable` says why not)."""
    from osmosis_workspace.core.bounded import read_capped
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    try:
        return read_capped(path, MAX_TEXT_BYTES).decode("utf-8").replace("\r\n", "\n")  # a lone CR kept, as Workspace.read_text
    except UnicodeDecodeError:
        return None


def check_config_doc(doc: TomlDoc, kind: str, ws: Workspace | None, path: Path, display: str) -> Iterator[Diagnostic]:
    if doc.error is not None:
        yield TOML_SYNTAX.at(display, f"invalid TOML: {doc.error.message}", line=doc.error.line, column=doc.error.column)
        return
    data = doc.data or {}
    schema = load_schema(kind)
    # A reference config's `<...>` values are there to be replaced in a copy, not checked.
    bad_paths: set[tuple] = placeholder_paths(data) if is_reference(path) else set()
    for v in violations(schema, data):
        if v.keyword not in _PER_KEY and v.path in bad_paths:
            continue  # one finding per value: "" fails both minLength and pattern, say it once
        if v.keyword in RANGE_KEYWORDS and isinstance(v.instance, float) and not math.isfinite(v.instance):
            continue  # `inf` is not finite before it is out of range: CFG023 is the one finding
        bad_paths.add(v.path)
        yield _schema_finding(v, kind, doc, display)
    yield from _python_rules(data, doc, display, bad_paths, kind)
    yield from _rollout_naming(data, doc, display, bad_paths)
    if kind == "benchmark":
        yield from _benchmark_rules(data, doc, display, bad_paths)
    if ws is not None:
        yield from _cross_file(data, kind, ws, path, doc, display, bad_paths)


_PLACEHOLDER = re.compile(r"^<[^<>]+>$")


def is_reference(path: Path) -> bool:
    """Whether ``path`` is a kind's reference config (contract section 1: `configs/<kind>/default.toml`,
    a copy-from example whose `<...>` values are placeholders)."""
    return path.name == "default.toml"


def placeholder_paths(data: dict) -> set[tuple]:
    """Where ``data`` holds a `<...>` placeholder string."""
    return {p for p, value in walk(data) if isinstance(value, str) and _PLACEHOLDER.match(value)}


# -- schema violations -> findings --------------------------------------------------------------

_PER_KEY = frozenset({"required", "additionalProperties", "propertyNames"})  # several may share a path

_TYPE_NAMES = {
    "object": "a table", "array": "an array", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "null",
}  # fmt: skip


def _schema_finding(v: Violation, kind: str, doc: TomlDoc, display: str) -> Diagnostic:
    loc = doc.locator
    where = dotted(v.path)
    hint = None

    if v.keyword == "required":
        missing = v.detail
        line, column = loc.table(v.path) or (1, 1)
        sub = v.schema.get("properties", {}).get(missing, {})
        about = sub.get("description", "")
        if not v.path and missing == "secrets" and kind == "eval":
            return MISSING_SECRETS_TABLE.at(display, "eval config has no [secrets] table", line=line, column=column)
        if not v.path:
            return MISSING_REQUIRED.at(display, f"missing required table [{missing}]", line=line, column=column,
                                       hint=f"Add [{missing}]: {about}" if about else None)
        return MISSING_REQUIRED.at(display, f"[{where}] is missing required key `{missing}`", line=line, column=column,
                                   hint=f"Add `{missing} = ...`: {about}" if about else None)

    if v.keyword == "additionalProperties":
        line, column = loc.key(v.path) or (1, 1)
        name = v.path[-1]
        known = list(v.schema.get("properties", {}))
        parent = v.path[:-1]
        if not parent:
            message = f"unknown table [{name}]" if isinstance(doc.data.get(name), dict) else f"unknown top-level key `{name}`"
            other = [k for k, tables in _KIND_TABLES.items() if k != kind and name in tables]
            if other:
                hint = f"[{name}] belongs in {with_article(other[0])} config (configs/{other[0]}/); {kind} configs have: {', '.join(known)}"
        else:
            message = f"unknown key `{name}` in [{dotted(parent)}]"
        message += did_you_mean(name, known)
        return UNKNOWN_KEY.at(display, message, line=line, column=column,
                              hint=hint or f"Known {'tables' if not parent else 'keys'}: {', '.join(known)}.")

    if v.keyword == "propertyNames":
        line, column = loc.key(v.path) or (1, 1)
        name = v.path[-1]
        table = _table_name(v.path[:-1])
        if v.path[-2] != "env":
            if v.detail.keyword == "enum":  # a key of another variant, e.g. base_url in a provider model
                allowed = ", ".join(v.detail.schema["enum"])
                return UNKNOWN_KEY.at(display, f"`{name}` does not belong in [{table}] of this type", line=line, column=column,
                                      hint=f"Keys here: {allowed}.")
            return INVALID_VALUE.at(display, f"[{table}] must not have the key `{name}`", line=line, column=column,
                                    hint=v.schema.get("description"))
        if v.detail.keyword == "not":
            return RESERVED_ENV_NAME.at(display, f"{table} name `{name}` starts with _OSMOSIS_, which the platform reserves",
                                        line=line, column=column)
        return INVALID_ENV_NAME.at(display, f"{table} name `{name}` must match ^[A-Z_][A-Z0-9_]*$", line=line, column=column)

    line, column = loc.value(v.path) or (1, 1)
    shown = _show(v.instance)
    if v.keyword == "type":
        wanted = v.schema["type"]
        wanted = " or ".join(_TYPE_NAMES[t] for t in (wanted if isinstance(wanted, list) else [wanted]))
        got = type_name(v.instance)
        if v.path[:1] == ("env",) and len(v.path) == 2:
            return WRONG_TYPE.at(display, f"[env] `{v.path[-1]}` must be a string, got {got}", line=line, column=column,
                                 hint=f'Quote it: {v.path[-1]} = "{_plain(v.instance)}"')
        about = v.schema.get("description")
        return WRONG_TYPE.at(display, f"`{where}` must be {wanted}, got {got}", line=line, column=column,
                             hint=about or None)
    if v.keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if (v.path, v.keyword) not in ADVISORY_BOUNDS:  # no run can use it (eval run refuses n < 1 itself)
            return OUT_OF_RANGE.at(display, f"`{where}` is {shown}; it must be {_range(v.schema)}", line=line, column=column,
                                   hint=v.schema.get("description") or None)
        return UNUSUAL_VALUE.at(display, f"`{where}` is {shown}; we advise {_range(v.schema)} (it runs, but is unusual)",
                                line=line, column=column, hint=v.schema.get("description") or None)
    if v.keyword == "uniqueItems":
        return DUPLICATE_SECRET.at(display, f"{_show(v.instance[v.detail])} is listed twice in [secrets] required", line=line, column=column) \
            if v.path[:2] == ("secrets", "required") else INVALID_VALUE.at(display, f"`{where}` repeats an earlier item", line=line, column=column)
    if v.path == ("experiment", "commit_sha"):
        return INVALID_COMMIT_SHA.at(display, f"commit_sha {shown} is not 7-40 hexadecimal digits", line=line, column=column)
    if v.path == ("experiment", "rollout"):
        return _rollout_name_finding(v.instance, display, line, column)
    if v.path == ("experiment", "branch") and v.keyword == "pattern":
        return INVALID_VALUE.at(display, f"branch {shown} contains whitespace, which osmosis-ai rejects", line=line, column=column,
                                hint="Use the branch's exact name (git branch names have no spaces).")
    if _names_a_secret(v.path) and v.keyword == "not":
        return RESERVED_ENV_NAME.at(display, f"`{where}` = {shown} is a name the benchmark runner reserves", line=line, column=column,
                                    hint="Store the model's key in a secret record with another name and use that name.")
    if _names_a_secret(v.path):
        return INVALID_SECRET_NAME.at(display, f"secret name {shown} must match ^[A-Z][A-Z0-9_]*$", line=line, column=column)
    if v.keyword in ("enum", "const"):
        allowed = " or ".join(_show(e) for e in v.schema.get("enum", [v.schema.get("const")]))
        return INVALID_VALUE.at(display, f"`{where}` = {shown} must be {allowed}", line=line, column=column,
                                hint=v.schema.get("description"))
    if v.keyword in ("minItems", "maxItems"):
        bound = f"at least {v.schema['minItems']}" if v.keyword == "minItems" else f"at most {v.schema['maxItems']}"
        return INVALID_VALUE.at(display, f"`{where}` has {len(v.instance)} item{'s' if len(v.instance) != 1 else ''}; it must have {bound}",
                                line=line, column=column, hint=v.schema.get("description"))
    if v.keyword == "not" and v.schema.get("not", {}).get("required") == ["branch", "commit_sha"]:
        line, column = loc.key(v.path + ("commit_sha",)) or (line, column)
        return BRANCH_AND_COMMIT.at(display, f"[{where}] sets both `branch` and `commit_sha`; keep one", line=line, column=column)
    if v.keyword == "minLength" and v.schema.get("minLength") == 1:
        return INVALID_VALUE.at(display, f"`{where}` is empty", line=line, column=column, hint=v.schema.get("description"))
    if v.keyword == "pattern" and v.schema.get("pattern") == BLANK_PATTERN:  # osmosis-ai does not strip it: as empty
        return INVALID_VALUE.at(display, f"`{where}` is empty (only whitespace)", line=line, column=column, hint=v.schema.get("description"))
    return INVALID_VALUE.at(display, f"`{where}` = {shown} is not valid ({v.keyword})", line=line, column=column,
                            hint=v.schema.get("description"))


def _table_name(path: tuple) -> str:
    """``("agents", 0, "env")`` -> ``agents.env`` (how TOML names an array of tables' sub-table)."""
    return ".".join(p for p in path if isinstance(p, str))


# Where a config names a secret record: [secrets]/[verifier] required, and the benchmark's *_secret keys.
def _names_a_secret(path: tuple) -> bool:
    if len(path) == 3 and path[0] in ("secrets", "verifier") and path[1] == "required":
        return True
    return bool(path) and isinstance(path[-1], str) and path[-1].endswith("_secret")


def _rollout_name_finding(value: str, display: str, line: int, column: int) -> Diagnostic:
    if "/" in value or "\\" in value:
        message = f"rollout {_show(value)} must be one folder name under rollouts/, not a path"
        last = [p for p in re.split(r"[\\/]", value) if p]
        hint = f'Use rollout = "{last[-1]}".' if last else None
    else:
        message, hint = f"rollout {_show(value)} is not a rollout folder name", None
    return INVALID_ROLLOUT_NAME.at(display, message, line=line, column=column, hint=hint)


def _rollout_naming(data: dict, doc: TomlDoc, display: str, bad_paths: set[tuple]) -> Iterator[Diagnostic]:
    """A `rollout` osmosis-ai accepts but `osmosis rollout init` would not name so: advice only."""
    from osmosis_workspace.core.names import name_problem

    experiment = data.get("experiment")
    value = experiment.get("rollout") if isinstance(experiment, dict) else None
    if not isinstance(value, str) or ("experiment", "rollout") in bad_paths or _PLACEHOLDER.match(value):
        return  # a placeholder is no name at all: the missing folder (CFG016) says so
    problem = "the name 'default' is reserved by `osmosis rollout init`" if value == "default" else name_problem(value, kind="rollout")
    if problem:
        line, column = doc.locator.value(("experiment", "rollout")) or (1, 1)
        yield UNCONVENTIONAL_ROLLOUT_NAME.at(display, f"{problem} (a convention: osmosis-ai runs it all the same)", line=line, column=column)


def dotted(path: tuple) -> str:
    """``("secrets", "required", 1)`` -> ``secrets.required[1]``; keys that are not bare are quoted."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += f".{text}" if out else text
    return out


def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return "a date/time"


def _range(schema: dict) -> str:
    low = (">= " + _num(schema["minimum"])) if "minimum" in schema else (
        ("> " + _num(schema["exclusiveMinimum"])) if "exclusiveMinimum" in schema else "")
    high = ("<= " + _num(schema["maximum"])) if "maximum" in schema else (
        ("< " + _num(schema["exclusiveMaximum"])) if "exclusiveMaximum" in schema else "")
    return " and ".join(p for p in (low, high) if p)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# -- rules a draft-07 schema cannot express ---------------------------------------------------


def _python_rules(data: dict, doc: TomlDoc, display: str, bad_paths: set[tuple], kind: str = "eval") -> Iterator[Diagnostic]:
    for path, value in walk(data):
        if isinstance(value, float) and not math.isfinite(value) and path not in bad_paths:
            line, column = doc.locator.value(path) or (1, 1)
            yield NON_FINITE.at(display, f"`{dotted(path)}` is {_plain(value)}", line=line, column=column)
    env = data.get("env")
    secrets = data.get("secrets")
    required = secrets.get("required") if isinstance(secrets, dict) else None
    if isinstance(env, dict) and isinstance(required, list):
        for i, name in enumerate(required):
            if isinstance(name, str) and name in env:
                # at the [env] key: removing it is the fix the hint gives
                line, column = doc.locator.key(("env", name)) or doc.locator.value(("secrets", "required", i)) or (1, 1)
                if kind == "benchmark":  # benchmark submit does not reject it; the two values would still collide
                    yield BENCHMARK_SECRET_IN_ENV.at(display, f"`{name}` is a required secret and also set in [env]; the run would get one of the two values",
                                                     line=line, column=column)
                else:
                    yield SECRET_IN_ENV.at(display, f"`{name}` is a required secret and also set in [env]", line=line, column=column)


def _benchmark_rules(data: dict, doc: TomlDoc, display: str, bad_paths: set[tuple]) -> Iterator[Diagnostic]:
    """What `osmosis benchmark submit` checks beyond the schema (osmosis-ai benchmark_config.py):
    the platform sets each agent's model, judge and verifier secrets as variables of the same name,
    so no [env] / [agents.env] may set them; cursor-cli reads its own credential from
    CURSOR_API_KEY; mini-swe-agent gets a provider/endpoint model's key as MSWEA_API_KEY."""
    agents = data.get("agents")
    if not isinstance(agents, list):
        return
    env = data.get("env") if isinstance(data.get("env"), dict) else {}
    execution = data.get("execution") if isinstance(data.get("execution"), dict) else {}
    verifier = data.get("verifier") if isinstance(data.get("verifier"), dict) else {}
    injected: list[tuple[str, tuple]] = []  # (secret name, where it is named) for every agent
    judge = execution.get("judge_api_key_secret")
    if isinstance(judge, str) and judge:
        injected.append((judge, ("execution", "judge_api_key_secret")))
    names = verifier.get("required")
    for i, name in enumerate(names if isinstance(names, list) else []):
        if isinstance(name, str):
            injected.append((name, ("verifier", "required", i)))
    loc = doc.locator
    for index, agent in enumerate(agents):
        if not isinstance(agent, dict) or ("agents", index) in bad_paths:
            continue
        own_env = agent.get("env") if isinstance(agent.get("env"), dict) else {}
        effective = {**env, **own_env}

        def source(name: str) -> str:
            return f"[agents.env] of agent {index + 1}" if name in own_env else "[env]"

        model = agent.get("model") if isinstance(agent.get("model"), dict) else {}
        secrets = list(injected)
        key = model.get("api_key_secret")
        if model.get("type") in ("provider", "endpoint") and isinstance(key, str):
            secrets.append((key, ("agents", index, "model", "api_key_secret")))
        for name, where in secrets:
            if name in effective:
                line, column = loc.value(where) or (1, 1)
                yield SECRET_IN_ENV.at(display, f"`{name}` is a secret the platform sets for agent {index + 1} and also set in {source(name)}",
                                       line=line, column=column, hint=f"Remove `{name}` from {source(name)}, or rename the variable.")
        harness = agent.get("harness")
        wanted = HARNESS_KEYS.get(harness) if isinstance(harness, str) else None
        given = agent.get("harness_api_key_secret")
        named = next((k for k in ("harness_api_key_secret", "harness") if k in agent), None)
        line, column = loc.value(("agents", index, named) if named else ("agents", index)) or (1, 1)
        if wanted and wanted in effective:
            yield RESERVED_ENV_NAME.at(display, f"`{wanted}` in {source(wanted)} is set by agent {index + 1}'s {harness} harness",
                                       line=line, column=column, hint=f"Remove `{wanted}` from {source(wanted)}.")
        if wanted and given is None:
            yield HARNESS_SECRET.at(display, f"agent {index + 1}'s {harness} harness needs harness_api_key_secret = {wanted!r}",
                                    line=line, column=column)
        elif wanted and given != wanted:
            yield HARNESS_SECRET.at(display, f"agent {index + 1}'s {harness} harness reads {wanted}, not {quoted(given)}",
                                    line=line, column=column, hint=f"Store the credential in a secret record named {wanted} and set harness_api_key_secret = {wanted!r}.")
        elif not wanted and given is not None:
            what = f"the {harness} harness" if isinstance(harness, str) else "the benchmark's own scaffold"
            yield HARNESS_SECRET.at(display, f"agent {index + 1} uses {what}, which takes no harness_api_key_secret",
                                    line=line, column=column, hint="Remove harness_api_key_secret.")
        if harness == "mini-swe-agent" and model.get("type") != "hosted" and MINI_SWE_AGENT_KEY in effective:
            line, column = loc.key(("agents", index, "env", MINI_SWE_AGENT_KEY) if MINI_SWE_AGENT_KEY in own_env
                                   else ("env", MINI_SWE_AGENT_KEY)) or (1, 1)
            yield RESERVED_ENV_NAME.at(display, f"`{MINI_SWE_AGENT_KEY}` in {source(MINI_SWE_AGENT_KEY)}: the platform sets it to agent "
                                       f"{index + 1}'s model key for mini-swe-agent", line=line, column=column,
                                       hint=f"Remove `{MINI_SWE_AGENT_KEY}` from {source(MINI_SWE_AGENT_KEY)}.")


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, value) in parsed TOML data, depth first, containers included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, path + (i,))


# -- workspace (osmosis doctor) -----------------------------------------------------------------


@workspace_check(FAMILY)
def check_configs(ws: Workspace) -> list[Diagnostic]:
    from osmosis_workspace.check.config_refs import workspace_configs
    from osmosis_workspace.check.units import remember_items

    facts = {ref.path: ref for ref in workspace_configs(ws)}
    # kept by doctor's cache while what it was judged on (config_crossrefs.judgement) is unchanged; an editor's
    # edit run judges again only the configs whose file or inputs changed (check/units.remember_items)
    # (the display is ws.rel(path), built cheaper)
    judge = lambda item: (f"config:configs/{item[2]}/{item[0].name}", *judgement(ws, item[0], item[2], item[1]))  # noqa: E731
    compute = lambda item: check_config_file(item[0], item[2], ws, f"configs/{item[2]}/{item[0].name}")  # noqa: E731
    items = [(path, facts.get(path), kind) for kind in CONFIG_KINDS for path in ws.config_files(kind)]
    found: list[Diagnostic] = []
    eval_rollouts: set[str] = set()
    for findings, names in remember_items(ws, "configs", items, judge, compute, with_eval_names):
        found += findings
        eval_rollouts.update(names)
    # an eval config the SDK refuses for its name is CFG031's one finding, not a missing config too
    eval_rollouts |= {stem for kind, _, stem in misnamed_configs(ws) if kind == "eval"}
    for folder in ws.rollout_dirs:
        if folder.name not in eval_rollouts:
            found.append(ROLLOUT_WITHOUT_EVAL.at(
                ws.rel(folder), f"rollout {folder.name!r} has no eval config",
                hint=f"Add configs/eval/{folder.name}.toml with rollout = \"{folder.name}\".",
            ))
    return found

