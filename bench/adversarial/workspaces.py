"""Hostile workspaces for `doctor`, `doctor --fix` and `validate` (a copy of a fresh blank workspace,
then one planted file, link, FIFO or permission)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

from cases import Case, Plan, Sandbox, copy_base

R = "rollouts/my-rollout"
SKILL = ".agents/skills/create-rollouts/SKILL.md"
SCHEMA = ".osmosis/schemas/eval.schema.json"
FILES = {
    "eval-config": "configs/eval/my-rollout.toml", "training-config": "configs/training/my-rollout.toml",
    "pyproject": "pyproject.toml", "rollout-pyproject": f"{R}/pyproject.toml", "env-example": ".env.example",
    "skill": SKILL, "jsonl": "data/my-rollout.jsonl", "csv": "data/extra.csv", "parquet": "data/extra.parquet",
    "main": f"{R}/main.py", "workflow": f"{R}/my_rollout/workflow.py", "answers": f"{R}/.copier-answers.yml",
    "ownership": ".osmosis/template.json", "schema": SCHEMA, "gitignore": ".gitignore", "agents-md": "AGENTS.md",
}
CMDS = ("doctor", "fix", "validate")


def _act(cmd: str, validate_path: str | None, privdrop: bool = False) -> Callable[[Sandbox], None]:
    if cmd == "doctor":
        return lambda s: s.run("doctor", s.ws, privdrop=privdrop)
    if cmd == "fix":
        return lambda s: s.run("doctor", s.ws, "--fix", privdrop=privdrop)
    return lambda s: s.run("validate", s.ws / (validate_path or "configs/eval/my-rollout.toml"), privdrop=privdrop)


def _case(category: str, name: str, cmd: str, plant: Callable[[Sandbox, Path], str | None],
          privdrop: bool = False) -> Case:
    def prepare(sb: Sandbox) -> Plan:
        ws = copy_base(sb, "blank-ws")
        target = plant(sb, ws)
        return Plan(_act(cmd, target, privdrop), rule="said" if cmd == "fix" else "frozen")
    return Case(category, f"{name}-{cmd}", prepare)


def _replace(ws: Path, rel: str) -> Path:
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_file():
        path.unlink()
    return path


def link_cases() -> list[Case]:
    out = []
    targets = {"bashrc": lambda sb: sb.root / "home" / ".bashrc", "victim": lambda sb: sb.root / "outside" / "victim.json"}
    for schema in ("eval", "training", "dataset"):
        for style in ("plain", "hex"):
            for target in targets:
                for state in ("stale", "missing"):
                    for cmd in ("fix", "doctor"):
                        def plant(sb, ws, schema=schema, style=style, target=target, state=state):
                            real = ws / f".osmosis/schemas/{schema}.schema.json"
                            real.unlink()
                            if state == "stale":
                                real.write_text("{}\n")
                            hexpart = f".{random.Random(schema + style).getrandbits(32):08x}" if style == "hex" else ""
                            (real.parent / f".{schema}.schema.json{hexpart}.osmosis-tmp").symlink_to(targets[target](sb))
                            return None
                        out.append(_case("ws-links", f"tmpname-{schema}-{style}-{target}-{state}", cmd, plant))
    for rel, target in [("configs/eval/.my-rollout.toml.osmosis-tmp", "bashrc"), (".env.example.osmosis-tmp", "victim")]:
        for cmd in ("fix", "doctor"):
            def plant(sb, ws, rel=rel, target=target):
                if rel.startswith(".env"):
                    (ws / ".env.example").unlink()
                else:
                    cfg = ws / "configs/eval/my-rollout.toml"
                    cfg.write_text(cfg.read_text().split("\n", 1)[1])  # no `#:schema` line: fix adds it
                (ws / rel).symlink_to(targets[target](sb))
                return None
            out.append(_case("ws-links", f"tmpname-{rel.replace('/', '_')}", cmd, plant))
    planted = {
        "schema-file": (SCHEMA, lambda sb: sb.root / "home" / ".bashrc"),
        "schemas-dir": (".osmosis/schemas", lambda sb: sb.root / "outside" / "dir"),
        "osmosis-dir": (".osmosis", lambda sb: sb.root / "outside" / "dir"),
        "env-example": (".env.example", lambda sb: sb.root / "outside" / "victim.txt"),
        "claude-skill": (".claude/skills/create-rollouts", lambda sb: sb.root / "outside" / "dir"),
        "agents-skills": (".agents/skills", lambda sb: sb.root / "home"),
        "skill-md": (SKILL, lambda sb: sb.root / "outside" / "victim.txt"),
        "eval-config": ("configs/eval/my-rollout.toml", lambda sb: sb.root / "outside" / "victim.toml"),
        "pyproject": ("pyproject.toml", lambda sb: sb.root / "outside" / "victim.toml"),
        "data-dir": ("data", lambda sb: sb.root / "outside" / "dir"),
        "gitignore": (".gitignore", lambda sb: sb.root / "home" / ".bashrc"),
        "agents-md": ("AGENTS.md", lambda sb: sb.root / "outside" / "victim.txt"),
        "schema-dangling": (SCHEMA, lambda sb: sb.root / "outside" / "nothing-here.json"),
        "configs-dir": ("configs/eval", lambda sb: sb.root / "outside" / "dir"),
    }
    for name, (rel, target) in planted.items():
        for cmd in CMDS:
            def plant(sb, ws, rel=rel, target=target):
                path = ws / rel
                if path.is_dir() and not path.is_symlink():
                    import shutil
                    shutil.rmtree(path)
                else:
                    _replace(ws, rel)
                path.symlink_to(target(sb))
                return rel
            out.append(_case("ws-links", f"link-{name}", cmd, plant))
    for key, rel in [k for k in FILES.items() if k[0] in ("schema", "eval-config", "env-example", "skill", "jsonl",
                                                            "main", "pyproject", "agents-md", "answers")]:
        for stale in (False, True):
            for cmd in CMDS:
                def plant(sb, ws, rel=rel, stale=stale):
                    path = ws / rel
                    outside = sb.root / "outside" / ("hl-" + path.name)
                    data = path.read_bytes()
                    outside.write_bytes(b"{}\n" if stale and rel == SCHEMA else data)
                    path.unlink()
                    os.link(outside, path)
                    return rel
                out.append(_case("ws-links", f"hardlink-{key}-{'stale' if stale else 'same'}", cmd, plant))
    return out


DEVICES = {
    "main-devzero": (f"{R}/main.py", "/dev/zero"), "jsonl-devzero": ("data/my-rollout.jsonl", "/dev/zero"),
    "data-root": ("data/root", "/"), "config-devzero": ("configs/eval/my-rollout.toml", "/dev/zero"),
    "skill-devzero": (SKILL, "/dev/zero"), "skills-root": (".agents/skills/evil", "/"),
    "rollout-root": ("rollouts/evil", "/"), "jsonl-urandom": ("data/u.jsonl", "/dev/urandom"),
    "pyproject-devzero": ("pyproject.toml", "/dev/zero"), "env-devzero": (".env.example", "/dev/zero"),
    "csv-devzero": ("data/big.csv", "/dev/zero"),
}


def device_cases() -> list[Case]:
    out = []
    for name, (rel, target) in DEVICES.items():
        for cmd in CMDS:
            def plant(sb, ws, rel=rel, target=target):
                _replace(ws, rel).symlink_to(target)
                return rel
            out.append(_case("ws-devices-fifos", name, cmd, plant))
    fifo_files = ["main", "jsonl", "csv", "eval-config", "skill", "pyproject", "env-example", "schema", "answers",
                  "workflow", "ownership", "rollout-pyproject", "agents-md", "gitignore"]
    for key in fifo_files:
        for cmd in CMDS:
            def plant(sb, ws, key=key):
                os.mkfifo(_replace(ws, FILES[key]))
                return FILES[key]
            out.append(_case("ws-devices-fifos", f"fifo-{key}", cmd, plant))
    return out


def _deep(shape: str, depth: int) -> str:
    if shape == "dotted-table":
        return "[" + ".".join(["a"] * depth) + "]\nx = 1\n"
    if shape == "inline-table":
        return "x = " + "{a = " * depth + "1" + "}" * depth + "\n"
    return "x = " + "[" * depth + "1" + "]" * depth + "\n"


def toml_cases() -> list[Case]:
    out = []
    for shape in ("dotted-table", "inline-table", "array"):
        for depth in (1000, 50000):
            for key in ("eval-config", "training-config", "pyproject", "rollout-pyproject"):
                for cmd in ("doctor", "validate"):
                    def plant(sb, ws, shape=shape, depth=depth, key=key):
                        path = ws / FILES[key]
                        path.write_text(path.read_text() + "\n" + _deep(shape, depth))
                        return FILES[key]
                    out.append(_case("ws-deep-nesting", f"{shape}-{depth}-{key}", cmd, plant))
    return out


def _payloads() -> dict[str, str]:
    rnd = random.Random(7)
    b64 = "".join(rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(1_500_000))
    return {
        "comment-letters": "# " + "a" * 200_000 + "\n",
        "url-no-at": "# https://" + "a" * 200_000 + "\n",
        "url-colons": "# https://" + "a:" * 100_000 + "\n",
        "userinfo": "# https://u:" + "p" * 200_000 + "\n",
        "password-eq": "# password=" + "a" * 200_000 + "\n",
        "akia": "# " + "AKIA" * 50_000 + "\n",
        "ghp": "# " + "ghp_" * 50_000 + "\n",
        "sk": "# " + "sk-" * 70_000 + "\n",
        "base64-1.5MB": "# " + b64 + "\n",
        "many-lines": "# a = b\n" * 200_000,
        "quotes": '# "' + '\\"' * 100_000 + "\n",
    }


def secret_cases() -> list[Case]:
    out = []
    for name in _payloads():
        for key in ("eval-config", "env-example", "main", "pyproject"):
            for cmd in ("doctor", "validate"):
                def plant(sb, ws, name=name, key=key):
                    path = ws / FILES[key]
                    text = _payloads()[name]
                    if key == "main":
                        text = text.replace("\n", "\n", 1)
                    path.write_text(path.read_text() + "\n" + text)
                    return FILES[key]
                out.append(_case("ws-large-inputs", f"secret-{name}-{key}", cmd, plant))
    return out


def _big(path: Path, kind: str) -> None:
    if kind == "skill-60MB-body":
        with path.open("w") as fh:
            fh.write("---\nname: create-rollouts\ndescription: x\n---\n")
            for _ in range(60):
                fh.write("body line\n" * 100_000)
    elif kind == "skill-30MB-front-matter":
        with path.open("w") as fh:
            fh.write("---\nname: create-rollouts\ndescription: |\n")
            for _ in range(30):
                fh.write("  front matter line\n" * 55_000)
            fh.write("---\nbody\n")
    elif kind == "skill-unclosed-front-matter":
        with path.open("w") as fh:
            fh.write("---\nname: x\n")
            fh.write("k: v\n" * 5_000_000)
    elif kind == "skill-deep-yaml":
        path.write_text("---\nname: x\ndescription: " + "[" * 10_000 + "]" * 10_000 + "\n---\n")
    elif kind == "skill-laughs":
        laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"a{i}: &a{i} [{', '.join(['*a%d' % (i - 1)] * 9)}]\n" for i in range(1, 10))
        path.write_text("---\nname: create-rollouts\ndescription: d\n" + laughs + "---\n")
    elif kind == "skill-sparse-1GB":
        with path.open("wb") as fh:
            fh.write(b"---\nname: create-rollouts\ndescription: d\n---\n")
            fh.truncate(1 << 30)
    elif kind == "csv-quoted-newlines":
        with path.open("w") as fh:
            fh.write('system_prompt,user_prompt,ground_truth\n"a","')
            for _ in range(30):
                fh.write("\n" * 1_000_000)
            fh.write('","c"\n')
    elif kind == "csv-unterminated":
        with path.open("w") as fh:
            fh.write('system_prompt,user_prompt,ground_truth\n"a')
            for _ in range(30):
                fh.write("x,\n" * 350_000)
    elif kind == "csv-huge-field":
        with path.open("w") as fh:
            fh.write("system_prompt,user_prompt,ground_truth\n")
            fh.write("a" * 50_000_000 + ",b,c\n")
    elif kind == "jsonl-50MB-line":
        path.write_text('{"system_prompt": "' + "a" * 50_000_000 + '"}\n')
    elif kind == "jsonl-deep":
        path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    elif kind == "json-deep":
        path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    elif kind == "jsonl-sparse-1GB":
        with path.open("wb") as fh:
            fh.truncate(1 << 30)
    elif kind == "parquet-garbage":
        path.write_bytes(b"PAR1" + os.urandom(4096) + b"\xff\xff\xff\x7fPAR1")
    elif kind == "parquet-truncated":
        path.write_bytes(b"PAR1" + b"\x00" * 100)


BIG = {"skill-60MB-body": SKILL, "skill-30MB-front-matter": SKILL, "skill-unclosed-front-matter": SKILL,
       "skill-deep-yaml": SKILL, "skill-laughs": SKILL, "skill-sparse-1GB": SKILL,
       "csv-quoted-newlines": "data/extra.csv", "csv-unterminated": "data/extra.csv", "csv-huge-field": "data/extra.csv",
       "jsonl-50MB-line": "data/my-rollout.jsonl", "jsonl-deep": "data/my-rollout.jsonl", "json-deep": "data/extra.json",
       "jsonl-sparse-1GB": "data/my-rollout.jsonl", "parquet-garbage": "data/extra.parquet",
       "parquet-truncated": "data/extra.parquet"}


def big_cases() -> list[Case]:
    out = []
    for kind, rel in BIG.items():
        for cmd in ("doctor", "validate"):
            def plant(sb, ws, kind=kind, rel=rel):
                _big(_replace(ws, rel), kind)
                return rel if not rel.endswith("SKILL.md") else str(Path(rel).parent)
            out.append(_case("ws-large-inputs", kind, cmd, plant))
    return out


VALUES = {"nul": "main\\u0000.py", "5000-chars": "a" * 5000, "5000-slashes": "a/" * 2500, "dotdot": "../../../../outside/victim.txt",
          "absolute": "/etc/passwd", "dev-zero": "/dev/zero", "tilde": "~/.bashrc", "newline": "main.py\\n", "blank": " ",
          "control": "\\u001b[31mred", "surrogate-like": "\\uFFFE", "backslashes": "C:\\\\evil\\\\main.py"}


def value_cases() -> list[Case]:
    out = []
    for name, value in VALUES.items():
        for key in ("entrypoint", "dataset"):
            for cmd in CMDS:
                def plant(sb, ws, value=value, key=key):
                    cfg = ws / FILES["eval-config"]
                    old = 'entrypoint = "main.py"' if key == "entrypoint" else 'dataset = "my-rollout"'
                    cfg.write_text(cfg.read_text().replace(old, f'{key} = "{value}"'))
                    return FILES["eval-config"]
                out.append(_case("ws-odd-values", f"{key}-{name}", cmd, plant))
    for key in ("eval-config", "training-config", "pyproject", "env-example", "skill", "jsonl", "main", "answers",
                "ownership", "rollout-pyproject"):
        for cmd in ("doctor", "validate"):
            def plant(sb, ws, key=key):
                path = ws / FILES[key]
                path.write_bytes(path.read_bytes().replace(b"\n", b"\r"))
                return FILES[key] if key != "skill" else str(Path(FILES[key]).parent)
            out.append(_case("ws-odd-values", f"lone-cr-{key}", cmd, plant))
    return out


def _garbage(kind: str, seed: str) -> bytes:
    rnd = random.Random(seed)
    if kind == "random":
        return bytes(rnd.getrandbits(8) for _ in range(20_000))
    if kind == "invalid-utf8":
        return b"name = \"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\"\n" * 50
    if kind == "utf16-bom":
        return "[experiment]\nrollout = \"x\"\n".encode("utf-16")
    if kind == "nuls":
        return b"\x00" * 10_000
    return b"PK\x03\x04" + bytes(rnd.getrandbits(8) for _ in range(2000))


GARBAGE = ("random", "invalid-utf8", "utf16-bom", "nuls", "zip-header")


def garbage_cases() -> list[Case]:
    out = []
    for kind in GARBAGE:
        for key, rel in FILES.items():
            for cmd in CMDS:
                if cmd == "fix" and kind not in ("random", "utf16-bom"):
                    continue
                def plant(sb, ws, kind=kind, rel=rel):
                    _replace(ws, rel).write_bytes(_garbage(kind, kind + rel))
                    return rel if not rel.endswith("SKILL.md") else str(Path(rel).parent)
                out.append(_case("ws-binary-garbage", f"{kind}-{key}", cmd, plant))
    return out


UNREADABLE = ["configs/eval/my-rollout.toml", "pyproject.toml", f"{R}/main.py", SKILL, "data/my-rollout.jsonl", SCHEMA,
              f"{R}/.copier-answers.yml", ".env.example", "configs", "data", R, ".agents/skills", ".osmosis/schemas",
              ".git", "rollouts", ".agents/skills/create-rollouts", "configs/eval"]


def permission_cases() -> list[Case]:
    out = []
    for rel in UNREADABLE:
        for cmd in CMDS:
            def plant(sb, ws, rel=rel):
                (ws / rel).chmod(0)
                return rel
            out.append(_case("ws-permissions", f"unreadable-{rel.replace('/', '_')}", cmd, plant, privdrop=True))
    states = {"stale-schema": lambda ws: (ws / SCHEMA).write_text("{}\n"), "missing-schema": lambda ws: (ws / SCHEMA).unlink(),
              "broken-claude-link": lambda ws: ((ws / ".claude/skills/plan-eval").unlink(),
                                                (ws / ".claude/skills/plan-eval").symlink_to("../../nowhere")),
              "missing-env-example": lambda ws: (ws / ".env.example").unlink(), "nothing-to-fix": lambda ws: None}
    for state, make in states.items():
        for mode in ("whole-tree", "root-only", "osmosis-only"):
            def plant(sb, ws, make=make, mode=mode):
                make(ws)
                tops = {"whole-tree": [ws], "root-only": [ws], "osmosis-only": [ws / ".osmosis", ws / ".osmosis/schemas"]}[mode]
                if mode == "whole-tree":
                    for dirpath, dirnames, _ in os.walk(ws):
                        for d in dirnames:
                            p = Path(dirpath) / d
                            if not p.is_symlink():
                                p.chmod(0o555)
                for t in tops:
                    t.chmod(0o555)
                return None
            out.append(_case("ws-permissions", f"read-only-{mode}-{state}", "fix", plant, privdrop=True))
    return out


def all_cases() -> list[Case]:
    return (link_cases() + device_cases() + toml_cases() + secret_cases() + big_cases() + value_cases()
            + garbage_cases() + permission_cases())
