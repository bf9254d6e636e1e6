"""`osmosis init` on a real terminal asks copier's questions (driven here through a pseudo-terminal)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENTER = "\r"


def typed(text: str) -> str:
    return "\x15" + text + ENTER  # Ctrl-U first: clear the default the prompt offers


def converse(args: list[str], cwd: Path, answers: list[tuple[str, str]], timeout: float = 60,
             columns: int = 80) -> tuple[int, str]:
    """Run the CLI on a pseudo-terminal ``columns`` wide; when the screen shows each prompt in turn, send its keys."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(REPO), "TERM": "dumb", "PROMPT_TOOLKIT_NO_CPR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd, env=env,
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    screen, unseen, pending = "", "", list(answers)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536).decode("utf-8", "replace")
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                screen += chunk
                unseen += chunk
            if pending and pending[0][0] in unseen:
                prompt, keys = pending.pop(0)
                unseen = unseen.split(prompt, 1)[1]
                os.write(master, keys.encode())
            elif proc.poll() is not None and not ready:
                break
        assert not pending, f"never asked: {[p for p, _ in pending]}\n{screen}"
        return proc.wait(timeout=10), screen
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_questions_are_asked_and_the_folder_is_named_after_the_answer(tmp_path):
    code, screen = converse(
        ["init", "--no-git"], tmp_path,
        [("Workspace name", typed("lab-one")), ("One line", typed("Multiplication practice")),
         ("Rollout name", typed("adder")), ("Agent framework", ENTER), ("What the rollout does", ENTER), ("Model for evaluation", typed("openai/gpt-4.1-mini")),
         ("Policy model", typed("Qwen/Qwen3-8B"))],
    )
    assert code == 0, screen
    ws = tmp_path / "lab-one"
    assert (ws / "rollouts/adder/main.py").is_file()
    assert 'model_path = "openai/gpt-4.1-mini"' in (ws / "configs/eval/adder.toml").read_text()
    assert 'model_path = "Qwen/Qwen3-8B"' in (ws / "configs/training/adder.toml").read_text()
    assert "Multiplication practice" in (ws / "AGENTS.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab-one"]


def test_path_name_is_offered_and_data_answers_are_not_asked(tmp_path):
    code, screen = converse(
        ["init", "offered-name", "--no-git", "--data", "rollout_name=m"], tmp_path,
        [("Workspace name", ENTER), ("One line", ENTER), ("Agent framework", ENTER), ("What the rollout does", ENTER), ("Model for evaluation", ENTER), ("Policy model", ENTER)],
    )
    assert code == 0, screen
    assert (tmp_path / "offered-name/AGENTS.md").read_text().startswith("# offered-name")
    assert (tmp_path / "offered-name/rollouts/m/main.py").is_file()
    assert "Rollout name" not in screen


def test_invalid_interactive_answer_is_asked_again(tmp_path):
    code, screen = converse(
        ["init", "--no-git", "--data", "workspace_name=ok-ws"], tmp_path,
        [("One line", ENTER), ("Rollout name", typed("Bad_Name")), ("use 1-64", typed("good-name")),
         ("Agent framework", ENTER), ("What the rollout does", ENTER), ("Model for evaluation", ENTER), ("Policy model", ENTER)],
    )
    assert code == 0, screen
    assert (tmp_path / "ok-ws/rollouts/good-name/main.py").is_file()
    assert not (tmp_path / "ok-ws/rollouts/Bad_Name").exists()


def test_a_long_validation_message_is_shown_whole_on_a_narrow_terminal(tmp_path):
    # issue 12, point 12: the one-line toolbar cut the message at the terminal's width
    code, screen = converse(
        ["init", "--no-git", "--data", "workspace_name=ok-ws"], tmp_path,
        [("One line", ENTER), ("Rollout name", typed("Bad_Name")), ("reserved", typed("good-name")), ("Agent framework", ENTER), ("What the rollout does", ENTER),
         ("Model for evaluation", ENTER), ("Policy model", ENTER)],
        columns=50,
    )
    assert code == 0, screen
    assert "('default' is reserved)" in screen
