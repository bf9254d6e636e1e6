"""The children's environment: no key, endpoint or telemetry sink of the user's survives."""

from __future__ import annotations

from osmosis_workspace.rehearse.child_env import DUMMY_KEY, child_env, dropped

USER = {
    "PATH": "/usr/bin", "HOME": "/home/u", "LANG": "C.UTF-8", "UV_INDEX_URL": "https://index.example/simple",
    "PIP_CERT": "/etc/ca.pem", "OPENAI_API_KEY": "sk-proj-REALLOOKINGKEY1234567890", "OPENAI_BASE_URL": "https://api.openai.com/v1",
    "ANTHROPIC_API_KEY": "sk-ant-x", "AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com", "AWS_SECRET_ACCESS_KEY": "a",
    "AWS_REGION": "us-east-1", "GOOGLE_APPLICATION_CREDENTIALS": "/k.json", "HF_TOKEN": "hf_x", "OSMOSIS_TOKEN": "o",
    "MY_COMPANY_LLM_API_BASE": "https://llm.corp", "SOME_SERVICE_PASSWORD": "p", "GITHUB_TOKEN": "g",
    "OTEL_EXPORTER_OTLP_ENDPOINT": "https://otel", "LANGFUSE_HOST": "https://lf", "VIRTUAL_ENV": "/venv",
    "UV_INDEX_PASSWORD": "secret",
}


def test_keys_endpoints_and_sinks_are_dropped_what_running_needs_stays():
    env = child_env(USER, "http://127.0.0.1:5555/v1", ["OPENAI_API_KEY", "JUDGE_KEY"])
    for name in ("ANTHROPIC_API_KEY", "AZURE_OPENAI_ENDPOINT", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "HF_TOKEN",
                 "GOOGLE_APPLICATION_CREDENTIALS", "OSMOSIS_TOKEN", "MY_COMPANY_LLM_API_BASE", "SOME_SERVICE_PASSWORD",
                 "GITHUB_TOKEN", "OTEL_EXPORTER_OTLP_ENDPOINT", "LANGFUSE_HOST", "VIRTUAL_ENV", "UV_INDEX_PASSWORD"):
        assert name not in env, name
    for name in ("PATH", "HOME", "LANG", "UV_INDEX_URL", "PIP_CERT"):
        assert env[name] == USER[name]
    assert env["OPENAI_BASE_URL"] == env["OPENAI_API_BASE"] == "http://127.0.0.1:5555/v1"
    assert env["OPENAI_API_KEY"] == DUMMY_KEY and env["JUDGE_KEY"].startswith(DUMMY_KEY)
    assert "sk-proj-REALLOOKINGKEY1234567890" not in env.values()
    assert "127.0.0.1" in env["NO_PROXY"] and env["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"


def test_dropped_names():
    assert dropped("DEEPSEEK_API_KEY") and dropped("FOO_BASE_URL") and dropped("CLOUDFLARE_ACCOUNT")
    assert not dropped("PYENV_VERSION") and not dropped("TMPDIR") and not dropped("UV_CACHE_DIR")


# Issue 28 point 10: names no denylist word matched, and reached the rollout.
LEAKED = {"CI_JOB_JWT_V2": "eyJhbGciOi.jwt", "CI_JOB_JWT": "eyJ.jwt", "GITLAB_PAT": "glpat-x", "MY_PAT": "pat",
          "DEPLOY_PAT": "pat", "AUTHORIZATION": "Bearer abc", "SENTRY_DSN": "https://k@sentry.io/1",
          "DATABASE_URL": "postgres://u:p@db/x", "NPM_AUTH": "n", "SSH_AUTH_SOCK": "/tmp/agent.sock",
          "KUBECONFIG": "/k", "DOCKER_AUTH_CONFIG": "{}", "ACTIONS_ID_TOKEN_REQUEST_URL": "https://x",
          "VAULT_ADDR": "https://vault", "PGPASSWORD": "p", "UV_PUBLISH_TOKEN": "t", "UV_INDEX_CORP_PASSWORD": "p",
          "PIP_INDEX_SECRET": "s", "PYTHONPATH": "/evil", "PYTHONHOME": "/evil", "PYTHONSTARTUP": "/evil.py",
          "LD_PRELOAD": "/evil.so"}
NEEDED = {"PATH": "/usr/bin", "HOME": "/home/u", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LC_CTYPE": "C.UTF-8",
          "TMPDIR": "/tmp/u", "PYENV_VERSION": "3.12.1", "PYENV_ROOT": "/home/u/.pyenv", "UV_CACHE_DIR": "/c",
          "UV_PYTHON": "3.12", "UV_OFFLINE": "1", "UV_INDEX_URL": "https://idx", "PIP_INDEX_URL": "https://idx",
          "HTTPS_PROXY": "http://proxy:3128", "https_proxy": "http://proxy:3128", "NO_PROXY": "corp",
          "SSL_CERT_FILE": "/ca.pem", "REQUESTS_CA_BUNDLE": "/ca.pem", "XDG_CACHE_HOME": "/home/u/.cache"}


def test_an_allowlist_credentials_under_any_name_stay_behind():
    env = child_env({**LEAKED, **NEEDED}, "http://127.0.0.1:5555/v1", ["OPENAI_API_KEY", "SEARCH_API_KEY"])
    assert not set(LEAKED) & set(env), set(LEAKED) & set(env)
    for name, value in NEEDED.items():
        if name not in ("NO_PROXY",):
            assert env[name] == value, name
    assert env["NO_PROXY"].startswith("corp,127.0.0.1") and env["no_proxy"] == "127.0.0.1,localhost,::1"
    assert env["SEARCH_API_KEY"].startswith(DUMMY_KEY) and env["HOSTED_VLLM_API_BASE"] == "http://127.0.0.1:5555/v1"
    assert not any(v in env.values() for v in LEAKED.values())


def test_an_unknown_name_is_dropped():
    assert dropped("SOMETHING_NEW_NOBODY_LISTED") and dropped("AUTHORIZATION") and dropped("SENTRY_DSN")
