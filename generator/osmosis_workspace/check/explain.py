"""`osmosis rule CODE` (what `ruff rule` is to ruff): one rule, or every rule, explained from the table."""

from __future__ import annotations

import sys

from osmosis_workspace.core.errors import EXIT_OK, UserError
from osmosis_workspace.core.rules import Rule
from osmosis_workspace.core.suggest import closest

RULE_FORMATS = ("text", "json")


def find_rule(code: str, rules: list[Rule]) -> Rule:
    """The rule called ``code`` (its code in any case, or its name), or one line saying what exists."""
    from osmosis_workspace.check.settings import suggest_code

    wanted = code.strip()
    for r in rules:
        if wanted.upper() == r.code or wanted.lower() == r.name:
            return r
    upper = wanted.upper()
    members = [r.code for r in rules if r.code.startswith(upper)] if upper.isalpha() else []
    if members:  # a prefix such as `CFG`: say which rules it covers
        raise UserError(f"{wanted!r} is a prefix of {len(members)} rules ({members[0]} to {members[-1]}); give one code "
                        f"(`osmosis doctor --list-checks --select {upper}` lists them)")
    by_name = {r.name: r.code for r in rules}
    named = closest(wanted.lower(), by_name)
    guess = f"{by_name[named]} ({named})" if named and not wanted[-1:].isdigit() else suggest_code(wanted)
    tail = f"; did you mean {guess}?" if guess else "; `osmosis rule --all` lists every rule"
    raise UserError(f"no rule has the code {wanted!r}{tail}")


def rule_command(code: str | None, all_rules: bool = False, format: str = "text") -> int:
    from osmosis_workspace.check.doctor import check_format, load_rules
    from osmosis_workspace.report import catalog

    fmt = check_format(format, RULE_FORMATS, "`osmosis rule`")
    rules = load_rules()
    if all_rules == (code is not None):
        raise UserError("give one rule code (`osmosis rule CFG003`) or --all")
    chosen = rules if all_rules else [find_rule(code or "", rules)]
    catalog.explain(chosen, fmt, sys.stdout, single=not all_rules)
    return EXIT_OK
