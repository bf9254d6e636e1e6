"""Run model-written code against test inputs in a child process, and bring back what it returned.

No SDK import, and nothing here trusts the code it runs. For one answer:

- a fresh interpreter (``python -I -S``: no site-packages, no PYTHON* variables, no user site),
  started with an empty environment, in a temporary folder of its own as its working directory
  (removed afterwards), in a new session so the whole process group can be killed at once;
- before the answer's code runs, the child's harness (HARNESS below, passed with ``-c``) limits
  itself with ``resource`` (CPU seconds, address space, file size, open files, processes, no core
  files), takes a private network namespace where the kernel allows it (``unshare``: as root, or
  in a new user namespace), drops to user ``nobody`` when it runs as root (and nobody can read the
  standard library: a Python under /root cannot be imported from as nobody), and installs an audit
  hook that refuses sockets, new processes, signals, ctypes, thread creation, and any file access
  outside its folder (the standard library stays readable, for imports);
- the child gets the function's name and the INPUTS only; it sends back each return value as JSON
  on a pipe its harness owns (not stdout), each line framed with a per-run random nonce; the
  answer's own stdout and stderr go to another pipe, read up to a cap (more kills the child);
- the parent gives each test ``test_timeout_s`` and the whole answer ``deadline_s``; a test that
  hangs or crashes the child costs that test, and a new child takes up the tests after it (at most
  ``max_restarts`` times); at the end the session is killed (SIGKILL) and swept from /proc.

The parent alone holds the expected outputs (scoring.py compares them): whatever the child
prints or forges, it can only report values, never see the answers it is judged against.

What this is not: a container. The audit hook is a guard in the same interpreter as the answer
(CPython's audit hooks are not a security boundary), so a determined escape through an
interpreter bug is possible; the kernel-enforced parts are the resource limits, the session kill,
the network namespace (only where unshare is permitted) and the user switch (only as root, with a
standard library others can read).
For hard isolation run graders in a sandbox per trial (Harbor).
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

NOBODY = 65534


@dataclass(frozen=True)
class Limits:
    deadline_s: float = 10.0  # wall clock for one answer, every test and restart included
    test_timeout_s: float = 2.0  # wall clock for one test (the first also pays the answer's own set-up)
    cpu_s: int = 10  # RLIMIT_CPU of the child
    memory_bytes: int = 512 << 20  # RLIMIT_AS of the child
    file_bytes: int = 1 << 20  # RLIMIT_FSIZE: the largest file it may write (in its folder)
    open_files: int = 32  # RLIMIT_NOFILE
    output_bytes: int = 64 << 10  # the answer's stdout + stderr; more kills the child
    result_bytes: int = 1 << 20  # one test's reported value (JSON); more kills the child
    code_bytes: int = 100_000  # a longer answer is not run
    max_restarts: int = 2  # new children after a hang or a crash
    startup_s: float = 3.0  # more time for the first test: the interpreter starts (slower on a loaded machine)
    python: str = ""  # the child's interpreter ("": the grader's own, sys.executable)


DEFAULT_LIMITS = Limits()


@dataclass
class Run:
    """What one answer did: a JSON value (or None) per test, and why tests have none."""

    values: list[object]
    ok: list[bool]  # the test returned (its value is in ``values``)
    notes: list[str]  # one line per event (a timeout, a crash, a flood), for debugging
    output: str  # the answer's stdout/stderr, up to the cap
    seconds: float
    fatal: bool = False  # the answer failed as it loaded: no child is started again


# The child's side, run as `python -I -S -X utf8 -c HARNESS`. It reads one JSON request from stdin:
# {"code", "function", "inputs", "start", "fd", "nonce", "limits", "root"}.
HARNESS = r"""
import builtins, json, os, resource, sys

def _main():
    req = json.loads(sys.stdin.buffer.read())
    os.close(0)
    fd, nonce, lim, root = req["fd"], req["nonce"], req["limits"], os.path.realpath(req["root"])
    for mod in ("math", "itertools", "collections", "functools", "heapq", "bisect", "re", "string",
                "operator", "copy", "typing", "decimal", "fractions"):
        try:
            __import__(mod)
        except Exception:
            pass
    import copy
    _unshare_net()
    for name, value in (("RLIMIT_CPU", lim["cpu_s"]), ("RLIMIT_AS", lim["memory_bytes"]),
                        ("RLIMIT_FSIZE", lim["file_bytes"]), ("RLIMIT_NOFILE", lim["open_files"]),
                        ("RLIMIT_NPROC", 0), ("RLIMIT_CORE", 0)):
        kind = getattr(resource, name, None)
        if kind is not None:
            try:
                resource.setrlimit(kind, (value, value))
            except (ValueError, OSError):
                pass
    readable = tuple(os.path.realpath(p) for p in sys.path if p and os.path.isdir(p))
    if os.geteuid() == 0 and all(_open_to_others(p) for p in readable):
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    sys.addaudithook(_guard(root, readable))
    write = os.write
    dumps = json.dumps

    def send(index, status, payload):
        line = "%s %d %s %s\n" % (nonce, index, status, payload)
        write(fd, line.encode("utf-8", "replace"))

    start = req["start"]
    namespace = {"__name__": "__answer__", "__builtins__": builtins}
    try:
        exec(compile(req["code"], "<answer>", "exec"), namespace)
        func = namespace.get(req["function"])
        if not callable(func):
            raise NameError("the answer defines no function %r" % req["function"])
    except BaseException as err:
        send(start, "fatal", dumps("%s: %s" % (type(err).__name__, str(err)[:200])))
        os._exit(0)
    for index in range(start, len(req["inputs"])):
        try:
            value = func(*copy.deepcopy(req["inputs"][index]))
            payload, status = dumps(value, allow_nan=False), "ok"
        except BaseException as err:
            payload, status = dumps("%s: %s" % (type(err).__name__, str(err)[:200])), "error"
        send(index, status, payload)
    os._exit(0)

def _open_to_others(path):
    # nobody can import from `path`: others may list it and pass through every folder above it
    need = 0o005
    while True:
        if os.stat(path).st_mode & need != need:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path, need = parent, 0o001

def _unshare_net():
    flags_net, flags_user = 0x40000000, 0x10000000
    for flags in (flags_net, flags_net | flags_user):
        try:
            if hasattr(os, "unshare"):
                os.unshare(flags)
            else:
                import ctypes
                if ctypes.CDLL(None, use_errno=True).unshare(flags) != 0:
                    raise OSError(ctypes.get_errno(), "unshare")
            break
        except Exception:
            continue
    for name in ("ctypes", "_ctypes"):
        sys.modules.pop(name, None)

def _guard(root, readable):
    import os.path as p
    realpath, sep = p.realpath, p.sep
    blocked = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
               "os.forkpty", "os.kill", "os.killpg", "signal.pthread_kill", "ctypes.", "os.startfile",
               "pty.", "_thread.start_new_thread", "sys.addaudithook", "resource.setrlimit",
               "resource.prlimit", "os.chdir", "os.chroot", "gc.get_", "sys._current_frames", "mmap.",
               "sys.remote_exec", "os.add_dll_directory", "winreg.")
    banned = {"ctypes", "_ctypes", "socket", "_socket", "subprocess", "_posixsubprocess", "multiprocessing",
              "_multiprocessing", "ssl", "_ssl", "pty"}
    changes = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link", "os.truncate",
               "os.chmod", "os.chown", "os.utime", "os.chflags", "os.lchflags", "os.lchmod", "os.mkfifo",
               "os.mknod", "shutil.")
    listing = ("os.listdir", "os.scandir", "glob.glob", "os.walk", "os.fwalk")

    def inside(path, roots):
        if isinstance(path, int):
            return True
        if isinstance(path, bytes):
            path = path.decode("utf-8", "replace")
        if not isinstance(path, str):
            return False
        real = realpath(path)
        return any(real == r or real.startswith(r + sep) for r in roots)

    def hook(event, args):
        if event.startswith(blocked):
            raise PermissionError("not allowed in the grader's sandbox: " + event)
        if event == "import":
            if args and str(args[0]).split(".")[0] in banned:
                raise PermissionError("not allowed in the grader's sandbox: import " + str(args[0]))
        elif event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            changing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
            writing = any(c in (mode or "") for c in "wax+") or bool((flags or 0) & changing)
            if not inside(path, (root,) if writing else (root,) + readable):
                raise PermissionError("not allowed in the grader's sandbox: open %r" % (path,))
        elif event.startswith(listing):
            if args and not inside(args[0] if args[0] is not None else ".", (root,) + readable):
                raise PermissionError("not allowed in the grader's sandbox: " + event)
        elif event.startswith(changes):
            for arg in args[:2]:
                if isinstance(arg, (str, bytes)) and not inside(arg, (root,)):
                    raise PermissionError("not allowed in the grader's sandbox: " + event)
    return hook

_main()
"""


def _session_members(sid: int) -> list[int]:
    """Processes of session ``sid`` still alive (read from /proc; empty where there is none)."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        # after the command: state, ppid, pgrp, session
        if len(fields) > 3 and (fields[2] == str(sid) or fields[3] == str(sid)) and fields[0] != "Z":
            found.append(int(name))
    return found


def _kill_session(proc: subprocess.Popen) -> None:
    """SIGKILL the child's process group, then any process left in its session; reap the child."""
    for _ in range(3):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for pid in _session_members(proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            continue
        if not _session_members(proc.pid):
            return


def _remove(folder: str) -> None:
    """Remove the answer's folder, whatever modes it gave the folders inside."""
    stack = [folder]
    while stack:  # open every folder up first: one made unreadable would stop rmtree
        here = stack.pop()
        try:
            os.chmod(here, 0o700)
            with os.scandir(here) as entries:
                stack += [e.path for e in entries if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
    shutil.rmtree(folder, ignore_errors=True)


def _one_child(
    code: str,
    function: str,
    inputs: list,
    start: int,
    limits: Limits,
    deadline: float,
    cancel: threading.Event | None,
    run: Run,
) -> int | None:
    """One child from test ``start`` on; fills ``run``. Returns the index of the test it stopped at
    (hung, crashed, flooded), or None when it reported every test from ``start``."""
    folder = tempfile.mkdtemp(prefix="code-grader-")
    nonce = secrets.token_hex(16)
    result_r, result_w = os.pipe()
    proc = None
    try:
        if os.geteuid() == 0:
            os.chown(folder, NOBODY, NOBODY)
        request = json.dumps(
            {
                "code": code,
                "function": function,
                "inputs": inputs,
                "start": start,
                "fd": result_w,
                "nonce": nonce,
                "root": folder,
                "limits": {
                    "cpu_s": int(limits.cpu_s),
                    "memory_bytes": int(limits.memory_bytes),
                    "file_bytes": int(limits.file_bytes),
                    "open_files": int(limits.open_files),
                },
            }
        ).encode("utf-8")
        proc = subprocess.Popen(
            [limits.python or sys.executable, "-I", "-S", "-X", "utf8", "-c", HARNESS],
            cwd=folder,
            env={},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(result_w,),
            start_new_session=True,
            close_fds=True,
        )
        os.close(result_w)
        result_w = -1
        try:
            proc.stdin.write(request)
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        return _watch(proc, result_r, nonce, start, len(inputs), limits, deadline, cancel, run)
    finally:
        if proc is not None:
            _kill_session(proc)
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        for fd in (result_r, result_w):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        _remove(folder)


def _watch(
    proc: subprocess.Popen,
    result_r: int,
    nonce: str,
    start: int,
    total: int,
    limits: Limits,
    deadline: float,
    cancel: threading.Event | None,
    run: Run,
) -> int | None:
    expected = start
    test_deadline = min(deadline, time.monotonic() + limits.test_timeout_s + limits.startup_s)
    pending = b""
    output = bytearray()
    sel = selectors.DefaultSelector()
    sel.register(result_r, selectors.EVENT_READ, "result")
    sel.register(proc.stdout.fileno(), selectors.EVENT_READ, "output")
    open_streams = 2
    try:
        while expected < total:
            now = time.monotonic()
            if cancel is not None and cancel.is_set():
                run.notes.append("cancelled")
                return expected
            if now >= test_deadline:
                run.notes.append(
                    f"test {expected}: no result within its time" + (" (answer deadline)" if now >= deadline else "")
                )
                return expected
            if open_streams == 0:
                run.notes.append(f"test {expected}: the child exited without a result")
                return expected
            for key, _ in sel.select(timeout=min(0.1, max(0.0, test_deadline - now))):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fd)
                    open_streams -= 1
                    continue
                if key.data == "output":
                    output += chunk
                    if len(output) > limits.output_bytes:
                        run.output = output[: limits.output_bytes].decode("utf-8", "replace")
                        run.notes.append(f"test {expected}: output over {limits.output_bytes} bytes")
                        return expected
                    continue
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    if not _take(line, nonce, expected, run):
                        return expected
                    expected += 1
                    test_deadline = min(deadline, time.monotonic() + limits.test_timeout_s)
                if len(pending) > limits.result_bytes:
                    run.notes.append(f"test {expected}: its value is over {limits.result_bytes} bytes")
                    return expected
        return None
    finally:
        sel.close()
        if output and not run.output:
            run.output = bytes(output[: limits.output_bytes]).decode("utf-8", "replace")


def _take(line: bytes, nonce: str, expected: int, run: Run) -> bool:
    """One result line: `NONCE INDEX STATUS JSON`. False (stop the child) when it is not one."""
    parts = line.decode("utf-8", "replace").split(" ", 3)
    if len(parts) != 4 or parts[0] != nonce or parts[1] != str(expected) or parts[2] not in ("ok", "error", "fatal"):
        run.notes.append(f"test {expected}: a malformed result line")
        return False
    try:
        value = json.loads(parts[3])
    except ValueError:
        run.notes.append(f"test {expected}: a value that is not JSON")
        return False
    if parts[2] == "ok":
        run.values[expected], run.ok[expected] = value, True
    elif parts[2] == "fatal":  # the answer did not load, or has no such function: no test can pass
        run.notes.append(f"the answer failed before any test: {str(value)[:200]}")
        run.fatal = True
        return False
    else:
        run.notes.append(f"test {expected}: {str(value)[:200]}")
    return True


def run_answer(
    code: str, function: str, inputs: list, limits: Limits = DEFAULT_LIMITS, cancel: threading.Event | None = None
) -> Run:
    """Run ``code``'s ``function`` on each of ``inputs`` (lists of arguments) in the sandbox.

    Blocking (seconds at most ``limits.deadline_s`` and a little more to clean up): call it from a
    thread, not the event loop. ``cancel`` set from another thread stops it early.
    """
    began = time.monotonic()
    run = Run([None] * len(inputs), [False] * len(inputs), [], "", 0.0)
    if len(code.encode("utf-8", "replace")) > limits.code_bytes:
        run.notes.append(f"the answer is over {limits.code_bytes} bytes; not run")
        return run
    if os.name != "posix":  # process groups, pass_fds, resource: the platform's Linux, or macOS
        run.notes.append("the sandbox runs code on POSIX systems only (Linux, macOS); not run")
        return run
    deadline = began + limits.deadline_s
    start, restarts = 0, 0
    while start < len(inputs) and time.monotonic() < deadline and not (cancel is not None and cancel.is_set()):
        stopped = _one_child(code, function, inputs, start, limits, deadline, cancel, run)
        if stopped is None or run.fatal or restarts >= limits.max_restarts:
            break
        start, restarts = stopped + 1, restarts + 1
    run.seconds = time.monotonic() - began
    return run
