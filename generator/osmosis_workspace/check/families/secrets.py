"""Checks: secrets. A secret's value never appears in a committed file (contract section 3).

Configs name the secrets a rollout needs under `[secrets] required`; the values live on the
platform (and locally in an untracked `.env`). These checks look for values that slipped into
configs anyway (known credential formats, secret-named keys with literal values, long random-looking
tokens), a `.env` tracked by git, and `.env.example` drifting from the configs' secret names.
Messages never repeat a whole secret: :func:`mask` shows a few leading characters and the length.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from pathlib import Path

from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.families.configs import dotted, walk
from osmosis_workspace.check.config_refs import workspace_configs
from osmosis_workspace.check.families.secret_formats import KNOWN_FORMATS
from osmosis_workspace.check.units import remember_each, view
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.check.registry import Rule, family_rules
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.workspace import CONFIG_KINDS, Workspace

FAMILY = "secrets"
ENV_EXAMPLE = ".env.example"


_rule = family_rules(FAMILY)


_MOVE = "Delete the value, rotate the credential (it is in your git history once committed), and list its NAME in `[secrets] required`; set the value on the platform and in your untracked .env."

KNOWN_CREDENTIAL = _rule(
    "SEC001", "credential-in-config", "error",
    summary="A config holds a value in a known credential format (sk-..., ghp_..., AKIA..., hf_..., a private key, a password in a URL, ...).",
    why="Configs are committed and synced to the platform; a credential in one is leaked to everyone who can read the repository.",
    fix=_MOVE,
    example='[env]\nOPENAI_API_KEY = "sk-proj-..."',
    source="ours",
)
SECRET_NAMED_VALUE = _rule(
    "SEC002", "secret-named-value", "error",
    summary="A key named like a secret (*_KEY, *_TOKEN, *_SECRET, *_PASSWORD, ...) has a literal value.",
    why="Whatever the value looks like, a key with that name holds a credential, and configs are committed.",
    fix=_MOVE,
    example='[env]\nWANDB_API_KEY = "0123abcd..."',
    source="ours",
)
HIGH_ENTROPY_VALUE = _rule(
    "SEC003", "high-entropy-value", "error",
    summary="A config value contains a long random-looking token (high Shannon entropy), as API keys do.",
    why="Most credentials have no fixed prefix; a long random token in a committed file is most likely one.",
    fix=_MOVE + " If it is not a secret, suppress this finding with `# osmosis: ignore[SEC003]` on that line.",
    example='[advanced]\nendpoint_auth = "q8Xz3LmP0vR7tY2wK9sB4nD6fH1jG5cA"',
    source="ours",
)
ENV_FILE_TRACKED = _rule(
    "SEC004", "env-file-tracked", "error",
    summary="A .env file (real secret values) is tracked by git.",
    why="Everything tracked is pushed, and the platform syncs the repository: the secrets are exposed and stay in history.",
    fix="Run `git rm --cached <file>`, make sure .gitignore lists `.env` and `.env.*` (with `!.env.example`), and rotate the secrets it held.",
    example="git ls-files shows .env",
    source="contract §1; ours",
)
MISSING_FROM_ENV_EXAMPLE = _rule(
    "SEC005", "secret-not-in-env-example", "warning",
    summary="A secret a config requires is not listed in .env.example.",
    why=".env.example is how people (and agents) learn which secrets to put in their local .env; a missing name makes local runs fail with a confusing error.",
    fix="Add `NAME=` (no value) to .env.example. `osmosis doctor --fix` appends the missing names; it never writes values.",
    example='[secrets]\nrequired = ["DAYTONA_API_KEY"]   # .env.example lists only OPENAI_API_KEY',
    fixable=True,
    source="ours",
)
ENV_EXAMPLE_VALUE = _rule(
    "SEC006", "env-example-has-value", "error",
    summary=".env.example gives a secret-looking variable a real-looking value.",
    why=".env.example is committed; it must list names only (or obvious placeholders), never a real credential.",
    fix="Leave the value empty (`NAME=`) and rotate the credential if it was real.",
    example="OPENAI_API_KEY=sk-proj-...",
    source="ours",
)

# Names that hold secrets. Bare "key" is too common (sort keys, cache keys) to count without a prefix.
_SECRET_NAME = re.compile(
    r"(?i)(?:(?:^|[_.-])(?:api[_-]?key|token|secret|password|passwd|credentials?|private[_-]?key)|[_.-]key)$"
)
# Tokenizer special tokens and the like are named *_token but are not secrets.
_NOT_SECRET_NAME = re.compile(r"(?i)^(?:eos|bos|pad|unk|sep|cls|mask|start|end|stop|special|chat)_token$")
# Placeholders and references to another variable are not literal secrets.
_PLACEHOLDER = re.compile(
    r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^<>]*>|\{\{[^{}]*\}\}|[xX*.]+|[A-Z][A-Z0-9_]*|"
    r"(?i:changeme|change-me|todo|your[-_ ].*|replace[-_ ]?me|placeholder|none|null|dummy|example))$"
)
# Keys whose values are identifiers by definition (names, paths, hashes), never credentials.
_IDENTIFIER_KEYS = re.compile(r"(?i)(?:^|_)(?:sha|hash|digest|checksum|revision|rev|commit|uuid|id)$")
_EXPERIMENT_IDENTIFIERS = frozenset({"rollout", "entrypoint", "model_path", "dataset", "branch", "commit_sha"})
_RUN = re.compile(r"[A-Za-z0-9]+")
_HEX = lazy_compile(r"[0-9a-fA-F]+")


@dataclass(frozen=True)
class Hit:
    rule: Rule
    what: str  # e.g. "an OpenAI API key", already masked where it shows text
    token: str  # the matched text (never printed whole)


def mask(token: str) -> str:
    """A few leading characters and the length: enough to recognise a key, useless to abuse it."""
    if len(token) < 20:
        return f"{len(token)} characters"  # a short secret loses too much to even a 4-character preview
    return f"{token[:4]}... ({len(token)} characters)"


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text``'s own character distribution."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def known_credential(value: str) -> tuple[str, str] | None:
    """(what it is, the matching text) when ``value`` contains a known credential format."""
    for label, pattern in KNOWN_FORMATS:
        match = pattern.search(value)
        if match:
            return label, match.group(0)
    return None


def random_token(value: str) -> str | None:
    """The first long random-looking run of letters and digits in ``value``, if any.

    Paths, URLs and model names are skipped (they hold '/'), as is text with spaces. A run counts
    when it is hex of 32+ characters with entropy >= 3.0, or 24+ characters mixing upper case,
    lower case and digits with entropy >= 4.0, or 32+ characters of one case and digits with
    entropy >= 4.0: the 1st-percentile entropy of random tokens of those lengths is above these
    thresholds, while identifiers made of words stay below or lack the character mix.
    """
    if "/" in value or "\\" in value or any(c.isspace() for c in value):
        return None
    for run in _RUN.findall(value):
        if len(run) < 24:
            continue
        entropy = shannon_entropy(run)
        if _HEX.fullmatch(run):
            if len(run) >= 32 and entropy >= 3.0 and re.search(r"\d", run) and re.search(r"[a-fA-F]", run):
                return run
            continue
        classes = sum(bool(re.search(p, run)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
        if entropy >= 4.0 and (classes == 3 or (len(run) >= 32 and classes == 2 and re.search(r"\d", run))):
            return run
    return None


def looks_secret(path: tuple, value: str) -> Hit | None:
    """Why the string ``value`` at config ``path`` looks like a secret, or None."""
    found = known_credential(value)
    if found:
        label, token = found
        return Hit(KNOWN_CREDENTIAL, label, token)
    keys = [p for p in path if isinstance(p, str)]
    key = keys[-1] if keys else ""
    if path[:1] == ("secrets",):
        return None  # names of secrets, checked by the config rules
    if _SECRET_NAME.search(key) and not _NOT_SECRET_NAME.match(key) and value.strip() and not _PLACEHOLDER.match(value.strip()):
        return Hit(SECRET_NAMED_VALUE, "a literal value", value)
    if (len(path) == 2 and path[0] == "experiment" and key in _EXPERIMENT_IDENTIFIERS) or _IDENTIFIER_KEYS.search(key):
        return None
    token = random_token(value)
    if token:
        return Hit(HIGH_ENTROPY_VALUE, "a long random-looking token", token)
    return None


# -- configs ------------------------------------------------------------------------------------


def check_config_secrets(doc: TomlDoc, display: str) -> list[Diagnostic]:
    """Secret values in one parsed config (nothing when it does not parse: CFG001 says why)."""
    if doc.data is None:
        return []
    found: list[Diagnostic] = []
    reported: set[str] = set()
    for path, value in walk(doc.data):
        if not isinstance(value, str):
            continue
        hit = looks_secret(path, value)
        if hit is None:
            continue
        reported.add(hit.token)
        line, column = doc.locator.value(path) or (None, None)
        where = dotted(path)
        if hit.rule is SECRET_NAMED_VALUE:
            message = f"`{where}` is named like a secret and has a literal value ({_masked(hit, value)})"
        else:
            message = f"`{where}` holds {hit.what} ({_masked(hit, value)})"
        found.append(hit.rule.at(display, message + "; list the name in [secrets] required instead",
                                 line=line, column=column))
    # Credentials in comments are committed too.
    starts = _line_starts(doc.text)
    for label, pattern in KNOWN_FORMATS:
        for match in pattern.finditer(doc.text):
            if match.group(0) in reported:
                continue
            reported.add(match.group(0))
            line, column = _position(starts, match.start())
            found.append(KNOWN_CREDENTIAL.at(display, f"{label} in the file text ({mask(match.group(0))}); remove it",
                                             line=line, column=column))
    return found


def _masked(hit: Hit, value: str) -> str:
    if hit.what == "a password in a URL":
        return re.sub(r"(://[^/\s:@]+:)[^/\s@]+@", r"\1****@", hit.token)
    return mask(hit.token)


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _position(starts: list[int], index: int) -> tuple[int, int]:
    """1-based line and column of ``index`` (a bisection: many matches in a big file stay linear)."""
    line = bisect.bisect_right(starts, index)
    return line, index - starts[line - 1] + 1


# -- .env.example -------------------------------------------------------------------------------

# The value is stripped in code: a lazy `(.*?)\s*$` is quadratic on a line of spaces.
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


def env_example_entries(text: str) -> list[tuple[str, str, int, int]]:
    """(name, value, line, value column) for each assignment in a .env-style text."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        match = _ENV_LINE.match(line)
        if match:
            value = match.group(2).rstrip()
            if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) >= 2:
                value = value[1:-1]
            elif " #" in value:
                value = value.split(" #", 1)[0].rstrip()
            entries.append((match.group(1), value, number, match.start(2) + 1))
    return entries


def check_env_example(text: str, display: str) -> list[Diagnostic]:
    found = []
    for name, value, line, column in env_example_entries(text):
        if not value.strip() or _PLACEHOLDER.match(value.strip()):
            continue
        hit = looks_secret(("env", name), value)
        if hit is not None:
            found.append(ENV_EXAMPLE_VALUE.at(display, f"{name} has a real-looking value ({_masked(hit, value)}); list the name only",
                                              line=line, column=column))
    return found


def read_env_example(ws: Workspace) -> str | None:
    """.env.example's text, or None when there is none (or it links outside the workspace).

    Names are ASCII, so a stray Latin-1 byte in a comment must not hide the whole file: bytes that
    are not UTF-8 are replaced rather than making the file look absent."""
    path = ws.root / ENV_EXAMPLE
    text = ws.read_text(path)
    if text is not None or ws.outside(path) or not path.is_file():
        return text
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None


def missing_env_example_names(ws: Workspace) -> list[tuple[str, Path, tuple[int, int] | None]]:
    """Each (secret name, config, position) required by a config but absent from .env.example."""
    text = read_env_example(ws)
    listed = {name for name, *_ in env_example_entries(text or "")}
    missing = []
    seen: set[tuple[str, Path]] = set()
    for config in workspace_configs(ws):
        for name, position in config.required or []:
            # a name listed twice (CFG012) is missing once
            if name is not None and re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and name not in listed \
                    and (name, config.path) not in seen:
                seen.add((name, config.path))
                missing.append((name, config.path, position))
    return missing


def plan_env_example(ws: Workspace) -> list[tuple[str, bytes, str]]:
    """`doctor --fix`: `NAME=` appended for each required secret missing from .env.example.

    Safe because it only ever adds names with empty values at the end; existing lines are kept as
    they are. Creates the file when there is none. Returns (path, new content, what changes) for
    the file, or nothing; writes nothing.
    """
    names = list(dict.fromkeys(name for name, _, _ in missing_env_example_names(ws)))
    target = ws.root / ENV_EXAMPLE
    if not names or target.is_symlink() or (target.exists() and not target.is_file()):
        return []
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.core.workspace import MAX_TEXT_BYTES

    try:
        # exact bytes (not Workspace.read_text's universal newlines) to keep the file's line endings;
        # no bigger than doctor reads
        data = read_capped(target, MAX_TEXT_BYTES) if target.exists() else b""
    except Unreadable:
        return []  # unreadable or too big: leave it to the person
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    addition = b"" if not data or data.endswith(b"\n") else nl
    addition += b"# Required by configs' [secrets] (values go in your untracked .env, never here)." + nl
    # ASCII only, appended as bytes: safe whatever encoding the existing lines are in.
    addition += b"".join(name.encode("ascii") + b"=" + nl for name in names)
    return [(ENV_EXAMPLE, data + addition, f"{ENV_EXAMPLE}: added {', '.join(n + '=' for n in names)}")]


# -- git ----------------------------------------------------------------------------------------

_ENV_FILE = re.compile(r"^\.env(?:\..+)?$")
_ENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults"})


_LS_ENV_FILES = ("ls-files", "-z", "--", ":(glob)**/.env", ":(glob)**/.env.*")


def _ls_seconds(default: float) -> float | None:
    """At most 30 s; None (the default timeout) when that is shorter, so the call takes a git started early."""
    return None if default <= 30.0 else 30.0


def start_tracked_env_files(ws: Workspace) -> None:
    """Start :func:`tracked_env_files`'s git now, beside Git Sync's (check/families/gitsync_early.py):
    the check takes it when it asks, the run stage ends it when the check never does."""
    from osmosis_workspace.core import safe_git

    if ws.git_root is not None and _ls_seconds(safe_git.timeout()) is None:
        safe_git.start_early(ws.root, *_LS_ENV_FILES, check=False)


def tracked_env_files(root: Path) -> list[str] | None:
    """Paths (relative to ``root``, POSIX) of tracked .env files under ``root``; None if git can't say.

    `git ls-files` reads the index, so this is exactly what the next commit would contain
    (staged-but-uncommitted files included), and it costs one small subprocess.
    """
    from osmosis_workspace.core import safe_git

    try:  # ls-files reads the index, which would start a workspace-named fsmonitor without safe_git
        result = safe_git.run(root, *_LS_ENV_FILES, check=False, seconds=_ls_seconds(safe_git.timeout()))
    except safe_git.GitError:
        return None
    if result.returncode != 0:
        return None
    paths = [p for p in result.stdout.decode("utf-8", "surrogateescape").split("\0") if p]
    return [p for p in paths if _ENV_FILE.match(p.rsplit("/", 1)[-1]) and p.rsplit("/", 1)[-1] not in _ENV_TEMPLATES]


# -- workspace (osmosis doctor) -----------------------------------------------------------------


def _config_secrets(ws: Workspace, path: Path) -> list[Diagnostic]:
    """One config's secret values: the file alone decides (a unit of doctor's cache)."""
    text = ws.read_text(path)
    return check_config_secrets(TomlDoc.parse(text), ws.rel(path)) if text is not None else []


@workspace_check(FAMILY)
def check_secrets(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for kind in CONFIG_KINDS:  # each config's secrets a unit of its own
        found += remember_each(ws, "secrets:", ws.config_files(kind), _config_secrets)
    example = read_env_example(ws)
    if example is not None:
        found += check_env_example(example, ENV_EXAMPLE)
    linked_out = ws.outside(ws.root / ENV_EXAMPLE)
    # a value an editor's edit run compares (check/units.view): most edits of a config leave it equal
    for name, path, position in view(ws, "env-example-missing", missing_env_example_names):
        line, column = position or (None, None)
        why = (f"{ENV_EXAMPLE} does not list it" if example is not None
               else f"{ENV_EXAMPLE} links outside the workspace" if linked_out else f"there is no {ENV_EXAMPLE}")
        found.append(MISSING_FROM_ENV_EXAMPLE.at(ws.rel(path), f"secret {name} is required but {why}", line=line, column=column,
                                                 hint=f"Add `{name}=` to {ENV_EXAMPLE} (`osmosis doctor --fix` appends it)."))
    if ws.git_root is not None:
        # what git's index holds, never a buffer: an editor's edit run keeps it (check/live.py DISK_VIEWS)
        for rel in ws.memo("tracked-env-files", lambda: tracked_env_files(ws.root)) or []:
            found.append(ENV_FILE_TRACKED.at(rel, f"{rel} is tracked by git and holds secret values"))
    return found
