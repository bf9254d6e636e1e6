"""Issue 23 from the built wheel: every linter feature driven through the installed `osmosis` script.

One venv per module holds the wheel (installed as tests/test_wheel.py installs it: the editable checkout
stays invisible), one workspace made by that wheel's own `osmosis init`, copied for each test that edits it.
Git state is not what these tests are about: every doctor run here passes `--ignore GIT` (edits are
uncommitted, and the workspace has no origin)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from osmosis_workspace.core.rules import DOCS_URL
from tests.doctor.test_watch import Stream, ctrl_c
from tests.test_wheel import REPO, install_wheel, run, wheel_env

pytestmark = pytest.mark.slow

EVAL = "configs/eval/multiply.toml"
TRAINING = "configs/training/multiply.toml"
FINDING = re.compile(r"^ *(\S+?):(\d+):(\d+): (error|warning|info) ([A-Z]{3}\d{3}) ", re.M)


class Wheel:
    """The wheel's `osmosis` run as a user runs it: its own script, no PYTHONPATH, a cache folder of ours."""

    def __init__(self, bin_dir: Path, cache: Path):
        self.script = bin_dir / "osmosis"
        self.env = {**wheel_env(), "OSMOSIS_DOCTOR_CACHE": str(cache), "NO_COLOR": "1"}

    def __call__(self, *args, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
        done = subprocess.run([str(self.script), *map(str, args)], cwd=cwd, env=env or self.env, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=120)
        assert done.returncode != 3 and "Traceback" not in done.stderr, f"{args}\n{done.stdout}\n{done.stderr}"
        return done


@pytest.fixture(scope="module")
def osmosis(release_wheel, tmp_path_factory) -> Wheel:
    home = tmp_path_factory.mktemp("wheel-linter")
    python = install_wheel(release_wheel, home / "venv")
    wheel = Wheel(python.parent, home / "doctor-cache")
    where = run([python, "-c", "import osmosis_workspace; print(osmosis_workspace.__file__)"], cwd=home, env=wheel.env).stdout.strip()
    assert Path(where).is_relative_to(home / "venv"), where  # the wheel's code, not this checkout's
    return wheel


@pytest.fixture(scope="module")
def pristine(osmosis, tmp_path_factory) -> Path:
    parent = tmp_path_factory.mktemp("pristine")
    made = osmosis("init", "demo", "--template", "multiply", "--defaults", cwd=parent)
    assert made.returncode == 0, made.stdout + made.stderr
    clean = doctor(osmosis, parent / "demo")
    assert (clean.returncode, clean.stdout.splitlines()[-1]) == (0, "No issues found."), clean.stdout
    return parent / "demo"


@pytest.fixture
def ws(pristine, tmp_path) -> Path:
    return Path(shutil.copytree(pristine, tmp_path / "demo", symlinks=True))  # .claude/skills holds links


def doctor(osmosis: Wheel, ws: Path, *args, **kwargs) -> subprocess.CompletedProcess:
    return osmosis("doctor", "--ignore", "GIT", *args, cwd=ws, **kwargs)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new))


def found(output: str) -> list[tuple[str, int, str, str]]:
    """(path, line, severity, code) of each finding in text output."""
    return [(p, int(line), severity, code) for p, line, _, severity, code in FINDING.findall(output)]


def unknown_keys(ws: Path) -> None:
    """Two CFG003 errors in the eval config, on lines 10 and 11."""
    edit(ws / EVAL, "[experiment]\n", "[experiment]\nlearning_rat = 0.1\nbatchsiz = 3\n")


def a_skill(ws: Path) -> Path:
    return min((ws / ".agents" / "skills").iterdir()) / "SKILL.md"


# --- the README's table for ruff users names only what the wheel has ------------------------------------------------

def ruff_table() -> list[tuple[str, str]]:
    lines = (REPO / "README.md").read_text().split("**For ruff users.**", 1)[1].splitlines()
    rows = []
    for line in lines[1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]])
        elif rows:
            break
    assert rows[0] == ["ruff", "osmosis"] and set(rows[1]) == {"---"}, rows[:2]
    return [(ruff, ours.replace("\\|", "|")) for ruff, ours in rows[2:]]


def options(help_text: str) -> dict[str, str]:
    """Each option name of a `--help` (short and long) -> its description."""
    named: dict[str, str] = {}
    names: list[str] = []
    for line in help_text.split("Options:", 1)[1].splitlines():
        if entry := re.match(r"^  (-\S.*?)(?:\s{2,}(.*))?$", line):
            names = re.findall(r"(?<![\w-])--?[a-z][\w-]*", entry.group(1))
            named.update(dict.fromkeys(names, entry.group(2) or ""))
        elif line.startswith("    ") and names:
            for name in names:
                named[name] += " " + line.strip()
    return named


def test_every_command_and_flag_of_the_readme_ruff_table_exists(osmosis, tmp_path):
    helps: dict[str, dict[str, str]] = {}
    checked = []
    for ruff, ours in ruff_table():
        commands = re.findall(r"`osmosis (\w+)", ours) or ["doctor"]
        for command in commands:
            if command not in helps:
                shown = osmosis(command, "--help", cwd=tmp_path)
                assert shown.returncode == 0 and shown.stdout.startswith(f"Usage: osmosis {command} "), (command, shown.stdout)
                helps[command] = options(shown.stdout)
        for span in re.findall(r"`([^`]*)`", ours):
            words = span.split()
            for i, word in enumerate(words):
                if not re.fullmatch(r"--?[a-z][\w-]*", word):
                    continue
                owners = [c for c in commands if word in helps[c]]
                assert owners, f"README row {ruff!r} names {word}, which `osmosis {'/'.join(commands)} --help` lacks"
                following = words[i + 1] if i + 1 < len(words) else ""
                if re.fullmatch(r"[a-z]+(\|[a-z]+)*", following):  # the values it takes, as `--format json|sarif`
                    for value in following.split("|"):
                        assert re.search(rf"\b{value}\b", helps[owners[0]][word]), (word, value, helps[owners[0]][word])
                checked.append(word)
    # the table's rows as they stand: a parse that finds nothing would prove nothing
    assert {"--fix", "--unsafe-fixes", "--diff", "--watch", "--statistics", "--add-ignores", "--baseline", "--write-baseline",
            "--no-cache", "--output-format", "--format", "-o", "--output", "--all", "--select", "--ignore", "--list-checks"} <= set(checked)
    assert {"doctor", "validate", "rule", "lsp"} <= set(helps)


# --- 1. rules explain themselves; findings link to them -------------------------------------------------------------

def test_rule_explains_itself_and_json_and_sarif_findings_link_to_it(osmosis, ws):
    text = osmosis("rule", "CFG003", cwd=ws)
    assert text.returncode == 0
    for part in ("CFG003 (config-unknown-key)", "Severity: error", "Fixable: no", "Why it matters", "Example", "Fix",
                 f"Docs: {DOCS_URL}#cfg003"):
        assert part in text.stdout, part
    rules = {code: json.loads(osmosis("rule", code, "--format", "json", cwd=ws).stdout) for code in ("CFG003", "CFG022", "LAY008")}
    for code, rule in rules.items():
        assert rule["code"] == code and rule["url"] == f"{DOCS_URL}#{code.lower()}"
        assert all(isinstance(rule[k], str) and rule[k].strip() for k in ("summary", "why", "fix", "example")), rule
    assert rules["CFG003"]["why"] in text.stdout and rules["CFG003"]["summary"] in text.stdout
    assert [(r["fixable"], r["fixability"]) for r in rules.values()] == [(False, "none"), (True, "safe"), (True, "unsafe")]
    every = json.loads(osmosis("rule", "--all", "--format", "json", cwd=ws).stdout)["rules"]
    assert {"CFG003", "CFG022", "LAY008", "SET004", "SET005"} <= {r["code"] for r in every}
    assert all(r["url"] == f"{DOCS_URL}#{r['code'].lower()}" for r in every)
    headings = set(re.findall(r"^### ([A-Z]{3}\d{3})$", (REPO / "docs" / "checks.md").read_text(), re.M))
    assert {r["code"] for r in every} <= headings  # every link lands on a section
    missing = osmosis("rule", "CFG999", cwd=ws)
    from osmosis_workspace.check.doctor import load_rules
    from osmosis_workspace.check.settings import suggest_code  # the checkout's guess: the wheel must say the same

    load_rules()
    guess = suggest_code("CFG999")
    assert guess and guess.startswith("CFG")
    assert missing.returncode == 2 and missing.stderr.strip().splitlines() == [f"error: no rule has the code 'CFG999'; did you mean {guess}?"]

    unknown_keys(ws)
    report = json.loads(doctor(osmosis, ws, "--format", "json").stdout)
    assert [(d["code"], d["line"], d["url"]) for d in report["diagnostics"]] == [("CFG003", 10, f"{DOCS_URL}#cfg003"), ("CFG003", 11, f"{DOCS_URL}#cfg003")]
    (sarif_run,) = json.loads(doctor(osmosis, ws, "--format", "sarif").stdout)["runs"]
    described = sarif_run["tool"]["driver"]["rules"]
    assert [(r["ruleId"], described[r["ruleIndex"]]["id"], described[r["ruleIndex"]]["helpUri"]) for r in sarif_run["results"]] \
        == [("CFG003", "CFG003", f"{DOCS_URL}#cfg003")] * 2


def test_statistics_count_per_rule_and_mark_the_fixable(osmosis, ws):
    unknown_keys(ws)
    edit(ws / TRAINING, (ws / TRAINING).read_text().splitlines(keepends=True)[0], "")  # CFG022: the #:schema line gone
    stats = doctor(osmosis, ws, "--statistics")
    assert stats.returncode == 1
    rows = re.findall(r"^(\d+)\s+([A-Z]{3}\d{3})\s+(\w+)\s+(\[\*\] )?(\S+)$", stats.stdout, re.M)
    assert rows == [("2", "CFG003", "error", "", "config-unknown-key"), ("1", "CFG022", "warning", "[*] ", "schema-directive")]
    assert stats.stdout.splitlines()[-1] == "2 errors, 1 warning; 1 fixable with `osmosis doctor --fix`"
    counted = json.loads(doctor(osmosis, ws, "--statistics", "--format", "json").stdout)["statistics"]
    assert [(s["code"], s["count"], s["fixable"]) for s in counted] == [("CFG003", 2, False), ("CFG022", 1, True)]


# --- 2. text output --------------------------------------------------------------------------------------------------

def test_text_output_full_concise_and_to_a_file(osmosis, ws, tmp_path):
    unknown_keys(ws)
    full = doctor(osmosis, ws)
    assert full.returncode == 1
    assert found(full.stdout) == [(EVAL, 10, "error", "CFG003"), (EVAL, 11, "error", "CFG003")]
    lines = full.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{EVAL}:10:1: error CFG003"))
    assert lines[at + 1].split() == ["10", "|", "learning_rat", "=", "0.1"] and lines[at + 2].split() == ["|", "^"]
    assert lines[at + 2].index("^") == lines[at + 1].index("learning_rat")  # the caret under column 1
    assert lines[-1] == "2 errors"

    concise = doctor(osmosis, ws, "--output-format", "concise")
    assert concise.returncode == 1
    assert concise.stdout.splitlines() == [
        f"{EVAL}:10:1: error CFG003 unknown key `learning_rat` in [experiment]",
        f"{EVAL}:11:1: error CFG003 unknown key `batchsiz` in [experiment]",
        "2 errors"]

    target = tmp_path / "report.txt"
    written = doctor(osmosis, ws, "--output-format", "concise", "-o", target)
    assert written.returncode == 1
    assert written.stdout.splitlines() == [f"2 errors (report written to {target})"]
    assert target.read_text() == concise.stdout


# --- 3. suppressions --------------------------------------------------------------------------------------------------

def test_suppression_comments_in_toml_and_markdown(osmosis, ws):
    config, skill = ws / EVAL, a_skill(ws)
    edit(config, "[experiment]\n", "[experiment]\nlearning_rat = 0.1  # osmosis: ignore[CFG003]\n")
    skill.write_text(skill.read_text() + "See [the notes](notes.md) first.\n")
    before = doctor(osmosis, ws, "--output-format", "concise")
    assert [(p, code) for p, _, _, code in found(before.stdout)] == [(str(skill.relative_to(ws)), "SKL025")]

    edit(skill, "(notes.md) first.\n", "(notes.md) first. <!-- osmosis: ignore[SKL025] -->\n")
    quiet = doctor(osmosis, ws)
    assert (quiet.returncode, quiet.stdout.splitlines()[-1]) == (0, "No issues found."), quiet.stdout

    # a suppression that silences nothing is itself a finding, at the comment; an unknown code too
    edit(config, 'rollout = "multiply"\n', 'rollout = "multiply"  # osmosis: ignore[CFG003]\n')
    edit(config, 'entrypoint = "main.py"\n', 'entrypoint = "main.py"  # osmosis: ignore[CFG999]\n')
    stale = doctor(osmosis, ws, "--output-format", "concise")
    assert found(stale.stdout) == [(EVAL, 11, "info", "SET004"), (EVAL, 12, "warning", "SET003")], stale.stdout
    assert "suppression of CFG003 is unused" in stale.stdout

    # ignore-file: every CFG003 of the file, wherever it is
    config.write_text(re.sub(r"  # osmosis: ignore\[\w+\]", "", config.read_text()).replace("0.1\n", "0.1\nbatchsiz = 3\n"))
    assert [code for *_, code in found(doctor(osmosis, ws, "--output-format", "concise").stdout)] == ["CFG003", "CFG003"]
    lines = config.read_text().splitlines(keepends=True)
    config.write_text("".join([lines[0], "# osmosis: ignore-file[CFG003]\n", *lines[1:]]))
    assert doctor(osmosis, ws).stdout.splitlines()[-1] == "No issues found."


def test_add_ignores_writes_comments_and_the_next_doctor_is_clean(osmosis, ws):
    unknown_keys(ws)
    skill = a_skill(ws)
    skill.write_text(skill.read_text() + "See [the notes](notes.md) first.\n")
    added = doctor(osmosis, ws, "--add-ignores")
    assert added.returncode == 0 and "Added suppressions for 3 findings in 2 files." in added.stderr
    assert "learning_rat = 0.1  # osmosis: ignore[CFG003]\nbatchsiz = 3  # osmosis: ignore[CFG003]\n" in (ws / EVAL).read_text()
    assert skill.read_text().endswith("See [the notes](notes.md) first.  <!-- osmosis: ignore[SKL025] -->\n")
    again = doctor(osmosis, ws)
    assert (again.returncode, again.stdout.splitlines()[-1]) == (0, "No issues found."), again.stdout


# --- 4. baseline -----------------------------------------------------------------------------------------------------

def test_baseline_hides_recorded_findings_and_reports_new_and_stale_ones(osmosis, ws, tmp_path):
    recorded = tmp_path / "baseline.json"
    edit(ws / EVAL, "[experiment]\n", "[experiment]\nlearning_rat = 0.1\n")
    wrote = doctor(osmosis, ws, "--write-baseline", recorded)
    assert wrote.returncode == 0 and "Wrote 1 finding to" in wrote.stderr
    assert [e["code"] for e in json.loads(recorded.read_text())["findings"]] == ["CFG003"]
    assert doctor(osmosis, ws).returncode == 1  # without the baseline the finding is still there
    known = doctor(osmosis, ws, "--baseline", recorded)
    assert (known.returncode, known.stdout.splitlines()[-1]) == (0, "No issues found."), known.stdout

    edit(ws / EVAL, "[experiment]\n", "# a line above the finding moves it down\n[experiment]\n")
    moved = doctor(osmosis, ws, "--baseline", recorded)
    assert (moved.returncode, moved.stdout.splitlines()[-1]) == (0, "No issues found."), moved.stdout

    edit(ws / TRAINING, "total_epochs = 2\n", "total_epoch = 2\n")
    new = doctor(osmosis, ws, "--baseline", recorded, "--output-format", "concise")
    assert new.returncode == 1 and [(p, c) for p, _, _, c in found(new.stdout)] == [(TRAINING, "CFG003")]

    edit(ws / TRAINING, "total_epoch = 2\n", "total_epochs = 2\n")
    edit(ws / EVAL, "learning_rat = 0.1\n", "")  # the recorded finding fixed: its entry is stale
    stale = doctor(osmosis, ws, "--baseline", recorded, "--output-format", "concise")
    assert stale.returncode == 0
    assert stale.stdout.splitlines() == [f"(workspace): info SET005 baseline entry CFG003 in {EVAL} matches no finding any more", "1 info"]


# --- 5. fixes --------------------------------------------------------------------------------------------------------

def test_diff_shows_fix_applies_safe_ones_unsafe_fixes_the_rest(osmosis, ws):
    training, claude = ws / TRAINING, ws / "CLAUDE.md"
    directive = training.read_text().splitlines(keepends=True)[0]
    assert directive.startswith("#:schema ")
    edit(training, directive, "")  # CFG022, a safe fix
    claude.write_text("# Notes\n")  # LAY008, an unsafe fix
    broken = {p: p.read_bytes() for p in (training, claude)}

    shown = doctor(osmosis, ws, "--diff")
    assert shown.returncode == 1
    assert shown.stdout.startswith(f"--- a/{TRAINING}\n+++ b/{TRAINING}\n@@ -1,3 +1,4 @@\n+{directive}")
    assert "CLAUDE.md" not in shown.stdout and "1 unsafe fix available with --unsafe-fixes" in shown.stderr
    both = doctor(osmosis, ws, "--diff", "--unsafe-fixes")
    assert both.returncode == 1 and "--- a/CLAUDE.md\n+++ b/CLAUDE.md\n" in both.stdout and "\n+@AGENTS.md\n" in both.stdout
    assert {p: p.read_bytes() for p in broken} == broken  # a diff writes nothing

    fixed = doctor(osmosis, ws, "--fix", "--output-format", "concise")
    assert fixed.returncode == 0 and fixed.stdout.startswith(f"fixed: {TRAINING}: first line set to")
    assert training.read_text().startswith(directive) and claude.read_bytes() == broken[claude]
    assert fixed.stdout.splitlines()[-2:] == ["CLAUDE.md: warning LAY008 CLAUDE.md neither imports (@AGENTS.md) nor mentions AGENTS.md",
                                              "1 warning"]

    unsafe = doctor(osmosis, ws, "--unsafe-fixes")
    assert unsafe.returncode == 0 and "fixed: CLAUDE.md: appended `@AGENTS.md`" in unsafe.stdout
    assert claude.read_text() == "# Notes\n@AGENTS.md\n" and unsafe.stdout.splitlines()[-1] == "No issues found."


# --- 6. did you mean -------------------------------------------------------------------------------------------------

def test_a_typo_gets_did_you_mean_in_skill_front_matter_and_training_config(osmosis, ws):
    skill = a_skill(ws)
    edit(skill, "\ndescription:", "\ndescripton:")
    edit(ws / TRAINING, "total_epochs = 2\n", "total_epoch = 2\n")
    out = doctor(osmosis, ws, "--output-format", "concise")
    assert out.returncode == 1
    assert out.stdout.splitlines()[:2] == [
        f"{skill.relative_to(ws)}:3:1: error SKL010 unknown front-matter key 'descripton'; did you mean 'description'?",
        f"{TRAINING}:14:1: error CFG003 unknown key `total_epoch` in [training]; did you mean `total_epochs`?"]


# --- 7. cache --------------------------------------------------------------------------------------------------------

def listing(folder: Path) -> dict[str, tuple[int, int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*") if p.is_file()}


CACHE_OWN = ("walk.json", "units.json")  # the cache's index and units: every other file is one run's findings


def test_the_cache_answers_an_unchanged_workspace_and_an_edit_is_checked_again(osmosis, ws, tmp_path):
    cache = tmp_path / "cache"
    env = {**osmosis.env, "OSMOSIS_DOCTOR_CACHE": str(cache)}
    unknown_keys(ws)
    first = doctor(osmosis, ws, "-v", env=env)
    entries = {name: seen for name, seen in listing(cache).items() if not name.endswith(CACHE_OWN)}
    assert first.returncode == 1 and len(entries) == 1, listing(cache)  # one run, one entry
    assert "answered from the cache" not in first.stdout

    second = doctor(osmosis, ws, "-v", env=env)
    assert "(answered from the cache)\n2 errors\n" in second.stdout and found(second.stdout) == found(first.stdout)
    assert {name: seen for name, seen in listing(cache).items() if not name.endswith(CACHE_OWN)} == entries  # not rewritten

    before = listing(cache)
    uncached = doctor(osmosis, ws, "-v", "--no-cache", env=env)
    assert found(uncached.stdout) == found(first.stdout) and "answered from the cache" not in uncached.stdout
    assert listing(cache) == before  # neither read nor written

    edit(ws / EVAL, "batchsiz = 3\n", "")
    third = doctor(osmosis, ws, "-v", env=env)
    assert found(third.stdout) == [(EVAL, 10, "error", "CFG003")] and "answered from the cache" not in third.stdout
    assert len([n for n in listing(cache) if not n.endswith(CACHE_OWN)]) == 2


# --- 8. watch --------------------------------------------------------------------------------------------------------

def test_watch_redraws_on_an_edit_and_ctrl_c_exits_0(osmosis, ws):
    env = {**osmosis.env, "OSMOSIS_WATCH_INTERVAL": "0.1"}
    # Ctrl-C as a terminal delivers it: a background test run passes SIGINT on ignored (see tests/doctor/test_watch.py)
    proc = subprocess.Popen([str(osmosis.script), "doctor", "--ignore", "GIT", "--watch"], cwd=ws, env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out, err = Stream(proc.stdout), Stream(proc.stderr)
    try:
        err.wait_for("for changes; Ctrl-C stops")
        first = out.text
        assert "No issues found." in first and "CFG003" not in first
        edit(ws / EVAL, "[experiment]\n", "[experiment]\nlearning_rat = 0.1\n")
        err.wait_for("for changes; Ctrl-C stops", count=2)
        redrawn = out.text[len(first):]
        assert f"changed: {EVAL}; checked again ---" in redrawn
        assert found(redrawn) == [(EVAL, 10, "error", "CFG003")] and "1 error" in redrawn
    finally:
        code = ctrl_c(proc, out, err)
    assert code == 0
    err.wait_for("stopped watching")
    assert "Traceback" not in err.text + out.text


# --- 9. the language server ------------------------------------------------------------------------------------------

def test_the_wheels_language_server_publishes_a_finding_and_explains_it_on_hover(osmosis, ws):
    # pygls and pytest-lsp come with the test extra; the wheel's server imports pygls through the .pth as well
    from lsprotocol import types

    from tests.lsp.test_lsp_server import counting, diagnostics_for, open_doc, started

    config = ws / EVAL
    broken = config.read_text().replace("[experiment]\n", "[experiment]\nlearning_rat = 0.1\n", 1)
    line = broken.splitlines().index("learning_rat = 0.1")

    async def scenario():
        client, _ = await started(ws, server=[osmosis.script, "lsp"], env=osmosis.env, cwd=ws)
        counting(client)
        try:
            uri = open_doc(client, config, broken)  # only in the editor's buffer
            (finding,) = await diagnostics_for(client, uri)
            assert (finding.code, finding.severity, finding.range.start.line) == ("CFG003", types.DiagnosticSeverity.Error, line)
            hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, 3)))
            assert hover is not None and "**CFG003** `config-unknown-key` (error)" in hover.contents.value
        finally:
            await client.shutdown_session()
        return client

    client = asyncio.run(scenario())
    assert client.error is None and client._server.returncode == 0  # shutdown, exit: the server ended cleanly
