"""Issue 18's families for git and output: a workspace's `.git` naming programs (ws-git-exec), a git that
hangs (git-hang), git variables of another repository exported (env-git-vars), a template "URL" that is a
git option (template-url-option), a report file name that is a link (report-output-link), links to files
the system generates (validate-secret-links), control characters and undecodable bytes in names
(output-control-chars)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from cases import Case, Plan, Sandbox, copy_base

MAIN = "rollouts/my-rollout/main.py"
CONFIG = "configs/eval/my-rollout.toml"


def _append(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        handle.write(text)


def _touch(ws: Path, rel: str = MAIN) -> None:
    later = time.time() + 5
    os.utime(ws / rel, (later, later))  # same content, new mtime: git hashes it again (a clean filter runs)


def _gitdir(ws: Path) -> Path:
    return ws / ".git"


# -- ws-git-exec: each plant makes git start sb.script() unless every git call is hardened ---------------

def _fsmonitor(sb, ws, prog):
    _append(_gitdir(ws) / "config", f"[core]\n\tfsmonitor = {prog}\n")


def _include(sb, ws, prog):
    (_gitdir(ws) / "evil.cfg").write_text(f"[core]\n\tfsmonitor = {prog}\n[filter \"x\"]\n\tclean = {prog}\n")
    _append(_gitdir(ws) / "config", "[include]\n\tpath = evil.cfg\n")
    _append(_gitdir(ws) / "info" / "attributes", "*.py filter=x\n")
    _touch(ws)


def _gitdir_file(sb, ws, prog):
    store = sb.work / "store.git"
    shutil.move(ws / ".git", store)
    (ws / ".git").write_text("gitdir: ../store.git\n")
    _append(store / "config", f"[core]\n\tworktree = {ws}\n\tfsmonitor = {prog}\n")


def _hooks(sb, ws, prog):
    for hook in ("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc"):
        shutil.copy(prog, _gitdir(ws) / "hooks" / hook)


def _hooks_path(sb, ws, prog):
    hooks = sb.work / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction"):
        shutil.copy(prog, hooks / hook)
    _append(_gitdir(ws) / "config", f"[core]\n\thooksPath = {hooks}\n")


def _filters(sb, ws, prog):
    (ws / ".gitattributes").write_text("*.py filter=a\n*.toml filter=b.c\n")
    sb.git("add", ".gitattributes")
    sb.git("commit", "-qm", "attributes")
    _append(_gitdir(ws) / "config", f"[filter \"a\"]\n\tclean = {prog}\n\trequired = true\n"
                                     f"[filter \"b.c\"]\n\tprocess = {prog}\n")
    _touch(ws)
    _touch(ws, CONFIG)


def _submodule(sb, ws, prog):
    sub = sb.work / "sub"
    sub.mkdir()
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-qm", "sub", "--allow-empty")):
        sb.git(*args, cwd=sub)
    sb.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "rollouts/my-rollout/vendored")
    sb.git("commit", "-qm", "submodule")
    _append(_gitdir(ws) / "modules" / "rollouts" / "my-rollout" / "vendored" / "config", f"[core]\n\tfsmonitor = {prog}\n")


PLANTS: dict[str, Callable] = {"fsmonitor": _fsmonitor, "include-fsmonitor-filter": _include, "gitdir-worktree": _gitdir_file,
                               "hooks": _hooks, "hooks-path": _hooks_path, "filters": _filters, "submodule": _submodule}


def _git_act(cmd: str) -> Callable[[Sandbox], None]:
    if cmd == "doctor":
        return lambda s: s.run("doctor", s.ws)
    if cmd == "validate":
        return lambda s: s.run("validate", s.ws / CONFIG)
    return lambda s: s.run("rollout", "new", "second", "--template", "blank", "--workspace", s.ws, "--defaults")


def _index_kept(sb: Sandbox, before: bytes) -> list[str]:
    index = sb.ws / ".git" / "index" if (sb.ws / ".git").is_dir() else sb.work / "store.git" / "index"
    return [] if index.read_bytes() == before else ["changed .git/index (a read-only check rewrote it)"]


def git_exec_cases() -> list[Case]:
    out = []
    for name, plant in PLANTS.items():
        for cmd in ("doctor", "validate", "rollout-new"):
            def prepare(sb, plant=plant, cmd=cmd):
                ws = copy_base(sb, "blank-ws")
                plant(sb, ws, sb.script())
                index = ws / ".git" / "index" if (ws / ".git").is_dir() else sb.work / "store.git" / "index"
                before = index.read_bytes()
                verify = (lambda s: _index_kept(s, before)) if cmd != "rollout-new" else None
                return Plan(_git_act(cmd), rule="frozen" if cmd != "rollout-new" else "additive", verify=verify)
            out.append(Case("ws-git-exec", f"{name}-{cmd}", prepare))
    return out


# -- git-hang: git itself would never finish --------------------------------------------------------------

def hang_cases() -> list[Case]:
    def gitignore(sb, ws):
        (ws / ".gitignore").write_text("**/" * 12 + "x\n")
        deep = ws / "rollouts" / "my-rollout" / Path(*["d"] * 30)
        deep.mkdir(parents=True)
        (deep / "f").write_text("")

    def include_fifo(sb, ws):
        os.mkfifo(sb.work / "config.fifo")
        _append(ws / ".git" / "config", f"[include]\n\tpath = {sb.work / 'config.fifo'}\n")

    def excludes_fifo(sb, ws):
        os.mkfifo(sb.work / "excludes.fifo")
        _append(ws / ".git" / "config", f"[core]\n\texcludesFile = {sb.work / 'excludes.fifo'}\n")

    out = []
    for name, plant in (("gitignore-backtracking", gitignore), ("include-fifo", include_fifo), ("excludes-fifo", excludes_fifo)):
        for cmd in ("doctor", "validate"):
            def prepare(sb, plant=plant, cmd=cmd):
                ws = copy_base(sb, "blank-ws")
                plant(sb, ws)
                return Plan(_git_act(cmd), rule="frozen")
            out.append(Case("git-hang", f"{name}-{cmd}", prepare))
    return out


# -- env-git-vars: osmosis run from another repository's hook ----------------------------------------------

def env_cases() -> list[Case]:
    def other_repo(sb: Sandbox) -> Path:
        other = sb.root / "outside" / "other"
        other.mkdir()
        for args in (("init", "-q"), ("commit", "-qm", "other", "--allow-empty")):
            subprocess.run(["git", *args], cwd=other, env=sb.env, capture_output=True, timeout=60, check=True)
        return other

    variants = {"git-dir": lambda o: {"GIT_DIR": str(o / ".git")},
                "git-dir-work-tree-index": lambda o: {"GIT_DIR": str(o / ".git"), "GIT_WORK_TREE": str(o),
                                                      "GIT_INDEX_FILE": str(o / ".git" / "index")},
                "config-parameters": lambda o: {"GIT_CONFIG_PARAMETERS": f"'core.hooksPath'='{o}'",
                                                "GIT_OBJECT_DIRECTORY": str(o / ".git" / "objects")}}
    out = []
    for name, make in variants.items():
        for cmd in ("rollout-new", "doctor", "init"):
            def prepare(sb, make=make, cmd=cmd):
                other = other_repo(sb)
                sb.env_extra.update(make(other))
                if cmd == "init":
                    return Plan(lambda s: s.run("init", s.ws, "--template", "blank", "--defaults"), rule="none")
                copy_base(sb, "blank-ws")
                return Plan(_git_act(cmd), rule="frozen" if cmd == "doctor" else "additive")
            out.append(Case("env-git-vars", f"{name}-{cmd}", prepare))
    return out


# -- template-url-option: a "URL" that git would read as an option -----------------------------------------

def url_option_cases() -> list[Case]:
    out = []
    for name, spec in {"upload-pack": "--upload-pack={prog}:x.git", "short-u": "-u{prog} x.git",
                       "config": "--config=core.sshCommand={prog}:git@example.invalid:x.git",
                       "template-dir": "--template={tpl}:x.git"}.items():
        for cmd in ("init", "rollout-new"):
            def prepare(sb, spec=spec, cmd=cmd):
                template = spec.format(prog=sb.script(), tpl=sb.root / "tpl")
                if cmd == "init":
                    return Plan(lambda s: s.run("init", s.ws, "--template", template, "--defaults"), rule="none")
                copy_base(sb, "blank-ws")
                return Plan(lambda s: s.run("rollout", "new", "x", "--template", template, "--workspace", s.ws,
                                            "--defaults"), rule="frozen")
            out.append(Case("template-url-option", f"{name}-{cmd}", prepare))
    return out


# -- report-output-link: `doctor -o FILE` where FILE is a committed link ----------------------------------

def output_link_cases() -> list[Case]:
    targets = {"victim-file": lambda sb: sb.root / "outside" / "victim.txt",
               "bashrc": lambda sb: sb.root / "home" / ".bashrc",
               "dangling-outside": lambda sb: sb.root / "outside" / "new-file.sarif"}
    out = []
    for name, target in targets.items():
        for fmt in ("sarif", "json", "text"):
            def prepare(sb, target=target, fmt=fmt):
                ws = copy_base(sb, "blank-ws")
                (ws / "osmosis.sarif").symlink_to(os.path.relpath(target(sb), ws))
                return Plan(lambda s: s.run("doctor", "--format", fmt, "--output", "osmosis.sarif", cwd=s.ws), rule="frozen")
            out.append(Case("report-output-link", f"{name}-{fmt}", prepare))
    for name in ("folder-link", "hard-link"):
        def prepare(sb, name=name):
            ws = copy_base(sb, "blank-ws")
            if name == "folder-link":
                (ws / "reports").symlink_to(sb.root / "outside" / "dir")
                dest = "reports/inner.txt"
            else:
                os.link(sb.root / "outside" / "victim.json", ws / "report.json")
                dest = "report.json"
            return Plan(lambda s: s.run("doctor", "-f", "json", "-o", dest, cwd=s.ws), rule="frozen")
        out.append(Case("report-output-link", name, prepare))
    return out


# -- validate-secret-links: links to what the system generates (the canary is in the environment) ----------

def secret_link_cases() -> list[Case]:
    links = {"data-csv": "data/x.csv", "data-jsonl": "data/x.jsonl", "config": "configs/eval/x.toml",
             "entrypoint": "rollouts/my-rollout/main.py"}
    out = []
    for name, rel in links.items():
        for cmd in ("validate", "dataset-validate", "doctor", "outside-workspace"):
            if cmd == "dataset-validate" and not rel.startswith("data/"):
                continue
            def prepare(sb, rel=rel, cmd=cmd):
                ws = copy_base(sb, "blank-ws")
                if cmd == "outside-workspace":
                    plain = sb.work / "plain"
                    plain.mkdir()
                    link = plain / Path(rel).name
                    link.symlink_to("/proc/self/environ")
                    verb = ("dataset", "validate") if rel.startswith("data/") else ("validate", "--kind", "eval")
                    return Plan(lambda s: s.run(*verb, link), rule="frozen")
                path = ws / rel
                if path.exists():
                    path.unlink()
                path.symlink_to("/proc/self/environ")
                if cmd == "doctor":
                    return Plan(lambda s: s.run("doctor", s.ws), rule="frozen")
                verb = ("dataset", "validate") if cmd == "dataset-validate" else ("validate",)
                return Plan(lambda s: s.run(*verb, s.ws / rel), rule="frozen")
            out.append(Case("validate-secret-links", f"{name}-{cmd}", prepare))
    return out


# -- output-control-chars: names, keys and values a terminal or CI log would act on ------------------------

NAMES = {"esc-osc": "x\x1b]0;owned\x07.jsonl", "crlf-annotation": "x\r\n::error file=a::forged.jsonl",
         "csi-clear": "x\x1b[2J\x1b[H.jsonl", "c1": "x\u009b31m.jsonl", "bidi": "x\u202egnp.jsonl",
         "not-utf8": os.fsdecode(b"x\xff\xfe.jsonl")}


def control_char_cases() -> list[Case]:
    out = []
    for name, filename in NAMES.items():
        for fmt in ("text", "json", "github", "sarif", "validate"):
            def prepare(sb, filename=filename, fmt=fmt):
                ws = copy_base(sb, "blank-ws")
                (ws / "data" / filename).write_text("{broken\n")
                cfg = ws / CONFIG
                cfg.write_text(cfg.read_text() + '\n["\\u001b]0;k\\u0007\\r\\n::error::key"]\nv = "\\u001b[31m"\n')
                if fmt == "validate":
                    act = lambda s: s.run("validate", s.ws / "data")  # noqa: E731
                else:
                    act = lambda s: s.run("doctor", s.ws, "--format", fmt)  # noqa: E731
                return Plan(act, rule="frozen", clean_output=True)
            out.append(Case("output-control-chars", f"{name}-{fmt}", prepare))
    return out


def all_cases() -> list[Case]:
    return (git_exec_cases() + hang_cases() + env_cases() + url_option_cases() + output_link_cases()
            + secret_link_cases() + control_char_cases())
