"""The `code` template's grader against its own data and an attack corpus, by its scoring function.

The template is rendered by our CLI; its scoring module (pure Python, no SDK) is imported from the
rendered rollout and called directly: every row's reference solution earns 1.0, every partial one a
share strictly between 0 and 1, and every answer of the corpus (rehearse's code probes, built from a
row by osmosis_workspace.rehearse.code_probes, and more below) earns 0 and leaves nothing behind: no
process of the child's session alive (read from /proc), no sandbox folder, no file written outside
it, the workspace's files unchanged.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from template_helpers import cli
from osmosis_workspace.rehearse.code_probes import CODE_ATTACKS, MISS, code_attacks

ROLLOUT = "code"
# The sandbox needs POSIX; what it leaves behind is read from /proc (Linux)
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
TMP = Path(tempfile.gettempdir())
HOME = Path(os.path.expanduser("~"))
# Where the corpus tries to leave something (see code_probes and EXTRA below).
MARKERS = [TMP / "osmosis-code-probe-escape", TMP / "osmosis-code-probe-ctypes", TMP / "osmosis-code-probe-subprocess",
           HOME / "osmosis-code-probe-escape", Path("/osmosis-code-probe-escape"), TMP / "osmosis-code-extra-escape"]

# More attempts than rehearse's probes, written for the row of `add_digits` (row 0).
EXTRA = {
    "read /proc/self/environ": "def add_digits(n):\n    return open('/proc/self/environ').read()\n",
    "read the dataset by a relative path": (
        "import glob\ndef add_digits(n):\n    for path in glob.glob('../**/*.jsonl', recursive=True):\n"
        "        return open(path).read()\n    return -1\n"),
    "list the parent's folder": "import os\ndef add_digits(n):\n    return os.listdir('..')\n",
    "symlink out of the folder": (
        "import os\nos.symlink('/etc', 'etc')\ndef add_digits(n):\n    return open('etc/hostname').read()\n"),
    "write a file, then read it back as an answer": (
        "def add_digits(n):\n    open('/tmp/osmosis-code-extra-escape', 'w').write('1')\n    return -1\n"),
    "mmap a file": "import mmap\ndef add_digits(n):\n    return mmap.mmap(-1, 1 << 40)\n",
    "gc walk for the tests": (
        "import gc\ndef add_digits(n):\n    return [o for o in gc.get_objects() if isinstance(o, dict) and 'inputs' in o][:1]\n"),
    "exception carrying a guess": "def add_digits(n):\n    raise ValueError(6)\n",
    "os._exit after each call": "import os\ndef add_digits(n):\n    os._exit(0)\n",
    "a fence inside the code": "def add_digits(n):\n    return '```python\\nprint(1)\\n```'\n",
}


@pytest.fixture(scope="module")
def scoring(tmp_path_factory):
    ws = tmp_path_factory.mktemp("code") / "ws"
    result = cli("init", ws, "--template", "code", "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    folder = ws / "rollouts" / ROLLOUT
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module(f"{ROLLOUT}_rollout.scoring")
        yield module, ws
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n.startswith(f"{ROLLOUT}_rollout")]:
            del sys.modules[name]


def rows(ws: Path) -> list[dict]:
    return [json.loads(line) for line in (ws / "data" / f"{ROLLOUT}.jsonl").read_text(encoding="utf-8").splitlines()]


def snapshot(ws: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in ws.rglob("*") if p.is_file()}


def alive(sessions: set[int]) -> list[str]:
    """Processes (not zombies) whose session or process group is one of ``sessions``."""
    left = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if fields[0] != "Z" and (int(fields[2]) in sessions or int(fields[3]) in sessions):
            left.append(stat[:80])
    return left


@pytest.fixture
def grader_tmp(monkeypatch):
    """A temp folder of this test's own for the sandbox's folders: what is left behind is read there,
    because another grading at the same time (a second pytest worker, a rehearse) makes and removes
    code-grader-* folders in the shared one while this test looks."""
    folder = Path(tempfile.mkdtemp(prefix="grader-tmp-"))
    folder.chmod(0o755)  # run as root, the sandbox hands its folder to nobody, who must reach it
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    made: list[str] = []
    real = tempfile.mkdtemp

    def recording(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", recording)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
    # the sandbox made its folders here, so what the test read covers them
    assert made and all(Path(p).parent == folder for p in made), made


def graded(scoring_module, code: str, label: str, monkeypatch, limits, cancel=None) -> tuple[object, set[int]]:
    """grade_code with every child the sandbox starts recorded."""
    sandbox = sys.modules[scoring_module.__name__.replace(".scoring", ".sandbox")]
    started: set[int] = set()
    real = subprocess.Popen

    class Recording(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.add(self.pid)

    monkeypatch.setattr(sandbox.subprocess, "Popen", Recording)
    try:
        return scoring_module.grade_code(code, label, limits, cancel), started
    finally:
        monkeypatch.setattr(sandbox.subprocess, "Popen", real)


def test_reference_solutions_score_one_and_partial_ones_a_share(scoring):
    module, ws = scoring
    data = rows(ws)
    assert len(data) >= 25 and sum(1 for r in data if r["partial"]) >= 3
    began = time.monotonic()
    for row in data:
        report = module.grade_code(row["reference"], row["ground_truth"])
        assert report.reward == 1.0, (row["user_prompt"][:60], report.reason)
    per_row = (time.monotonic() - began) / len(data)
    for row in data:
        if row["partial"]:
            report = module.grade_code(row["partial"], row["ground_truth"])
            assert 0.0 < report.reward < 1.0, (row["user_prompt"][:60], report.reward, report.reason)
    print(f"\nreference solutions: {len(data)} rows, {per_row:.2f} s a row")


def test_the_fenced_answer_is_what_counts(scoring):
    module, ws = scoring
    row = rows(ws)[0]
    answer = f"First try:\n```python\ndef add_digits(n):\n    return 0\n```\nFixed:\n```python\n{row['reference']}```\n"
    assert module.score(answer, row["ground_truth"]) == 1.0
    assert module.score(row["reference"], row["ground_truth"]) == 0.0  # no fence, no code


def test_the_corpus_is_large_and_every_probe_is_python():
    assert len(CODE_ATTACKS) + len(EXTRA) >= 25 and len(CODE_ATTACKS) >= 25


def test_code_attacks_build_for_every_row(scoring):
    _, ws = scoring
    for row in rows(ws):
        built = code_attacks(row["reference"], row["user_prompt"], row["ground_truth"])
        assert [kind for kind, _ in built] == list(CODE_ATTACKS)
        function = json.loads(row["ground_truth"])["function"]
        for kind, code in built:
            compile(code, kind, "exec")
            assert f"def {function}(" in code and "```" not in code, (kind, code)
            # an attack never carries the expected outputs of the row's tests
            for case in json.loads(row["ground_truth"])["tests"]:
                if isinstance(case["output"], str) and len(case["output"]) > 3:
                    assert repr(case["output"]) not in code, (kind, case)


def corpus(ws: Path) -> list[tuple[str, str, str]]:
    row = rows(ws)[0]
    assert json.loads(row["ground_truth"])["function"] == "add_digits"
    built = [(kind, code, row["ground_truth"]) for kind, code in code_attacks(row["reference"], row["user_prompt"], row["ground_truth"])]
    return built + [(kind, code, row["ground_truth"]) for kind, code in EXTRA.items()]


KINDS = list(CODE_ATTACKS) + list(EXTRA)


@pytest.mark.parametrize("kind", KINDS)
def test_an_attack_scores_zero_and_leaves_nothing_behind(scoring, kind, monkeypatch, grader_tmp):
    module, ws = scoring
    sandbox = sys.modules[f"{ROLLOUT}_rollout.sandbox"]
    limits = sandbox.Limits(deadline_s=3.0, test_timeout_s=0.5)
    [(code, label)] = [(c, lab) for k, c, lab in corpus(ws) if k == kind]
    folders, files = set(grader_tmp.glob("code-grader-*")), snapshot(ws)
    report, started = graded(module, code, label, monkeypatch, limits)
    assert report.reward == 0.0, (kind, report.reason, report.run and report.run.values)
    assert started, "the sandbox started no child"
    assert alive(started) == [], kind
    assert set(grader_tmp.glob("code-grader-*")) <= folders, "a sandbox folder was left behind"
    assert [m for m in MARKERS if m.exists()] == [], "a file was written outside the sandbox"
    assert snapshot(ws) == files, "the workspace's files changed"
    assert report.run.seconds < limits.deadline_s + 3.0, report.run.seconds
    assert MISS not in json.dumps(report.run.values) or report.passed == 0


def _nobody_can_import(python: str) -> bool:
    """Whether user nobody can start ``python`` and import from its standard library (the switch needs it)."""
    try:
        done = subprocess.run([python, "-I", "-S", "-c", "import json, heapq"], check=False, user=65534, group=65534,
                              extra_groups=[], capture_output=True, timeout=60, cwd="/")
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def test_the_child_has_its_own_network_and_as_root_drops_to_nobody(scoring):
    module, _ = scoring
    sandbox = sys.modules[f"{ROLLOUT}_rollout.sandbox"]
    # a Python whose standard library others can read, where this machine has one (the switch needs it)
    python = next((p for p in ("/usr/bin/python3", sys.executable) if os.path.exists(p)), sys.executable)
    label = json.dumps({"function": "who", "tests": [{"input": [], "output": 0}]})
    code = "import os\ndef who():\n    return [os.getuid(), os.readlink('/proc/self/ns/net')]\n"
    report = module.grade_code(code, label, sandbox.Limits(python=python))
    assert report.run.ok == [True], report.reason
    uid, net = report.run.values[0]
    if os.geteuid() == 0:
        assert net != os.readlink("/proc/self/ns/net")  # root may always take a namespace
        assert uid == (65534 if _nobody_can_import(python) else 0)
    else:
        assert uid == os.geteuid()


def test_a_cancelled_grade_stops_its_child_at_once(scoring, monkeypatch, grader_tmp):
    """What grader.py does when the SDK's grader timeout cancels `grade`: it sets the event, and the thread
    kills the child and removes its folder without waiting for the answer's own deadline."""
    import threading

    module, ws = scoring
    row = rows(ws)[0]
    cancel = threading.Event()
    result: dict = {}
    code = "import time\ndef add_digits(n):\n    time.sleep(60)\n"
    folders = set(grader_tmp.glob("code-grader-*"))
    limits = sys.modules[f"{ROLLOUT}_rollout.sandbox"].Limits(deadline_s=60, test_timeout_s=30)
    worker = threading.Thread(target=lambda: result.update(
        graded=graded(module, code, row["ground_truth"], monkeypatch, limits, cancel)))
    worker.start()
    time.sleep(1.0)
    cancelled = time.monotonic()
    cancel.set()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - cancelled < 5
    report, started = result["graded"]
    assert report.reward == 0.0 and "cancelled" in report.run.notes
    assert started and alive(started) == []
    assert set(grader_tmp.glob("code-grader-*")) <= folders
