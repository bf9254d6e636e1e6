"""Graders a policy would game, each made the way a user writes one: a fresh multiply rollout whose
`score` in scoring.py is wrapped by one edit. ``GAMEABLE`` maps the rollout name to its edit and the
probe that must name it. The template's own rule stays as `_exact`, so gold, wrong and empty still
behave: only the probe can tell."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from broken import edit, package

EXACT_DEF = "def score(text: str | None, label: str | None) -> float:"

WRAPPERS = {
    # full reward when the label appears anywhere in the answer ("1 2 3 ... 99999" always wins)
    "label-anywhere": "    return 1.0 if label and str(label).strip() in (text or '') else 0.0\n",
    # any number of the answer within the tolerance of the label
    "any-number": ("    expected = _to_float(str(label or '').strip())\n"
                   "    numbers = [_to_float(n) for n in _NUMBER.findall(text or '')]\n"
                   "    return 1.0 if expected is not None and any(n is not None and abs(n - expected) <= TOLERANCE + _EPSILON "
                   "for n in numbers) else 0.0\n"),
    # a bonus for long answers ("show your work")
    "length-bonus": "    return min(1.0, _exact(text, label) + len(text or '') / 20000)\n",
    # a crash on non-ASCII answers (an ASCII-only log line, a latin-1 file)
    "ascii-only": "    (text or '').encode('ascii')\n    return _exact(text, label)\n",
    # random noise on the reward
    "noisy": "    import random\n\n    return min(1.0, max(0.0, _exact(text, label) + random.uniform(-0.05, 0.05)))\n",
}
PROBE = {"label-anywhere": "hedge", "any-number": "hedge", "length-bonus": "length",
         "ascii-only": "malformed", "noisy": "determinism"}


@dataclass(frozen=True)
class Gameable:
    apply: Callable[[Path, str], None]
    probe: str


def _wrap(body: str) -> Callable[[Path, str], None]:
    def apply(ws: Path, rollout: str) -> None:
        scoring = package(ws, rollout) / "scoring.py"
        edit(scoring, EXACT_DEF, EXACT_DEF.replace("def score(", "def _exact("))
        with scoring.open("a", encoding="utf-8") as fh:
            fh.write(f"\n\n{EXACT_DEF}\n{body}")
    return apply


GAMEABLE: dict[str, Gameable] = {name: Gameable(_wrap(body), PROBE[name]) for name, body in WRAPPERS.items()}
