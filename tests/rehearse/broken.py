"""Broken rollouts, each made the way a user breaks one: `osmosis rollout new NAME --template blank`, then
one edit to the generated code or config. ``BREAKS`` maps the rollout name to its edit and the words
the one-line reason must carry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


def package(ws: Path, rollout: str) -> Path:
    return ws / "rollouts" / rollout / f"{rollout.replace('-', '_')}_rollout"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path}: the template changed; {old!r} is not there any more"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


SCORE_BODY = "    if not answer.strip() or label is None:\n        return 0.0\n"
EXACT = "return 1.0 if answer.strip().casefold() == label.strip().casefold() else 0.0"
BACKEND_GRADER = "    grader=RolloutGrader,\n    grader_config=grader_config,\n"
RUN_BODY = "        agent = OsmosisStrandsAgent("


@dataclass(frozen=True)
class Break:
    apply: Callable[[Path, str], None]
    reason: tuple[str, ...]          # words the headline must carry (lower case)
    verdict: str                     # the verdict that fails first


def _constant(ws, r):
    edit(package(ws, r) / "grading.py", SCORE_BODY, "    return 1.0  # full marks while the grader is being written\n" + SCORE_BODY)


def _inverted(ws, r):
    edit(package(ws, r) / "grading.py", EXACT, "return 0.0 if answer.strip().casefold() == label.strip().casefold() else 1.0")


def _wrong_field(ws, r):
    # The label is on the context as ctx.label; the user reached for a field the row does not have.
    edit(package(ws, r) / "workflow.py", "score(answer_text(messages), ctx.label)",
         "score(answer_text(messages), getattr(ctx, 'ground_truth', None))")


def _grader_raises(ws, r):
    edit(package(ws, r) / "grading.py", SCORE_BODY,
         SCORE_BODY + "    if label.rstrip().endswith('2'):\n        raise ValueError(f'cannot parse the label {label!r}')\n")


def _no_grader(ws, r):
    edit(package(ws, r) / "workflow.py", BACKEND_GRADER, "")


def _workflow_crash(ws, r):
    edit(package(ws, r) / "workflow.py", RUN_BODY,
         "        raise RuntimeError('the tool registry is not configured')\n" + RUN_BODY)


def _wrong_port(ws, r):
    edit(ws / "rollouts" / r / "main.py", 'port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))',
         'port=int(os.environ.get("PORT", "18765"))')


def _hang(ws, r):
    edit(package(ws, r) / "workflow.py", RUN_BODY, "        import asyncio\n\n        await asyncio.sleep(600)\n" + RUN_BODY)
    config = ws / "configs" / "eval" / f"{r}.toml"
    text = config.read_text(encoding="utf-8")
    import re

    config.write_text(re.sub(r"agent_workflow_timeout_s = \d+", "agent_workflow_timeout_s = 5", text), encoding="utf-8")


def _import_error(ws, r):
    edit(package(ws, r) / "workflow.py", "from .grading import answer_text, score", "from .grading import answer_text, score_answer")


BREAKS: dict[str, Break] = {
    "constant": Break(_constant, ("constant",), "discriminates"),
    "inverted": Break(_inverted, ("inverted",), "gold rewarded"),
    "wrong-field": Break(_wrong_field, ("no row is ever rewarded", "field"), "gold rewarded"),
    "grader-raises": Break(_grader_raises, ("valueerror", "grading.py"), "runs"),
    "no-grader": Break(_no_grader, ("grader",), "runs"),
    "workflow-crash": Break(_workflow_crash, ("runtimeerror", "workflow.py"), "runs"),
    "wrong-port": Break(_wrong_port, ("port", "18765"), "runs"),
    "hang": Break(_hang, ("timeout",), "runs"),
    "import-error": Break(_import_error, ("importerror", "workflow.py"), "runs"),
}
