"""Generated workspaces run on the real `osmosis-ai`, proven by the SDK itself (never by a double).

What a scenario proves, from the workspace's own lockfiles (what a user's ``uv sync`` installs):

1. ``osmosis init WS --template T --defaults`` (our CLI) renders a workspace, its ``uv.lock`` files
   included;
2. ``uv sync --locked`` at the root (the SDK's CLI, ``osmosis-ai[eval]``) and ``uv sync --locked
   --project rollouts/R`` (the rollout's own environment) install exactly what the locks record:
   ``--locked`` fails when a shipped lock no longer matches its ``pyproject.toml``
   (``python bench/locks.py`` re-makes them);
3. the SDK imports the rollout entrypoint (``load_rollout_entrypoint``, what submit does), in the
   rollout's environment;
4. the SDK's own config loaders and submit preflight (``validate_rollout_backend``) accept the
   eval and training configs, and ``osmosis dataset validate`` accepts the data file;
5. the SDK's own ``osmosis eval run CONFIG --dataset-file data/R.jsonl --rows ...``, from the root
   environment, runs the rollout (it `uv sync`s the rollout itself) against ``FakeChat``, an
   OpenAI-compatible chat server on 127.0.0.1 that answers each row the way the scenario's ``reply``
   says; the per-row rewards the SDK writes (``index.jsonl``) must equal ``expected``.

The same runs are made from the *floor* locks (tests/sdk_real/floor_locks/, lockset.py): the lowest
``osmosis-ai`` each requirement admits.

Adding a template (other template authors): append a ``Scenario`` to ``SCENARIOS`` at the bottom,
then run ``python bench/locks.py`` to make its locks.
``reply(request)`` is the fake model: it gets a ``ChatRequest`` (the request body, its messages and
tools, the dataset row the conversation is about) and returns an assistant message, e.g.
``{"content": "#### 42"}`` or ``{"tool_calls": [tool_call("add", {"a": 1, "b": 2})]}``. Answer some
rows right and some wrong on purpose, and give the rewards the SDK must record for the rows run.
``eval_run=False`` only where the platform needs what this machine cannot have (Harbor sandboxes);
``check`` may assert more about the requests the fake model saw (e.g. that tool results came back).

Environment: ``OSMOSIS_TEST_PYTHON312`` names the interpreter (default: ``python3.12`` on PATH,
through pyenv where that is how it is installed); uv's own cache keeps repeated syncs cheap;
``OSMOSIS_TEST_CACHE`` moves the cache of the one unlocked environment (the generations-table
check, which needs every integration at once); ``OSMOSIS_SKIP_REAL_SDK=1`` skips these tests on
purpose for a local run. Without that opt-out a missing interpreter or SDK is a test failure with a
message, never a silent skip.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROBE = HERE / "sdk_probe.py"
# The SDK generation the templates target (contract section 2). Only the generations-table check
# installs it unlocked (it needs every integration in one environment); workspaces run from their locks.
SDK_REQUIREMENT = "osmosis-ai[eval,server,strands,openai-agents,harbor]>=0.3.1,<0.4"
ENV_FORMAT = "1"  # bump when the way the environment is built changes
SKIP_VAR = "OSMOSIS_SKIP_REAL_SDK"
EVAL_TIMEOUT_S = 900  # a cold `uv sync` of a rollout downloads its dependencies


class HarnessError(RuntimeError):
    """The real-SDK environment cannot be had; the message says what to install or set."""


# -- the Python 3.12 environment with the real SDK ----------------------------------------------


def _cache_root() -> Path:
    override = os.environ.get("OSMOSIS_TEST_CACHE")
    base = Path(override) if override else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "osmosis-workspace-tests"
    return base.expanduser()


def uv_binary() -> str:
    """uv from the test extras (`pip install -e ".[test]"`), else on PATH."""
    try:
        from uv import find_uv_bin
    except ImportError:
        found = shutil.which("uv")
    else:
        found = find_uv_bin()
    if not found:
        raise HarnessError('uv is missing: install the test extras (pip install -e ".[test]") or put uv on PATH')
    return str(found)


def _pyenv_312_versions() -> list[str]:
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return []
    try:
        out = subprocess.run([pyenv, "versions", "--bare"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted((v.strip() for v in out.splitlines() if re.fullmatch(r"3\.12\.\d+", v.strip())), reverse=True)


_FOUND_312: dict[tuple[str | None, ...], str] = {}


def find_python312() -> str:
    """The real path of a Python 3.12 interpreter, as a fresh machine of this kind has one. Asked once
    per process for the same override, PATH and pyenv selection: each search starts `pyenv versions`
    and one interpreter per candidate (about 0.4 s of CPU and 1-5 s of wall on a busy machine), and
    the tests ask for it about 180 times a run (91 in test_guidance_commands_sdk.py alone)."""
    key = tuple(os.environ.get(k) for k in ("OSMOSIS_TEST_PYTHON312", "PATH", "PYENV_VERSION", "PYENV_ROOT"))
    if key not in _FOUND_312:
        _FOUND_312[key] = _search_python312()
    return _FOUND_312[key]


def _search_python312() -> str:
    override = os.environ.get("OSMOSIS_TEST_PYTHON312")
    candidates: list[tuple[str, dict[str, str]]] = []
    if override:
        candidates.append((override, {}))
    exe = shutil.which("python3.12")
    if exe:
        candidates.append((exe, {}))
        # A pyenv shim answers only when a 3.12 version is selected.
        candidates += [(exe, {"PYENV_VERSION": v}) for v in _pyenv_312_versions()]
    probe = "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])"
    for path, extra in candidates:
        try:
            done = subprocess.run([path, "-c", probe], capture_output=True, text=True, timeout=60,
                                  env={**os.environ, **extra})
        except (OSError, subprocess.SubprocessError):
            continue
        lines = done.stdout.split()
        if done.returncode == 0 and len(lines) == 2 and lines[1] == "3.12":
            return lines[0]
    raise HarnessError(
        "no Python 3.12 found (osmosis-ai 0.3 needs >=3.12): install one (e.g. `pyenv install 3.12`), "
        "or name it in OSMOSIS_TEST_PYTHON312; set OSMOSIS_SKIP_REAL_SDK=1 to skip these tests locally")


@dataclass(frozen=True)
class SdkEnv:
    python: Path          # the 3.12 venv's interpreter (a workspace's root .venv: the SDK's CLI)
    base_python: str      # the interpreter the venv was made from; `uv sync` gets it as UV_PYTHON
    uv: str
    versions: dict[str, str]
    resolution: str | None = None  # UV_RESOLUTION the locks were made with (the floor locks)

    @property
    def bin(self) -> Path:
        return self.python.parent

    @property
    def sdk_version(self) -> str:
        return self.versions.get("osmosis-ai", "?")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One builder at a time (pytest-xdist workers, two CI jobs on one cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_sdk_env(requirements: list[str]) -> SdkEnv:
    """Create (once per requirement set) and return the cached 3.12 environment."""
    uv = uv_binary()
    base_python = find_python312()
    reqs = sorted(set([SDK_REQUIREMENT, *requirements]))
    key = hashlib.sha256(json.dumps([ENV_FORMAT, reqs]).encode()).hexdigest()[:16]
    root = _cache_root() / f"py312-{key}"
    ready = root / "ready.json"
    with _locked(_cache_root() / f"py312-{key}.lock"):
        if not ready.is_file():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            run = lambda *args: subprocess.run([uv, *args], capture_output=True, text=True, timeout=1800)  # noqa: E731
            made = run("venv", "--quiet", "--python", base_python, str(root / "venv"))
            if made.returncode != 0:
                raise HarnessError(f"uv venv failed: {made.stderr.strip()}")
            installed = run("pip", "install", "--quiet", "--python", str(root / "venv" / "bin" / "python"), *reqs)
            if installed.returncode != 0:
                raise HarnessError(f"installing osmosis-ai and the rollouts' dependencies failed:\n{installed.stderr.strip()[-4000:]}")
            listed = run("pip", "list", "--format", "json", "--python", str(root / "venv" / "bin" / "python"))
            versions = {p["name"].lower(): p["version"] for p in json.loads(listed.stdout or "[]")}
            ready.write_text(json.dumps({"requirements": reqs, "python": base_python, "versions": versions}, indent=1))
    info = json.loads(ready.read_text())
    return SdkEnv(root / "venv" / "bin" / "python", base_python, uv, info["versions"])


# -- a workspace's own environments, from its locks --------------------------------------------


# A shell with PYTHONDONTWRITEBYTECODE=1 (this machine's) would make every SDK process recompile
# osmosis-ai, litellm and the frameworks from source (about half of an import's CPU). The children
# write their bytecode as a user's Python does, into environments the tests made (a workspace's
# .venv, the cached environment below): a hard-linked file from uv's cache is never rewritten, the
# .pyc files are new files beside it.
SDK_CHILD_DROPS = ("VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")


def sdk_child_environ(*drop: str) -> dict[str, str]:
    """os.environ for a process that runs the SDK or uv: no venv of ours, bytecode written."""
    return {k: v for k, v in os.environ.items() if k not in (*SDK_CHILD_DROPS, *drop)}


def uv_environment(base_python: str, *, resolution: str | None = None, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """uv on ``base_python``, never a downloaded Python, never an activated venv of ours; ``drop``
    removes more inherited variables (the lock writer drops index overrides)."""
    env = sdk_child_environ("UV_RESOLUTION", *drop)
    env.update(UV_PYTHON=base_python, UV_PYTHON_DOWNLOADS="never", NO_COLOR="1")
    if resolution:
        env["UV_RESOLUTION"] = resolution
    return env


def _uv_sync(env: SdkEnv, cwd: Path, *args: str, resolution: str | None = None) -> None:
    done = subprocess.run([env.uv, "sync", "--locked", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800, env=uv_environment(env.base_python, resolution=resolution))
    if done.returncode != 0:
        where = args[-1] if args else "the workspace root"
        raise HarnessError(f"`uv sync --locked` failed for {where} (a shipped lock that no longer matches its "
                           f"pyproject.toml is re-made by `python bench/locks.py`):\n{done.stderr.strip()[-4000:]}")


_PINNED = re.compile(r'(?m)^\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"\nsource = \{ registry')


def locked_versions(lock_text: str) -> dict[str, str]:
    """Package -> version for every package a uv.lock takes from an index (the project excluded)."""
    return dict(_PINNED.findall(lock_text))


def workspace_env(workspace: Path, *, resolution: str | None = None) -> SdkEnv:
    """The workspace root's environment (`uv sync --locked`): osmosis-ai[eval], the SDK's CLI."""
    env = SdkEnv(workspace / ".venv" / "bin" / "python", find_python312(), uv_binary(), {}, resolution)
    _uv_sync(env, workspace, resolution=resolution)
    seed_bytecode(workspace / ".venv")
    return dataclasses.replace(env, versions=locked_versions((workspace / "uv.lock").read_text(encoding="utf-8")))


def rollout_python(env: SdkEnv, workspace: Path, rollout: str) -> Path:
    """The rollout's own environment (`uv sync --locked --project rollouts/R`), what eval run syncs."""
    _uv_sync(env, workspace, "--project", f"rollouts/{rollout}", resolution=env.resolution)
    seed_bytecode(workspace / "rollouts" / rollout / ".venv")
    return workspace / "rollouts" / rollout / ".venv" / "bin" / "python"


# -- bytecode shared between environments ------------------------------------------------------

# Every environment a test makes is new (a new workspace, a new path), so the first SDK process in it
# compiled osmosis-ai, litellm and the framework from source again: about 6 s of CPU per environment,
# 60-70 environments a run. The installed files are hard links into uv's cache, so the same release
# of a package has the same source file (bytes, size and mtime) in every environment; only the
# __pycache__ beside it is new. The store keeps each compiled module once, named by the sha256 its
# distribution's RECORD gives the source, and a new environment gets hard links to them. Python still
# checks every .pyc against its source's mtime and size (and recompiles, replacing the link, when they
# differ), and names the module's own path in tracebacks (co_filename is fixed when a .pyc is loaded).
PYC_TAG = "cpython-312"


def _bytecode_store() -> Path:
    return _cache_root() / f"bytecode-{PYC_TAG}"


def _recorded_sources(venv: Path) -> Iterator[tuple[Path, str]]:
    """(source file, its RECORD sha256) for every .py an installed distribution of ``venv`` lists."""
    for record in venv.glob("lib/python3.12/site-packages/*.dist-info/RECORD"):
        site = record.parent.parent
        try:
            lines = record.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            name, _, rest = line.partition(",")
            digest = rest.partition(",")[0]
            if name.endswith(".py") and digest.startswith("sha256=") and not name.startswith(".."):
                yield site / name, digest[len("sha256="):]


def _cached_pyc(source: Path) -> Path:
    return source.parent / "__pycache__" / f"{source.stem}.{PYC_TAG}.pyc"


def seed_bytecode(venv: Path) -> int:
    """Hard-link the stored .pyc of every installed source ``venv`` lacks one for; how many."""
    store, seeded = _bytecode_store(), 0
    if not store.is_dir():
        return 0
    for source, digest in _recorded_sources(venv):
        kept = store / digest[:2] / f"{digest}.pyc"
        target = _cached_pyc(source)
        if target.exists() or not kept.exists():
            continue
        try:
            target.parent.mkdir(exist_ok=True)
            os.link(kept, target)
            seeded += 1
        except OSError:
            pass
    return seeded


def _pyc_matches(pyc: Path, source: Path) -> bool:
    """A timestamp .pyc (PEP 552 flags 0) written for this source's mtime and size."""
    try:
        with open(pyc, "rb") as handle:
            header = handle.read(16)
        stat = source.stat()
    except OSError:
        return False
    return (len(header) == 16 and int.from_bytes(header[4:8], "little") == 0
            and int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF)


def keep_bytecode(venv: Path) -> int:
    """Copy into the store each .pyc the runs in ``venv`` wrote that the store lacks; how many."""
    store, kept = _bytecode_store(), 0
    for source, digest in _recorded_sources(venv):
        target = store / digest[:2] / f"{digest}.pyc"
        pyc = _cached_pyc(source)
        if target.exists() or not pyc.is_file() or not _pyc_matches(pyc, source):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            shutil.copyfile(pyc, partial)
            os.replace(partial, target)   # whole or absent: other workers read the store meanwhile
            kept += 1
        except OSError:
            with contextlib.suppress(OSError):
                partial.unlink()
    return kept


def workspace_venvs(workspace: Path) -> list[Path]:
    """The root environment and every rollout's, those that exist."""
    return [v for v in [workspace / ".venv", *sorted(workspace.glob("rollouts/*/.venv"))] if v.is_dir()]


def keep_workspace_bytecode(workspace: Path) -> None:
    """After a run in ``workspace``: what it compiled, into the store (about 0.3 s of CPU per environment)."""
    for venv in workspace_venvs(workspace):
        keep_bytecode(venv)


# -- rendering with our own CLI -----------------------------------------------------------------


def osmosis(*args: str | Path) -> None:
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, f"osmosis {' '.join(map(str, args))}\n{result.output}"


GIT_IDENTITY = {f"GIT_{role}_{key}": value for role in ("AUTHOR", "COMMITTER")
                for key, value in (("NAME", "SDK Tests"), ("EMAIL", "sdk-tests@example.invalid"))}


def render(target: Path, scenarios: list[Scenario]) -> Path:
    """`osmosis init` with the first scenario's template, `osmosis rollout new` for the others."""
    first, *rest = scenarios
    saved = {k: os.environ.get(k) for k in GIT_IDENTITY}
    os.environ.update(GIT_IDENTITY)
    try:
        osmosis("init", target, "--template", first.template, "--defaults", "--data", "workspace_name=sdk-real",
                "--data", f"rollout_name={first.rollout}", *[a for d in first.data for a in ("--data", d)])
        for s in rest:
            osmosis("rollout", "new", s.rollout, "--template", s.template, "--defaults", "--workspace", target,
                    *[a for d in s.data for a in ("--data", d)])
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return target


class Lazy(Mapping[str, Any]):
    """A mapping whose value for a key is made the first time a test asks for it, then kept."""

    def __init__(self, keys: list[str], make: Callable[[str], Any]):
        self._keys, self._make, self._made = list(keys), make, {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys:
            raise KeyError(key)
        if key not in self._made:
            self._made[key] = self._make(key)
        return self._made[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


_SHARED: dict[str, Lazy] = {}


def shared_workspaces(tmp_path_factory: Any) -> Lazy:
    """Scenario id -> its workspace, rendered by our CLI (``render``) the first time a test of this
    process asks for it, and shared by tests/sdk_real and tests/rehearse: the same answers render the
    same files, so a second `osmosis init` would prove nothing more. A test that changes a shared
    workspace works on a copy, or puts back what it changed; every run on the SDK syncs from the
    workspace's locks first (``workspace_env``, ``rollout_python``, `eval run` itself)."""
    if "workspaces" not in _SHARED:
        root = tmp_path_factory.mktemp("scenarios")
        by_id = {s.id: s for s in SCENARIOS}
        _SHARED["workspaces"] = Lazy(list(by_id), lambda sid: render(root / sid, [by_id[sid]]))
    return _SHARED["workspaces"]


def shared_envs(tmp_path_factory: Any) -> Lazy:
    """Scenario id -> its shared workspace's root environment (`uv sync --locked`), made on first use."""
    if "envs" not in _SHARED:
        workspaces = shared_workspaces(tmp_path_factory)
        _SHARED["envs"] = Lazy(list(workspaces), lambda sid: workspace_env(workspaces[sid]))
    return _SHARED["envs"]


def _made_by_runs(folder: str, names: list[str]) -> set[str]:
    made = {n for n in names if n in (".venv", "__pycache__")}
    return made | ({"evals"} & set(names) if Path(folder).name == ".osmosis" else set())


def pristine_copy(workspace: Path, target: Path) -> Path:
    """A copy of a rendered workspace without what running it made: environments, bytecode, and the
    eval runs under .osmosis/evals (the rest of .osmosis is the rendering's own)."""
    shutil.copytree(workspace, target, symlinks=True, ignore=_made_by_runs)
    return target


# -- the fake OpenAI-compatible chat server ------------------------------------------------------


def message_text(message: dict) -> str:
    """A chat message's text, whether content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


@dataclass
class ChatRequest:
    body: dict
    row: dict | None         # the dataset row whose user_prompt the conversation carries
    row_index: int | None

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages") or []

    @property
    def tools(self) -> list[dict]:
        return self.body.get("tools") or []

    def tool_names(self) -> list[str]:
        return [t.get("function", {}).get("name") for t in self.tools]

    def tool_results(self) -> list[str]:
        """Contents of the `tool` messages so far: what the rollout's tools returned."""
        return [message_text(m) for m in self.messages if m.get("role") == "tool"]


def tool_call(name: str, arguments: dict, call_id: str | None = None) -> dict:
    return {"id": call_id or f"call_{name}_{abs(hash(json.dumps(arguments, sort_keys=True))) % 10**8}",
            "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


class FakeChat:
    """`POST /v1/chat/completions` on 127.0.0.1: each answer comes from ``reply(ChatRequest)``.

    Requests that carry no dataset row (the SDK's one-line model preflight) get a short answer.
    Every request is kept in ``requests`` for the test to inspect.
    """

    def __init__(self, reply: Callable[[ChatRequest], dict], rows: list[dict]):
        self.reply = reply
        self.rows = rows
        self.requests: list[ChatRequest] = []
        self.errors: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                    status, payload = 200, fake.answer(body)
                except Exception as err:  # noqa: BLE001 - reported to the test, not swallowed
                    fake.errors.append(f"{type(err).__name__}: {err}")
                    status, payload = 500, {"error": {"message": str(err), "type": "fake_error"}}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _row_of(self, body: dict) -> tuple[int | None, dict | None]:
        texts = [message_text(m) for m in body.get("messages") or [] if m.get("role") == "user"]
        for index, row in enumerate(self.rows):
            prompt = str(row.get("user_prompt") or "").strip()
            if prompt and any(prompt in text for text in texts):
                return index, row
        return None, None

    def answer(self, body: dict) -> dict:
        index, row = self._row_of(body)
        request = ChatRequest(body, row, index)
        self.requests.append(request)
        message = self.reply(request) if row is not None else {"content": "ok"}
        message = {"role": "assistant", "content": message.get("content"), **{k: v for k, v in message.items() if k != "content"}}
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return {
            "id": f"chatcmpl-fake-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    def __enter__(self) -> FakeChat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


# -- running things in the 3.12 environment -----------------------------------------------------


def sdk_subprocess_env(env: SdkEnv, **extra: str) -> dict[str, str]:
    base = sdk_child_environ("PYTHONPATH", "PYTHONHOME")
    base["PATH"] = f"{env.bin}{os.pathsep}{base.get('PATH', '')}"
    # `eval run` calls `uv sync`; pin it to the same 3.12 so uv never fetches a managed Python.
    base["UV_PYTHON"] = env.base_python
    base["UV_PYTHON_DOWNLOADS"] = "never"
    base.pop("UV_RESOLUTION", None)
    if env.resolution:
        base["UV_RESOLUTION"] = env.resolution
    base["NO_COLOR"] = "1"
    # LiteLLM would fetch its model price list from GitHub first; the copy it ships is enough.
    base["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    base.update(extra)
    return base


def probe(env: SdkEnv, workspace: Path, rollout: str) -> dict:
    """Import + config loaders + submit preflight + dataset validation, all by the SDK (sdk_probe.py),
    in the rollout's own locked environment."""
    python = rollout_python(env, workspace, rollout)
    done = subprocess.run([str(python), str(PROBE), str(workspace), rollout], capture_output=True, text=True,
                          timeout=600, cwd=workspace, env=sdk_subprocess_env(env))
    keep_workspace_bytecode(workspace)
    assert done.returncode == 0, f"sdk_probe failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def dataset_rows(workspace: Path, rollout: str) -> list[dict]:
    text = (workspace / "data" / f"{rollout}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@dataclass
class EvalRun:
    rewards: dict[int, float | None]
    statuses: dict[int, str]
    result: dict
    output: str
    requests: list[ChatRequest]
    run_dir: Path | None = None
    records: list[dict] = field(default_factory=list)


def eval_run(env: SdkEnv, workspace: Path, rollout: str, rows: str, reply: Callable[[ChatRequest], dict]) -> EvalRun:
    """The SDK's own `osmosis eval run` with `--dataset-file`, its model pointed at ``FakeChat``."""
    with FakeChat(reply, dataset_rows(workspace, rollout)) as fake:
        extra = {"OPENAI_BASE_URL": fake.base_url, "OPENAI_API_BASE": fake.base_url, "OPENAI_API_KEY": "sk-fake-for-tests"}
        argv = [str(env.bin / "osmosis"), "--json", "eval", "run", f"configs/eval/{rollout}.toml",
                "--dataset-file", f"data/{rollout}.jsonl", "--rows", rows, "-y"]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=EVAL_TIMEOUT_S, cwd=workspace,
                              env=sdk_subprocess_env(env, **extra))
    keep_workspace_bytecode(workspace)
    output = f"$ {' '.join(argv[1:])}\n--- stdout\n{done.stdout[-6000:]}\n--- stderr\n{done.stderr[-6000:]}"
    assert not fake.errors, f"the fake chat server failed: {fake.errors}\n{output}"
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"`osmosis eval run` printed no JSON result (exit {done.returncode})\n{output}") from None
    run_dir = Path(result.get("resource", result).get("output_path", ""))
    index = run_dir / "index.jsonl"
    assert index.is_file(), f"no index.jsonl in {run_dir}\n{output}"
    records = [json.loads(line) for line in index.read_text().splitlines() if line.strip()]
    return EvalRun({r["row_index"]: r.get("reward") for r in records}, {r["row_index"]: r["status"] for r in records},
                   result, output, fake.requests, run_dir, records)


# -- scenarios: one per bundled template (and integration) --------------------------------------


@dataclass
class Scenario:
    id: str                                   # pytest id
    template: str                             # `osmosis init --template`
    rollout: str                              # rollout name passed as --data rollout_name=...
    reply: Callable[[ChatRequest], dict] | None = None
    rows: str = "0-3"                         # `eval run --rows`
    expected: dict[int, float] = field(default_factory=dict)
    data: tuple[str, ...] = ()                # more `--data key=value` answers
    eval_run: bool = True                     # False only where a sandbox is needed (Harbor)
    check: Callable[[EvalRun], None] | None = None
    backend: str = "LocalBackend"             # the backend class the entrypoint must build


def _product(row: dict) -> float:
    values = [float(v) for v in re.findall(r"val\d+\s*=\s*([-+]?\d+(?:\.\d+)?)", row["user_prompt"])]
    assert len(values) >= 2, row
    result = 1.0
    for v in values:
        result *= v
    return round(result, 4)


MULTIPLY_WRONG_ROWS = frozenset({1, 3})  # the fake model gets these rows wrong on purpose
MULTIPLY_EXPECTED = {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}


def multiply_with_tool(request: ChatRequest) -> dict:
    """First turn: call the rollout's `multiply` tool with the row's numbers. After the tool result
    comes back: answer with that result (off by 1 on the rows meant to be wrong). The answer is read
    from the tool's output, so a right reward proves the rollout really ran its tool."""
    results = request.tool_results()
    if not results:
        values = [float(v) for v in re.findall(r"=\s*([-+]?\d+(?:\.\d+)?)", request.row["user_prompt"])]
        assert "multiply" in request.tool_names(), request.tools
        return {"tool_calls": [tool_call("multiply", {"a": values[0], "b": values[1]})]}
    value = float(re.findall(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", results[-1])[-1])
    if request.row_index in MULTIPLY_WRONG_ROWS:
        value += 1
    return {"content": f"The product is {value:.4f}.\n#### {value:.4f}"}


def check_multiply_tool_ran(run: EvalRun) -> None:
    rows_seen = {r.row_index for r in run.requests if r.row_index is not None and r.tool_results()}
    assert rows_seen == set(MULTIPLY_EXPECTED), f"tool results came back for rows {rows_seen}"
    for request in run.requests:
        if request.row is not None and request.tool_results():
            got = float(re.findall(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", request.tool_results()[-1])[-1])
            assert abs(got - _product(request.row)) < 1e-6, (got, request.row)


SINGLE_WRONG_ROWS = frozenset({2})
SINGLE_EXPECTED = {0: 1.0, 1: 1.0, 2: 0.0, 3: 1.0}


def single_answer(request: ChatRequest) -> dict:
    """The row's label as the final line, in another case and with a trailing period (the grader
    normalises both); a wrong answer on the row meant to be wrong."""
    answer = "Lyon" if request.row_index in SINGLE_WRONG_ROWS else request.row["ground_truth"].upper() + "."
    return {"content": f"Let me think.\n#### {answer}"}


def check_no_tools(run: EvalRun) -> None:
    asked = [r for r in run.requests if r.row is not None]
    assert asked and all(not r.tools for r in asked), [r.tools for r in asked]


SCENARIOS: list[Scenario] = [
    Scenario("multiply-strands", "multiply", "mul-strands", multiply_with_tool, expected=MULTIPLY_EXPECTED,
             check=check_multiply_tool_ran),
    Scenario("multiply-openai-agents", "multiply", "mul-openai", multiply_with_tool, expected=MULTIPLY_EXPECTED,
             data=("integration=openai-agents",), check=check_multiply_tool_ran),
    # Harbor runs every trial in a Docker/Daytona sandbox, which this machine cannot start: import,
    # preflight and the HarborBackend's construction are the test (README says so).
    Scenario("multiply-harbor", "multiply", "mul-harbor", data=("integration=harbor",), eval_run=False,
             backend="HarborBackend"),
    # multiply's single-answer task: no tools offered, one answer per row, graded as text
    Scenario("multiply-single-answer", "multiply", "qa", single_answer, expected=SINGLE_EXPECTED,
             data=("task=single-answer",), check=check_no_tools),
]



# -- calculator-remote, llm-judge, blank ---------------------------------------------------------

# calculator-remote: per question, the tool calls the fake model makes in order ("prev" is the last
# tool result) and the tool results the rollout must send back. Row 2 divides by zero first: the
# error must come back as a tool result and the loop go on. The answer is read from the last tool
# result, so a right reward proves the loop ran the tools.
CALC_PLANS = {
    "What is 25 + 17?": ([("add", 25, 17)], ["42"]),
    "What is 100 - 37?": ([("subtract", 100, 37)], ["63"]),
    "What is 12 * 8?": ([("divide", 12, 0), ("multiply", 12, 8)], ["Error:", "96"]),
    "What is 144 / 12?": ([("divide", 144, 12)], ["12"]),
    "What is (15 + 5) * 3?": ([("add", 15, 5), ("multiply", "prev", 3)], ["20", "60"]),
}
CALC_WRONG_ROWS = frozenset({1})
CALC_EXPECTED = {0: 1.0, 1: 0.0, 2: 1.0, 3: 1.0, 4: 1.0}


def calculator_with_tools(request: ChatRequest) -> dict:
    plan, _ = CALC_PLANS[request.row["user_prompt"]]
    results = request.tool_results()
    assert request.tool_names() == ["add", "subtract", "multiply", "divide"], request.tools
    if len(results) < len(plan):
        name, a, b = plan[len(results)]
        a = float(results[-1]) if a == "prev" else a
        return {"content": "", "tool_calls": [tool_call(name, {"a": a, "b": b})]}
    value = float(results[-1]) + (1 if request.row_index in CALC_WRONG_ROWS else 0)
    return {"content": f"The result is {value:g}.\n#### {value:g}"}


def check_calculator_tools_ran(run: EvalRun) -> None:
    finished = {}  # row -> (tool results sent back, the results its plan expects)
    for request in run.requests:
        if request.row is not None:
            plan, expected = CALC_PLANS[request.row["user_prompt"]]
            if len(request.tool_results()) == len(plan):
                finished[request.row_index] = (request.tool_results(), expected)
    assert set(finished) == set(CALC_EXPECTED), f"the loop finished its tool calls for rows {sorted(finished)}"
    for index, (results, expected) in finished.items():
        assert all(got.startswith(want) for got, want in zip(results, expected, strict=True)), (index, results)


# llm-judge: the fake model is the policy and the judge (the judge's OpenAI client follows
# OPENAI_BASE_URL too); the judge's normalised score is the reward, 15/10 clamped to 1.0.
JUDGE_REPLIES = {0: "Clear and correct.\nSCORE: 8", 1: "Partly right.\nSCORE: 3/5", 2: "Off topic.\nSCORE: 2",
                 3: "Excellent.\nSCORE: 15"}
JUDGE_EXPECTED = {0: 0.8, 1: 0.6, 2: 0.2, 3: 1.0}


def _is_judge_request(request: ChatRequest) -> bool:
    return any("SCORE: <points>" in message_text(m) for m in request.messages)


def policy_and_judge(request: ChatRequest) -> dict:
    if _is_judge_request(request):
        return {"content": JUDGE_REPLIES[request.row_index]}
    return {"content": f"Policy answer {request.row_index}: a plain explanation with one example."}


def check_judge_saw_the_answers(run: EvalRun) -> None:
    judged = [r for r in run.requests if r.row is not None and _is_judge_request(r)]
    assert sorted(r.row_index for r in judged) == sorted(JUDGE_EXPECTED), [r.row_index for r in judged]
    for request in judged:
        prompt = message_text(request.messages[-1])
        assert f"Policy answer {request.row_index}:" in prompt and request.row["ground_truth"] in prompt, prompt
        assert request.body.get("model") == "gpt-4o-mini", request.body.get("model")


# blank: exact match of the answer with the row's ground_truth (the template's placeholder rows).
BLANK_WRONG_ROWS = frozenset({1, 2})


def blank_answers(request: ChatRequest) -> dict:
    return {"content": "not the answer" if request.row_index in BLANK_WRONG_ROWS else request.row["ground_truth"]}


SCENARIOS += [
    Scenario("calculator-remote", "calculator-remote", "calc-remote", calculator_with_tools, rows="0-4",
             expected=CALC_EXPECTED, check=check_calculator_tools_ran),
    Scenario("llm-judge", "llm-judge", "judge", policy_and_judge, expected=JUDGE_EXPECTED,
             check=check_judge_saw_the_answers),
    Scenario("blank", "blank", "my-task", blank_answers, expected={0: 1.0, 1: 0.0, 2: 0.0, 3: 1.0}),
]


# -- code ----------------------------------------------------------------------------------------

# code: the fake model answers with a fenced ```python block holding the row's `reference` column
# (a correct solution), the `partial` one on row 1 (3 of its 4 tests pass), and another task's
# solution on row 3 (it defines the wrong function: 0). The rewards come from running that code in
# the template's sandbox against the row's hidden tests, so they prove the grader ran it.
CODE_PARTIAL_ROWS = frozenset({1})
CODE_WRONG_ROWS = frozenset({3})
CODE_EXPECTED = {0: 1.0, 1: 0.75, 2: 1.0, 3: 0.0}


def fenced_python(code: str) -> dict:
    return {"content": f"Here is the function.\n```python\n{code.rstrip()}\n```\n"}


# another task's solution (row 0's): it defines no function of row 3's name
OTHER_TASK = "def add_digits(n):\n    return sum(int(d) for d in str(n))\n"


def code_answers(request: ChatRequest) -> dict:
    row = request.row
    if request.row_index in CODE_PARTIAL_ROWS:
        return fenced_python(row["partial"])
    if request.row_index in CODE_WRONG_ROWS:
        return fenced_python(OTHER_TASK)
    return fenced_python(row["reference"])


def check_code_no_tools_and_no_hidden_columns(run: EvalRun) -> None:
    asked = [r for r in run.requests if r.row is not None]
    assert asked and all(not r.tools for r in asked), [r.tools for r in asked]
    # the SDK sends only the prompts: neither the tests nor the reference reach the model
    for request in asked:
        text = "".join(message_text(m) for m in request.messages)
        assert request.row["reference"].strip() not in text and '"tests"' not in text, text[:500]


SCENARIOS += [
    Scenario("code", "code", "py-functions", code_answers, expected=CODE_EXPECTED,
             check=check_code_no_tools_and_no_hidden_columns),
]
