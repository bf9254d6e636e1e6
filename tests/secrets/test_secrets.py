"""Secret checks: credential detection (and what must NOT be flagged), masking, tracked .env files,
.env.example drift and its fix, and doctor end to end."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.check.families.secrets import (
    check_config_secrets,
    check_env_example,
    check_secrets,
    known_credential,
    looks_secret,
    mask,
    random_token,
    shannon_entropy,
    tracked_env_files,
)
from osmosis_workspace.cli import app
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.workspace import Workspace

# Fake credentials in the shape of real ones (none is valid anywhere).
FAKES = {
    "an OpenAI API key": "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "an Anthropic API key": "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8t",
    "a GitHub token": "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d",
    "a GitLab token": "glpat-Ab3dEf6hIj9kLm2nOp5q",
    "a Slack token": "xoxb-1234567890-abcdefghij",
    "an AWS access key id": "AKIAIOSFODNN7EXAMPLE",
    "a Google API key": "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "a Hugging Face token": "hf_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb",
    "a Stripe key": "sk_live_Ab3dEf6hIj9kLm2nOp5qRs8t",
    "a Daytona API key": "dtn_0123456789abcdef0123456789abcdef",
    "a JSON Web Token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    "a private key": "-----BEGIN RSA PRIVATE KEY-----",
    "a password in a URL": "postgres://admin:hunter2@db.example.com/prod",
}


@pytest.mark.parametrize("label", sorted(FAKES))
def test_known_formats(label):
    found = known_credential(f"prefix {FAKES[label]} suffix")
    assert found is not None and found[0] == label


@pytest.mark.parametrize(
    "path,value",
    [
        (("experiment", "model_path"), "Qwen/Qwen3.5-122B-A10B"),
        (("experiment", "model_path"), "openai/gpt-5-mini"),
        (("experiment", "commit_sha"), "0123456789abcdef0123456789abcdef01234567"),
        (("advanced", "base_revision"), "0123456789abcdef0123456789abcdef01234567"),
        (("advanced", "run_id"), "123e4567-e89b-12d3-a456-426614174000"),
        (("env", "MODEL"), "Qwen3-4B-Instruct-2507"),
        (("env", "DATA_URL"), "https://huggingface.co/datasets/openai/gsm8k/resolve/main/x.parquet"),
        (("env", "CACHE_DIR"), "/mnt/cache/aB3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"),
        (("env", "OPENAI_API_KEY"), ""),
        (("env", "OPENAI_API_KEY"), "${OPENAI_API_KEY}"),
        (("env", "HF_TOKEN"), "<your token>"),
        (("advanced", "eos_token"), "<|im_end|>"),
        (("advanced", "api_key_env"), "OPENAI_API_KEY"),
        (("advanced", "max_tokens"), "1024"),
        (("advanced", "notes"), "sk-is-a-prefix but this is prose"),
        (("env", "LOG_LEVEL"), "debug"),
        (("secrets", "required", 0), "OPENAI_API_KEY"),
        (("advanced", "word"), "internationalizationization"),
    ],
)
def test_not_secrets(path, value):
    assert looks_secret(path, value) is None


def test_secret_named_keys_with_literal_values():
    for key in ("WANDB_API_KEY", "DB_PASSWORD", "SERVICE_TOKEN", "client_secret", "token", "aws_access_key"):
        hit = looks_secret(("env", key), "x1")
        assert hit is not None and hit.rule.code == "SEC002", key


def test_random_tokens_and_entropy():
    assert shannon_entropy("") == 0 and shannon_entropy("aaaa") == 0
    assert shannon_entropy("abcd") == pytest.approx(2.0)
    assert random_token("q8Xz3LmP0vR7tY2wK9sB4nD6fH1jG5cA") is not None
    assert random_token("d41d8cd98f00b204e9800998ecf8427e") is not None  # 32 hex
    assert random_token("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") is None
    assert random_token("q8Xz3LmP0vR7tY2w") is None  # too short to tell
    assert random_token("path/q8Xz3LmP0vR7tY2wK9sB4nD6fH1jG5cA") is None


def test_mask_never_shows_the_whole_secret():
    for token in FAKES.values():
        assert token not in mask(token)
    assert mask("hunter2") == "7 characters"


def config(text: str) -> list:
    return check_config_secrets(TomlDoc.parse(text), "configs/eval/x.toml")


def test_messages_mask_values_and_name_the_fix():
    for label, token in FAKES.items():
        if label == "a private key":
            continue
        found = config(f'[advanced]\nvalue = "{token}"\n')
        assert [d.code for d in found] == ["SEC001"], label
        d = found[0]
        assert (d.line, d.column) == (2, 9)
        assert token not in d.message and "[secrets] required" in d.message
        assert "hunter2" not in d.message


def test_secret_in_an_array_and_a_comment_reported_once_each():
    text = (
        '[advanced]\n'
        f'keys = ["ok", "{FAKES["a GitHub token"]}"]  # {FAKES["a GitHub token"]}\n'
        f'# {FAKES["an OpenAI API key"]}\n'
    )
    found = config(text)
    assert sorted((d.code, d.line, d.column) for d in found) == [("SEC001", 2, 15), ("SEC001", 3, 3)]


def test_unparsable_config_reports_nothing_here():
    assert config('[advanced\nkey = "x"\n') == []


# -- workspace level ----------------------------------------------------------------------------


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    for var, value in (("GIT_AUTHOR_NAME", "T"), ("GIT_AUTHOR_EMAIL", "t@example.com"),
                       ("GIT_COMMITTER_NAME", "T"), ("GIT_COMMITTER_EMAIL", "t@example.com")):
        monkeypatch.setenv(var, value)
    root = tmp_path / "ws"
    (root / "configs" / "eval").mkdir(parents=True)
    (root / "configs" / "training").mkdir(parents=True)
    (root / "rollouts" / "multiply").mkdir(parents=True)
    git(root, "init", "-q")
    return root


def test_tracked_env_files(repo):
    (repo / ".env").write_text("OPENAI_API_KEY=real\n")
    (repo / ".env.example").write_text("OPENAI_API_KEY=\n")
    (repo / "rollouts" / "multiply" / ".env.local").write_text("X=1\n")
    (repo / "rollouts" / "multiply" / "not.env").write_text("X=1\n")
    assert tracked_env_files(repo) == []  # nothing tracked yet
    git(repo, "add", ".env.example", "rollouts/multiply/not.env")
    assert tracked_env_files(repo) == []
    git(repo, "add", "rollouts/multiply/.env.local")  # staged counts: the next commit holds it
    assert tracked_env_files(repo) == ["rollouts/multiply/.env.local"]
    git(repo, "add", ".env")
    git(repo, "commit", "-qm", "oops")
    assert sorted(tracked_env_files(repo)) == [".env", "rollouts/multiply/.env.local"]
    found = [d for d in check_secrets(Workspace(repo)) if d.code == "SEC004"]
    assert sorted(d.path for d in found) == [".env", "rollouts/multiply/.env.local"]
    git(repo, "rm", "-q", "--cached", ".env")
    assert tracked_env_files(repo) == ["rollouts/multiply/.env.local"]


def test_workspace_in_a_subfolder_of_the_repository(repo):
    sub = repo / "team" / "ws"
    (sub / "configs" / "eval").mkdir(parents=True)
    (sub / ".env").write_text("X=1\n")
    (repo / ".env").write_text("Y=1\n")
    git(repo, "add", "-f", "team/ws/.env", ".env")
    assert tracked_env_files(sub) == [".env"]  # relative to the workspace, and only inside it


def test_not_a_git_repository(tmp_path):
    assert tracked_env_files(tmp_path) is None


EVAL = '''#:schema ../../.osmosis/schemas/eval.schema.json
[experiment]
rollout = "multiply"
entrypoint = "main.py"
model_path = "openai/gpt-5-mini"
dataset = "multiply"

[secrets]
required = ["OPENAI_API_KEY", "DAYTONA_API_KEY"]
'''


def fix_env_example(repo):
    """Only SEC005's repair, through the journaled writer `doctor --fix` uses."""
    from osmosis_workspace.check.fix import apply_fixes

    return apply_fixes(Workspace(repo), wanted=lambda code: code == "SEC005")


def test_env_example_drift_and_fix(repo):
    (repo / "configs" / "eval" / "multiply.toml").write_text(EVAL)
    (repo / ".env.example").write_text("# names only\nOPENAI_API_KEY=\n")
    found = [d for d in check_secrets(Workspace(repo)) if d.code == "SEC005"]
    assert [(d.path, d.line, d.column) for d in found] == [("configs/eval/multiply.toml", 9, 31)]
    assert "DAYTONA_API_KEY" in found[0].message and found[0].fixable and found[0].severity.value == "warning"
    assert fix_env_example(repo) == [".env.example: added DAYTONA_API_KEY="]
    text = (repo / ".env.example").read_text()
    assert text.startswith("# names only\nOPENAI_API_KEY=\n") and text.endswith("DAYTONA_API_KEY=\n")
    assert [d for d in check_secrets(Workspace(repo)) if d.code == "SEC005"] == []
    assert fix_env_example(repo) == []


def test_fix_creates_env_example_and_keeps_crlf(repo):
    (repo / "configs" / "eval" / "multiply.toml").write_text(EVAL)
    assert fix_env_example(repo) == [".env.example: added OPENAI_API_KEY=, DAYTONA_API_KEY="]
    assert (repo / ".env.example").read_text().splitlines()[1:] == ["OPENAI_API_KEY=", "DAYTONA_API_KEY="]
    (repo / ".env.example").write_bytes(b"OPENAI_API_KEY=\r\nNO_NEWLINE=")
    fix_env_example(repo)
    assert (repo / ".env.example").read_bytes().endswith(b"NO_NEWLINE=\r\n# Required by configs' [secrets] (values go in your untracked .env, never here).\r\nDAYTONA_API_KEY=\r\n")


def test_env_example_with_real_values():
    text = (
        "# comment sk-proj-is-not-checked-in-comments\n"
        "OPENAI_API_KEY=\n"
        f"export HF_TOKEN={FAKES['a Hugging Face token']}\n"
        "LOG_LEVEL=debug\n"
        "DB_PASSWORD=\"changeme\"\n"
        "WANDB_API_KEY='0123abcd'\n"
    )
    found = check_env_example(text, ".env.example")
    assert [(d.code, d.line, d.column) for d in found] == [("SEC006", 3, 17), ("SEC006", 6, 15)]
    assert all(FAKES["a Hugging Face token"] not in d.message for d in found)


def test_doctor_end_to_end(repo):
    (repo / "configs" / "eval" / "multiply.toml").write_text(EVAL + f'\n[env]\nOPENAI_BASE = "{FAKES["an OpenAI API key"]}"\n')
    (repo / ".env.example").write_text("OPENAI_API_KEY=\nDAYTONA_API_KEY=\n")
    (repo / ".env").write_text("OPENAI_API_KEY=x\n")
    git(repo, "add", ".env")
    result = CliRunner().invoke(app, ["doctor", str(repo), "--select", "SEC", "--format", "json"])
    assert result.exit_code == 1, result.output
    assert FAKES["an OpenAI API key"] not in result.output
    text = json.dumps(json.loads(result.stdout))
    assert '"SEC001"' in text and '"SEC004"' in text and '"SEC005"' not in text
