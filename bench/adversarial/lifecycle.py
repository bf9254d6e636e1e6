"""Writers interrupted (kill -9, Ctrl-C), writers at once, a full disk, and `init --force` over user files."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
from pathlib import Path

from cases import BASES, OLD_MARK, USER_MARK, Case, Plan, Sandbox, copy_base

LOCKED = "being changed by another osmosis command"


def _doctor_errors(sb: Sandbox) -> list[str]:
    run = sb.run("doctor", sb.ws, "--format", "json")
    sb.runs.pop()  # a probe, not a measured run
    if run.traceback or run.hang:
        return [f"doctor afterwards: {'hang' if run.hang else 'traceback'}"]
    try:
        data = json.loads(run.out[run.out.index("{"):])
    except ValueError:
        return [f"doctor afterwards printed no report (exit {run.code}): {run.last_line()}"]
    errs = [f"{d['code']} {d.get('path')}" for d in data.get("diagnostics", []) if d.get("severity") == "error"]
    return [f"doctor afterwards: {', '.join(errs[:4])}"] if errs else []


def _git_clean(sb: Sandbox) -> list[str]:
    st = sb.git("status", "--porcelain")
    if st.returncode != 0:
        return [f"git status fails: {st.stderr.strip()[:120]}"]
    return [f"git status not clean: {st.stdout.split()[:6]}"] if st.stdout.strip() else []


def _init_consistent(sb: Sandbox) -> list[str]:
    """A non-empty target after the (re-)run must be a whole workspace: committed, pristine ref, no errors."""
    if not sb.ws.exists() or not any(sb.ws.iterdir()):
        return []
    problems = []
    if not (sb.ws / ".git").is_dir():
        return ["target left without .git"]
    if sb.git("rev-parse", "--verify", "-q", "refs/osmosis/pristine").returncode != 0:
        problems.append("no refs/osmosis/pristine")
    return problems + _git_clean(sb) + _doctor_errors(sb)


def _rollout_consistent(sb: Sandbox, names: list[str], created: dict[str, bool]) -> list[str]:
    problems = []
    for name in names:
        there = [p for p in (f"rollouts/{name}/main.py", f"configs/eval/{name}.toml", f"configs/training/{name}.toml",
                             f"data/{name}.jsonl", f"rollouts/{name}/.copier-answers.yml") if (sb.ws / p).exists()]
        if created.get(name) and len(there) != 5:
            problems.append(f"rollout {name} reported created but has {len(there)}/5 files")
        if not created.get(name) and 0 < len(there) < 5:
            problems.append(f"rollout {name} half there ({len(there)}/5 files)")
    return problems + _doctor_errors(sb)


def _update_consistent(sb: Sandbox) -> list[str]:
    """All or nothing: either the tree is as committed (nothing applied), or the update is complete."""
    problems = []
    main = sb.ws / "rollouts/my-rollout/main.py"
    if USER_MARK not in (main.read_text(errors="replace") if main.is_file() else ""):
        problems.append("user edit gone from main.py")
    dirty = sb.git("status", "--porcelain").stdout.strip()
    if dirty:
        check = sb.run("update", sb.ws, "--check")
        sb.runs.pop()
        if check.code != 0:
            problems.append(f"partly applied: tree changed but `update --check` exits {check.code}")
        stale = [p for p in (sb.ws / "rollouts/my-rollout").rglob("*.md")
                 if p.is_file() and OLD_MARK in p.read_text(errors="replace")]
        if stale and check.code == 0:
            problems.append(f"update reported done but {stale[0].name} still has the old template line")
    return problems


def _user_edit_kept(sb: Sandbox) -> list[str]:
    notes = sb.ws / "notes.md"
    ok = notes.is_file() and notes.read_text() == "my own notes, not from any template\n"
    return [] if ok else ["notes.md (the user's own file) changed or gone"]


def _no_lock_message(run) -> bool:
    return run.code == 2 and LOCKED in run.out


# -- kill -9 at a random delay, then the same command again -----------------------------------------


def kill_cases(n: int = 15, seed: int = 0) -> list[Case]:
    rnd = random.Random(seed)
    out = []
    for command in ("init", "rollout-new", "update"):
        for i in range(n):
            delay = round(rnd.uniform(0.3, 4.0), 2)

            def prepare(sb: Sandbox, command=command, delay=delay) -> Plan:
                if command == "init":
                    argv = ["init", sb.ws, "--template", "blank", "--defaults"]
                    check = _init_consistent
                elif command == "rollout-new":
                    copy_base(sb, "blank-ws")
                    argv = ["rollout", "new", "two", "--template", "blank", "--workspace", sb.ws, "--defaults"]
                    check = None
                else:
                    copy_base(sb, "upd-ws")
                    argv = ["update", sb.ws]
                    check = _update_consistent

                def act(s: Sandbox) -> None:
                    s.run_killed(*argv, delay=delay)
                    s.run(*argv)

                def consistent(s: Sandbox) -> list[str]:
                    rerun = s.runs[-1]
                    problems = [] if rerun.code in (0, 2) else [f"re-run exit {rerun.code}: {rerun.last_line()}"]
                    if rerun.code == 2 and len(rerun.out.strip().splitlines()) > 3:
                        problems.append("re-run exit 2 without a short message")
                    if command == "rollout-new":
                        return problems + _rollout_consistent(s, ["two"], {"two": rerun.code == 0})
                    return problems + check(s)
                return Plan(act, rule="none" if command == "init" else "custom",
                            verify=_user_edit_kept if command == "update" else None, consistent=consistent)
            out.append(Case("kill-9", f"{command}-{i:02d}-at-{delay}s", prepare, {"delay": delay}))
    return out


def sigint_cases(n: int = 15, seed: int = 1) -> list[Case]:
    rnd = random.Random(seed)
    out = []
    for command in ("doctor", "init"):
        for i in range(n):
            delay = round(rnd.uniform(0.02, 0.9 if command == "doctor" else 2.5), 3)

            def prepare(sb: Sandbox, command=command, delay=delay) -> Plan:
                if command == "doctor":
                    copy_base(sb, "blank-ws")
                    argv = ["doctor", sb.ws]
                else:
                    argv = ["init", sb.ws, "--template", "blank", "--defaults"]

                def consistent(s: Sandbox) -> list[str]:
                    run = s.runs[-1]
                    if run.killed and run.code not in (130, -signal.SIGINT) and not run.interrupted_interpreter_start:
                        return [f"Ctrl-C gave exit {run.code}: {run.last_line()}"]
                    return []
                return Plan(lambda s: s.run_killed(*argv, delay=delay, sig=signal.SIGINT),
                            rule="frozen" if command == "doctor" else "none", consistent=consistent)
            out.append(Case("ctrl-c", f"{command}-{i:02d}-at-{delay}s", prepare))
    return out


# -- two writers at once -------------------------------------------------------------------------------


def concurrent_cases(n: int = 10, seed: int = 2) -> list[Case]:
    rnd = random.Random(seed)
    out = []
    for command in ("update", "rollout-new", "init"):
        for i in range(n):
            stagger = round(rnd.uniform(0.0, 0.6), 3)

            def prepare(sb: Sandbox, command=command, stagger=stagger) -> Plan:
                if command == "update":
                    copy_base(sb, "upd-ws")
                    a = b = ["update", sb.ws]
                elif command == "rollout-new":
                    copy_base(sb, "blank-ws")
                    a = ["rollout", "new", "alpha", "--template", "blank", "--workspace", sb.ws, "--defaults"]
                    b = ["rollout", "new", "beta", "--template", "blank", "--workspace", sb.ws, "--defaults"]
                else:
                    a = b = ["init", sb.ws, "--template", "blank", "--defaults"]

                def consistent(s: Sandbox) -> list[str]:
                    ra, rb = s.runs[-2:]
                    problems = [f"{r.argv[0]} exit {r.code}: {r.last_line()}" for r in (ra, rb) if r.code not in (0, 2)]
                    if ra.code == 0 and rb.code == 0 and command != "rollout-new":
                        problems.append("both writers succeeded")
                    if command == "rollout-new":
                        return problems + _rollout_consistent(s, ["alpha", "beta"], {"alpha": ra.code == 0, "beta": rb.code == 0})
                    if command == "init":
                        return problems + _init_consistent(s)
                    return problems + _update_consistent(s)
                return Plan(lambda s: s.run_pair(a, b, stagger), rule="none" if command == "init" else "custom",
                            verify=_user_edit_kept if command == "update" else None, consistent=consistent)
            out.append(Case("two-writers", f"{command}-{i:02d}-stagger-{stagger}s", prepare))
    return out


# -- a full disk (a small tmpfs at work/) -----------------------------------------------------------------


def tmpfs_works(root: Path) -> bool:
    probe = root / "tmpfs-probe"
    probe.mkdir(parents=True, exist_ok=True)
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)], capture_output=True).returncode == 0
    if ok:
        subprocess.run(["umount", str(probe)], capture_output=True)
    probe.rmdir()
    return ok


def _mount(sb: Sandbox, kib: int) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(sb.work)], check=True, capture_output=True)
    sb.mounted = True


def disk_cases() -> list[Case]:
    out = []
    for kib in (16, 48, 96, 160, 256, 384, 512, 768, 1024, 1536, 2048, 4096, 8192):
        def prepare(sb: Sandbox, kib=kib) -> Plan:
            _mount(sb, kib)

            def consistent(s: Sandbox) -> list[str]:
                run = s.runs[-1]
                problems = [] if run.code in (0, 2) else [f"exit {run.code}: {run.last_line()}"]
                if run.code != 0 and s.ws.exists() and any(s.ws.iterdir()):
                    problems.append("failed init left a partial target")
                if run.code == 0:
                    problems += _init_consistent(s)
                return problems
            return Plan(lambda s: s.run("init", s.ws, "--template", "blank", "--defaults"), rule="none",
                        consistent=consistent)
        out.append(Case("full-disk", f"init-{kib}KiB", prepare))
    used = None
    for extra in (4, 16, 32, 64, 128, 256, 512, 1024):
        for command in ("rollout-new", "fix"):
            def prepare(sb: Sandbox, extra=extra, command=command) -> Plan:
                nonlocal used
                if used is None:
                    used = sum(p.lstat().st_size // 1024 + 4 for p in BASES["blank-ws"].rglob("*")) + 64
                _mount(sb, used + extra)
                copy_base(sb, "blank-ws")
                if command == "fix":
                    for kind in ("eval", "training", "dataset"):
                        (sb.ws / f".osmosis/schemas/{kind}.schema.json").write_text("{}\n")
                    return Plan(lambda s: s.run("doctor", s.ws, "--fix"), rule="said",
                                consistent=lambda s: [] if s.runs[-1].code in (0, 1, 2) else [f"exit {s.runs[-1].code}"])
                argv = ["rollout", "new", "two", "--template", "blank", "--workspace", sb.ws, "--defaults"]
                return Plan(lambda s: s.run(*argv), rule="additive",
                            consistent=lambda s: _rollout_consistent(s, ["two"], {"two": s.runs[-1].code == 0}))
            out.append(Case("full-disk", f"{command}-free-{extra}KiB", prepare))
    return out


# -- init --force over a folder of the user's files ----------------------------------------------------------


USER_FILES = {"README.md": "# my project\n", "AGENTS.md": "my agent notes\n", "pyproject.toml": "[project]\nname = \"mine\"\n",
              ".gitignore": "my-secret-dir/\n", "configs/eval/my-rollout.toml": "# mine\n", "data/my-rollout.jsonl": "{\"mine\": 1}\n",
              "rollouts/my-rollout/main.py": "print('mine')\n", ".env.example": "MINE=1\n", "notes.txt": "unrelated\n",
              ".agents/skills/create-rollouts/SKILL.md": "---\nname: create-rollouts\ndescription: mine\n---\n"}


def force_cases() -> list[Case]:
    out = []
    keys = list(USER_FILES)
    for i, subset in enumerate([[k] for k in keys] + [keys, keys[:4], keys[4:]]):
        for git in (False, True):
            def prepare(sb: Sandbox, subset=subset, git=git) -> Plan:
                for rel in subset:
                    p = sb.ws / rel
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_text(USER_FILES[rel])
                if git:
                    sb.git("init", "-q", check=True)
                    sb.git("add", "-A", check=True)
                    sb.git("commit", "-qm", "mine", check=True)
                return Plan(lambda s: s.run("init", s.ws, "--template", "blank", "--defaults", "--force"), rule="kept")
            name = subset[0].replace("/", "_") if len(subset) == 1 else f"{len(subset)}-files-{i}"
            out.append(Case("init-force", f"{name}-{'git' if git else 'plain'}", prepare))
    return out


def all_cases(disk: bool, seed: int = 0) -> list[Case]:
    return (kill_cases(seed=seed) + sigint_cases(seed=seed + 1) + concurrent_cases(seed=seed + 2) + force_cases()
            + (disk_cases() if disk else []))


def unmount(sb: Sandbox) -> None:
    if getattr(sb, "mounted", False):
        subprocess.run(["umount", "-l", str(sb.work)], capture_output=True)
        shutil.rmtree(sb.work, ignore_errors=True)
