"""Issue 28's families for the language server and rehearse: editor buffers past doctor's size cap
(`lsp-buffer-size`), requests that do not fit the protocol (`lsp-malformed-request`), frames no editor
sends (`lsp-frames`), processes a rehearsal leaves behind (`rehearse-orphans`) and credentials its
children inherit (`rehearse-env`).

The language server is driven over its stdio as an editor drives it: frames written, frames read,
shutdown and exit once the answer came. rehearse runs against stand-ins for uv and the SDK's
`osmosis` (shell scripts, `--sdk`): the campaign has no SDK environment, and what is measured (which
processes outlive the run, which variables reach the child) needs only a child that starts a
grandchild or prints its environment. tests/rehearse runs the real SDK.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from cases import Case, Plan, Sandbox, copy_base
from sandbox import PY, Run, _killpg, _watch_peak

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository's root, for tests/orphans.py
from tests.orphans import end_all, grandchild, shell_script  # noqa: E402

# -- the language server over stdio ------------------------------------------------------------------


def frame(body: bytes | dict) -> bytes:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


INITIALIZE = frame({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
GOODBYE = frame({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"})


def _frames(raw: bytes) -> list[dict]:
    found, pos = [], 0
    while (head := raw.find(b"\r\n\r\n", pos)) != -1:
        length = next((int(line.split(b":")[1]) for line in raw[pos:head].split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        if length is None or head + 4 + length > len(raw):
            break
        try:
            found.append(json.loads(raw[head + 4: head + 4 + length]))
        except ValueError:
            pass
        pos = head + 4 + length
    return found


def lsp_session(sb: Sandbox, data: bytes, until, wait: float = 30.0) -> tuple[Run, list[dict]]:
    """`osmosis lsp` in the workspace: ``data`` written after initialize, then frames read until
    ``until(frames)`` holds (or ``wait`` passes), then shutdown and exit. The Run counts as a hang when
    the server has not ended ``sb.timeout`` seconds after it started."""
    argv = ["lsp"]
    started = time.monotonic()
    err_path = sb.root / "tmp" / f"lsp-stderr-{uuid.uuid4().hex}"
    with err_path.open("wb") as err:
        proc = subprocess.Popen([PY, "-m", "osmosis_workspace", "lsp"], cwd=sb.ws if sb.ws.is_dir() else sb.work, env=sb.env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        _watch_peak(proc)
        out = bytearray()

        def read() -> None:
            while chunk := proc.stdout.read1(1 << 16):
                out.extend(chunk)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        def send(chunk: bytes) -> None:
            try:
                proc.stdin.write(chunk)
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # the server refused and left: its exit code says how

        send(INITIALIZE + data)
        deadline = min(started + wait, started + sb.timeout)
        while proc.poll() is None and time.monotonic() < deadline and not until(_frames(bytes(out))):
            time.sleep(0.05)
        send(GOODBYE)
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=max(0.1, sb.timeout - (time.monotonic() - started)))
            hang = False
        except subprocess.TimeoutExpired:
            _killpg(proc)
            proc.wait()
            hang = True
        reader.join(timeout=5)
    raw = bytes(out) + err_path.read_bytes()
    err_path.unlink()
    run = Run(argv, None if hang else proc.returncode, raw.decode("utf-8", "replace"), time.monotonic() - started,
              hang=hang, raw=raw, peak_mb=round(getattr(proc, "peak_kb", 0) / 1024, 1))
    sb.runs.append(run)
    return run, _frames(bytes(out))


def _answered(ids):
    return lambda frames: set(ids) <= {f.get("id") for f in frames if "method" not in f}


def _published(uri: str):
    return lambda frames: any(f.get("method") == "textDocument/publishDiagnostics" and f["params"]["uri"] == uri
                              for f in frames)


def _rollout(ws: Path) -> str:
    return sorted(p.name for p in (ws / "rollouts").iterdir() if p.is_dir())[0]


def buffer_cases() -> list[Case]:
    """Point 2: an editor buffer is held to doctor's size cap (a 3 MB config cost 440 MB and 15 s)."""
    forms = {
        "config-3mb-keys": ("configs/eval/{r}.toml", lambda: "".join(f"k{i} = {i}\n" for i in range(330_000))),
        "config-10mb-keys": ("configs/eval/{r}.toml", lambda: "".join(f'k{i} = "{"v" * 20}"\n' for i in range(330_000))),
        "entrypoint-3mb": ("rollouts/{r}/main.py", lambda: "".join(f"x{i} = {i}\n" for i in range(330_000))),
        "config-3mb-multibyte": ("configs/eval/{r}.toml", lambda: "# " + "é" * 1_100_000 + "\n"),
    }
    out = []
    for name, (rel, body) in forms.items():
        def prepare(sb: Sandbox, rel=rel, body=body) -> Plan:
            ws = copy_base(sb, "blank-ws")
            path = ws / rel.format(r=_rollout(ws))
            text = path.read_text() + body()
            uri = path.as_uri()
            seen: dict = {}

            def act(s: Sandbox) -> None:
                started = time.monotonic()
                _, frames = lsp_session(s, frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": uri, "languageId": "toml" if rel.endswith(".toml") else "python", "version": 1, "text": text}}}),
                    _published(uri), wait=40)
                seen["seconds"] = time.monotonic() - started
                seen["diagnostics"] = [d for f in frames if f.get("method") == "textDocument/publishDiagnostics"
                                       and f["params"]["uri"] == uri for d in f["params"]["diagnostics"]]

            def verify(s: Sandbox) -> list[str]:
                found = seen.get("diagnostics", [])
                if not any("so it was not read" in d["message"] for d in found):
                    return [f"the oversized buffer was not reported unread ({len(found)} findings)"]
                return [f"the finding took {seen['seconds']:.0f} s"] if seen["seconds"] > 20 else []

            return Plan(act, verify=verify)
        out.append(Case("lsp-buffer-size", name, prepare))
    return out


def request_cases() -> list[Case]:
    """Point 7: every request gets a result or an error (a hover without `position` went unanswered)."""
    doc = {"uri": "file:///nowhere/x.toml"}
    forms = {
        "hover-no-position": {"jsonrpc": "2.0", "method": "textDocument/hover", "params": {"textDocument": doc}},
        "hover-no-params": {"jsonrpc": "2.0", "method": "textDocument/hover"},
        "hover-params-array": {"jsonrpc": "2.0", "method": "textDocument/hover", "params": [1, 2]},
        "hover-wrong-types": {"jsonrpc": "2.0", "method": "textDocument/hover",
                              "params": {"textDocument": doc, "position": {"line": "x", "character": None}}},
        "code-action-empty": {"jsonrpc": "2.0", "method": "textDocument/codeAction", "params": {}},
        "code-action-bad-range": {"jsonrpc": "2.0", "method": "textDocument/codeAction",
                                  "params": {"textDocument": doc, "range": 5, "context": {"diagnostics": []}}},
        "no-jsonrpc-member": {"method": "textDocument/hover", "params": {}},
        "jsonrpc-1.0": {"jsonrpc": "1.0", "method": "textDocument/hover", "params": {}},
        "unknown-method": {"jsonrpc": "2.0", "method": "osmosis/nothing", "params": {}},
    }
    out = []
    for name, message in forms.items():
        def prepare(sb: Sandbox, message=message) -> Plan:
            copy_base(sb, "blank-ws")
            ids = ["r1", 7]
            data = b"".join(frame({**message, "id": i}) for i in ids)
            seen: dict = {}

            def act(s: Sandbox) -> None:
                _, frames = lsp_session(s, data, _answered(ids), wait=20)
                seen["answered"] = {f.get("id") for f in frames if "method" not in f and ("result" in f or "error" in f)}

            return Plan(act, verify=lambda s: [f"request {i!r} got no answer" for i in ids if i not in seen.get("answered", set())])
        out.append(Case("lsp-malformed-request", name, prepare))
    return out


def frame_cases() -> list[Case]:
    """Point 9: frames no editor sends (Content-Length: 99999999999999 was a MemoryError, exit 3)."""
    forms = {
        "length-99999999999999": b"Content-Length: 99999999999999\r\n\r\n{}",
        "length-5000-digits": b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}",
        "length-negative": b"Content-Length: -5\r\n\r\n{}",
        "header-line-1mb": b"X-Filler: " + b"x" * 1_000_000 + b"\r\n\r\n",
        "body-70mb-skipped": frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"pad": "'
                                   + b"x" * (70 << 20) + b'"}}'),
        "body-truncated": b"Content-Length: 5000\r\n\r\n{\"jsonrpc\": ",
        "body-nested-100000": frame(b"[" * 100_000),
        "body-not-json": frame(b"\xff\xfe not json"),
    }
    out = []
    for name, data in forms.items():
        def prepare(sb: Sandbox, data=data) -> Plan:
            copy_base(sb, "blank-ws")
            return Plan(lambda s: lsp_session(s, data, _answered(["init", "never"]), wait=10))
        out.append(Case("lsp-frames", name, prepare))
    return out


# -- rehearse -------------------------------------------------------------------------------------------

def _orphans(marker: str):
    def verify(sb: Sandbox) -> list[str]:
        time.sleep(0.5)
        pids = end_all(marker)  # the campaign must not leave them either
        return [f"{len(pids)} process(es) of the rehearsal outlived it"] if pids else []
    return verify


def _harbor(ws: Path) -> None:
    main = ws / "rollouts" / _rollout(ws) / "main.py"
    main.write_text(main.read_text() + "\n# backend = HarborBackend(...)  (what marks a rollout as Harbor's)\n")


def orphan_cases() -> list[Case]:
    """Point 6: no process of a rehearsal outlives it (a preflight's `uv run ... python` did)."""
    forms = {  # name: (Harbor rollout? , uv's body, osmosis's body)
        "preflight-import-hangs": (True, "hang", None),
        "preflight-leaves-daemon": (True, "exit", None),
        "eval-run-hangs": (False, None, "hang"),
        "eval-run-leaves-daemon": (False, None, "exit"),
    }
    out = []
    for name, (harbor, uv, sdk) in forms.items():
        def prepare(sb: Sandbox, harbor=harbor, uv=uv, sdk=sdk) -> Plan:
            ws = copy_base(sb, "blank-ws")
            if harbor:
                _harbor(ws)
            marker = f"osmosis-campaign-orphan-{uuid.uuid4().hex}"
            then = {"hang": "time.sleep(3600)", "exit": "print('backend:HarborBackend')"}
            venv = sb.root / "tpl" / "sdk"
            shell_script(venv / "bin" / "osmosis", grandchild(marker, then[sdk]) if sdk else "exit 0\n")
            shell_script(venv / "bin" / "uv", 'if [ "$1" = sync ]; then exit 0; fi\n' + (grandchild(marker, then[uv]) if uv else "exit 0\n"))
            return Plan(lambda s: s.run("rehearse", "--sdk", venv, "--timeout", "4", cwd=s.ws), rule="none",
                        verify=_orphans(marker), check_leftovers=False)
        out.append(Case("rehearse-orphans", name, prepare))
    return out


# Credentials under names no denylist word matched (issue 28): each must stay behind.
UNLISTED = {"CI_JOB_JWT_V2": "campaign-jwt", "GITLAB_PAT": "campaign-pat", "AUTHORIZATION": "Bearer campaign-auth",
            "SENTRY_DSN": "https://campaign@sentry.example/1", "DATABASE_URL": "postgres://u:campaign-db@db/x",
            "NPM_AUTH": "campaign-npm", "UV_INDEX_CORP_PASSWORD": "campaign-uv", "SSH_AUTH_SOCK": "/tmp/campaign-agent"}


def env_cases() -> list[Case]:
    """Point 10: the children's environment is an allowlist."""
    out = []
    for name, harbor in (("eval-run", False), ("preflight", True)):
        def prepare(sb: Sandbox, harbor=harbor) -> Plan:
            ws = copy_base(sb, "blank-ws")
            if harbor:
                _harbor(ws)
            dump = sb.root / "tmp" / "child-env.json"
            record = f"{PY} -c \"import json, os; json.dump(dict(os.environ), open('{dump}', 'w'))\"\n"
            venv = sb.root / "tpl" / "sdk"
            shell_script(venv / "bin" / "osmosis", record + "exit 1\n")
            shell_script(venv / "bin" / "uv", 'if [ "$1" = sync ]; then exit 0; fi\n' + record + "echo backend:\n")
            sb.env_extra.update(UNLISTED)

            def verify(s: Sandbox) -> list[str]:
                if not dump.is_file():
                    return ["the stand-in child never ran"]
                env = json.loads(dump.read_text())
                from sandbox import CANARY

                leaked = sorted(k for k in {*UNLISTED, "CAMPAIGN_TOKEN"} if k in env)
                leaked += ["a credential's value"] if any(v in json.dumps(env) for v in (*UNLISTED.values(), CANARY)) else []
                return [f"reached the child: {', '.join(leaked)}"] if leaked else []

            return Plan(lambda s: s.run("rehearse", "--sdk", venv, "--timeout", "20", cwd=s.ws), rule="none",
                        verify=verify, check_leftovers=False)
        out.append(Case("rehearse-env", name, prepare))
    return out


def all_cases() -> list[Case]:
    return buffer_cases() + request_cases() + frame_cases() + orphan_cases() + env_cases()
