"""The credential formats the secrets checks (SEC001, and the source lines a finding may show) look for:
each a regex compiled on first use and run only on a text holding its literal part, and a password
in a URL, found in linear time."""

from __future__ import annotations

import re

from osmosis_workspace.core.lazy_re import lazy_compile


class _Format:
    """A known format's regex, compiled on first use and run only on a text holding one of its literal
    parts (every match of the pattern contains one): a clean workspace compiles none of the fourteen."""

    def __init__(self, needles: tuple[str, ...], pattern: str):
        self.needles, self.pattern = needles, lazy_compile(pattern)

    def finditer(self, text: str):
        return self.pattern.finditer(text) if any(n in text for n in self.needles) else iter(())

    def search(self, text: str):
        return self.pattern.search(text) if any(n in text for n in self.needles) else None


# Known formats; the lookbehind keeps a prefix from matching inside a longer word.
_B = r"(?<![A-Za-z0-9_-])"
KNOWN_FORMATS: tuple[tuple[str, _Format], ...] = tuple(
    (label, _Format(needles, pattern))
    for label, needles, pattern in (
        ("an Anthropic API key", ("sk-ant-",), _B + r"sk-ant-[A-Za-z0-9_-]{16,}"),
        ("an OpenAI API key", ("sk-",), _B + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}"),
        ("a GitHub token", ("gh", "github_pat_"), _B + r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
        ("a GitLab token", ("glpat-",), _B + r"glpat-[A-Za-z0-9_-]{20,}"),
        ("a Slack token", ("xox",), _B + r"xox[abposr]-[A-Za-z0-9-]{10,}"),
        ("an AWS access key id", ("AKIA", "ASIA"), r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
        ("a Google API key", ("AIza",), _B + r"AIza[0-9A-Za-z_-]{35}"),
        ("a Hugging Face token", ("hf_",), _B + r"hf_[A-Za-z0-9]{30,}"),
        ("a Stripe key", ("k_live_", "k_test_"), _B + r"[sr]k_(?:live|test)_[A-Za-z0-9]{20,}"),
        ("a Groq API key", ("gsk_",), _B + r"gsk_[A-Za-z0-9]{40,}"),
        ("a Replicate token", ("r8_",), _B + r"r8_[A-Za-z0-9]{30,}"),
        ("a Daytona API key", ("dtn_",), _B + r"dtn_[A-Za-z0-9]{30,}"),
        ("a JSON Web Token", ("eyJ",), _B + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
        ("a private key", ("-----BEGIN ",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    )
)


class _UrlPassword:
    """`scheme://user:password@` found from each `://` outward, so the work is linear in the text.

    The single regex for it retried the scheme at every letter of a long word (100k letters: 10 s).
    Here each `://` looks back over its own scheme (capped) and forward over its own user info,
    which ends at the next `/`, so no character is scanned twice.
    """

    _USERINFO = re.compile(r"[^/\s:@'\"]+:[^/\s@'\"]+@")
    _SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
    _SCHEME_CAP = 64  # longer "schemes" are not URLs anyone writes

    def finditer(self, text: str):
        at = text.find("://")
        while at != -1:
            start = at
            while start > 0 and at - start < self._SCHEME_CAP and text[start - 1] in self._SCHEME_CHARS:
                start -= 1
            while start < at and not (text[start].isascii() and text[start].isalpha()):
                start += 1  # the scheme starts with a letter
            userinfo = self._USERINFO.match(text, at + 3)
            if start < at and userinfo is not None:
                yield _Found(text, start, userinfo.end())
            at = text.find("://", at + 3)

    def search(self, text: str):
        return next(self.finditer(text), None)


class _Found:
    def __init__(self, text: str, start: int, end: int):
        self._text, self._start, self._end = text, start, end

    def start(self) -> int:
        return self._start

    def group(self, index: int = 0) -> str:
        return self._text[self._start:self._end]


KNOWN_FORMATS += (("a password in a URL", _UrlPassword()),)  # type: ignore[operator]
