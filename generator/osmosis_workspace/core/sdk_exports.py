"""What each osmosis-ai release exports, module by module, and the signatures of its rollout
callables: generated from the installed wheels by bench/sdk_exports.py (never written by hand).

The data file is read on first use only (doctor imports this module cheaply). A release without a
table of its own is judged by the tables of the releases around it in its generation: a name is
missing only where every one of them lacks it, a keyword unknown only where every one refuses it,
a parameter required only where every one requires it, so nothing is claimed that an untabled
release in between might not do.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from osmosis_workspace.core.pep440 import Version
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.sdk_generations import generation_of
from osmosis_workspace.core.suggest import close_matches

_DATA = Path(__file__).with_name("sdk_exports.json")


@dataclass(frozen=True)
class Signature:
    positional: tuple[str, ...]
    required: frozenset[str]  # positional-or-keyword parameters without a default
    keywords: frozenset[str]  # keyword-only parameters
    keywords_required: frozenset[str]
    varargs: bool
    varkw: bool
    positional_only: frozenset[str]

    @property
    def accepted_keywords(self) -> frozenset[str]:
        return frozenset(self.positional) - self.positional_only | self.keywords


@lru_cache(maxsize=1)
def _releases() -> dict[str, dict]:
    try:
        return json.loads(_DATA.read_text(encoding="utf-8"))["releases"]
    except (OSError, ValueError, KeyError):  # a broken installation: judge nothing rather than crash
        return {}


def tabled_releases() -> tuple[Version, ...]:
    return tuple(sorted(v for v in (Version.parse(k) for k in _releases()) if v is not None))  # type: ignore[type-var]


class Exports:
    """The tables judging one release (one table, or the neighbours of an untabled release)."""

    def __init__(self, labels: tuple[str, ...]):
        self.labels = labels
        data = _releases()
        self._tables = [data[k] for k in labels]
        self._names: dict[str, list[frozenset[str]]] = {}

    @property
    def label(self) -> str:
        return " and ".join(self.labels)

    def _module_names(self, module: str) -> list[frozenset[str]] | None:
        if module not in self._names:
            found = [t["modules"].get(module) for t in self._tables]
            self._names[module] = [frozenset(f.split()) for f in found if f is not None]
        return self._names[module] or None

    def has_module(self, module: str) -> bool:
        return self._module_names(module) is not None

    def is_open(self, module: str) -> bool:
        """Whether the module answers any name (a ``__getattr__`` that is not a lazy table)."""
        return any(module in t["open"] for t in self._tables)

    def exports(self, module: str, name: str) -> bool:
        """Whether ``from module import name`` may succeed (True when the module is unknown)."""
        tables = self._module_names(module)
        if tables is None or self.is_open(module):
            return True
        return any(name in names for names in tables) or self.has_module(f"{module}.{name}")

    def modules_exporting(self, name: str) -> list[str]:
        """Public modules defining or re-exporting ``name``, shortest (most public) first."""
        found = set()
        for table in self._tables:
            for module, names in table["modules"].items():
                if not any(p.startswith("_") for p in module.split(".")) and name in names.split():
                    found.add(module)
        return sorted(found, key=lambda m: (m.count("."), m))

    def close_names(self, module: str, name: str) -> list[str]:
        tables = self._module_names(module) or []
        public = sorted({n for names in tables for n in names if not n.startswith("_")})
        return close_matches(name, public, n=1, cutoff=0.75)

    def signature(self, module: str, name: str) -> Signature | None:
        """The parameters of ``module.name`` (followed through re-exports), merged over the tables."""
        found = []
        for table in self._tables:
            key, seen = f"{module}:{name}", set()
            while key not in table["signatures"] and key not in seen:
                seen.add(key)
                mod, _, attr = key.partition(":")
                origin = table["origins"].get(mod, {}).get(attr)
                if origin is None:
                    break
                key = origin
            if key in table["signatures"]:
                found.append(table["signatures"][key])
        if not found or len(found) != len(self._tables):
            return None
        return Signature(
            positional=tuple(found[-1]["pos"]) if all(f["pos"] == found[-1]["pos"] for f in found) else (),
            required=frozenset.intersection(*(frozenset(f["req"]) for f in found)),
            keywords=frozenset().union(*(frozenset(f["kw"]) for f in found)),
            keywords_required=frozenset.intersection(*(frozenset(f["kwreq"]) for f in found)),
            varargs=any(f.get("varargs") for f in found) or any(f["pos"] != found[-1]["pos"] for f in found),
            varkw=any(f.get("varkw") for f in found),
            positional_only=frozenset.intersection(*(frozenset(f.get("posonly", ())) for f in found)),
        )


@lru_cache(maxsize=32)
def exports_for(release: Version | None) -> Exports | None:
    """The tables judging ``release``, or None where no table of its generation brackets it."""
    if release is None:
        return None
    gen = generation_of(release)
    tabled = [v for v in tabled_releases() if generation_of(v) is gen]
    if release in tabled:
        return Exports((str(release),))
    below = [v for v in tabled if v < release]  # type: ignore[operator]
    above = [v for v in tabled if v > release]  # type: ignore[operator]
    if not below or not above:
        return None
    return Exports((str(max(below)), str(min(above))))
