"""A small reader of PEP 440 versions, PEP 440 specifiers and PEP 508 requirement strings.

Enough to ask "which of these known releases does ``osmosis-ai>=0.2,<0.3`` admit?" without
importing ``packaging`` (about 80 ms of start-up, and not one of our dependencies). Local version
labels, ``===`` and environment markers are read but not evaluated: markers are returned as text,
``===`` compares strings. A string that is not a version or a specifier gives None, never raises.
"""

from __future__ import annotations

import re
from functools import total_ordering

from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.records import dataclass

# Compiled on first use: a plain release (`0.3.8`, `0.3.2rc1`), the usual case, is read without it (Version.parse)
_VERSION = lazy_compile(
    r"""^\s*v?
    (?:(?P<epoch>\d+)!)?
    (?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d+)?)?
    (?:-(?P<post_n1>\d+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>\d+)?)?
    (?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>\d+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_CLAUSE = re.compile(r"^\s*(~=|===|==|!=|<=|>=|<|>)\s*([^\s,;]+)\s*$")
_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*")
_INF, _NEG_INF = float("inf"), float("-inf")


@total_ordering
@dataclass(frozen=True)
class Version:
    epoch: int
    release: tuple[int, ...]
    pre: tuple[int, int] | None
    post: int | None
    dev: int | None
    text: str

    @classmethod
    def parse(cls, text: str) -> Version | None:
        plain = text.strip()
        release_text, rc, rc_n = (plain[1:] if plain[:1] in ("v", "V") else plain).partition("rc")
        parts = release_text.split(".")
        # what _VERSION reads as a release, with at most a plain `rcN` after it (every listed SDK release)
        if all(part.isascii() and part.isdigit() for part in parts) and (not rc or (rc_n.isascii() and rc_n.isdigit())):
            pre = (_PRE_RANK["rc"], int(rc_n)) if rc else None
            return cls(0, tuple(int(p) for p in parts), pre, None, None, plain)
        m = _VERSION.match(text)
        if m is None:
            return None
        pre = (_PRE_RANK[m["pre_l"].lower()], int(m["pre_n"] or 0)) if m["pre_l"] else None
        post_n = m["post_n1"] or m["post_n2"]
        post = int(post_n or 0) if (m["post_n1"] or m["post_l"]) else None
        dev = int(m["dev_n"] or 0) if m["dev_l"] else None
        release = tuple(int(p) for p in m["release"].split("."))
        return cls(int(m["epoch"] or 0), release, pre, post, dev, text.strip())

    @property
    def is_prerelease(self) -> bool:
        return self.pre is not None or self.dev is not None

    @property
    def base(self) -> tuple[int, ...]:
        """The release numbers without trailing zeros (1.0.0 and 1.0 are one version)."""
        release = list(self.release)
        while len(release) > 1 and release[-1] == 0:
            release.pop()
        return tuple(release)

    def _key(self) -> tuple:
        if self.pre is None and self.post is None and self.dev is not None:
            pre: tuple = (_NEG_INF, 0)  # 1.0.dev0 sorts before 1.0a0
        else:
            pre = self.pre if self.pre is not None else (_INF, 0)
        post = self.post if self.post is not None else _NEG_INF
        dev = self.dev if self.dev is not None else _INF
        return (self.epoch, self.base, pre, post, dev)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._key() == other._key()

    def __lt__(self, other: Version) -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Clause:
    op: str
    version: str  # as written, may end in ".*"

    def contains(self, v: Version) -> bool:
        op, text = self.op, self.version
        if op == "===":
            return v.text == text
        if text.endswith(".*"):
            prefix = Version.parse(text[:-2])
            if prefix is None or op not in ("==", "!="):
                return False
            release = v.release + (0,) * max(0, len(prefix.release) - len(v.release))
            matched = v.epoch == prefix.epoch and release[: len(prefix.release)] == prefix.release
            return matched if op == "==" else not matched
        spec = Version.parse(text)
        if spec is None:
            return False
        if op == "==":
            return v == spec
        if op == "!=":
            return v != spec
        if op == "<=":
            return v <= spec
        if op == ">=":
            return v >= spec
        if op == "<":
            # `<0.4` does not admit 0.4.0rc1 (unless the bound is itself a pre-release)
            return v < spec and (spec.is_prerelease or not (v.is_prerelease and v.base == spec.base))
        if op == ">":
            # `>0.3` does not admit 0.3.post1 (unless the bound is itself a post-release)
            return v > spec and (spec.post is not None or not (v.post is not None and v.base == spec.base))
        if op == "~=":
            if len(spec.release) < 2:
                return False
            return v >= spec and Clause("==", ".".join(map(str, spec.release[:-1])) + ".*").contains(v)
        return False

    @property
    def mentions_prerelease(self) -> bool:
        spec = Version.parse(self.version.removesuffix(".*"))
        return bool(spec and spec.is_prerelease)

    def __str__(self) -> str:
        return f"{self.op}{self.version}"


@dataclass(frozen=True)
class Specifier:
    """A comma-separated set of clauses; the empty set admits every version."""

    clauses: tuple[Clause, ...]

    @classmethod
    def parse(cls, text: str) -> Specifier | None:
        text = text.strip()
        if not text:
            return cls(())
        clauses = []
        for part in text.split(","):
            m = _CLAUSE.match(part)
            if m is None:
                return None
            clauses.append(Clause(m.group(1), m.group(2)))
        return cls(tuple(clauses))

    def contains(self, v: Version) -> bool:
        return all(c.contains(v) for c in self.clauses)

    def filter(self, versions: list[Version]) -> list[Version]:
        """The versions this admits, by the installers' pre-release rule: pre-releases only when a
        clause names one, or when no final release matches."""
        matching = [v for v in versions if self.contains(v)]
        if any(c.mentions_prerelease for c in self.clauses):
            return matching
        finals = [v for v in matching if not v.is_prerelease]
        return finals or matching

    def __str__(self) -> str:
        return ",".join(str(c) for c in self.clauses)


@dataclass(frozen=True)
class Requirement:
    """A PEP 508 requirement, read: ``name[extras] specifier ; marker`` or ``name @ url``."""

    name: str  # normalised: lower case, runs of -_. as one -
    extras: tuple[str, ...]
    specifier: Specifier
    url: str | None
    marker: str | None
    text: str

    @classmethod
    def parse(cls, text: str) -> Requirement | None:
        m = _NAME.match(text)
        if m is None:
            return None
        rest = text[m.end():]
        extras: tuple[str, ...] = ()
        if rest.startswith("["):
            end = rest.find("]")
            if end < 0:
                return None
            extras = tuple(normalise_name(e) for e in rest[1:end].split(",") if e.strip())
            rest = rest[end + 1:]
        body, _, marker = rest.partition(";")
        body = body.strip()
        url = None
        if body.startswith("@"):
            url, body = body[1:].strip(), ""
        elif body.startswith("(") and body.endswith(")"):
            body = body[1:-1]
        spec = Specifier.parse(body)
        if spec is None:
            return None
        return cls(normalise_name(m.group(1)), extras, spec, url, marker.strip() or None, text.strip())


def requirement_name(requirement: str) -> str | None:
    """The normalised project name of a PEP 508 requirement (``Osmosis_AI[server]>=0.2`` -> osmosis-ai)."""
    match = _NAME.match(requirement)
    return normalise_name(match.group(1)) if match else None


def normalise_name(name: str) -> str:
    """A project or extra name as installers compare it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name.strip()).lower()
