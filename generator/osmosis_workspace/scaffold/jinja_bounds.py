"""Limits on the work one render's Jinja may do, for templates that run nothing yet can loop forever.

copier's sandbox stops attribute escapes, not work: `{{ 'x' * 400000000 }}` in a question default
built 1.5 GB, and `range()` nested in `range()` never ended. A template that exceeds one of these is
at fault, so the render ends with "template exceeded ..." (exit 2), never a hang or exit 3:

- a string, list or number made by `*`, `**`, `%`, a padding method (`ljust`, `center`, ...) or a
  filter: MAX_VALUE characters (items), checked before it is built where it can be;
- `range()` items over the whole render: MAX_ITERATIONS (each `range` stays under Jinja's own cap);
- output: MAX_FILE_OUTPUT per rendered text, MAX_TOTAL_OUTPUT per render;
- wall time in Jinja's hooks: SECONDS per render.

The bounds are set on copier's own environment (one per render), so every path copier renders --
question defaults, file names, contents, messages -- is bounded; `osmosis update` re-renders through
the same function.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from typing import Any

MAX_VALUE = 10_000_000
MAX_ITERATIONS = 10_000_000
MAX_FILE_OUTPUT = 50 << 20
MAX_TOTAL_OUTPUT = 256 << 20
SECONDS = 45.0
_POWER_BITS = 1 << 20  # an int of a million bits is already far past any template's need
_PADDING = {"ljust", "rjust", "center", "zfill", "expandtabs", "format", "format_map"}
_WIDE_SPEC = re.compile(r"\d{7,}")  # a field width or precision of a million or more


class TemplateExceeded(Exception):
    """A render went past one of this module's bounds (the template's fault)."""


def _limit(name: str, default: float) -> float:
    """A bound lowered (never raised) by an environment variable: tests and tight CI."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return min(value, default) if value > 0 else default


class Budget:
    """What one render may still spend."""

    def __init__(self) -> None:
        self.deadline = time.monotonic() + _limit("OSMOSIS_RENDER_SECONDS", SECONDS)
        self.iterations = int(_limit("OSMOSIS_RENDER_ITERATIONS", MAX_ITERATIONS))
        self.output = int(_limit("OSMOSIS_RENDER_OUTPUT", MAX_TOTAL_OUTPUT))
        self.file_output = min(MAX_FILE_OUTPUT, self.output)

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise TemplateExceeded(f"its time budget ({_limit('OSMOSIS_RENDER_SECONDS', SECONDS):g} s of Jinja work)")


def _too_big(value: Any) -> bool:
    return isinstance(value, (str, bytes, list, tuple)) and len(value) > MAX_VALUE


def _check_value(value: Any, what: str) -> Any:
    if _too_big(value):
        raise TemplateExceeded(f"{MAX_VALUE:,} characters or items in one value ({what})")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _POWER_BITS:
        raise TemplateExceeded(f"a number of {_POWER_BITS:,} bits ({what})")
    return value


def _before_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse what would be too big before Python builds it."""
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and isinstance(count, int) and len(seq) * count > MAX_VALUE:
                raise TemplateExceeded(f"{MAX_VALUE:,} characters or items in one value (a `*` of {count:,})")
    elif operator == "**":
        if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right * left.bit_length() > _POWER_BITS:
            raise TemplateExceeded(f"a number of {_POWER_BITS:,} bits (a `**` of {right:,})")
    elif operator == "%" and isinstance(left, str):
        values = right if isinstance(right, tuple) else (right,)
        if _WIDE_SPEC.search(left) or any(isinstance(v, int) and v > MAX_VALUE for v in values if "*" in left):
            raise TemplateExceeded(f"{MAX_VALUE:,} characters in one value (a `%` format's width)")


def bound(env: Any, budget: Budget) -> Any:
    """Set ``budget``'s bounds on copier's SandboxedEnvironment ``env`` (an instance of one render)."""
    plain_call, plain_binop = env.call, env.call_binop

    def call(context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        budget.tick()
        target = getattr(obj, "__wrapped__", obj)  # str.format arrives wrapped by the sandbox
        owner = getattr(target, "__self__", None)
        if isinstance(owner, str) and getattr(target, "__name__", "") in _PADDING:
            if _WIDE_SPEC.search(owner) or any(isinstance(a, int) and a > MAX_VALUE for a in (*args, *kwargs.values())):
                raise TemplateExceeded(f"{MAX_VALUE:,} characters in one value (str.{target.__name__})")
        return _check_value(plain_call(context, obj, *args, **kwargs), "a call's result")

    def call_binop(context: Any, operator: str, left: Any, right: Any) -> Any:
        budget.tick()
        _before_binop(operator, left, right)
        return _check_value(plain_binop(context, operator, left, right), f"a `{operator}`")

    def bounded_range(*args: int) -> Iterator[int]:
        items = plain_range(*args)
        budget.iterations -= len(items)
        if budget.iterations < 0:
            raise TemplateExceeded(f"{int(_limit('OSMOSIS_RENDER_ITERATIONS', MAX_ITERATIONS)):,} loop steps of range()")
        budget.tick()
        return items

    def concat(pieces: Iterable[str]) -> str:
        size, out = 0, []
        for piece in pieces:
            size += len(piece)
            out.append(piece)
            if size > budget.file_output or budget.output - size < 0:
                raise TemplateExceeded(f"its output cap ({budget.file_output >> 20} MB per file, "
                                       f"{int(_limit('OSMOSIS_RENDER_OUTPUT', MAX_TOTAL_OUTPUT)) >> 20} MB in all)")
            if len(out) % 1024 == 0:
                budget.tick()
        budget.output -= size
        return "".join(out)

    def filtered(name: str, func: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            budget.tick()
            if name in ("center", "indent", "wordwrap", "truncate") and \
                    any(isinstance(a, int) and not isinstance(a, bool) and a > MAX_VALUE for a in (*args[1:], *kwargs.values())):
                raise TemplateExceeded(f"{MAX_VALUE:,} characters in one value (the {name} filter)")
            return _check_value(func(*args, **kwargs), f"the {name} filter")
        for attr in ("jinja_pass_arg",):  # Jinja reads how to call a filter from this mark
            if hasattr(func, attr):
                setattr(run, attr, getattr(func, attr))
        return run

    plain_range = env.globals.get("range", range)
    env.call, env.call_binop = call, call_binop
    env.intercepted_binops = frozenset({"*", "**", "%", "+"})
    env.globals["range"] = bounded_range
    env.concat = concat
    env.filters = {name: filtered(name, func) for name, func in env.filters.items()}
    return env


# -- the template folder itself ----------------------------------------------------------------

MAX_TEMPLATE_FILES = 20_000
MAX_TEMPLATE_DEPTH = 64  # folders below the template's root
MAX_TEMPLATE_FILE = 50 << 20  # what `refs/osmosis/pristine` accepts per file (git_tree.BLOB_CAP)
MAX_TEMPLATE_TOTAL = 512 << 20


def template_too_big(src: Any) -> str | None:
    """Why the template folder ``src`` is more than a render may read, or None. Counted before copier
    runs: copier reads each file whole (a 1 GB sparse file was 1 GB of memory) and pays per file and
    per folder level; `.git` (a clone's history) is not counted."""
    from osmosis_workspace.core.paths import walk

    files, total = 0, 0
    root = os.fspath(src)
    for here, dirs, names in walk(root, max_depth=MAX_TEMPLATE_DEPTH + 1):
        dirs[:] = [d for d in dirs if d != ".git"]
        rel = os.path.relpath(here, root)
        depth = 0 if rel == "." else rel.count(os.sep) + 1
        if depth > MAX_TEMPLATE_DEPTH:
            return f"folders more than {MAX_TEMPLATE_DEPTH} levels deep ({rel[:120]}...)"
        for name in names:
            files += 1
            if files > MAX_TEMPLATE_FILES:
                return f"more than {MAX_TEMPLATE_FILES:,} files"
            try:
                info = os.lstat(os.path.join(here, name))
            except OSError:
                continue
            size = info.st_size if not os.path.islink(os.path.join(here, name)) else 0
            if size > MAX_TEMPLATE_FILE:
                return f"a file of {size / (1 << 20):.0f} MB ({os.path.join(rel, name)}; at most {MAX_TEMPLATE_FILE >> 20} MB)"
            total += size
            if total > MAX_TEMPLATE_TOTAL:
                return f"files of more than {MAX_TEMPLATE_TOTAL >> 20} MB in all"
    return None
