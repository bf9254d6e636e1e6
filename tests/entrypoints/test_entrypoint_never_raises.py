"""Property: whatever Python-ish source an entrypoint holds, checking it never raises."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmosis_workspace.check.families.entrypoints import check_entrypoint_file
from osmosis_workspace.check.registry import RULES

FRAGMENTS = [
    "from osmosis_ai.rollout import AgentWorkflow, Grader, RolloutAgentLoop",
    "from osmosis_ai.rollout import AgentWorkflow as AW",
    "import osmosis_ai.rollout as r",
    "from osmosis_ai import rollout",
    "import osmosis_ai.rollout",
    "from .base import Base",
    "from base import Base",
    "from . import base",
    "from ... import x",
    "from abc import ABC, abstractmethod",
    "import abc",
    "from openai import AsyncOpenAI",
    "class W(AgentWorkflow):",
    "class W(AW, ABC):",
    "class G(r.Grader):",
    "class G(rollout.Grader, metaclass=abc.ABCMeta):",
    "class L(RolloutAgentLoop):",
    "class X(W):",
    "class X(X):",
    "class Y(Base, G, W, undefined.thing, f()):",
    "class Z(osmosis_ai.rollout.AgentWorkflow):",
    "    async def run(self, ctx):",
    "    def run(self, ctx):",
    "    async def grade(self, ctx):",
    "    def grade(self, ctx):",
    "    def get_tools(self, request):",
    "    @abstractmethod",
    "    name = 'n'",
    "    run = None",
    "        return AsyncOpenAI()",
    "        pass",
    "    pass",
    "W = W",
    "Other = W",
    "Base = X",
    "agent_loop = L()",
    "x: int = W",
    "if True:",
    "try:",
    "except Exception:",
    "else:",
    "",
    "def f(",
    ")",
    "\x00",
    "# -*- coding: latin-1 -*-",
    "'''",
    "class",
    "async",
]

lines = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=30)), max_size=40)
source = st.builds(lambda ls: "\n".join(ls), lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(main=source, base=source, raw=st.binary(max_size=200))
def test_check_entrypoint_file_never_raises(main, base, raw):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "main.py").write_text(main, encoding="utf-8", errors="surrogatepass")
        (folder / "base.py").write_text(base, encoding="utf-8", errors="surrogatepass")
        (folder / "raw.py").write_bytes(raw)
        for name in ("main.py", "raw.py"):
            found = check_entrypoint_file(folder / name, f"rollouts/x/{name}")
            for d in found:
                assert d.code in RULES
                assert d.message and "\n" not in d.message
                assert d.line is None or d.line >= 1
                assert d.column is None or d.column >= 1


def test_deeply_nested_source_is_a_finding_not_a_crash(tmp_path):
    path = tmp_path / "main.py"
    path.write_text("x = " + "(" * 5000 + ")" * 5000 + "\n")
    [d] = check_entrypoint_file(path, "main.py")
    assert d.code == "ENT002"


def test_long_class_and_alias_chains_stay_cheap_and_bounded(tmp_path):
    import time

    source = (
        "from osmosis_ai.rollout import AgentWorkflow\n"
        "class C0(AgentWorkflow):\n    async def run(self, ctx): ...\n"
        + "".join(f"class C{i}(C{i - 1}): pass\n" for i in range(1, 1500))
        + "".join(f"A{i} = A{i + 1}\n" for i in range(1500))
        + "x = " + ".".join(["a"] * 800) + "\n"
    )
    path = tmp_path / "main.py"
    path.write_text(source)
    started = time.monotonic()
    found = check_entrypoint_file(path, "main.py")
    assert time.monotonic() - started < 10
    [d] = [f for f in found if f.code in ("ENT004", "ENT033")]  # every subclass inherits run: all concrete
    assert "more" in d.message and len(d.message) < 300
