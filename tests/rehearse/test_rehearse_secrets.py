"""Money and secrets are safe by construction: a real-looking key and a real base URL in the user's
environment never reach the rollout or the model, and no connection leaves 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading

import pytest
from broken import edit, package
from conftest import rehearse, synced
from typer.testing import CliRunner

from osmosis_workspace.cli import app

pytestmark = pytest.mark.slow
REAL_LOOKING = "sk-proj-Xq7RealLookingKey0123456789abcdefABCDEF"


class Trap:
    """A listener standing in for every outside endpoint: it counts whoever connects."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.hits = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"


def test_the_users_keys_and_endpoints_never_reach_the_rollout(tmp_path):
    ws = tmp_path / "ws"
    assert CliRunner().invoke(app, ["init", str(ws), "--template", "blank", "--defaults", "--data", "rollout_name=spy"]).exit_code == 0
    synced(ws)
    seen = tmp_path / "rollout-env.json"
    # The rollout writes the environment it runs with, as any code could read and send it.
    edit(package(ws, "spy") / "workflow.py", "        agent = OsmosisStrandsAgent(",
         f"        import json, os\n\n        open({str(seen)!r}, 'w').write(json.dumps(dict(os.environ)))\n"
         "        agent = OsmosisStrandsAgent(")
    trap = Trap()
    # Every proxy points at the trap: any client that tried to go outside would land there. uv is kept
    # offline (its cache holds every package), since syncing from the index is the one outside call a
    # rehearsal allows (it goes through the user's proxy settings, which rehearse keeps for uv).
    user_env = {"UV_OFFLINE": "1", "OPENAI_API_KEY": REAL_LOOKING, "ANTHROPIC_API_KEY": REAL_LOOKING, "OSMOSIS_TOKEN": REAL_LOOKING,
                "OPENAI_BASE_URL": trap.url + "/v1", "OPENAI_API_BASE": trap.url + "/v1",
                "ANTHROPIC_BASE_URL": trap.url, "HTTPS_PROXY": trap.url, "HTTP_PROXY": trap.url, "ALL_PROXY": trap.url}
    code, report, stderr = rehearse(ws, "--rows", "0-1", env=user_env)
    assert report is not None, stderr[-3000:]
    assert code == 0, report
    rollout_env = json.loads(seen.read_text())
    assert REAL_LOOKING not in json.dumps(rollout_env)
    assert rollout_env["OPENAI_API_KEY"] != REAL_LOOKING and rollout_env["OPENAI_BASE_URL"].startswith("http://127.0.0.1:")
    assert trap.url not in rollout_env["OPENAI_BASE_URL"]
    assert trap.hits == 0, "a connection went to the stand-in for the outside world"
    logs = (ws / ".osmosis" / "evals" / "rehearse" / "spy" / "logs.txt").read_text()
    assert REAL_LOOKING not in logs


# Issue 28 point 10: credentials under names no denylist word matched reached the rollout.
UNLISTED = {"CI_JOB_JWT_V2": "eyJhbGciOiJSUzI1NiJ9.ci-job-jwt-canary", "GITLAB_PAT": "glpat-canary0123456789",
            "AUTHORIZATION": "Bearer canary-authorization", "SENTRY_DSN": "https://canary@o1.ingest.sentry.io/1",
            "DATABASE_URL": "postgres://user:canary-db@db.internal/x"}


def test_a_fresh_multiply_workspace_rehearses_green_and_no_unlisted_credential_arrives(tmp_path):
    ws = tmp_path / "ws"
    assert CliRunner().invoke(app, ["init", str(ws), "--template", "multiply", "--defaults",
                                    "--data", "rollout_name=mul"]).exit_code == 0
    synced(ws)
    seen = tmp_path / "rollout-env.json"
    main = ws / "rollouts" / "mul" / "main.py"
    text = main.read_text(encoding="utf-8")
    # The rollout server's module records the environment it was started with, as any code could.
    main.write_text(text.replace("from __future__ import annotations\n",
                                 "from __future__ import annotations\n\nimport json as _j, os as _o\n\n"
                                 f"open({str(seen)!r}, 'w').write(_j.dumps(dict(_o.environ)))\n", 1), encoding="utf-8")
    code, report, stderr = rehearse(ws, "--rows", "0-1", env={"UV_OFFLINE": "1", **UNLISTED})
    assert report is not None, stderr[-3000:]
    assert code == 0, report
    rollout_env = json.loads(seen.read_text())
    assert not set(UNLISTED) & set(rollout_env), sorted(set(UNLISTED) & set(rollout_env))
    assert not [v for v in UNLISTED.values() if v in json.dumps(rollout_env)]
    assert rollout_env["OPENAI_BASE_URL"].startswith("http://127.0.0.1:") and rollout_env["HOME"]
