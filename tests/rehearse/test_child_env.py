"""The children's environment: no key, endpoint or telemetry sink of the user's survives."""

from __future__ import annotations

from generator.rehearse.child_env import DUMMY_KEY, child_env, dropped

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
