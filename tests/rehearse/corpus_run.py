"""The grader corpus (corpus/graders.py: graders written by someone who had not read the probe code, as
data) turned into rehearsals: each case's `score`, its rows and its `[tool.osmosis.rehearse]` settings."""

from __future__ import annotations

import sys

from corpus.datasets import DATASETS
from corpus.graders import CASES

from osmosis_workspace.core.rehearse_settings import RehearseSettings, parse

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROWS = 4   # rehearse's default --rows 0-3


def score_of(case):
    namespace: dict = {"__name__": f"corpus_{case.name.replace('-', '_')}"}
    exec(compile(case.source, f"<corpus {case.name}>", "exec"), namespace)  # noqa: S102 - our own test corpus
    return namespace["score"]


def rows_of(case) -> list[tuple[int, dict]]:
    return list(enumerate(DATASETS[case.dataset][:ROWS]))


def settings_of(case) -> RehearseSettings:
    if not case.settings.strip():
        return RehearseSettings()
    settings, problems = parse(tomllib.loads(case.settings))
    assert not problems, (case.name, problems)
    return settings


def table(results: dict[str, tuple[bool, str]], cases=CASES) -> str:
    lines = []
    for case in cases:
        ok, headline = results[case.name]
        verdict = ("ok" if ok else "FALSE ALARM") if case.honest else ("caught" if not ok else "MISSED")
        lines.append(f"{verdict:<11} {case.name:<32} {headline[:160]}")
    return "\n".join(lines)


def assert_held(results: dict[str, tuple[bool, str]], where: str, cases=CASES) -> None:
    honest = [c.name for c in cases if c.honest]
    gameable = [c.name for c in cases if not c.honest]
    false_alarms = [n for n in honest if not results[n][0]]
    missed = [n for n in gameable if results[n][0]]
    caught = len(gameable) - len(missed)
    print(f"\n{where}: {caught} of {len(gameable)} gameable caught, {len(honest) - len(false_alarms)} of "
          f"{len(honest)} honest green\n" + table(results, cases))
    assert not false_alarms, f"{where}: honest graders failed: {false_alarms}\n{table(results, cases)}"
    assert caught >= 0.9 * len(gameable), f"{where}: missed {missed}\n{table(results, cases)}"
