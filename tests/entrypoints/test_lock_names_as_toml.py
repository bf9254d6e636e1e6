"""The names a rollout's uv.lock provides (entry_import.provided_modules, ENT037's judgement) are the ones a
TOML parser reads from it: the literal-first search is only a shortcut for the form uv writes. A lock in
another valid spelling (a comment on a header, a literal string, `version` before `name`, a header inside a
multi-line string) must neither lose a package (ENT037 would say a locked module is not provided) nor gain one."""

from __future__ import annotations

import sys

import pytest
from osmosis_workspace.check.families import entry_import

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HEAD = 'version = 1\nrequires-python = ">=3.10"\n\n'
UV = '[[package]]\nname = "anyio"\nversion = "4.0.0"\n\n[[package]]\nname = "httpx"\nversion = "0.27.0"\n'
LOCKS = {
    "as uv writes it": UV,
    "CRLF": UV.replace("\n", "\r\n"),
    "a comment on a header": UV.replace('[[package]]\nname = "httpx"', '[[package]]  # pinned for a CVE\nname = "httpx"'),
    "a literal string": UV.replace('name = "httpx"', "name = 'httpx'"),
    "version before name": UV.replace('name = "httpx"\nversion = "0.27.0"', 'version = "0.27.0"\nname = "httpx"'),
    "no spaces around =": UV.replace('name = "httpx"', 'name="httpx"'),
    "an indented header": UV.replace('\n[[package]]\nname = "httpx"', '\n  [[package]]\nname = "httpx"'),
    "a header inside a multi-line string": UV + 'notes = """\n[[package]]\nname = "requests"\n"""\n',
    "packages as an inline array": 'package = [{ name = "anyio", version = "4.0.0" }, { name = "httpx", version = "0.27.0" }]\n',
}


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_the_lock_provides_what_toml_reads_from_it(tmp_path, name):
    text = HEAD + LOCKS[name]
    (tmp_path / "uv.lock").write_bytes(text.encode())
    packages = tomllib.loads(text.replace("\r\n", "\n"))["package"]
    expected = set().union(*(entry_import.import_names(p["name"]) for p in packages))
    assert entry_import.provided_modules(tmp_path) == frozenset(expected)
