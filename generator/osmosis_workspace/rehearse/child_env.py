"""The environment `eval run` and the rollout get: no real key, no real endpoint, only the scripted model.

Safe by construction: an allowlist. Of what the user's shell holds, only what running needs passes
(PATH, HOME, locale, temp dirs, pyenv, uv's and pip's own settings, proxies and CA bundles, so the
environment sync reaches the package index the user's setup names); everything else, whatever its name
(`CI_JOB_JWT_V2`, `GITLAB_PAT`, `AUTHORIZATION`, `SENTRY_DSN`, a provider's key), stays behind. Then
the OpenAI-compatible base URLs point at the scripted model on 127.0.0.1 and the keys a config
requires get dummy values. docs/rehearse.md ("Money and secrets") lists what passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

DUMMY_KEY = "sk-osmosis-rehearse-not-a-real-key"

# Passed by exact name (Python's os.environ on Windows holds them in upper case).
_PASS_NAMES = frozenset({
    # the process: where programs are, who and where the user is, the terminal, the time zone
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LANG", "LANGUAGE", "LD_LIBRARY_PATH",
    "TMPDIR", "TEMP", "TMP",
    # Windows: without these a Python there cannot open a socket or find its profile
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
    "PROGRAMDATA", "PROGRAMFILES", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE",
    # Python's own output settings (never PYTHONPATH/PYTHONHOME: they would change what the rollout imports)
    "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE",
    # how uv and pip reach the index: proxies and CA bundles
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NIX_SSL_CERT_FILE",
})
# Passed by prefix: locale categories, pyenv (which Python `python3.12` is), XDG folders (uv's cache),
# uv's and pip's settings (index URLs, cache, offline, the Python to use).
_PASS_PREFIX = re.compile(r"^(LC_|PYENV|XDG_|UV_|PIP_)")
# ...but not a credential under those prefixes (`UV_INDEX_<NAME>_PASSWORD`, `UV_PUBLISH_TOKEN`).
_SECRET_WORDS = re.compile(r"(PASSWORD|PASSWD|TOKEN|SECRET|CREDENTIAL)", re.IGNORECASE)

# Where the scripted model is reached, for every OpenAI-compatible client the SDK or a rollout uses.
_BASE_URL_NAMES = ("OPENAI_BASE_URL", "OPENAI_API_BASE", "HOSTED_VLLM_API_BASE", "JUDGE_BASE_URL")
_QUIET = {
    # LiteLLM would fetch its model price list from the internet first; its bundled copy is enough.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_TELEMETRY": "False",
    "OTEL_SDK_DISABLED": "true",
    "HF_HUB_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
    "NO_COLOR": "1",
    "PYTHONUNBUFFERED": "1",
}
_LOCAL = "127.0.0.1,localhost,::1"


def passed(name: str) -> bool:
    """True for a variable of the user's the children may inherit (the allowlist)."""
    if name in _PASS_NAMES:
        return True
    return bool(_PASS_PREFIX.match(name)) and not _SECRET_WORDS.search(name)


def dropped(name: str) -> bool:
    """True for a variable the children must not inherit."""
    return not passed(name)


def child_env(user_env: Mapping[str, str], base_url: str, required_secrets: Iterable[str] = (),
              extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for `eval run` (and so for the rollout server it starts)."""
    env = {k: v for k, v in user_env.items() if passed(k)}
    env.update(_QUIET)
    for name in _BASE_URL_NAMES:
        env[name] = base_url
    env["OPENAI_API_KEY"] = DUMMY_KEY
    for name in required_secrets:
        env.setdefault(name, f"{DUMMY_KEY}-{name.lower()}")
    # Calls to the scripted model and the rollout server never go through a proxy.
    for name in ("NO_PROXY", "no_proxy"):
        present = env.get(name, "")
        env[name] = f"{present},{_LOCAL}" if present else _LOCAL
    if extra:
        env.update(extra)
    return env
