"""One case's sandbox, the CLI run inside it, and the measurements taken around the run.

A sandbox is a folder holding:
  work/     the command's target area (the workspace, or the folder `init` creates its target in)
  home/     a fake HOME: .bashrc, .gitconfig, .ssh/, secrets/ (HOME points here)
  outside/  files that links planted in the workspace point to
  tpl/      hostile templates and the programs they name (read by the CLI, never written)
  tmp/      TMPDIR (lock files are allowed here; staging leftovers are counted)
  CODE_RAN  written by every hostile hook, filter, fsmonitor or task: its existence means code ran
Everything except work/, tmp/ and CODE_RAN is "outside": hashed before and after each case.
"""

from __future__ import annotations

import hashlib
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PY = sys.executable
PRIVDROP = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"]
TRACEBACK = "Traceback (most recent call last)"
# Issue 18's bound: no case may take more memory than this (the peak of the CLI and what it waited for).
MEMORY_LIMIT_MB = 500
# In every run's environment: a command that prints it disclosed a secret (issue 18, point 4).
CANARY = "sk-campaign-canary-7f3a9c"


def git_env(sb_root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "OSMOSIS_", "PYTEST"))}
    env.update(
        HOME=str(sb_root / "home"), TMPDIR=str(sb_root / "tmp"), GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Campaign User", GIT_AUTHOR_EMAIL="user@example.invalid",
        GIT_COMMITTER_NAME="Campaign User", GIT_COMMITTER_EMAIL="user@example.invalid",
        NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1", LC_ALL="C.UTF-8", CAMPAIGN_TOKEN=CANARY,
    )
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_CACHE_HOME", None)
    return env


@dataclass
class Run:
    argv: list[str]
    code: int | None  # None: hang (killed at the timeout) or killed by us on purpose
    out: str
    seconds: float
    hang: bool = False
    killed: bool = False  # we sent the signal on purpose (kill category)
    raw: bytes = b""  # stdout and stderr as they came
    peak_mb: float = 0.0  # the CLI process's peak resident memory (VmHWM, polled)

    @property
    def secret_printed(self) -> bool:
        return CANARY.encode() in self.raw or b"sk-live-do-not-touch" in self.raw

    @property
    def raw_control(self) -> bool:
        """A control character (other than newline and tab) or bytes that are not UTF-8 in the output."""
        try:
            text = self.raw.decode("utf-8")
        except UnicodeDecodeError:
            return True
        return any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in text)

    @property
    def traceback(self) -> bool:
        return self.code == 3 or (TRACEBACK in self.out and not self.interrupted_interpreter_start)

    @property
    def interrupted_interpreter_start(self) -> bool:
        """Our Ctrl-C landed while Python itself was starting (importing site or runpy, before any
        osmosis module or installed package ran): the interpreter's traceback, which no program can catch."""
        frames = [ln.strip() for ln in self.out.splitlines() if ln.strip().startswith('File "')]
        starting = any(mark in self.out for mark in ('File "<frozen site>"', 'File "<frozen runpy>"', "init_import_site",
                                                        "Could not import runpy module"))
        ours = any("/generator/" in f or "site-packages" in f for f in frames)
        return self.killed and bool(frames) and starting and not ours

    def last_line(self) -> str:
        lines = [ln for ln in self.out.strip().splitlines() if ln.strip()]
        return lines[-1][:200] if lines else ""


def _watch_peak(proc: subprocess.Popen) -> None:
    """Poll the child's VmHWM (its own high-water RSS since exec) until it is gone; keep the highest.
    wait4's ru_maxrss would not do: Linux folds the forking parent's RSS at fork time into the child's
    maximum at exec, and the campaign itself holds hundreds of MB after writing a big input file."""
    status = Path(f"/proc/{proc.pid}/status")

    def poll() -> None:
        while True:
            try:
                text = status.read_text()
            except OSError:
                return
            line = next((ln for ln in text.splitlines() if ln.startswith("VmHWM:")), None)
            if line is None:  # a zombie: exited, not yet reaped
                return
            proc.peak_kb = max(proc.peak_kb, int(line.split()[1]))
            time.sleep(0.02)

    proc.peak_kb = 0
    threading.Thread(target=poll, daemon=True).start()


def _start(argv: list[str], cwd: Path, env: dict[str, str], privdrop: bool) -> subprocess.Popen:
    full = [PY, "-m", "osmosis_workspace", *argv]
    if privdrop and os.geteuid() == 0:
        full = PRIVDROP + full
    proc = subprocess.Popen(full, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_default_sigint)
    _watch_peak(proc)
    return proc


def _default_sigint() -> None:
    """Ctrl-C as a terminal delivers it: a campaign started in the background (`cmd &`) inherits SIGINT
    ignored, and Python then installs no KeyboardInterrupt handler, so the ctrl-c cases would test nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _killpg(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def _finish(proc: subprocess.Popen, argv: list[str], started: float, timeout: float, killed: bool = False) -> Run:
    try:
        out, _ = proc.communicate(timeout=max(0.1, timeout - (time.monotonic() - started)))
        hang = False
    except subprocess.TimeoutExpired:
        _killpg(proc)
        out, _ = proc.communicate()
        hang = True
    code = None if hang or killed else proc.returncode
    text = out.decode("utf-8", "replace")
    return Run(argv, code, text, time.monotonic() - started, hang=hang, killed=killed, raw=out,
               peak_mb=round(getattr(proc, "peak_kb", 0) / 1024, 1))


@dataclass
class Sandbox:
    root: Path
    timeout: float
    runs: list[Run] = field(default_factory=list)
    env_extra: dict[str, str] = field(default_factory=dict)

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def ws(self) -> Path:
        return self.root / "work" / "ws"

    @property
    def marker(self) -> Path:
        return self.root / "CODE_RAN"

    @property
    def env(self) -> dict[str, str]:
        return {**git_env(self.root), **self.env_extra}

    def setup(self) -> None:
        for name in ("work", "home", "outside", "tpl", "tmp"):
            (self.root / name).mkdir(parents=True, exist_ok=True)
        home = self.root / "home"
        (home / ".bashrc").write_text("# my shell settings\nexport PATH=$HOME/bin:$PATH\n")
        (home / ".gitconfig").write_text("[alias]\n\tst = status\n[init]\n\tdefaultBranch = main\n")
        (home / ".ssh").mkdir()
        (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n")
        (home / "secrets").mkdir()
        (home / "secrets" / "token.txt").write_text("sk-live-do-not-touch\n")
        out = self.root / "outside"
        (out / "victim.txt").write_text("outside data that must never change\n")
        (out / "victim.json").write_text('{"keep": true}\n')
        (out / "victim.toml").write_text('[keep]\nvalue = 1\n')
        (out / "dir").mkdir()
        (out / "dir" / "inner.txt").write_text("inner\n")

    def script(self, name: str = "evil.sh") -> Path:
        """A program that proves it ran by appending to CODE_RAN."""
        path = self.root / "tpl" / name
        path.write_text(f"#!/bin/sh\necho \"ran $0 $*\" >> '{self.marker}'\ncat >/dev/null 2>&1 || true\nexit 0\n")
        path.chmod(0o755)
        return path

    # -- running the CLI ----------------------------------------------------------------------

    def run(self, *argv, cwd: Path | None = None, privdrop: bool = False, timeout: float | None = None) -> Run:
        args = [str(a) for a in argv]
        started = time.monotonic()
        proc = _start(args, cwd or self.work, self.env, privdrop)
        result = _finish(proc, args, started, timeout or self.timeout)
        self.runs.append(result)
        return result

    def run_killed(self, *argv, delay: float, sig: int = signal.SIGKILL, cwd: Path | None = None) -> Run:
        """Start, send ``sig`` to the process group after ``delay`` seconds (unless it finished)."""
        args = [str(a) for a in argv]
        started = time.monotonic()
        proc = _start(args, cwd or self.work, self.env, False)
        try:
            proc.wait(timeout=delay)
            finished = True
        except subprocess.TimeoutExpired:
            finished = False
        if not finished:
            if sig == signal.SIGKILL:
                _killpg(proc, sig)
            else:
                os.kill(proc.pid, sig)  # Ctrl-C goes to the foreground process
        result = _finish(proc, args, started, self.timeout, killed=not finished and sig == signal.SIGKILL)
        result.killed = not finished
        if sig != signal.SIGKILL:
            result.code = proc.returncode if not result.hang else None
        self.runs.append(result)
        return result

    def run_pair(self, a: list, b: list, stagger: float, cwd: Path | None = None) -> tuple[Run, Run]:
        """Two writers at once: ``b`` starts ``stagger`` seconds after ``a``."""
        started = time.monotonic()
        pa = _start([str(x) for x in a], cwd or self.work, self.env, False)
        time.sleep(stagger)
        started_b = time.monotonic()
        pb = _start([str(x) for x in b], cwd or self.work, self.env, False)
        ra = _finish(pa, [str(x) for x in a], started, self.timeout)
        rb = _finish(pb, [str(x) for x in b], started_b, self.timeout)
        self.runs += [ra, rb]
        return ra, rb

    def git(self, *args, cwd: Path | None = None, check: bool = False) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *map(str, args)], cwd=cwd or self.ws, env=self.env, capture_output=True,
                              text=True, timeout=self.timeout, check=check)


# -- snapshots -----------------------------------------------------------------------------------


def _digest(path: Path, st: os.stat_result) -> str:
    h = hashlib.blake2b(digest_size=16)
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    return h.hexdigest()


def snapshot(root: Path, skip_top: tuple[str, ...] = (), skip_parts: tuple[str, ...] = ()) -> dict[str, tuple]:
    """lstat-based view of every entry under ``root`` (links are not followed, FIFOs not opened)."""
    view: dict[str, tuple] = {}
    if not root.exists():
        return view
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in skip_top]
            filenames = [f for f in filenames if f not in skip_top]
        dirnames[:] = [d for d in dirnames if d not in skip_parts]
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = os.path.normpath(os.path.join(rel_dir, name))
            try:
                st = os.lstat(path)
            except OSError:
                continue
            mode = st.st_mode
            if stat.S_ISLNK(mode):
                view[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                view[rel] = ("file", stat.S_IMODE(mode), st.st_size, st.st_mtime_ns, _digest(path, st))
            elif stat.S_ISDIR(mode):
                view[rel] = ("dir", stat.S_IMODE(mode))
            else:
                view[rel] = ("special", stat.S_IFMT(mode))
    return view


def diff(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    changes = []
    for rel in sorted(set(before) | set(after)):
        a, b = before.get(rel), after.get(rel)
        if a == b:
            continue
        if a is None:
            changes.append(f"new {rel}")
        elif b is None:
            changes.append(f"gone {rel}")
        else:
            changes.append(f"changed {rel}")
    return changes


def content_view(view: dict[str, tuple]) -> dict[str, tuple]:
    """Drop mtimes and folder modes: what a user would call the data."""
    out = {}
    for rel, entry in view.items():
        if entry[0] == "file":
            out[rel] = ("file", entry[2], entry[4])
        elif entry[0] == "dir":
            continue
        else:
            out[rel] = entry
    return out


LEFTOVER_PREFIXES = (".osmosis-init-", ".osmosis-new-", ".osmosis-undo-")


def leftovers(sb: Sandbox) -> list[str]:
    """Staging / journal folders beside or inside the target, and `osmosis-update-*` scratch in TMPDIR."""
    found = []
    for dirpath, dirnames, filenames in os.walk(sb.work, followlinks=False):
        depth = os.path.relpath(dirpath, sb.work).count(os.sep)
        for name in dirnames + filenames:
            if name.startswith(LEFTOVER_PREFIXES):
                found.append(os.path.relpath(os.path.join(dirpath, name), sb.root))
        dirnames[:] = [d for d in dirnames if d != ".git" and not d.startswith(LEFTOVER_PREFIXES)] if depth < 3 else []
    tmp = sb.root / "tmp"
    if tmp.is_dir():
        found += [f"tmp/{p.name}" for p in tmp.iterdir() if p.name.startswith("osmosis-update-")]
    return found
