"""Checks: eval, training and benchmark configs (contract section 3).

The JSON Schemas in generator/core/schemas/ are the single source of truth for everything a schema can
say (tables, keys, types, ranges, patterns, branch-xor-commit_sha); this module walks them with
generator.core.schemas.evaluate and turns each violation into a located finding. Python adds what a
draft-07 schema cannot say: non-finite numbers, a secret also set in [env], a benchmark agent's
harness credential, and the cross-file rules (rollout folder, entrypoint, local dataset, schema
directive, file naming).
"""

from __future__ import annotations

import difflib
import os
import json
import math
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.check.registry import workspace_check
from generator.core.diagnostics import Diagnostic, Severity
from generator.core.paths import unusable_path
from generator.check.registry import family_rules
from generator.core.schemas import CONFIG_KINDS, load_schema, schema_directive, schema_filename
from generator.core.schemas.evaluate import Violation, violations
from generator.formats.toml_locate import TomlDoc
from generator.core.workspace import DATASET_SUFFIXES, NOT_UTF8, Workspace, first_bad_utf8

FAMILY = "configs"


_rule = family_rules(FAMILY)


TOML_SYNTAX = _rule(
    "CFG001", "config-toml-syntax", "error",
    summary="The config is not valid TOML (or not UTF-8 text).",
    why="The platform cannot read the run's settings, so `osmosis eval submit` / `train submit` fail before anything runs.",
    fix="Fix the TOML at the reported line and column (strings need quotes; each key once per table).",
    example='[experiment]\nrollout = multiply   # string without quotes',
    source="osmosis_ai/platform/cli/shared_config.py",
)
MISSING_REQUIRED = _rule(
    "CFG002", "config-missing-required", "error",
    summary="A required table or key is missing (e.g. [experiment], or `model_path` in it).",
    why="The platform needs the rollout, entrypoint, model and dataset to start a run; a missing one fails the submission.",
    fix="Add the missing table or key (see `osmosis schema eval` / `osmosis schema training`).",
    example='[experiment]\nrollout = "multiply"\n# entrypoint, model_path and dataset missing',
    source="osmosis_ai/platform/cli/shared_config.py",
)
UNKNOWN_KEY = _rule(
    "CFG003", "config-unknown-key", "error",
    summary="A table or key the config format does not have (usually a typo).",
    why="A misspelt setting is not applied: the run silently uses the default instead of what you wrote.",
    fix="Rename it to a known key (see the suggestion) or remove it.",
    example='[evaluation]\nbatchsize = 8   # should be batch_size',
    source="osmosis_ai/platform/cli/shared_config.py",
)
WRONG_TYPE = _rule(
    "CFG004", "config-wrong-type", "error",
    summary="A value has the wrong type (e.g. a string where a number belongs, or a key where a table belongs).",
    why="The platform rejects the config or misreads the setting, failing the run after it was submitted.",
    fix="Give the value the documented type: numbers without quotes, strings in quotes, tables as [table].",
    example='[evaluation]\nn = "4"   # should be n = 4',
    source="osmosis_ai/platform/cli/shared_config.py",
)
OUT_OF_RANGE = _rule(
    "CFG005", "config-out-of-range", "warning",
    summary="A number is outside its sensible range (e.g. pass_threshold > 1, lr <= 0); an error for an eval's n < 1, which `osmosis eval run` rejects.",
    why="osmosis-ai forwards these values unchecked and the platform only judges them once a paid run starts; our ranges are advice, not the platform's published limits.",
    fix="Use a value in the documented range (see `osmosis schema`).",
    example='[sampling]\nrollout_top_p = 1.5   # must be in (0, 1]',
    source="ours; osmosis_ai/platform/cli/eval_run.py",
)
INVALID_VALUE = _rule(
    "CFG006", "config-invalid-value", "error",
    summary="A string value is empty or does not have the required form.",
    why="An empty model path or dataset name fails the run's submission.",
    fix="Give a non-empty value of the documented form.",
    example='[experiment]\nmodel_path = ""',
    source="osmosis_ai/platform/cli/shared_config.py",
)
INVALID_COMMIT_SHA = _rule(
    "CFG007", "invalid-commit-sha", "error",
    summary="`commit_sha` is not 7-40 hexadecimal digits.",
    why="The platform cannot check out a commit it cannot parse, so the run fails at start-up.",
    fix="Use a commit id from `git log --format=%h` (7-40 hex digits), or remove commit_sha to run the default branch.",
    example='[experiment]\ncommit_sha = "HEAD~1"',
    source="osmosis_ai/platform/cli/shared_config.py",
)
BRANCH_AND_COMMIT = _rule(
    "CFG008", "branch-and-commit-sha", "error",
    summary="`branch` and `commit_sha` are both set.",
    why="They name two ways to pick the code to run; the platform would have to guess which one you meant.",
    fix="Keep one: `commit_sha` pins an exact commit, `branch` follows the branch head.",
    example='[experiment]\nbranch = "main"\ncommit_sha = "1a2b3c4"',
    source="osmosis_ai/platform/cli/shared_config.py",
)
INVALID_ENV_NAME = _rule(
    "CFG009", "invalid-env-name", "error",
    summary="An [env] name is not upper case letters, digits and underscores (starting with a letter or _).",
    why="The platform passes [env] as environment variables; names outside ^[A-Z_][A-Z0-9_]*$ are rejected.",
    fix="Rename the variable, e.g. `log_level` -> `LOG_LEVEL`.",
    example='[env]\nlog-level = "info"',
    source="osmosis_ai/platform/cli/shared_config.py",
)
RESERVED_ENV_NAME = _rule(
    "CFG010", "reserved-env-name", "error",
    summary="An [env] name the platform sets itself, or one starting with _OSMOSIS_.",
    why="The platform's own value would be overwritten (or would overwrite yours), breaking the checkout or the rollout server.",
    fix="Rename the variable; reserved: GITHUB_CLONE_URL, GITHUB_TOKEN, ENTRYPOINT_SCRIPT, REPOSITORY_PATH, TRAINING_RUN_ID, ROLLOUT_NAME, ROLLOUT_PORT and _OSMOSIS_*.",
    example='[env]\nROLLOUT_PORT = "9000"',
    source="osmosis_ai/platform/cli/shared_config.py",
)
INVALID_SECRET_NAME = _rule(
    "CFG011", "invalid-secret-name", "error",
    summary="A name in [secrets] required is not upper case letters, digits and underscores starting with a letter.",
    why="The platform looks secrets up by these names; an invalid name can never be provided.",
    fix="Use the environment variable's name, e.g. OPENAI_API_KEY.",
    example='[secrets]\nrequired = ["openai-key"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)
DUPLICATE_SECRET = _rule(
    "CFG012", "duplicate-secret", "error",
    summary="A name appears twice in [secrets] required.",
    why="The platform requires unique names; a duplicate is usually a copy-paste slip hiding a missing secret.",
    fix="Remove the repeated name.",
    example='[secrets]\nrequired = ["OPENAI_API_KEY", "OPENAI_API_KEY"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)
SECRET_IN_ENV = _rule(
    "CFG013", "secret-also-in-env", "error",
    summary="A name is both a required secret and set in [env].",
    why="A secret's value must never appear in a file; and the two sources would conflict at run time.",
    fix="Remove the variable from [env]; the platform provides the secret's value.",
    example='[env]\nOPENAI_API_KEY = "..."\n[secrets]\nrequired = ["OPENAI_API_KEY"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)
MISSING_SECRETS_TABLE = _rule(
    "CFG014", "missing-secrets-table", "error",
    summary="An eval config has no [secrets] table.",
    why="Eval runs must declare the secrets the rollout reads, even when there are none, so a missing key is caught at submission rather than mid-run.",
    fix="Add `[secrets]` with `required = [...]` (an empty list when the rollout needs no secrets).",
    example="[experiment]\n...\n# no [secrets] table",
    source="osmosis_ai/platform/cli/eval_config.py",
)
INVALID_ROLLOUT_NAME = _rule(
    "CFG015", "invalid-rollout-field", "error",
    summary="`rollout` is not one path segment (an error: osmosis-ai rejects it), or breaks the naming convention of `osmosis rollout init` (a warning).",
    why="The platform runs rollouts/<rollout>/; a path can never match a rollout folder. Names outside lowercase letters, digits and hyphens work, but `osmosis rollout init` would not create them.",
    fix="Use the folder name under rollouts/, e.g. rollout = \"multiply\" (not \"rollouts/multiply\").",
    example='[experiment]\nrollout = "rollouts/multiply"',
    source="osmosis_ai/platform/cli/shared_config.py; ours",
)
ROLLOUT_NOT_FOUND = _rule(
    "CFG016", "rollout-not-found", "error",
    summary="`rollout` names a folder that does not exist under rollouts/.",
    why="The platform runs rollouts/<rollout>/ from your default branch; a missing folder fails the run at start-up.",
    fix="Fix the name, or create the rollout (osmosis rollout new NAME).",
    example='[experiment]\nrollout = "mutliply"',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)
ENTRYPOINT_OUTSIDE = _rule(
    "CFG017", "entrypoint-outside-rollout", "error",
    summary="`entrypoint` is absolute or leaves rollouts/<rollout>/ (through `..` or a symlink).",
    why="The platform resolves the entrypoint inside the rollout's folder; a path outside it is not what runs (or not allowed).",
    fix="Give a path relative to rollouts/<rollout>/, e.g. entrypoint = \"main.py\".",
    example='[experiment]\nentrypoint = "../other/main.py"',
    source="osmosis_ai/platform/cli/shared_config.py",
)
ENTRYPOINT_NOT_FOUND = _rule(
    "CFG018", "entrypoint-not-found", "error",
    summary="`entrypoint` names a file that does not exist in rollouts/<rollout>/.",
    why="The platform imports the entrypoint to find the rollout's AgentWorkflow; a missing file fails every run.",
    fix="Fix the path (relative to rollouts/<rollout>/) or create the module.",
    example='[experiment]\nentrypoint = "mian.py"',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)
DATASET_NOT_FOUND = _rule(
    "CFG019", "dataset-not-found", "error",
    summary="`dataset` names a local file that is missing or not under data/.",
    why="A local dataset must be in the workspace's data/ folder (and committed); otherwise the run has no rows.",
    fix="Put the file under data/ and name it as data/<file>, or use a platform dataset name (osmosis dataset upload).",
    example='[experiment]\ndataset = "data/mulitply.jsonl"',
    source="ours",
)
ROLLOUT_WITHOUT_EVAL = _rule(
    "CFG020", "rollout-without-eval-config", "warning",
    summary="A rollout folder has no eval config naming it.",
    why="The loop is evaluate -> debug -> train; without an eval config there is no cheap way to check the rollout before paying for training.",
    fix="Add configs/eval/<rollout>.toml (copy another eval config and change `rollout`).",
    example="rollouts/search/ exists but no configs/eval/*.toml says rollout = \"search\"",
    source="ours",
)
CONFIG_NAME_MISMATCH = _rule(
    "CFG021", "config-name-mismatch", "warning",
    summary="A config's file name does not match its `rollout` (expected <rollout>.toml or <rollout>-<variant>.toml).",
    why="People and agents find a rollout's configs by name; a mismatched name usually means a copied config whose `rollout` was not updated.",
    fix="Rename the file to <rollout>.toml, or fix `rollout`.",
    example="configs/eval/search.toml with rollout = \"multiply\"",
    source="ours",
)
SCHEMA_DIRECTIVE = _rule(
    "CFG022", "schema-directive", "warning",
    summary="The config's first line is not the `#:schema` directive pointing at the workspace's schema file.",
    why="Editors (Taplo / Even Better TOML) validate configs as you type only through that first line.",
    fix="Make the first line `#:schema ../../.osmosis/schemas/<kind>.schema.json` (`osmosis doctor --fix` does it).",
    example='# my config   (first line, no #:schema)',
    fixable=True,
    source="ours",
)
NON_FINITE = _rule(
    "CFG023", "config-non-finite-number", "error",
    summary="A number is nan or inf.",
    why="The platform sends settings as JSON, which has no nan/inf, and no setting means anything with them.",
    fix="Use a finite number.",
    example='[training]\nlr = nan',
    source="osmosis_ai/platform/cli/eval_run.py",
)
CONFIG_OUTSIDE = _rule(
    "CFG024", "config-outside-workspace", "error",
    summary="A config file under configs/ is a symlink to a file outside the workspace.",
    why="The platform reads configs from the repository, where the linked file is not; doctor does not read outside the workspace either.",
    fix="Copy the config into configs/eval/ or configs/training/ and commit it, instead of linking to it.",
    example="configs/eval/multiply.toml -> ~/shared/multiply.toml",
    source="ours",
)

HARNESS_SECRET = _rule(
    "CFG025", "benchmark-harness-secret", "error",
    summary="A benchmark agent's `harness_api_key_secret` does not fit its harness (cursor-cli needs CURSOR_API_KEY; other harnesses take none).",
    why="`osmosis benchmark submit` rejects the config: the harness reads its credential under one fixed name, and other harnesses have no such credential.",
    fix='For harness = "cursor-cli" set harness_api_key_secret = "CURSOR_API_KEY" (a secret record of that name); for any other harness remove the key.',
    example='[[agents]]\nharness = "cursor-cli"\n# harness_api_key_secret missing',
    source="osmosis_ai/platform/cli/benchmark_config.py",
)

_ENV_RESERVED_HINT = RESERVED_ENV_NAME.fix
_KIND_TABLES = {
    "eval": {"evaluation"},
    "training": {"training", "sampling", "checkpoints"},
    "benchmark": {"agents", "tasks", "execution", "verifier"},
}
# osmosis-ai benchmark_config.py: the harnesses with a credential of their own, and the variable it is read from.
HARNESS_KEYS = {"cursor-cli": "CURSOR_API_KEY"}
# mini-swe-agent gets a provider/endpoint model's key under this name from the platform.
MINI_SWE_AGENT_KEY = "MSWEA_API_KEY"


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
    text = ws.read_text(path) if ws is not None else _read(path)
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
    try:
        return path.read_bytes().decode("utf-8").replace("\r\n", "\n")  # a lone CR kept, as Workspace.read_text
    except (OSError, UnicodeDecodeError):
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
        guess = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        parent = v.path[:-1]
        if not parent:
            message = f"unknown table [{name}]" if isinstance(doc.data.get(name), dict) else f"unknown top-level key `{name}`"
            other = [k for k, tables in _KIND_TABLES.items() if k != kind and name in tables]
            if other:
                hint = f"[{name}] belongs in a {other[0]} config (configs/{other[0]}/); {kind} configs have: {', '.join(known)}"
        else:
            message = f"unknown key `{name}` in [{dotted(parent)}]"
        if guess:
            message += f"; did you mean `{guess[0]}`?"
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
        if kind == "eval" and v.path == ("evaluation", "n"):  # `osmosis eval run` rejects it
            return OUT_OF_RANGE.at(display, f"`{where}` is {shown}; it must be {_range(v.schema)}", line=line, column=column,
                                   hint=v.schema.get("description") or None, severity=Severity.ERROR)
        return OUT_OF_RANGE.at(display, f"`{where}` is {shown}; we advise {_range(v.schema)} (the platform checks it only when the run starts)",
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
    from generator.core.names import name_problem

    experiment = data.get("experiment")
    value = experiment.get("rollout") if isinstance(experiment, dict) else None
    if not isinstance(value, str) or ("experiment", "rollout") in bad_paths or _PLACEHOLDER.match(value):
        return  # a placeholder is no name at all: the missing folder (CFG016) says so
    problem = "the name 'default' is reserved by `osmosis rollout init`" if value == "default" else name_problem(value, kind="rollout")
    if problem:
        line, column = doc.locator.value(("experiment", "rollout")) or (1, 1)
        yield INVALID_ROLLOUT_NAME.at(display, f"{problem} (a convention: osmosis-ai runs it all the same)", line=line, column=column,
                                      hint="Prefer lowercase letters, digits and hyphens (my-rollout), as `osmosis rollout init` makes them.",
                                      severity=Severity.WARNING)


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


def _show(value: Any, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if isinstance(value, str) else _plain(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
                    yield SECRET_IN_ENV.at(display, f"`{name}` is a required secret and also set in [env]; the run would get one of the two values",
                                           line=line, column=column, severity=Severity.WARNING)
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
            yield HARNESS_SECRET.at(display, f"agent {index + 1}'s {harness} harness reads {wanted}, not {given!r}",
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


# -- cross-file rules (need the workspace) ------------------------------------------------------


def _cross_file(data: dict, kind: str, ws: Workspace, path: Path, doc: TomlDoc, display: str,
                bad_paths: set[tuple]) -> Iterator[Diagnostic]:  # fmt: skip
    loc = doc.locator
    if ws.opted_in:  # the `#:schema` line is our convention, not the platform's
        yield from _directive(doc, kind, ws, path, display)
    experiment = data.get("experiment")
    if not isinstance(experiment, dict):
        return
    rollout = experiment.get("rollout")
    rollout_ok = isinstance(rollout, str) and ("experiment", "rollout") not in bad_paths
    if rollout_ok:
        folder = ws.root / "rollouts" / rollout
        # a rollout that does not exist is CFG016's finding; renaming the file to it would be wrong
        if folder.is_dir() and _in_config_folder(ws, path, kind) and not _name_matches(path.stem, rollout):
            line, column = loc.value(("experiment", "rollout")) or (1, 1)
            yield CONFIG_NAME_MISMATCH.at(
                display, f"{path.name} is for rollout {rollout!r}; expected {rollout}.toml or {rollout}-<variant>.toml",
                line=line, column=column,
            )
        if not folder.is_dir():
            line, column = loc.value(("experiment", "rollout")) or (1, 1)
            existing = [p.name for p in ws.rollout_dirs]
            guess = difflib.get_close_matches(rollout, existing, n=1)
            message = f"rollout {rollout!r}: rollouts/{rollout}/ does not exist"
            if guess:
                message += f"; did you mean {guess[0]!r}?"
            yield ROLLOUT_NOT_FOUND.at(display, message, line=line, column=column,
                                       hint=f"Existing rollouts: {', '.join(existing)}." if existing else None)
            folder = None
    else:
        folder = None
    entry = experiment.get("entrypoint")
    if isinstance(entry, str) and ("experiment", "entrypoint") not in bad_paths:
        yield from _entrypoint(entry, folder, rollout if rollout_ok else None, loc, display)
    dataset = experiment.get("dataset")
    if isinstance(dataset, str) and ("experiment", "dataset") not in bad_paths:
        yield from _dataset(dataset, ws, loc, display)


def _in_config_folder(ws: Workspace, path: Path, kind: str) -> bool:
    try:
        return path.resolve().parent == (ws.root / "configs" / kind).resolve()
    except (OSError, RuntimeError):
        return False


def _name_matches(stem: str, rollout: str) -> bool:
    return stem == "default" or stem == rollout or stem.startswith(rollout + "-") or stem.startswith(rollout + "_")


def entrypoint_escapes(entry: str) -> bool:
    """Whether ``entry`` is absolute or climbs out of its folder, judged on the text alone."""
    text = entry.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return True
    normal = posixpath.normpath(text)
    return normal == ".." or normal.startswith("../")


def _entrypoint(entry: str, folder: Path | None, rollout: str | None, loc, display: str) -> Iterator[Diagnostic]:
    line, column = loc.value(("experiment", "entrypoint")) or (1, 1)
    if problem := unusable_path(entry):
        yield ENTRYPOINT_NOT_FOUND.at(display, f"entrypoint {_show(entry)} {problem}; no such file can exist",
                                      line=line, column=column)
        return
    if entrypoint_escapes(entry):
        yield ENTRYPOINT_OUTSIDE.at(display, f"entrypoint {_show(entry)} must be a path inside rollouts/{rollout or '<rollout>'}/",
                                    line=line, column=column)
        return
    if folder is None:
        return  # the rollout is missing or invalid: that finding already says what to fix
    target = folder / entry
    try:
        inside = target.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        inside = False
    if not inside:
        yield ENTRYPOINT_OUTSIDE.at(display, f"entrypoint {_show(entry)} resolves outside rollouts/{rollout}/ (through a symlink)",
                                    line=line, column=column)
    elif not target.is_file():
        # by stem: every module shares ".py", which made "main.py" look close to "grading.py"
        stems = {p.stem: p.name for p in folder.glob("*.py")}
        guess = [stems[g] for g in difflib.get_close_matches(posixpath.splitext(entry)[0], sorted(stems), n=1)]
        message = f"entrypoint rollouts/{rollout}/{entry} does not exist"
        if guess:
            message += f"; did you mean {guess[0]!r}?"
        yield ENTRYPOINT_NOT_FOUND.at(display, message, line=line, column=column)


def local_dataset(value: str) -> bool:
    """Whether ``dataset`` names a local file rather than a platform dataset."""
    text = value.replace("\\", "/")
    return (
        text.lower().endswith(DATASET_SUFFIXES)
        or text.startswith(("data/", "./", "../", "/"))
        or re.match(r"^[A-Za-z]:", text) is not None
    )


def _dataset(value: str, ws: Workspace, loc, display: str) -> Iterator[Diagnostic]:
    if not local_dataset(value):
        return
    line, column = loc.value(("experiment", "dataset")) or (1, 1)
    if problem := unusable_path(value):
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} {problem}; no such file can exist", line=line, column=column)
        return
    text = value.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} is an absolute path; local datasets live under data/",
                                   line=line, column=column, hint="Copy the file into data/ and write dataset = \"data/<file>\".")
        return
    normal = posixpath.normpath(text)
    relative = normal if normal.startswith("data/") else ("data/" + normal if "/" not in normal else normal)
    target = ws.root / relative
    try:
        inside = target.resolve().is_relative_to((ws.root / "data").resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        inside = False
    if not inside:
        # data/x.jsonl that is a symlink out of the workspace *is* under data/ as written: say so.
        where = "links outside the workspace" if posixpath.normpath(relative).startswith("data/") else "is not under data/"
        yield DATASET_NOT_FOUND.at(display, f"dataset {_show(value)} {where}", line=line, column=column,
                                   hint="Move the file into data/ and write dataset = \"data/<file>\".")
        return
    if not target.is_file():
        existing = [ws.rel(p) for p in ws.data_files]
        guess = difflib.get_close_matches(relative, existing, n=1)
        message = f"dataset file {relative} does not exist"
        if guess:
            message += f"; did you mean {guess[0]!r}?"
        yield DATASET_NOT_FOUND.at(display, message, line=line, column=column)
        return
    if target.resolve() not in ws.resolved_data_files:
        # doctor checks data/'s dataset files itself; only a file it does not list is checked here.
        from generator.check.families.datasets import check_dataset_file

        yield from check_dataset_file(target, ws.rel(target))


def _directive(doc: TomlDoc, kind: str, ws: Workspace, path: Path, display: str) -> Iterator[Diagnostic]:
    expected = schema_directive(kind)
    schema_file = _real(ws.root / ".osmosis" / "schemas" / schema_filename(kind))
    first = doc.first_line().strip()
    match = re.match(r"^#:schema\s+(\S+)\s*$", first)
    if match is None:
        # The directive must be the first line for editors to see it.
        message = f"first line is not `{expected}`"
    else:
        target = match.group(1)
        if "://" not in target and _real(path.parent / target) == schema_file:
            return
        message = f"`#:schema {target}` does not point at the workspace's {schema_filename(kind)}"
    hint = f"Make the first line `{_relative_directive(path, schema_file)}` (`osmosis doctor --fix` does it)."
    yield SCHEMA_DIRECTIVE.at(display, message, line=1, column=1, hint=hint)


def _real(path: Path) -> Path:
    # os.path.realpath, unlike Path.resolve() before Python 3.13, does not raise on a symlink loop
    return Path(os.path.realpath(path))


def _relative_directive(config: Path, schema_file: Path) -> str:
    rel = os.path.relpath(schema_file, _real(config).parent)
    return "#:schema " + Path(rel).as_posix()


def fix_schema_directives(root: Path) -> list[str]:
    """`doctor --fix`: put the right `#:schema` line first in every config that lacks it.

    A wrong `#:schema` first line is replaced; any other first line is kept below the new one.
    Files that do not parse are left alone (the directive is the least of their problems).
    Returns one line per file changed.
    """
    ws = Workspace(root)
    if not ws.opted_in:
        return []
    changed = []
    for kind in CONFIG_KINDS:
        for path in ws.config_files(kind):
            if ws.outside(path) or not path.is_file():  # never write through a link out (CFG024), nor read a FIFO
                continue
            try:
                # exact bytes, not Workspace.read_text: universal newlines would turn CRLF files into LF
                text = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            doc = TomlDoc.parse(text)
            if doc.error is not None or path.is_symlink() or not list(_directive(doc, kind, ws, path, "")):
                continue
            schema_file = _real(ws.root / ".osmosis" / "schemas" / schema_filename(kind))
            line = _relative_directive(path, schema_file)
            first, sep, rest = text.partition("\n")
            newline = "\r\n" if first.endswith("\r") else "\n"
            if first.strip().startswith("#:schema"):
                new = line + (newline if sep else "") + rest
            else:
                new = line + newline + text
            from generator.core import safe_write

            safe_write.write_text(ws.root, path, new)
            changed.append(f"{ws.rel(path)}: first line set to `{line}`")
    return changed


# -- workspace (osmosis doctor) -----------------------------------------------------------------


@workspace_check(FAMILY)
def check_configs(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    eval_rollouts: set[str] = set()
    for kind in CONFIG_KINDS:
        for path in ws.config_files(kind):
            display = ws.rel(path)
            found += check_config_file(path, kind, ws, display)
            if kind == "eval":
                eval_rollouts.add(path.stem)
                text = ws.read_text(path)
                data = TomlDoc.parse(text).data if text is not None else None
                experiment = (data or {}).get("experiment")
                if isinstance(experiment, dict) and isinstance(experiment.get("rollout"), str):
                    eval_rollouts.add(experiment["rollout"])
    for folder in ws.rollout_dirs:
        if folder.name not in eval_rollouts:
            found.append(ROLLOUT_WITHOUT_EVAL.at(
                ws.rel(folder), f"rollout {folder.name!r} has no eval config",
                hint=f"Add configs/eval/{folder.name}.toml with rollout = \"{folder.name}\".",
            ))
    return found
