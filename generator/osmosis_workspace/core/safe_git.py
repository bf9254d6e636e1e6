"""Git on a repository we do not trust: nothing it names runs, nothing of it is rewritten, no call hangs.

A workspace's `.git` (reached directly, through a gitdir file, an `include`, `core.worktree` or a
submodule) can name programs git starts on its own: `core.fsmonitor`, hooks (`post-index-change`,
`reference-transaction`, any `core.hooksPath`), clean/smudge/process filters, a gpg program. A
workspace received as an archive or a pull request is enough to plant them, so every git call of
ours on a workspace goes through :func:`run`:

* git's repository variables (`git rev-parse --local-env-vars`: GIT_DIR, GIT_WORK_TREE,
  GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS, ...) are cleared: inside another repository's hook they name
  that repository, not the workspace. A caller passes the ones it means in ``env``.
* configuration overrides in GIT_CONFIG_COUNT/KEY/VALUE (they win over every config file, and need no
  quoting of a filter's name) turn off fsmonitor, hooks, the untracked cache, signing and auto-gc, and
  empty every filter driver the repository's own config defines. Drivers from the user's global or
  system config (git-lfs) stay: they are the user's programs, and without them LFS files read as changed.
* GIT_OPTIONAL_LOCKS=0: a read (`git status`) never rewrites `.git/index`.
* a timeout: a git that hangs (a pathological `.gitignore`, an include naming a FIFO) raises
  :class:`GitTimeout` instead of hanging us. `OSMOSIS_GIT_TIMEOUT` (seconds) changes the default.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

# `git rev-parse --local-env-vars` (git 2.39), plus the numbered config variables GIT_CONFIG_COUNT indexes
LOCAL_ENV_VARS = (
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
    "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
)
OVERRIDES = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),  # no hook can exist under a device
    ("core.untrackedCache", "false"),
    ("core.pager", "cat"),
    ("commit.gpgSign", "false"),
    ("tag.gpgSign", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("submodule.recurse", "false"),
    ("safe.bareRepository", "explicit"),  # a bare repository planted in a workspace folder is not discovered
)
_TRUSTED_SCOPES = frozenset({"global", "system"})
_DEFAULT_TIMEOUT = 20.0  # under the 40-60 s a CI step or our campaign calls a hang; a huge repository sets more


class GitError(Exception):
    """git could not be run, or failed; ``str()`` is one line."""


class GitMissing(GitError):
    pass


class GitTimeout(GitError):
    def __init__(self, command: str, seconds: float, again: bool = False):
        text = (f"git did not finish within {seconds:g} s in this repository earlier, so `git {command}` was not run"
                if again else f"`git {command}` did not finish within {seconds:g} s and was stopped")
        super().__init__(text)
        self.command, self.seconds = command, seconds


class GitFailed(GitError):
    def __init__(self, command: str, code: int, stderr: bytes):
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        self.detail = lines[-1].strip() if lines else f"exit status {code}"
        self.code = code
        super().__init__(f"git {command} failed: {self.detail}")


def timeout() -> float:
    """The default per-call timeout: `OSMOSIS_GIT_TIMEOUT` seconds when set to a positive number."""
    try:
        value = float(os.environ.get("OSMOSIS_GIT_TIMEOUT", ""))
    except ValueError:
        return _DEFAULT_TIMEOUT
    return value if 0 < value < 1e6 else _DEFAULT_TIMEOUT


def run(cwd: Path | str, *args: str, env: Mapping[str, str] | None = None, input: bytes | None = None,
        check: bool = True, seconds: float | None = None, keep_index: bool = False) -> subprocess.CompletedProcess:
    """``git ARGS`` in ``cwd`` on an untrusted repository; stdout and stderr as bytes.

    ``env`` adds variables after the inherited git ones are cleared (GIT_DIR for a render folder, a
    temporary GIT_INDEX_FILE). ``keep_index`` keeps an inherited GIT_INDEX_FILE that lies inside this
    repository's own git folder: doctor run from this repository's pre-commit hook judges the index
    being committed. Raises GitMissing, GitTimeout, and GitFailed when ``check`` and git exits non-zero.
    """
    return start(cwd, *args, env=env, input=input, check=check, seconds=seconds, keep_index=keep_index).result()


def start(cwd: Path | str, *args: str, env: Mapping[str, str] | None = None, input: bytes | None = None,
          check: bool = True, seconds: float | None = None, keep_index: bool = False) -> Started:
    """:func:`run`, with git started now and waited for by ``.result()``: two git calls can run at once
    (doctor's `git status` while it reads the branch). The timeout counts from now; ``.result()``
    raises what :func:`run` would."""
    if (stuck := _STUCK.get(str(cwd))) is not None:  # one wait per repository, not one per call
        raise GitTimeout(" ".join(args[:2]), stuck, again=True)
    if (_EARLY and input is None and seconds is None
            and (early := _EARLY.pop(_early_key(cwd, args, env, check, keep_index), None)) is not None):
        early.deadline = time.monotonic() + early.limit  # its time counts from now, as a call's would
        return early
    base = clean_env(env)
    if keep_index:
        base.update(_own_index(cwd, base))
    if not (args and args[0] == "config"):
        base = _with_overrides(base, _local_filters(cwd, base))
    return Started(cwd, args, base, input, check, seconds)


_EARLY: dict[tuple, Started] = {}  # started_early's gits, not yet asked for


def _early_key(cwd, args, env, check, keep_index) -> tuple:
    return (str(cwd), tuple(args), tuple(sorted((env or {}).items())), check, keep_index)


def start_early(cwd: Path | str, *args: str, env: Mapping[str, str] | None = None, check: bool = True,
                keep_index: bool = False) -> None:
    """Start ``git ARGS`` now for a call with the very same arguments later (:func:`start` or :func:`run`,
    no input, the default timeout), which then takes this process instead of starting one: git works
    while the caller does something else. What nobody asks for is ended by :func:`stop_early`."""
    key = _early_key(cwd, args, env, check, keep_index)
    if key not in _EARLY:
        try:
            _EARLY[key] = _from_probe(cwd, args, env, check) or start(cwd, *args, env=env, check=check,
                                                                        keep_index=keep_index)
        except GitError:
            pass  # the call itself meets it, and says so


def stop_early() -> None:
    """End the early gits nobody asked for, and forget the run's config probes: the next run (of a
    long-lived process: the language server, `doctor --watch`) probes again, so a filter driver the
    config gained since is emptied too (kept, it ran on the next `git status`)."""
    while _EARLY:
        _EARLY.popitem()[1].stop()
    while _PROBING:
        _PROBING.popitem()[1][1].stop()
    _FILTER_CACHE.clear()


def ceiling_env(git_root: Path) -> dict[str, str]:
    """git's discovery stopped at ``git_root``: a broken `.git` there is not replaced by a folder above's."""
    return {"GIT_CEILING_DIRECTORIES": str(git_root.parent)}


def probe_early(cwd: Path | str, env: Mapping[str, str] | None = None) -> None:
    """Start now, without waiting for it, the config probe a later call in ``cwd`` with ``env`` makes:
    that call takes its answer (its timeout counting from then) when it would have probed with the very
    same environment, else ends it and probes as before; :func:`stop_early` ends one nobody took.
    Doctor starts it before its checks are imported, so it is done when they ask (issue 40)."""
    base = clean_env(env)
    key = (str(cwd), base.get("GIT_DIR", ""))
    if key in _FILTER_CACHE or key in _PROBING or str(cwd) in _STUCK:
        return
    try:
        probe_env = _with_overrides(base, [])
        _PROBING[key] = (probe_env, Started(cwd, _PROBE_ARGS, probe_env, None, False, None))
    except GitError:
        pass  # the call that needs the probe starts it again, and meets the same error


class OutputTooLarge(GitError):
    """git printed more than the caller's limit (a listing of a hostile tree may be any size)."""


def run_capped(cwd: Path | str, *args: str, env: Mapping[str, str] | None = None, limit: int) -> bytes:
    """:func:`run`'s stdout, at most ``limit`` bytes: beyond it git is stopped (`OutputTooLarge`)."""
    import tempfile

    _refuse_nul(args)
    base = clean_env(env)
    base = _with_overrides(base, _local_filters(cwd, base))
    try:
        with tempfile.TemporaryFile() as err, subprocess.Popen(["git", *args], cwd=cwd, env=base, stdin=subprocess.DEVNULL,
                                                              stdout=subprocess.PIPE, stderr=err) as proc:
            assert proc.stdout is not None
            out = proc.stdout.read(limit + 1)
            if len(out) > limit:
                proc.kill()
                raise OutputTooLarge(f"git {args[0]} printed more than {limit >> 20} MB")
            if proc.wait() != 0:
                err.seek(0)
                raise GitFailed(args[0] if args else "", proc.returncode, err.read(4096))
    except FileNotFoundError as error:
        raise GitMissing("git is not installed (not found on PATH)") from error
    return out


def out(cwd: Path | str, *args: str, **kwargs) -> str:
    """:func:`run`'s stdout as text (undecodable bytes kept as surrogates, as file names are)."""
    return run(cwd, *args, **kwargs).stdout.decode("utf-8", "surrogateescape")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment minus git's repository variables and any numbered config override, plus ``extra``."""
    env = {k: v for k, v in os.environ.items()
           if k not in LOCAL_ENV_VARS and not k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    env.update(extra or {})
    return env


def forget_outer_repository() -> None:
    """Drop git's repository variables from this process's environment. For a command that writes a
    workspace (init, rollout new, update) every git call, ours or copier's, is about the workspace or a
    template, never about the repository whose hook may have started us."""
    for name in [k for k in os.environ
                 if k in LOCAL_ENV_VARS or k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))]:
        del os.environ[name]


def _refuse_nul(args) -> None:
    """An argument with a NUL byte came from an earlier git answer that was not git's output (the OS
    would refuse it with a ValueError): said as a GitError, like any git that misbehaves."""
    if any("\0" in str(a) for a in args):
        raise GitError(f"git {args[0] if args else ''} would get an argument with a NUL byte, which git never prints: "
                       "is the `git` on PATH git?")


def _spawn(cwd, args, env, input, check, seconds) -> subprocess.CompletedProcess:
    return Started(cwd, args, env, input, check, seconds).result()


class Started:
    """One git process, started: ``result()`` waits for it (within the timeout, from the start) and
    raises as :func:`run` does. A git that cannot start raises at once, from the constructor."""

    def __init__(self, cwd, args, env, input, check, seconds) -> None:
        self.cwd, self.args, self.input, self.check = cwd, args, input, check
        self.limit = timeout() if seconds is None else seconds
        _refuse_nul(args)
        self.deadline = time.monotonic() + self.limit
        try:
            self.proc = subprocess.Popen(["git", *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL)
        except FileNotFoundError as err:
            if not Path(cwd).is_dir():
                raise GitError(f"cannot run git in {cwd}: the folder is gone") from None
            raise GitMissing("git is not installed (not found on PATH)") from err
        except OSError as err:  # E2BIG, EMFILE, EACCES on the git program
            raise GitError(f"cannot run git: {err.strerror or err}") from None

    def result(self) -> subprocess.CompletedProcess:
        proc = self.proc
        try:  # as subprocess.run: a git past its time is killed and reaped
            with proc:
                try:
                    stdout, stderr = proc.communicate(self.input, timeout=max(0.0, self.deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    raise
                except BaseException:  # Ctrl-C: not a wait for git
                    proc.kill()
                    raise
        except subprocess.TimeoutExpired:
            _STUCK[str(self.cwd)] = self.limit
            raise GitTimeout(" ".join(self.args[:2]), self.limit) from None
        done = subprocess.CompletedProcess(["git", *self.args], proc.returncode, stdout, stderr)
        if self.check and done.returncode != 0:
            raise GitFailed(self.args[0] if self.args else "", done.returncode, done.stderr)
        return done

    def stop(self) -> None:
        """End a git whose answer is no longer wanted (the caller failed before it asked)."""
        with self.proc as proc:
            proc.kill()


def _with_overrides(env: dict[str, str], drivers: list[str]) -> dict[str, str]:
    pairs = list(OVERRIDES)
    for driver in drivers:
        pairs += [(f"filter.{driver}.clean", ""), (f"filter.{driver}.smudge", ""),
                  (f"filter.{driver}.process", ""), (f"filter.{driver}.required", "false")]
    env = dict(env)
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for i, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"] = key, value
    return env


_FILTER_CACHE: dict[tuple[str, str], list[str]] = {}
_STUCK: dict[str, float] = {}  # folders where git timed out in this process -> the limit it had


# Keys the filter probe also reads, for a `git config --get KEY` started early in the same breath
# (:func:`_from_probe`): one git process instead of two on a cold doctor run (issue 40).
PROBED = ("remote.origin.url",)
# A key `git init` writes in every repository's own config: the probe runs under safe.bareRepository=explicit,
# `git config --get` without it, so only a probe that read the repository's own config (an entry of scope
# local or worktree) answers; one the override kept out of a bare repository read the user's config alone.
_READ_REPOSITORY = "core.repositoryformatversion"
_PROBE = r"^filter\.|^(" + "|".join(k.replace(".", r"\.") for k in (*PROBED, _READ_REPOSITORY)) + r")$"


def _local_filters(cwd: Path | str, env: dict[str, str]) -> list[str]:
    """Filter drivers the repository's own config (and what it includes) defines: ``filter.<name>.*``."""
    key = (str(cwd), env.get("GIT_DIR", ""))
    if key not in _FILTER_CACHE:
        _probe(cwd, env)
    return _FILTER_CACHE[key]


_PROBE_ARGS = ("config", "--show-scope", "-z", "--includes", "--get-regexp", _PROBE)
_PROBING: dict[tuple[str, str], tuple[dict[str, str], Started]] = {}  # probe_early's probes (their env), not yet read


def _probe(cwd: Path | str, env: dict[str, str]) -> subprocess.CompletedProcess | None:
    """Ask the config for its filters (cached) and the :data:`PROBED` keys; git's answer, None when
    git failed to run (the real command will fail or time out the same way, and say so)."""
    key, probe_env = (str(cwd), env.get("GIT_DIR", "")), _with_overrides(env, [])
    early_env, early = _PROBING.pop(key, (None, None))
    if early is not None and early_env != probe_env:
        early.stop()  # started for another caller's environment (git would find another repository)
        early = None
    try:
        if early is not None:
            early.deadline = time.monotonic() + early.limit  # as a call's: its time counts from now
            done = early.result()
        else:
            done = _spawn(cwd, _PROBE_ARGS, probe_env, None, False, None)
    except (GitMissing, GitTimeout):
        raise
    except GitError:
        done = None
    names: list[str] = []
    for scope, name, _ in _entries(done):
        if scope not in _TRUSTED_SCOPES and name.startswith("filter.") and name.count(".") >= 2:
            names.append(name[len("filter."):name.rindex(".")])
    _FILTER_CACHE[key] = list(dict.fromkeys(names))
    return done


def _entries(done: subprocess.CompletedProcess | None) -> list[tuple[str, str, bytes | None]]:
    """(scope, key, value or None for a key with no `=`) of `git config --show-scope -z --get-regexp`."""
    if done is None or done.returncode != 0:
        return []
    items = done.stdout.split(b"\0")
    found = []
    for scope, entry in zip(items[0::2], items[1::2]):
        name, newline, value = entry.partition(b"\n")
        found.append((scope.decode("utf-8", "replace"), name.decode("utf-8", "surrogateescape"), value if newline else None))
    return found


def _from_probe(cwd: Path | str, args: tuple[str, ...], env: Mapping[str, str] | None, check: bool) -> Answered | None:
    """`git config --get KEY` for a :data:`PROBED` key, answered from a probe run now: only when this
    repository was not probed yet (a probe made earlier in a long-lived process may be stale)."""
    if not (len(args) == 3 and args[:2] == ("config", "--get") and args[2] in PROBED):
        return None
    base = clean_env(env)
    if (str(cwd), base.get("GIT_DIR", "")) in _FILTER_CACHE or (done := _probe(cwd, base)) is None:
        return None
    if not _well_formed(done):
        return None  # not git's shape (a broken or foreign `git` on PATH): git itself is asked, as before
    entries = _entries(done)
    if not any(scope in ("local", "worktree") for scope, _, _ in entries):
        return None  # the repository's own config was not read (refused, broken, or none): git is asked
    values = [value for _, name, value in entries if name == args[2]]
    # as `git config --get` says it: the last value (an empty line for a key with no `=`), else exit 1
    code = done.returncode or (0 if values else 1)
    if check and code != 0:
        return None  # the call itself fails, and says so
    return Answered(subprocess.CompletedProcess(["git", *args], code, (values[-1] or b"") + b"\n" if values else b"",
                                                done.stderr))


# every scope `git config --show-scope` prints (git's config_scope_name)
_SCOPES = frozenset({"system", "global", "local", "worktree", "command", "submodule", "unknown"})


def _well_formed(done: subprocess.CompletedProcess) -> bool:
    """The probe's output has the shape git gives it: entries `scope NUL key [LF value] NUL`, each a
    known scope and a key the probe asked for; nothing at all when git found none or failed."""
    if done.returncode != 0:
        return done.stdout == b""
    if not done.stdout.endswith(b"\0"):
        return False
    items = done.stdout[:-1].split(b"\0")
    if len(items) % 2:
        return False
    for scope, entry in zip(items[0::2], items[1::2]):
        name = entry.partition(b"\n")[0].decode("utf-8", "surrogateescape")
        if scope.decode("utf-8", "replace") not in _SCOPES or not (name.startswith("filter.") or name in PROBED
                                                                      or name == _READ_REPOSITORY):
            return False
    return True


class Answered:
    """A :class:`Started` whose answer is already known."""

    def __init__(self, done: subprocess.CompletedProcess) -> None:
        self.done, self.limit, self.deadline = done, 0.0, 0.0

    def result(self) -> subprocess.CompletedProcess:
        return self.done

    def stop(self) -> None:
        pass


def _own_index(cwd: Path | str, env: dict[str, str]) -> dict[str, str]:
    """{"GIT_INDEX_FILE": ...} when the inherited one is a file in this repository's git folder."""
    inherited = os.environ.get("GIT_INDEX_FILE")
    if not inherited:
        return {}
    key = (str(cwd), inherited)
    if key not in _INDEX_CACHE:
        _INDEX_CACHE[key] = _index_inside(cwd, env, inherited)
    return _INDEX_CACHE[key]


_INDEX_CACHE: dict[tuple[str, str], dict[str, str]] = {}


def _index_inside(cwd: Path | str, env: dict[str, str], inherited: str) -> dict[str, str]:
    try:
        gitdir = _spawn(cwd, ("rev-parse", "--absolute-git-dir"), _with_overrides(env, []), None, True, None)
    except GitError:
        return {}
    folder = Path(gitdir.stdout.decode("utf-8", "surrogateescape").strip())
    index = Path(os.path.abspath(inherited))  # git names it relative to the hook's folder: ours
    try:
        inside = index.parent.resolve() == folder.resolve()
    except OSError:
        return {}
    return {"GIT_INDEX_FILE": str(index)} if inside else {}
