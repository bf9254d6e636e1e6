"""How often `osmosis doctor` agrees with the real osmosis-ai on mutations of a fresh multiply
workspace (issue 20's before/after table). Slow (it starts rollout servers): run it by hand.

    python bench/sdk_agreement.py --sdk-python PY312 [--before SRC] [--only entrypoint] [-o out.json]

PY312 is a Python 3.12 whose environment holds osmosis-ai with the server and strands extras (e.g.
the one tests/sdk_real builds under ~/.cache/osmosis-workspace-tests). SRC is another checkout of
osmosis-workspace (e.g. `git archive 3631c0b | tar -x -C /tmp/before`), run the same way for the
"before" column. Each mutation is one edit of one file of a workspace `osmosis init --template
multiply --defaults --no-git` makes; bench/sdk_judge.py gives the SDK's verdict (its loaders,
dataset validator, submit import, `eval run`'s server launch) and doctor's verdict is whether it
reports an error in that family (CFG/SEC for configs, DAT for datasets, ENT/CFG026/LAY111 for code).
Mutations the SDK cannot judge without the platform (values only the platform's backend checks,
a rollout's run-time behaviour) are listed under "not judged locally", not counted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from checkouts import other_checkout_cmd  # noqa: E402  (bench/ is not a package)
EVAL, TRAIN, DATA = "configs/eval/multiply.toml", "configs/training/multiply.toml", "data/multiply.jsonl"
MAIN, WF, GR = "rollouts/multiply/main.py", "rollouts/multiply/multiply_rollout/workflow.py", "rollouts/multiply/multiply_rollout/grader.py"
PORT = 'port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))'

# (id, family, kind, file, old, new); old=None appends new; a family "backend" or "runtime" entry
# is reported, not judged (the SDK leaves it to the platform, or it fails only in a rollout).
MUTATIONS: list[tuple[str, str, str, str, str | None, str]] = [
    # -- configs: eval --------------------------------------------------------------------------
    ("eval-clean", "config", "eval", EVAL, None, "\n"),
    ("eval-n-zero", "config", "eval", EVAL, "n = 1", "n = 0"),
    ("eval-n-float", "config", "eval", EVAL, "n = 1", "n = 1.5"),
    ("eval-n-string", "config", "eval", EVAL, "n = 1", 'n = "1"'),
    ("eval-batch-string", "config", "eval", EVAL, "batch_size = 8", 'batch_size = "8"'),
    ("eval-threshold-inf", "config", "eval", EVAL, "pass_threshold = 0.5", "pass_threshold = inf"),
    ("eval-threshold-nan", "config", "eval", EVAL, "pass_threshold = 0.5", "pass_threshold = nan"),
    ("eval-threshold-high", "config", "eval", EVAL, "pass_threshold = 0.5", "pass_threshold = 1.5"),
    ("eval-threshold-zero", "config", "eval", EVAL, "pass_threshold = 0.5", "pass_threshold = 0.0"),
    ("eval-threshold-string", "config", "eval", EVAL, "pass_threshold = 0.5", 'pass_threshold = "0.5"'),
    ("eval-timeout-neg-inf", "config", "eval", EVAL, "grader_timeout_s = 30", "grader_timeout_s = -inf"),
    ("eval-timeout-inf", "config", "eval", EVAL, "agent_workflow_timeout_s = 120", "agent_workflow_timeout_s = inf"),
    ("eval-unknown-key", "config", "eval", EVAL, "n = 1", "n = 1\nrepeats = 2"),
    ("eval-unknown-table", "config", "eval", EVAL, None, "\n[sampling]\nrollout_top_p = 1.0\n"),
    ("eval-no-model", "config", "eval", EVAL, 'model_path = "openai/gpt-5-mini"\n', ""),
    ("eval-no-dataset", "config", "eval", EVAL, 'dataset = "multiply"\n', ""),
    ("eval-rollout-path", "config", "eval", EVAL, 'rollout = "multiply"', 'rollout = "rollouts/multiply"'),
    ("eval-rollout-dotdot", "config", "eval", EVAL, 'rollout = "multiply"', 'rollout = ".."'),
    ("eval-entry-escapes", "config", "eval", EVAL, 'entrypoint = "main.py"', 'entrypoint = "../../main.py"'),
    ("eval-branch-space", "config", "eval", EVAL, 'dataset = "multiply"', 'dataset = "multiply"\nbranch = "my branch"'),
    ("eval-branch-empty", "config", "eval", EVAL, 'dataset = "multiply"', 'dataset = "multiply"\nbranch = ""'),
    ("eval-sha-bad", "config", "eval", EVAL, 'dataset = "multiply"', 'dataset = "multiply"\ncommit_sha = "xyz123"'),
    ("eval-branch-and-sha", "config", "eval", EVAL, 'dataset = "multiply"', 'dataset = "multiply"\nbranch = "main"\ncommit_sha = "abcdef1"'),
    ("eval-env-reserved", "config", "eval", EVAL, None, '\n[env]\n_OSMOSIS_ROLLOUT_PORT = "1"\n'),
    ("eval-env-lowercase", "config", "eval", EVAL, None, '\n[env]\nlog_level = "x"\n'),
    ("eval-env-not-string", "config", "eval", EVAL, None, "\n[env]\nLOG_LEVEL = 3\n"),
    ("eval-env-and-secret", "config", "eval", EVAL, None, '\n[env]\nOPENAI_API_KEY = "x"\n'),
    ("eval-no-secrets", "config", "eval", EVAL, '[secrets]\n', "[notsecrets]\n"),
    ("eval-secret-lowercase", "config", "eval", EVAL, 'required = ["OPENAI_API_KEY"]', 'required = ["openai_key"]'),
    ("eval-toml-broken", "config", "eval", EVAL, 'rollout = "multiply"', "rollout = multiply"),
    ("eval-experiment-dup", "config", "eval", EVAL, 'rollout = "multiply"', 'rollout = "multiply"\nrollout = "multiply"'),
    ("eval-advanced-ok", "config", "eval", EVAL, None, "\n[advanced]\nanything = 1\n"),
    # -- configs: training ----------------------------------------------------------------------
    ("train-clean", "config", "training", TRAIN, None, "\n"),
    ("train-unknown-key", "config", "training", TRAIN, "lr = 1e-6", "lr = 1e-6\nlearning_rate = 1e-6"),
    ("train-unknown-table", "config", "training", TRAIN, None, "\n[evaluation]\nn = 1\n"),
    ("train-unknown-sampling", "config", "training", TRAIN, "rollout_top_p = 1.0", "rollout_top_p = 1.0\ntop_k = 5"),
    ("train-no-rollout", "config", "training", TRAIN, 'rollout = "multiply"\n', ""),
    ("train-rollout-abs", "config", "training", TRAIN, 'rollout = "multiply"', 'rollout = "/multiply"'),
    ("train-secrets-not-list", "config", "training", TRAIN, None, '\n[secrets]\nrequired = "HF_TOKEN"\n'),
    ("train-hot-temperature", "config", "training", TRAIN, "rollout_temperature = 1.0", "rollout_temperature = 2.5"),
    ("train-negative-lr", "backend", "training", TRAIN, "lr = 1e-6", "lr = -1e-6"),
    ("train-zero-epochs", "backend", "training", TRAIN, "total_epochs = 2", "total_epochs = 0"),
    ("train-top-p-high", "backend", "training", TRAIN, "rollout_top_p = 1.0", "rollout_top_p = 1.5"),
    ("train-negative-temperature", "backend", "training", TRAIN, "rollout_temperature = 1.0", "rollout_temperature = -0.1"),
    ("train-zero-batch", "backend", "training", TRAIN, "rollout_batch_size = 8", "rollout_batch_size = 0"),
    ("train-lr-inf", "backend", "training", TRAIN, "lr = 1e-6", "lr = inf"),
    ("train-blank-model", "backend", "training", TRAIN, 'model_path = "Qwen/Qwen3.6-35B-A3B"', 'model_path = "  "'),
    ("train-dataset-path", "backend", "training", TRAIN, 'dataset = "multiply"', 'dataset = "data/multiply.jsonl"'),
    # -- datasets -------------------------------------------------------------------------------
    ("data-clean", "dataset", "", DATA, None, ""),
    ("data-broken-json", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": "6"\n'),
    ("data-array-row", "dataset", "", DATA, None, '["s", "2*3", "6"]\n'),
    ("data-string-row", "dataset", "", DATA, None, '"2*3"\n'),
    ("data-blank-line", "dataset", "", DATA, None, "\n"),
    ("data-row-ok", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": "6"}\n'),
    ("data-row-missing-field", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3"}\n'),
    ("data-row-extra-field", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": "6", "x": 1}\n'),
    ("data-row-crlf", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": "6"}\r\n'),
    ("data-row-nan", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": NaN}\n'),
    ("data-row-null-truth", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": null}\n'),
    ("data-row-number-truth", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": 6}\n'),
    ("data-row-number-prompt", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": 6, "ground_truth": "6"}\n'),
    ("data-row-empty-prompt", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "", "ground_truth": "6"}\n'),
    ("data-row-empty-truth", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": ""}\n'),
    ("data-row-list-prompt", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": ["2*3"], "ground_truth": "6"}\n'),
    ("data-row-object-truth", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "ground_truth": {"v": 6}}\n'),
    ("data-row-duplicate-key", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "2*3", "user_prompt": "2*4", "ground_truth": "6"}\n'),
    ("data-row-not-utf8", "dataset", "", DATA, None, '{"system_prompt": "s", "user_prompt": "caf\udce9", "ground_truth": "6"}\n'),
    ("data-all-no-system", "dataset", "", DATA, "ALL:" + '"system_prompt": ', '"system_note": '),
    ("data-all-truth-number", "dataset", "", DATA, "ALL:" + '"ground_truth": "', '"ground_truth": 1, "g": "'),
    ("data-all-cased-key", "dataset", "", DATA, "ALL:" + '"user_prompt"', '"User_Prompt"'),
    ("data-all-no-truth", "dataset", "", DATA, "ALL:" + '"ground_truth"', '"answer"'),
    ("data-empty-file", "dataset", "", DATA, "EMPTY", ""),
    ("data-bom", "dataset", "", DATA, "BOM", ""),
    # -- entrypoints ----------------------------------------------------------------------------
    ("ent-clean", "entrypoint", "", MAIN, None, "\n"),
    ("ent-backend-from-root", "entrypoint", "", MAIN, "from osmosis_ai.rollout import LocalBackend", "from osmosis_ai import LocalBackend"),
    ("ent-strands-from-rollout", "entrypoint", "", WF, "from osmosis_ai.rollout.integrations.agents.strands import", "from osmosis_ai.rollout import"),
    ("ent-server-name-typo", "entrypoint", "", MAIN, "import create_rollout_server", "import create_rollout_serverX"),
    ("ent-no-such-module", "entrypoint", "", MAIN, "from osmosis_ai.rollout.server import", "from osmosis_ai.rollout.servers import"),
    ("ent-import-submodule", "entrypoint", "", MAIN, "import os\n", "import os\nimport osmosis_ai.rollout.nothere\n"),
    ("ent-local-name", "entrypoint", "", MAIN, "import MultiplyGrader,", "import MultiplyGraderX,"),
    ("ent-local-module", "entrypoint", "", MAIN, "from multiply_rollout.grader", "from multiply_rollout.graders"),
    ("ent-local-renamed-class", "entrypoint", "", WF, "class MultiplyWorkflow(", "class MultiplyFlow("),
    ("ent-relative-import", "entrypoint", "", MAIN, "from multiply_rollout.grader", "from .multiply_rollout.grader"),
    ("ent-backend-no-workflow", "entrypoint", "", MAIN, "    workflow=MultiplyWorkflow,\n", ""),
    ("ent-backend-positional", "entrypoint", "", MAIN, "    workflow=MultiplyWorkflow,\n", "    MultiplyWorkflow,\n"),
    ("ent-backend-unknown-kw", "entrypoint", "", MAIN, "    grader=MultiplyGrader,\n", "    graders=MultiplyGrader,\n"),
    ("ent-server-no-backend", "entrypoint", "", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server()"),
    ("ent-server-unknown-kw", "entrypoint", "", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=backend, port=9000)"),
    ("ent-no-grader", "entrypoint", "", MAIN, "    grader=MultiplyGrader,\n", ""),
    ("ent-fixed-port", "entrypoint", "", MAIN, PORT, "port=8000"),
    ("ent-port-env", "entrypoint", "", MAIN, PORT, 'port=int(os.environ.get("PORT", "8000"))'),
    ("ent-rollout-port-env", "entrypoint", "", MAIN, PORT, 'port=int(os.environ.get("ROLLOUT_PORT", "8000"))'),
    ("ent-default-port", "entrypoint", "", MAIN, ", " + PORT, ""),
    ("ent-no-main", "entrypoint", "", MAIN, 'if __name__ == "__main__":', "if False:"),
    ("ent-unguarded", "entrypoint", "", MAIN, 'if __name__ == "__main__":', "if True:"),
    ("ent-syntax", "entrypoint", "", MAIN, "app = create_rollout_server(", "app = create_rollout_server(("),
    ("ent-syntax-package", "entrypoint", "", GR, "class MultiplyGrader(", "class MultiplyGrader(("),
    ("ent-ok-string-workflow", "entrypoint", "", MAIN, "    workflow=MultiplyWorkflow,\n", '    workflow="multiply_rollout.workflow:MultiplyWorkflow",\n'),
    ("ent-ok-port-variable", "entrypoint", "", MAIN, PORT, "port=PORT_NUMBER"),
    ("ent-ok-host", "entrypoint", "", MAIN, 'host="0.0.0.0"', 'host="127.0.0.1"'),
    ("ent-ok-no-grader-config", "entrypoint", "", MAIN, "    grader_config=grader_config,\n", ""),
    ("ent-ok-extra-import", "entrypoint", "", MAIN, "import os\n", "import os\nimport json  # noqa: F401\n"),
    ("ent-ok-server-kw", "entrypoint", "", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=backend, configure_logging=False)"),
    # -- issue 29 point 8: what doctor missed (old "MOVE" renames the file to new) ---------------------
    ("eval-suffix-tml", "config", "eval", EVAL, "MOVE", "configs/eval/multiply.tml"),
    ("train-suffix-tml", "config", "training", TRAIN, "MOVE", "configs/training/multiply.tml"),
    ("train-suffix-upper", "config", "training", TRAIN, "MOVE", "configs/training/multiply.TOML"),
    ("data-ndjson", "dataset", "", DATA, "MOVE", "data/multiply.ndjson"),
    ("data-txt", "dataset", "", DATA, "MOVE", "data/multiply.txt"),
    ("data-tsv", "dataset", "", DATA, "MOVE", "data/multiply.tsv"),
    ("data-pq", "dataset", "", DATA, "MOVE", "data/multiply.pq"),
    ("data-no-extension", "dataset", "", DATA, "MOVE", "data/multiply"),
    ("ent-unbound-name", "entrypoint", "", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=backnd)"),
    ("ent-grader-import-removed", "entrypoint", "", MAIN, "import MultiplyGrader, grader_config", "import grader_config"),
    ("ent-import-osmosis", "entrypoint", "", MAIN, "import os\n", "import os\n\nimport osmosis\n"),
    ("ent-import-misspelt", "entrypoint", "", WF, "from strands import tool", "from strandz import tool"),
    ("ent-raise-at-import", "entrypoint", "", MAIN, "backend = LocalBackend(", 'raise RuntimeError("not ready")\nbackend = LocalBackend('),
    ("ent-exit-at-import", "entrypoint", "", MAIN, "import os\n", "import os\nimport sys\n\nsys.exit(1)\n"),
    ("ent-env-at-import", "entrypoint", "", MAIN, "backend = LocalBackend(", 'KEY = os.environ["MULTIPLY_API_KEY"]\nbackend = LocalBackend('),
    ("ent-grader-path-unknown", "entrypoint", "", MAIN, "    grader=MultiplyGrader,\n", '    grader="multiply_rollout.grader:MultiplyGraderX",\n'),
    ("ent-grader-path-no-colon", "entrypoint", "", MAIN, "    grader=MultiplyGrader,\n", '    grader="multiply_rollout.grader.MultiplyGrader",\n'),
    ("ent-workflow-config-dict", "entrypoint", "", MAIN, "    workflow_config=workflow_config,\n", '    workflow_config={"name": "multiply"},\n'),
    ("ent-port-constant", "entrypoint", "", MAIN, PORT, 'port=int(os.environ.get(PORT_ENV, "8000"))'),
    ("ent-backend-none", "entrypoint", "", MAIN, "create_rollout_server(backend=backend)", "create_rollout_server(backend=None)"),
    ("ent-ok-grader-path", "entrypoint", "", MAIN, "    grader=MultiplyGrader,\n", '    grader="multiply_rollout.grader:MultiplyGrader",\n'),
    ("ent-ok-env-get", "entrypoint", "", MAIN, "backend = LocalBackend(", 'KEY = os.environ.get("MULTIPLY_API_KEY")\nbackend = LocalBackend('),
    ("ent-sync-grade", "runtime", "", GR, "    async def grade(self", "    def grade(self"),
    ("ent-sync-run", "runtime", "", WF, "    async def run(self", "    def run(self"),
]
_EXTRA_SETUP = {"ent-ok-port-variable": (MAIN, "app = create_rollout_server(", 'PORT_NUMBER = int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))\napp = create_rollout_server('),
                "ent-port-constant": (MAIN, "backend = LocalBackend(", 'PORT_ENV = "ROLLOUT_LISTEN"\nbackend = LocalBackend(')}
FAMILY_CODES = {
    "config": ("CFG", "SEC"), "backend": ("CFG", "SEC"), "dataset": ("DAT",),
    "entrypoint": ("ENT", "CFG026", "LAY111"), "runtime": ("ENT",),
}


def mutate(base: Path, target: Path, case: tuple) -> None:
    ident, _, _, rel, old, new = case
    shutil.copytree(base, target, symlinks=True)
    path = target / rel
    if old == "MOVE":
        path.rename(target / new)
        return
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    if ident in _EXTRA_SETUP:
        _, o, n = _EXTRA_SETUP[ident]
        text = text.replace(o, n, 1)
    if old is None:
        text = text + new
    elif old == "EMPTY":
        text = ""
    elif old == "BOM":
        text = "\ufeff" + text
    elif old.startswith("ALL:"):
        text = text.replace(old[4:], new)
    else:
        assert old in text, (ident, old)
        text = text.replace(old, new, 1)
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))


def doctor_errors(source: Path, ws: Path, family: str) -> list[str]:
    done = subprocess.run([*other_checkout_cmd(source), "doctor", str(ws), "--format", "json"],
                          cwd=source, capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout)
    prefixes = FAMILY_CODES[family]
    return sorted({d["code"] for d in report["diagnostics"] if d["severity"] == "error" and d["code"].startswith(prefixes)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdk-python", required=True)
    parser.add_argument("--before", type=Path, help="another osmosis-workspace source tree for the 'before' column")
    parser.add_argument("--only", choices=("config", "dataset", "entrypoint", "backend", "runtime"))
    parser.add_argument("--ids", help="only these mutations (comma-separated ids)")
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="sdk-agreement-"))
    base = work / "base"
    subprocess.run([sys.executable, "-m", "osmosis_workspace", "init", str(base), "--template", "multiply", "--defaults", "--no-git"],
                   cwd=ROOT, check=True, capture_output=True)
    rows = []
    for case in MUTATIONS:
        ident, family, kind = case[:3]
        if (args.only and family != args.only) or (args.ids and ident not in args.ids.split(",")):
            continue
        ws = work / ident
        mutate(base, ws, case)
        if family in ("backend", "runtime"):
            sdk = {"ok": None, "why": "not judged locally"}
        else:
            moved = case[5] if case[4] == "MOVE" else case[3]  # the file the SDK is handed
            judged = subprocess.run([args.sdk_python, str(HERE / "sdk_judge.py"), str(ws), family, kind, moved],
                                    capture_output=True, text=True, timeout=400)
            sdk = json.loads(judged.stdout.strip().splitlines()[-1]) if judged.returncode == 0 else {"ok": None, "why": judged.stderr[-300:]}
        row = {"id": ident, "family": family, "sdk_ok": sdk["ok"], "sdk_why": sdk.get("why", ""),
               "after": doctor_errors(ROOT, ws, family)}
        if args.before:
            row["before"] = doctor_errors(args.before, ws, family)
        rows.append(row)
        print(json.dumps(row), flush=True)
        shutil.rmtree(ws, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    table = summary(rows)
    print(table)
    if args.output:
        args.output.write_text(json.dumps({"rows": rows, "table": table}, indent=1) + "\n", encoding="utf-8")
    return 0


def summary(rows: list[dict]) -> str:
    lines = ["family      judged  SDK rejects  before: agree  missed  extra   after: agree  missed  extra"]
    for family in ("config", "dataset", "entrypoint"):
        mine = [r for r in rows if r["family"] == family and r["sdk_ok"] is not None]
        if not mine:
            continue
        cells = [family.ljust(11), str(len(mine)).rjust(6), str(sum(not r["sdk_ok"] for r in mine)).rjust(12)]
        for column in ("before", "after"):
            if column not in mine[0]:
                cells.append("      -       -      -")
                continue
            agree = sum(bool(r[column]) == (not r["sdk_ok"]) for r in mine)
            missed = sum(not r[column] and not r["sdk_ok"] for r in mine)
            extra = sum(bool(r[column]) and r["sdk_ok"] for r in mine)
            cells.append(f"{agree:>13} {missed:>7} {extra:>6}")
        lines.append(" ".join(cells))
    unjudged = [r for r in rows if r["sdk_ok"] is None]
    if unjudged:
        lines.append("not judged locally (platform backend or rollout time): " + ", ".join(
            f"{r['id']} before={'/'.join(r.get('before', [])) or '-'} after={'/'.join(r['after']) or '-'}" for r in unjudged))
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
