"""Issue 18's families (the ones of generator/osmosis_workspace/scaffold and the CLI's edges): a crafted pristine ref,
backtracking ownership globs, templates that render unbounded work or are too big, `doctor --fix` on
an oversized config, the machine or the input misbehaving (exit 3 before), and copier.yml documents."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from pathlib import Path

import yaml

from cases import USER_MARK, Case, Plan, Sandbox, add, blank_template, copy_base, template_plan
from sandbox import PY, Run, _finish, _watch_peak

REF = "refs/osmosis/pristine"


# -- helpers ---------------------------------------------------------------------------------------


def _git_out(sb: Sandbox, *args: str, input: bytes | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=sb.ws, env=sb.env, capture_output=True, input=input, timeout=120, check=True)
    return done.stdout.decode().strip()


def _blob(sb: Sandbox, data: bytes) -> str:
    return _git_out(sb, "hash-object", "-w", "--stdin", input=data)


def _mktree(sb: Sandbox, lines: list[str]) -> str:
    return _git_out(sb, "mktree", input=("\n".join(lines) + "\n").encode())


def _push_tree(sb: Sandbox, tree: str) -> None:
    tip = _git_out(sb, "rev-parse", REF)
    _git_out(sb, "update-ref", REF, _git_out(sb, "commit-tree", tree, "-p", tip, "-m", "pushed by someone else"))


def _root_lines(sb: Sandbox) -> list[str]:
    return _git_out(sb, "ls-tree", _git_out(sb, "rev-parse", REF)).splitlines()


def shell_run(sb: Sandbox, pre: str, *argv, stdout: str = "pipe", cwd: Path | None = None) -> Run:
    """`python -m osmosis_workspace ARGV` started by `sh -c` after ``pre`` (`ulimit`, a closed stream, ...)."""
    args = [str(a) for a in argv]
    cmd = f"{pre} exec {shlex.join([PY, '-m', 'osmosis_workspace', *args])}"
    started = time.monotonic()
    proc = subprocess.Popen(["sh", "-c", cmd], cwd=cwd or sb.work, env=sb.env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    _watch_peak(proc)   # sh execs the CLI: the same process, so its VmHWM is the CLI's
    result = _finish(proc, args, started, sb.timeout)
    sb.runs.append(result)
    return result


# -- issue 18 point 2: a crafted refs/osmosis/pristine ------------------------------------------------


def _craft(sb: Sandbox, variant: str) -> None:
    out = sb.root / "home"
    if variant == "dup-link-folder":
        inner = _mktree(sb, [f"100644 blob {_blob(sb, b'echo pwned')}\t.bashrc"])
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"120000 blob {_blob(sb, str(out).encode())}\tevil",
                                    f"040000 tree {inner}\tevil"]))
    elif variant == "link-at-new-rollout":
        tip = _git_out(sb, "rev-parse", REF)
        rollouts = _git_out(sb, "ls-tree", f"{tip}:rollouts").splitlines()
        new = _mktree(sb, [*rollouts, f"120000 blob {_blob(sb, str(out).encode())}\tsecond"])
        _push_tree(sb, _mktree(sb, [ln if not ln.endswith("\trollouts") else f"040000 tree {new}\trollouts"
                                    for ln in _root_lines(sb)]))
    elif variant == "gitlink":
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"160000 commit {_git_out(sb, 'rev-parse', 'HEAD')}\tsub"]))
    elif variant == "dotdot":
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"100644 blob {_blob(sb, b'x')}\t.."]))
    elif variant == "control-char":
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"100644 blob {_blob(sb, b'x')}\tevil\x1b]0;x\x07"]))
    elif variant == "dotgit":
        hooks = _mktree(sb, [f"100755 blob {_blob(sb, sb.script().read_bytes())}\tpost-checkout"])
        dotgit = _mktree(sb, [f"040000 tree {hooks}\thooks"])
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"040000 tree {dotgit}\t.GIT"]))
    elif variant == "big-zero-blob":  # 60 MB of zeros, a few KB packed: over the 50 MB a file may be
        _push_tree(sb, _mktree(sb, [*_root_lines(sb), f"100644 blob {_blob(sb, bytes(60 << 20))}\tzeros.bin"]))


REF_VARIANTS = ("dup-link-folder", "link-at-new-rollout", "gitlink", "dotdot", "control-char", "dotgit", "big-zero-blob")


def ref_cases() -> list[Case]:
    out = []
    for variant in REF_VARIANTS:
        for command in ("update", "rollout-new"):
            def prepare(sb: Sandbox, variant=variant, command=command) -> Plan:
                copy_base(sb, "blank-ws")
                _craft(sb, variant)
                if command == "update":
                    return Plan(lambda s: s.run("update", s.ws), rule="update")
                return Plan(lambda s: s.run("rollout", "new", "second", "--template", "blank", "--workspace", s.ws,
                                            "--defaults"), rule="additive")
            out.append(Case("ref-pristine", f"{variant}-{command}", prepare))
    return out


# -- point 5: ownership globs -----------------------------------------------------------------------


# under the 1,024 characters a pattern may have (the last is refused for its length)
GLOBS = {"stars-q": "*" * 1000 + "Q", "star-a-q": "*a" * 500 + "Q", "dirs-q": "**/" * 300 + "Q",
         "qmarks": "?" * 900 + "*Q", "too-long": "*" * 5000}


def glob_cases() -> list[Case]:
    out = []
    for name, pattern in GLOBS.items():
        for dry in (True, False):
            def prepare(sb: Sandbox, pattern=pattern, dry=dry) -> Plan:
                ws = copy_base(sb, "upd-ws")
                (ws / ".osmosis" / "template.json").write_text(f'{{"overwriteManaged": ["{pattern}", "**"]}}\n')
                sb.git("commit", "-qam", "my policy", check=True)
                args = ("update", sb.ws, *(["--dry-run"] if dry else []))
                return Plan(lambda s: s.run(*args), rule="update")
            out.append(Case("ownership-glob", f"{name}-{'dry-run' if dry else 'update'}", prepare))
    return out


# -- point 7: templates that render unbounded work -------------------------------------------------

NESTED = "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}"
WORK = {
    "string-times": "{{ 'x' * 400000000 }}", "list-times": "{{ [0] * 400000000 }}", "power": "{{ 10 ** 100000000 }}",
    "nested-range": NESTED, "ljust": "{{ 'x'.ljust(900000000) }}", "format-width": "{{ '{:>900000000}'.format(1) }}",
    "percent-width": "{{ '%900000000d' % 1 }}", "center": "{{ 'x' | center(900000000) }}",
    "output": "{% for a in range(100000) %}" + "y" * 2000 + "{% endfor %}",
}


def _work_template(sb: Sandbox, expr: str, place: str) -> Path:
    if place == "default":
        t = blank_template(sb, evil_q={"type": "str", "default": expr, "when": False})
        add(t, "rollouts/{{ rollout_name }}/EVIL.md.jinja", "{{ evil_q }}\n")
    else:
        t = blank_template(sb)
        add(t, "rollouts/{{ rollout_name }}/EVIL.md.jinja", f"{expr}\n")
    return t


def _via_update(sb: Sandbox, template: Path) -> Plan:
    ws = copy_base(sb, "blank-ws")
    answers = ws / "rollouts" / "my-rollout" / ".copier-answers.yml"
    text = answers.read_text().replace("_src_path: bundled:blank", f"_src_path: {template}")
    answers.write_text(text.replace("_osmosis_template: blank", f"_osmosis_template: {template}"))
    main = ws / "rollouts" / "my-rollout" / "main.py"
    main.write_text(USER_MARK + "\n" + main.read_text())
    sb.git("add", "-A", check=True)
    sb.git("commit", "-qm", "point at a template", check=True)
    return Plan(lambda s: s.run("update", s.ws), rule="update")


def work_cases() -> list[Case]:
    out = []
    for name, expr in WORK.items():
        for place in ("default", "content"):
            for command in ("init", "rollout", "update"):
                def prepare(sb: Sandbox, expr=expr, place=place, command=command) -> Plan:
                    t = _work_template(sb, expr, place)
                    return _via_update(sb, t) if command == "update" else template_plan(sb, command, str(t))
                out.append(Case("template-work", f"{name}-{place}-{command}", prepare))
    for envops in ({"no_such": 1}, {"extensions": ["x"]}, {"loader": "x"}):
        def prepare(sb: Sandbox, envops=envops) -> Plan:
            return template_plan(sb, "rollout", str(blank_template(sb, _envops=envops)))
        out.append(Case("template-work", f"envops-{next(iter(envops))}-rollout", prepare))
    return out


# -- point 8: templates too big, deep or many --------------------------------------------------------


def _shape(sb: Sandbox, shape: str) -> Path:
    t = blank_template(sb)
    base = t / "template" / "rollouts" / "{{ rollout_name }}" / "extra"
    if shape.startswith("deep-"):
        folder = base.joinpath(*["d"] * int(shape.split("-")[1]))
        folder.mkdir(parents=True)
        (folder / "leaf.txt").write_text("leaf\n")
    elif shape.startswith("files-"):
        for i in range(int(shape.split("-")[1])):
            sub = base / f"f{i // 500}"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / f"{i}.txt").write_text(f"{i}\n")
    elif shape == "sparse-1g":
        base.mkdir(parents=True)
        with open(base / "sparse.bin", "wb") as handle:
            handle.truncate(1 << 30)
    return t


SHAPES = ("deep-60", "deep-400", "files-2000", "sparse-1g")


def scale_cases() -> list[Case]:
    out = []
    for shape in SHAPES:
        for command in ("init", "rollout"):
            def prepare(sb: Sandbox, shape=shape, command=command) -> Plan:
                return template_plan(sb, command, str(_shape(sb, shape)))
            out.append(Case("template-scale", f"{shape}-{command}", prepare))
    return out


# -- point 10: doctor --fix and a config over doctor's size cap --------------------------------------


def fix_cases() -> list[Case]:
    out = []
    for rel in ("configs/eval/big.toml", "configs/training/big.toml", ".env.example"):
        def prepare(sb: Sandbox, rel=rel) -> Plan:
            ws = copy_base(sb, "blank-ws")
            body = "".join(f'k{i} = "{"v" * 90}"\n' for i in range(110_000))
            (ws / rel).write_text(("# padding\n" * 1_000_000) if rel == ".env.example" else 'rollout = "my-rollout"\n' + body)
            return Plan(lambda s: s.run("doctor", s.ws, "--fix"), rule="said")
        out.append(Case("fix-size", rel.replace("/", "_"), prepare))
    return out


# -- point 12: the input or the machine, not our bug -------------------------------------------------


def _deep_folder(top: Path, depth: int) -> None:
    """``depth`` folders `d/d/...` under ``top`` and a file at the bottom, made relative to folder
    descriptors: the paths are too long to name whole, and cases run in threads (no chdir)."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        leaf = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, b"x = 1\n")
        os.close(leaf)
    finally:
        os.close(fd)


def edge_cases() -> list[Case]:
    def case(name: str, plant, act, rule: str = "frozen") -> Case:
        def prepare(sb: Sandbox) -> Plan:
            copy_base(sb, "blank-ws")
            plant(sb)
            return Plan(act, rule=rule)
        return Case("env-edges", name, prepare)

    def append(rel: str, text: str):
        return lambda sb: (sb.ws / rel).open("a").write(text)

    def garbage_git(sb: Sandbox) -> None:
        fake = sb.root / "tpl" / "bin"
        fake.mkdir(parents=True)
        (fake / "git").write_bytes(b"#!/bin/sh\nprintf '\\377\\376garbage\\000\\n'\nexit 0\n")
        (fake / "git").chmod(0o755)
        sb.env_extra["PATH"] = f"{fake}{os.pathsep}{os.environ.get('PATH', '')}"

    def non_ascii(sb: Sandbox) -> None:
        (sb.ws / "configs" / "eval" / "caf\u00e9.toml").write_text("x = [\n")
        sb.env_extra["PYTHONIOENCODING"] = "ascii"

    def gone(sb: Sandbox) -> None:
        (sb.work / "gone").mkdir()

    return [
        case("int-5000-digits-config", append("configs/eval/my-rollout.toml", "\nhuge = " + "9" * 5000 + "\n"),
             lambda s: s.run("doctor", s.ws)),
        case("int-5000-digits-pyproject", append("pyproject.toml", "\n[tool.huge]\nn = " + "9" * 5000 + "\n"),
             lambda s: s.run("doctor", s.ws)),
        case("deep-1000-doctor", lambda sb: _deep_folder(sb.ws / "rollouts" / "my-rollout", 1000),
             lambda s: s.run("doctor", s.ws)),
        case("deep-1000-validate", lambda sb: _deep_folder(sb.ws / "rollouts" / "my-rollout", 1000),
             lambda s: s.run("validate", s.ws / "rollouts")),
        case("ascii-terminal", non_ascii, lambda s: s.run("doctor", s.ws)),
        case("stdout-closed", lambda sb: None, lambda s: shell_run(s, "exec 1>&-;", "doctor", s.ws)),
        case("stdout-dev-full", lambda sb: None, lambda s: shell_run(s, "exec 1>/dev/full;", "doctor", s.ws)),
        case("output-dev-full", lambda sb: None, lambda s: s.run("doctor", s.ws, "-o", "/dev/full")),
        case("deleted-cwd", gone, lambda s: shell_run(s, 'rmdir "$PWD";', "doctor", cwd=s.work / "gone")),
        case("ulimit-n-12-rollout", lambda sb: None, lambda s: shell_run(
            s, "ulimit -n 12;", "rollout", "new", "second", "--template", "blank", "--workspace", s.ws, "--defaults"),
            rule="additive"),
        case("ulimit-f-1", lambda sb: None, lambda s: shell_run(s, "ulimit -f 1;", "doctor", s.ws, "--format", "json",
                                                                 "-o", s.root / "tmp" / "out.json")),
        case("garbage-git-update", garbage_git, lambda s: s.run("update", s.ws), rule="update"),
        case("garbage-git-doctor", garbage_git, lambda s: s.run("doctor", s.ws)),
    ]


# -- point 15: several YAML documents in copier.yml -----------------------------------------------------


def yaml_doc_cases() -> list[Case]:
    out = []
    for key, early in (("_jinja_extensions", ["jinja2_time.TimeExtension"]), ("_tasks", ["sh EVIL"]),
                       ("_migrations", [{"version": "0", "before": ["sh EVIL"]}])):
        for command in ("init", "rollout"):
            def prepare(sb: Sandbox, key=key, early=early, command=command) -> Plan:
                t = blank_template(sb)
                config = yaml.safe_load((t / "copier.yml").read_text())
                first = yaml.safe_dump({key: early}).replace("EVIL", str(sb.script()))
                (t / "copier.yml").write_text(first + "---\n" + yaml.safe_dump({**config, key: []}, sort_keys=False))
                return template_plan(sb, command, str(t))
            out.append(Case("copier-yaml-documents", f"{key.strip('_')}-{command}", prepare))
    return out


# -- point 9: dataset shapes that cost time or memory out of proportion to their size ------------------


def _parquet_dictionary(path: Path) -> None:
    """2M rows of a dictionary-encoded `metadata` column, half of them bad JSON: ~40 KB on disk."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 2_000_000
    values = pa.array(['{"id": 1}', "not json", '{"id": 2}', '{"id": "three"}'])
    metadata = pa.DictionaryArray.from_arrays(pa.array([i % 4 for i in range(rows)], pa.int8()), values)
    prompts = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int8()), pa.array(["q"]))
    pq.write_table(pa.table({"user_prompt": prompts, "metadata": metadata}), path)


def _parquet_row_groups(path: Path) -> None:
    """200,000 one-row row groups: a footer of tens of MB in front of almost no data."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"user_prompt": ["q"] * 200_000, "ground_truth": ["1"] * 200_000})
    pq.write_table(table, path, row_group_size=1)


def _many_datasets(ws: Path) -> None:
    """100,000 one-line datasets, each with several findings (no prompt column, a bad metadata text)."""
    data = ws / "data" / "many"
    data.mkdir(parents=True)
    for i in range(100_000):
        (data / f"d{i:06d}.jsonl").write_text('{"prompt": 1, "metadata": "{", "answer": null}\n')


def dataset_scale_cases() -> list[Case]:
    shapes = {"parquet-2M-dictionary-rows": ("data/extra.parquet", _parquet_dictionary),
              "parquet-200k-row-groups": ("data/extra.parquet", _parquet_row_groups),
              "100k-one-line-datasets": (None, None)}
    out = []
    for shape, (rel, make) in shapes.items():
        for command in ("doctor", "validate"):
            if command == "validate" and rel is None:
                continue

            def prepare(sb: Sandbox, rel=rel, make=make, command=command) -> Plan:
                ws = copy_base(sb, "blank-ws")
                if rel is None:
                    _many_datasets(ws)
                else:
                    make(ws / rel)
                target = [ws] if command == "doctor" else [ws / rel]
                return Plan(lambda s: s.run(command, *target, timeout=max(s.timeout, 120)))
            out.append(Case("dataset-scale", f"{shape}-{command}", prepare))
    return out


def all_cases() -> list[Case]:
    return (ref_cases() + glob_cases() + work_cases() + scale_cases() + fix_cases() + edge_cases() + yaml_doc_cases()
            + dataset_scale_cases())
