"""Every rehearse verdict and probe, as one table: its name, what is sent, the threshold, the hint.

The verdicts judge the three base passes (gold, wrong, empty); the probes are extra answers built
from each rehearsed row (probe_cases.py) and sent in the same `eval run`, each judged against the
gold and wrong rewards of its own row (probe_verdicts.py). The order here is the report's order and
the headline's priority. docs/rehearse.md's table is this one (a test compares them: `markdown()`).
"""

from __future__ import annotations

from osmosis_workspace.core.records import dataclass, field


# A probe answer may earn up to this much more than the wrong answer of its row (a fraction of the
# reward scale's width) before it counts as paid: room for a grader's small format bonus or rounding.
TOLERANCE = 0.1
# Two rewards of the same answer that differ by more than this are not the same reward.
SAME = 1e-9


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str           # verdict | probe
    sends: str          # what the scripted model answers (for a verdict: the passes it reads)
    threshold: str      # when it holds
    hint: str           # what to look at when it fails


TABLE: tuple[Entry, ...] = (
    Entry("preflight", "verdict", "nothing: the rollout's uv.lock and synced .venv, read; for Harbor, the SDK's import of the entrypoint",
          "no known-bad pair (core/known_bad.py, doctor's DEP003) in the lock or the synced environment; Harbor: the entrypoint imports",
          "the line names the pair and the constraint that keeps it out, or the exception and its line"),
    Entry("runs", "verdict", "gold, wrong, empty", "every row of the three passes completed",
          "the SDK's error category and the first traceback's file and line name the code to fix"),
    Entry("finite", "verdict", "every pass and probe", "no reward is NaN or infinite",
          "a division by zero or a log of 0 in the grader; return a number in the declared range"),
    Entry("in range", "verdict", "every pass and probe",
          "every reward within `reward-range` (default [0, 1]); outside a declared range fails, outside the default is reported",
          "clamp the reward, or declare the scale: `[tool.osmosis.rehearse] reward-range = [LOW, HIGH]`"),
    Entry("gold rewarded", "verdict", "gold: the row's ground truth in the prompt's answer format",
          "gold mean >= 0.9 of the scale's top", "does the grader read the right field and parse the format the prompt asks for?"),
    Entry("discriminates", "verdict", "gold, wrong (another row's ground truth), empty",
          "gold mean minus the higher of wrong and empty >= 0.5 of the scale", "the reward must tell a right answer from a wrong one"),
    Entry("not constant", "verdict", "gold, wrong, empty", "some reward differs from another",
          "a constant reward teaches nothing; is a placeholder `return 1.0` left in?"),
    Entry("hedge", "probe", "the gold among other candidates, put in every place in turn: one or two others on one "
          "line, one per line, several answer lines, one guess per answer format, the whole answer space (the values the "
          "labels use and the choices the prompts list); a range holding a number; for a list label every item of the "
          "space at once; for an object every field as a list of two values, and every key written twice",
          "over one shape's placements, the rewards above the row's wrong answer add up to no more than the gold earns "
          "above it + 0.1 of the scale (a grader that reads one place pays a hedge only when the gold sits there); "
          "listing every item earns less than the gold",
          "the grader pays for the gold in more than one place (any number, any line, any format, the label anywhere); "
          "parse the one final answer the format asks for"),
    Entry("glued", "probe", "the gold run together with another candidate into one token, both ways round "
          "(`427` and `742` for 42, `ParisLyon`), each a committed wrong answer; for a list label, one item gluing "
          "every item of the space",
          "no more than the row's wrong answer + 0.1 of the scale",
          "the grader pays for the label inside a longer token (a substring, a prefix); compare the whole answer"),
    Entry("non-answer", "probe", "in the prompt's format, an answer that carries none: `I don't know`, `cannot be "
          "determined`, `nan`, `inf`, `-inf`, the format with nothing in it, non-ASCII only, control characters only, "
          "a long run of noise (one per row, every kind at least once); an empty list or object for such labels",
          "no more than the row's wrong answer + 0.1 of the scale",
          "the grader pays for saying nothing: an abstention, a non-finite number (nan passes `abs(a - e) > tol`) or "
          "text it cannot parse must earn what a wrong answer earns"),
    Entry("length", "probe", "the row's wrong answer after a long prose preamble (about 8,000 characters, "
          "fewer when the request sets max_tokens)",
          "no more than the same wrong answer unpadded + 0.1 of the scale",
          "the grader pays for length; score the answer, not the text around it"),
    Entry("malformed", "probe", "in the prompt's format: non-ASCII text, control characters, a 64 KB line, "
          "broken markup and JSON (one per row, every kind at least once)",
          "the row completes (the grader does not raise), its reward is finite and in range and no more than the "
          "row's wrong answer + 0.1 of the scale",
          "read the answer defensively: no encode('ascii'), no unguarded json.loads or regex group"),
    Entry("determinism", "probe", "the gold answer again for the row, once among the probes and once after every "
          "other answer (a later batch), with the prompt exactly as before",
          "the same reward as the gold pass (a grader declared `stochastic` reports the spread instead)",
          "the reward depends on call order, a cache per prompt or randomness: remove it, or declare randomness: "
          "`[tool.osmosis.rehearse] stochastic = true`"),
    Entry("echo", "probe", "the row's prompt repeated back, exactly as the policy was shown it (skipped where the "
          "prompt holds the label)",
          "no more than the row's wrong answer + 0.1 of the scale",
          "the grader finds the label in text the policy copied; read only the final answer"),
    Entry("format-only", "probe", "the prompt's answer format around a placeholder (`#### ANSWER`)",
          "no more than the row's empty answer + 0.1 of the scale",
          "the grader pays for the wrapper alone: keep a format reward to 0.1 of the scale at most"),
    Entry("partly right", "probe", "where the label allows: one item of a list or one field of a JSON object replaced "
          "by another valid option (another row's item, another value of the field; an item dropped where the space "
          "has no other), or the partial-column answer",
          "less than the row's gold and no less than its wrong; the figures show any partial credit",
          "equal to gold: the grader ignores that part; below wrong: it punishes near misses"),
    Entry("near miss", "probe", "a number with its sign flipped, off by one, 1%, 5% and 9% off; a text in upper or "
          "lower case or with doubled spaces",
          "reported; judged where `[tool.osmosis.rehearse.answers]` declares a tolerance (inside it: the gold's "
          "reward; outside: less than the gold) or ignores case or whitespace; a flipped sign always earns less "
          "than the gold",
          "the grader forgives more than the workspace declares (or less): match the declared tolerance"),
    Entry("invariance", "probe", "the gold as an honest grader still reads it: a list in another order, with an item "
          "named twice, the answer with whitespace around it",
          "reported; judged where `[tool.osmosis.rehearse.answers] ignores` lists order, repeats or whitespace "
          "(then: the gold's reward); never a crash",
          "the grader is stricter than declared: compare sets as sets, count an item once, strip whitespace"),
    Entry("code", "probe", "where the prompt asks for a fenced Python block: code that games or escapes a grader "
          "running it (prints or hard-codes guesses, reads the tests, the environment or the parent's /proc, forges "
          "the result protocol, hangs, forks, floods, writes outside, opens sockets, signals the parent, calls C; "
          "rehearse/code_probes.py), each kind once, the rows taking them in turn",
          "the row completes and earns no more than the row's wrong answer + 0.1 of the scale",
          "run the answer in a child process with inputs only, limits and a deadline, and compare in the parent "
          "(skills: create-rollouts/references/code-graders.md)"),
    Entry("timings", "verdict", "every pass and probe",
          "the server was healthy within the SDK's 90 s and every row within agent_workflow_timeout_s + grader_timeout_s",
          "a slow import or a blocking call at startup; raise the config's timeouts only if the task needs it"),
)

@dataclass
class Verdict:
    name: str                 # a name in TABLE
    holds: bool | None        # None: could not be judged (no reward recorded, probe not built)
    detail: str
    figures: list[dict] = field(default_factory=list)   # a probe's rows: reward, gold, wrong, the answer sent
    accepted: str | None = None                          # why a failing probe is accepted ([tool.osmosis.rehearse])

    @property
    def fails(self) -> bool:
        return self.holds is False and not self.accepted


BY_NAME = {e.name: e for e in TABLE}
PROBES = tuple(e.name for e in TABLE if e.kind == "probe")
WIDTH = max(len(e.name) for e in TABLE)   # the text report's name column


def markdown() -> str:
    """The table as docs/rehearse.md shows it."""
    lines = ["| name | kind | what is sent | holds when | on failure, look at |", "|---|---|---|---|---|"]
    lines += [f"| {e.name} | {e.kind} | {e.sends} | {e.threshold} | {e.hint} |" for e in TABLE]
    return "\n".join(lines) + "\n"
