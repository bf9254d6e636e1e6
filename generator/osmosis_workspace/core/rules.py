"""What a rule is (code, name, family, severity, docs, fixability) and the families in report order.

Shared by the check wing, which declares rules, and the reporters, which describe them.
"""

from __future__ import annotations


from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.core.records import dataclass

# Where each rule is documented: its `### CODE` section of docs/checks.md, whose anchor GitHub
# derives from the heading (`#cfg001`). A test holds this to pyproject's [project.urls] Repository.
REPOSITORY_URL = "https://github.com/osmosis-ai/osmosis-workspace"
DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs/checks.md"


def rule_url(code: str) -> str:
    """The docs link of rule ``code`` (its section of docs/checks.md)."""
    return f"{DOCS_URL}#{code.lower()}"


# Families in the order doctor reports them; every rule belongs to one.
FIXABILITY = ("safe", "unsafe", "none")

FAMILIES: dict[str, str] = {
    "layout": "Layout",
    "configs": "Configs",
    "secrets": "Secrets",
    "entrypoints": "Entrypoints",
    "dependencies": "Dependencies",
    "datasets": "Datasets",
    "skills": "Skills",
    "git": "Git Sync",
    "settings": "Settings",
}


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    family: str
    severity: Severity
    summary: str  # what it checks, one line
    why: str  # why it matters
    fix: str  # the default hint shown with every finding
    example: str = ""  # a short broken example
    # Ruff's fixability: "safe" (`doctor --fix` repairs it and the result means what the user
    # meant), "unsafe" (a repair exists but may change meaning: only with `--unsafe-fixes`), "none".
    fixability: str = "none"
    # Where the rule comes from: an osmosis-ai file (`osmosis_ai/platform/cli/dataset.py`), a
    # section of the workspace contract (`contract §3`), `skills-ref`, or `ours` (our own advice);
    # several joined with "; ". docs/checks.md shows it, so every verdict can be traced.
    source: str = ""

    @property
    def url(self) -> str:
        return rule_url(self.code)

    @property
    def fixable(self) -> bool:
        """Whether any fix exists, safe or unsafe."""
        return self.fixability != "none"

    def at(
        self,
        path: str | None,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        """A finding of this rule at ``path`` (workspace-relative), optionally with a specific hint. Its
        severity is the rule's, always: a finding that deserves another severity is another rule, so
        `--list-checks`, `osmosis rule` and every report say the same."""
        return Diagnostic(
            code=self.code,
            name=self.name,
            severity=self.severity,
            message=message,
            hint=hint or self.fix,
            path=path,
            line=line,
            column=column,
            fixable=self.fixability == "safe",  # what a plain `--fix` repairs
        )
