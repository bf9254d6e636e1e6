"""Issue 28's families for doctor's cache, the lock reader, the JSON readers, `--diff` and the update
lock (points 1, 3, 4, 5, 8, 11): `cache-skip-names`, `cache-entries`, `lock-forms`, `lock-size`,
`deep-json`, `diff-lines`, `update-lock`. Besides the columns every case is measured on, a case that
compares two answers (cached and `--no-cache`, `--diff` applied and `--fix`) reports a difference as
`inconsistent`."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from cases import Case, Plan, Sandbox, copy_base

ROLLOUT = "rollouts/my-rollout"
PACKAGE = "my_rollout"


def _answer(run) -> str:
    """A doctor run's findings, for comparison: the JSON diagnostics, or the exit code and last line."""
    try:
        return json.dumps(json.loads(run.out[run.out.index("{"):])["diagnostics"], sort_keys=True)
    except (ValueError, KeyError):
        return f"exit {run.code}: {run.last_line()}"


def _same_as_uncached(sb: Sandbox) -> list[str]:
    cached = sb.run("doctor", sb.ws, "-f", "json")
    fresh = sb.run("doctor", sb.ws, "-f", "json", "--no-cache")
    return [] if _answer(cached) == _answer(fresh) else [f"cached {_answer(cached)[:120]} != uncached {_answer(fresh)[:120]}"]


# -- point 1: checked code under a name the key once skipped -------------------------------------------

SKIP_NAMES = (".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache")


def _move_package(ws: Path, name: str) -> Path:
    rollout = ws / ROLLOUT
    (rollout / PACKAGE).rename(rollout / name)
    for py in rollout.rglob("*.py"):
        py.write_text(py.read_text(encoding="utf-8").replace(PACKAGE, name), encoding="utf-8")
    return rollout / name / "workflow.py"


def skip_name_cases() -> list[Case]:
    out = []
    for name in SKIP_NAMES:
        for when in ("edit", "commit"):
            def prepare(sb: Sandbox, name=name, when=when) -> Plan:
                ws = copy_base(sb, "blank-ws")
                workflow = _move_package(ws, name)
                sb.git("add", "-A")
                sb.git("commit", "--allow-empty", "-qm", "package renamed")
                found: list[str] = []

                def act(s: Sandbox) -> None:
                    s.run("doctor", s.ws, "-f", "json")  # fills the cache
                    workflow.write_text(workflow.read_text(encoding="utf-8").replace("async def run", "def run", 1), encoding="utf-8")
                    if when == "commit":
                        s.git("add", "-A")
                        s.git("commit", "--allow-empty", "-qm", "broken")
                    found.extend(_same_as_uncached(s))
                return Plan(act, rule="none", consistent=lambda s: found)
            out.append(Case("cache-skip-names", f"{name}-{when}", prepare))
    return out


# -- point 1: crafted cache entries ------------------------------------------------------------------

ENTRIES = {
    "files-read-1e400": lambda e: json.dumps({**e, "files_read": "@"}).replace('"@"', "1e400"),
    "files-read-string": lambda e: json.dumps({**e, "files_read": "7"}),
    "findings-wrong-types": lambda e: json.dumps({**e, "findings": [["x", {"code": 1, "severity": "error"}], 5]}),
    "suppression-1e400": lambda e: json.dumps({**e, "suppressions": [{"path": "a", "line": "@", "column": 1, "codes": [],
                                                                     "whole_file": False}]}).replace('"@"', "1e400"),
    "deep-100000": lambda e: "[" * 100_000 + "]" * 100_000,
    "not-an-object": lambda e: "[1, 2, 3]",
    "huge-sparse": None,
}


def entry_cases() -> list[Case]:
    out = []
    for name, craft in ENTRIES.items():
        for target in ("entry", "walk", "units"):
            if target != "entry" and name in ("files-read-1e400", "files-read-string", "suppression-1e400"):
                continue

            def prepare(sb: Sandbox, craft=craft, target=target) -> Plan:
                copy_base(sb, "blank-ws")
                found: list[str] = []

                def act(s: Sandbox) -> None:
                    first = s.run("doctor", s.ws, "-f", "json")
                    cache = s.root / "home" / ".cache" / "osmosis-workspace" / "doctor"
                    files = [p for p in cache.rglob("*.json")]
                    pick = {"walk": "walk.json", "units": "units.json"}.get(target)
                    chosen = [p for p in files if (p.name == pick if pick else p.name not in ("walk.json", "units.json"))]
                    if not chosen:
                        chosen = [next(p.parent for p in files) / (pick or "none.json")]
                    for path in chosen:
                        if craft is None:
                            with open(path, "wb") as handle:
                                handle.truncate(1 << 30)  # 1 GB, sparse
                        else:
                            entry = json.loads(path.read_text()) if path.exists() and target == "entry" else {}
                            path.write_text(craft(entry))
                    if target != "entry":
                        (s.ws / "data" / "extra.jsonl").write_text('{"x": 1}\n')  # a miss: the memo files are read
                    again = s.run("doctor", s.ws, "-f", "json")
                    if target == "entry" and _answer(again) != _answer(first):
                        found.append("a crafted entry changed the answer")
                return Plan(act, rule="none", consistent=lambda s: found)
            out.append(Case("cache-entries", f"{name}-{target}", prepare))
    return out


# -- points 3 and 4: uv.lock forms and sizes ----------------------------------------------------------

def _bad_lock(ws: Path) -> tuple[Path, str]:
    """The blank rollout's lock with a litellm 1.106.12 / mcp 1.30.0 pair (DEP003's known-bad combination)."""
    lock = ws / ROLLOUT / "uv.lock"
    text = lock.read_text()
    extra = ('\n[[package]]\nname = "litellm"\nversion = "1.106.12"\nsource = { registry = "https://pypi.org/simple" }\n'
             '\n[[package]]\nname = "mcp"\nversion = "1.30.0"\nsource = { registry = "https://pypi.org/simple" }\n')
    for pkg in ("litellm", "mcp"):
        if f'\n[[package]]\nname = "{pkg}"\n' in text:
            start = text.index(f'\n[[package]]\nname = "{pkg}"\n')
            end = text.find("\n[[package]]\n", start + 1)
            text = text[:start] + (text[end:] if end >= 0 else "\n")
    return lock, text.rstrip("\n") + "\n" + extra


LOCK_FORMS = {
    "single-quotes": lambda t: t.replace('name = "litellm"', "name = 'litellm'"),
    "no-spaces": lambda t: t.replace('name = "litellm"', 'name="litellm"'),
    "wide-spaces": lambda t: t.replace('name = "litellm"\nversion = "1.106.12"', 'name   =  "litellm"\nversion =   "1.106.12"'),
    "version-first": lambda t: t.replace('name = "litellm"\nversion = "1.106.12"', 'version = "1.106.12"\nname = "litellm"'),
    "escaped-name": lambda t: t.replace('name = "litellm"', 'name = "lite\\u006clm"'),
    "quoted-key": lambda t: t.replace('name = "litellm"', '"name" = "litellm"'),
    "header-comment": lambda t: t.replace('[[package]]\nname = "litellm"', '[[package]] # router\nname = "litellm"'),
    "fake-in-multiline-string": lambda t: t.replace('version = 1\n', 'version = 1\nnote = """\n[[package]]\nname = "litellm"\nversion = "1.0.0"\n"""\n', 1),
}


def lock_form_cases() -> list[Case]:
    out = []
    for name, form in LOCK_FORMS.items():
        def prepare(sb: Sandbox, form=form) -> Plan:
            ws = copy_base(sb, "blank-ws")
            lock, text = _bad_lock(ws)
            lock.write_text(form(text))
            found: list[str] = []

            def act(s: Sandbox) -> None:
                result = s.run("doctor", s.ws, "--select", "DEP", "--no-cache")
                if "DEP003" not in result.out:
                    found.append("the known-bad pin was not reported")
            return Plan(act, consistent=lambda s: found)
        out.append(Case("lock-forms", name, prepare))
    return out


def lock_size_cases() -> list[Case]:
    def grown(sb: Sandbox, size: int) -> Path:
        ws = copy_base(sb, "blank-ws")
        lock, text = _bad_lock(ws)
        blocks = [f'\n[[package]]\nname = "filler-{i}"\nversion = "1.0.{i}"\nsource = {{ registry = "https://pypi.org/simple" }}\n'
                  f'wheels = [\n    {{ url = "https://files.example.invalid/filler_{i}-1.0-py3-none-any.whl", hash = "sha256:{hashlib.sha256(str(i).encode()).hexdigest()}", size = {i} }},\n]\n'
                  for i in range(size // 330)]
        lock.write_text(text + "".join(blocks))
        return lock

    def big(sb: Sandbox, size: int, sparse: bool = False) -> Plan:
        if sparse:
            lock = copy_base(sb, "blank-ws") / ROLLOUT / "uv.lock"
            with open(lock, "ab") as handle:
                handle.truncate(1 << 30)
            wanted = "DEP002"
        else:
            grown(sb, size)
            wanted = "DEP003"
        found: list[str] = []

        def act(s: Sandbox) -> None:
            result = s.run("doctor", s.ws, "--select", "DEP")
            if wanted not in result.out or (wanted == "DEP003" and "DEP002" in result.out):
                found.append(f"expected {wanted}: {result.last_line()}")
        return Plan(act, consistent=lambda s: found)

    return [Case("lock-size", "6MB", lambda sb: big(sb, 6_000_000)),
            Case("lock-size", "15MB", lambda sb: big(sb, 15_000_000)),
            Case("lock-size", "1GB-sparse", lambda sb: big(sb, 0, sparse=True))]


# -- point 5: deep JSON in every file we read ----------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


def deep_json_cases() -> list[Case]:
    def baseline(sb: Sandbox) -> Plan:
        copy_base(sb, "blank-ws")
        (sb.root / "tmp" / "base.json").write_text(DEEP)
        found: list[str] = []

        def act(s: Sandbox) -> None:
            result = s.run("doctor", s.ws, "--baseline", s.root / "tmp" / "base.json")
            if result.code != 2:
                found.append(f"exit {result.code}, not 2")
        return Plan(act, consistent=lambda s: found)

    def policy(sb: Sandbox) -> Plan:
        copy_base(sb, "upd-ws")
        (sb.ws / ".osmosis" / "template.json").write_text(DEEP)
        return Plan(lambda s: s.run("update", s.ws), rule="none")

    def journal(sb: Sandbox) -> Plan:
        ws = copy_base(sb, "blank-ws")
        undo = ws / ".osmosis-undo-deep"
        undo.mkdir()
        (undo / "journal.json").write_text("seal\n" + DEEP)
        return Plan(lambda s: s.run("doctor", s.ws), check_leftovers=False)  # the planted folder is ours

    def dataset(sb: Sandbox) -> Plan:
        ws = copy_base(sb, "blank-ws")
        (ws / "data" / "deep.jsonl").write_text('{"prompt": "q", "metadata": ' + "[" * 5_000 + "12345678901234567890" + "]" * 5_000 + "}\n")
        return Plan(lambda s: s.run("doctor", s.ws))

    return [Case("deep-json", "baseline", baseline), Case("deep-json", "update-policy", policy),
            Case("deep-json", "undo-journal", journal), Case("deep-json", "dataset-long-number", dataset)]


# -- point 8: --diff applies and equals --fix -----------------------------------------------------------

ODD = {"u2028": "\u2028", "form-feed": "\x0c", "lone-cr": "\r", "nel": "\u0085", "crlf": "\r\n", "vt": "\x0b"}


def diff_cases() -> list[Case]:
    out = []
    for name, odd in ODD.items():
        def prepare(sb: Sandbox, odd=odd) -> Plan:
            ws = copy_base(sb, "blank-ws")
            (ws / "CLAUDE.md").write_bytes(f"# notes{odd}more\nlast{odd}".encode())
            (ws / "AGENTS.md").unlink()
            found: list[str] = []

            def act(s: Sandbox) -> None:
                patched, fixed = s.work / "patched", s.work / "fixed"
                shutil.copytree(s.ws, patched, symlinks=True)
                shutil.copytree(s.ws, fixed, symlinks=True)
                s.run("doctor", s.ws, "--diff", "--unsafe-fixes")  # measured like every run
                (s.root / "tmp" / "p.patch").write_bytes(_stdout_of(s, "doctor", s.ws, "--diff", "--unsafe-fixes"))
                done = subprocess.run(["git", "apply", str(s.root / "tmp" / "p.patch")], cwd=patched, capture_output=True)
                if done.returncode != 0:
                    found.append("git apply refused the --diff: " + done.stderr.decode(errors="replace").strip()[:120])
                s.run("doctor", fixed, "--fix", "--unsafe-fixes")
                for rel in ("CLAUDE.md", "AGENTS.md"):
                    if (patched / rel).read_bytes() != (fixed / rel).read_bytes():
                        found.append(f"{rel}: the applied --diff is not what --fix wrote")
            return Plan(act, consistent=lambda s: found)
        out.append(Case("diff-lines", name, prepare))
    return out


def _stdout_of(sb: Sandbox, *argv) -> bytes:
    """The CLI's stdout alone, as bytes (sb.run keeps stdout and stderr together)."""
    import sys

    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", *map(str, argv)], cwd=sb.work, env=sb.env,
                          capture_output=True, timeout=sb.timeout)
    return done.stdout


# -- point 11: the update lock in a shared folder ----------------------------------------------------------

def update_lock_cases() -> list[Case]:
    def squat(sb: Sandbox, how: str) -> Plan:
        ws = copy_base(sb, "upd-ws")
        key = hashlib.sha256(os.path.realpath(ws).encode("utf-8", "surrogatepass")).hexdigest()[:24]
        old = sb.root / "tmp" / f"osmosis-lock-{key}"  # TMPDIR: where the lock used to be
        holder: list = []
        if how == "held":
            fd = os.open(old, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            holder.append(fd)
        elif how == "link":
            os.symlink(sb.root / "home" / ".bashrc", old)
        else:
            os.mkfifo(old)
        found: list[str] = []

        def act(s: Sandbox) -> None:
            try:
                result = s.run("update", s.ws)
                if "being changed by another osmosis command" in result.out:
                    found.append("a lock another user planted in the shared folder held the update off")
            finally:
                for fd in holder:
                    os.close(fd)
        return Plan(act, rule="update", consistent=lambda s: found)

    return [Case("update-lock", how, lambda sb, how=how: squat(sb, how)) for how in ("held", "link", "fifo")]


def all_cases() -> list[Case]:
    return (skip_name_cases() + entry_cases() + lock_form_cases() + lock_size_cases() + deep_json_cases()
            + diff_cases() + update_lock_cases())
