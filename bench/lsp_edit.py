"""`osmosis lsp` over stdio: the time from a `didChange` to its `publishDiagnostics`, beyond the server's
settle delay (issue 32's row (c)), on a workspace of N rollouts made as bench/cache.py makes them.

    python bench/lsp_edit.py [--rollouts 2000] [--edits 7] [--work DIR] [--warm-open]

The server runs as an editor starts it (`python -m osmosis_workspace lsp`); this script is the client, in
plain JSON-RPC. It opens one config (the first run is a full one and is reported apart), then changes its
text --edits times, waiting for the diagnostics of each: median and max of (publish - change - settle).
The doctor cache lives in WORK/cache (OSMOSIS_DOCTOR_CACHE), never in the user's. Target <= 150 ms.

--warm-open (issue 37's row (e)): the opened text is first written to the file and `osmosis doctor` run
once, so the server's first full run finds doctor's cache warm for exactly these files; the time from
didOpen to its diagnostics is the row (target <= 2 s). The file is put back afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import workspaces  # noqa: E402
from cache import OSMOSIS  # noqa: E402

SETTLE = 0.4  # lsp/server.py's SETTLE


class Client:
    def __init__(self, cwd: Path, env: dict[str, str]):
        self.proc = subprocess.Popen([*OSMOSIS, "lsp"], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, method: str, params: dict, request: bool = False) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while (line := self.proc.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def wait_for(self, method: str, uri: str | None = None) -> dict:
        while True:
            message = self.receive()
            if message.get("method") == method and (uri is None or message["params"].get("uri") == uri):
                return message

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=7)
    parser.add_argument("--work", type=Path, default=None, help="keep workspaces here (reused when present)")
    parser.add_argument("--warm-open", action="store_true", help="open a clean buffer on a warm doctor cache (row (e))")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="osmosis-bench-lsp-"))
    work.mkdir(parents=True, exist_ok=True)
    env = workspaces.bench_env(work / "cache")
    base = work / "base"
    if not base.exists():
        workspaces.init_workspace(OSMOSIS, base, env=env)
    scaled = work / f"ws{args.rollouts}"
    if not scaled.exists():
        workspaces.scaled_copy(base, scaled, args.rollouts)
    config = scaled / "configs" / "eval" / f"{workspaces.base_rollout(base)}{'-0002' if args.rollouts > 1 else ''}.toml"
    uri = config.resolve().as_uri()
    text = config.read_text(encoding="utf-8")
    # texts with a finding in this file, so that each run publishes for it (a clean file gets nothing)
    broken = [text.replace('rollout = "', f'rollout = "{c}', 1) for c in "xy"]
    if args.warm_open:
        config.write_text(broken[1], encoding="utf-8")
        warmed = subprocess.run([*OSMOSIS, "doctor", "."], cwd=scaled, env=env, capture_output=True)
        assert warmed.returncode in (0, 1), warmed.stderr
    client = Client(scaled, env)
    try:
        client.send("initialize", {"processId": os.getpid(), "rootUri": scaled.resolve().as_uri(), "capabilities": {}}, request=True)
        while "id" not in client.receive():
            pass
        client.send("initialized", {})
        started = time.perf_counter()
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "toml", "version": 1, "text": broken[1]}})
        client.wait_for("textDocument/publishDiagnostics", uri)
        opened = time.perf_counter() - started
        beyond = []
        for i in range(args.edits):
            changed = broken[i % 2] + f"\n# typed {i}\n"
            started = time.perf_counter()
            client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": changed}]})
            client.wait_for("textDocument/publishDiagnostics", uri)
            beyond.append(time.perf_counter() - started - SETTLE)
    finally:
        client.close()
        if args.warm_open:
            config.write_text(text, encoding="utf-8")
    how = "on a warm doctor cache, buffer = file (row (e), target <= 2 s)" if args.warm_open else "(full run)"
    print(f"rollouts {args.rollouts}: didOpen {how} to diagnostics {opened:.2f} s")
    print(f"didChange to publishDiagnostics beyond the {SETTLE} s settle: median {statistics.median(beyond) * 1000:.0f} ms, "
          f"max {max(beyond) * 1000:.0f} ms over {len(beyond)} edits  (target <= 150 ms: "
          f"{'met' if statistics.median(beyond) <= 0.150 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
