"""The environment `eval run` and the rollout get: no real key, no real endpoint, only the scripted model.

Safe by construction: every variable that names a credential, a provider, a model endpoint or a
telemetry sink is dropped from what the user's shell holds, then the OpenAI-compatible base URLs
point at the scripted model on 127.0.0.1 and the keys a config requires get dummy values. What stays
is what running needs: PATH, HOME, locale, temp dirs, uv's and pip's own settings (the env sync
reaches the package index the user's setup names, nothing else).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

DUMMY_KEY = "sk-osmosis-rehearse-not-a-real-key"

# A name containing one of these words holds a credential, whoever reads it.
_SECRET_WORDS = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|_AUTH|COOKIE|SESSION)", re.IGNORECASE)
# Providers, model gateways, observability sinks and agent frameworks: any of their variables can
# point a client somewhere (a base URL, a region, a project) and is dropped, not just the keys.
_PROVIDER_PREFIXES = (
    "OPENAI", "AZURE", "ANTHROPIC", "CLAUDE", "GEMINI", "GOOGLE", "VERTEX", "GCLOUD", "AWS", "BEDROCK",
    "SAGEMAKER", "COHERE", "MISTRAL", "GROQ", "TOGETHER", "TOGETHERAI", "FIREWORKS", "DEEPSEEK", "XAI",
    "OPENROUTER", "CEREBRAS", "HF", "HUGGINGFACE", "HUGGING_FACE", "WANDB", "OSMOSIS", "DAYTONA",
    "LITELLM", "OLLAMA", "VLLM", "HOSTED_VLLM", "PERPLEXITY", "PERPLEXITYAI", "REPLICATE", "ANYSCALE",
    "DATABRICKS", "WATSONX", "NVIDIA", "NVIDIA_NIM", "SAMBANOVA", "LANGFUSE", "LANGSMITH", "LANGCHAIN",
    "HELICONE", "CURSOR", "MSWEA", "JUDGE", "OTEL", "OPIK", "BRAINTRUST", "ARIZE", "PHOENIX", "LOGFIRE",
    "STRANDS", "AGENTOPS", "MODAL", "E2B", "OPENSANDBOX", "DOCKER", "CLOUDFLARE", "CF", "TAVILY",
    "SERPER", "SERPAPI", "EXA", "FIRECRAWL", "GITHUB", "GH", "GITLAB", "SLACK", "DASHSCOPE", "MOONSHOT",
    "ZHIPU", "VOYAGE", "JINA", "AI21", "ALEPH_ALPHA", "NLP_CLOUD", "BASETEN", "PREDIBASE", "FRIENDLIAI",
    "LAMBDA", "NEBIUS", "NOVITA", "HYPERBOLIC", "FEATHERLESS", "GALADRIEL", "INFINITY", "LM_STUDIO",
    "LLAMA", "MODELSCOPE", "QWEN", "VOLCENGINE", "SNOWFLAKE", "TRITON", "XINFERENCE", "CLARIFAI",
)
_PROVIDER = re.compile(rf"^({'|'.join(_PROVIDER_PREFIXES)})(_|$)", re.IGNORECASE)
# Endpoints under any name: FOO_BASE_URL, FOO_API_BASE, FOO_ENDPOINT, FOO_HOST.
_ENDPOINT = re.compile(r"(BASE_URL|API_BASE|_ENDPOINT|_API_HOST|_API_URL)$", re.IGNORECASE)
# Kept although a word above matches: how uv and pip reach the package index the user set up.
_KEEP = re.compile(r"^(UV_|PIP_|SSL_CERT_|REQUESTS_CA_BUNDLE$|CURL_CA_BUNDLE$)", re.IGNORECASE)

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


def dropped(name: str) -> bool:
    """True for a variable the children must not inherit."""
    if _KEEP.match(name) and not re.search(r"(PASSWORD|TOKEN)", name, re.IGNORECASE):
        return False
    return bool(_SECRET_WORDS.search(name) or _PROVIDER.match(name) or _ENDPOINT.search(name))


def child_env(user_env: Mapping[str, str], base_url: str, required_secrets: Iterable[str] = (),
              extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for `eval run` (and so for the rollout server it starts)."""
    env = {k: v for k, v in user_env.items() if not dropped(k) and k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
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
