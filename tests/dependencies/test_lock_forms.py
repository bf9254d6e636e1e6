"""DEP003 on a uv.lock written as other valid TOML (issue 28, point 3), and locks past 2 MB (point 4).

uv reads `name = 'litellm'`, spaces around `=`, `version` before `name` and the rest as the same
lock; doctor used to find the known-bad pin only in the exact form uv writes. The oracle is uv
itself: `uv export --frozen` of the same lock must name the pin doctor reports."""

from __future__ import annotations

import os
import re
import subprocess
import time

import pytest

from tests.dependencies.test_locks import ROLLOUT, doctor

BAD = "1.106.12"


def _bad(text: str) -> str:
    """The lock with litellm at a known-bad release: its block's version, sdist and wheel names."""
    start = text.index('\n[[package]]\nname = "litellm"\n')
    end = text.index("\n[[package]]\n", start + 1)
    old = re.search(r'version = "([^"]+)"', text[start:end]).group(1)
    return text[:start] + text[start:end].replace(old, BAD) + text[end:]


FORMS = {
    "single quotes": lambda t: t.replace('name = "litellm"', "name = 'litellm'"),
    "no spaces": lambda t: t.replace('name = "litellm"\nversion', 'name="litellm"\nversion'),
    "wide spaces": lambda t: t.replace(f'name = "litellm"\nversion = "{BAD}"', f'name   =   "litellm"\nversion  =  "{BAD}"'),
    "version first": lambda t: t.replace(f'name = "litellm"\nversion = "{BAD}"', f'version = "{BAD}"\nname = "litellm"'),
    "escaped name": lambda t: t.replace('name = "litellm"\nversion', 'name = "lite\\u006clm"\nversion'),
    "quoted key": lambda t: t.replace('name = "litellm"\nversion', '"name" = "litellm"\nversion'),
    "header comment": lambda t: t.replace(f'[[package]]\nname = "litellm"', '[[package]]  # the model router\nname = "litellm"'),
    "literal version": lambda t: t.replace(f'version = "{BAD}"', f"version = '{BAD}'"),
    "tab indent": lambda t: t.replace(f'name = "litellm"\nversion', f'\tname = "litellm"\nversion'),
    "crlf": lambda t: t.replace("\n", "\r\n"),
    # uv normalises a package's name when it reads one (PEP 503): any case is the same package
    "capitalised name": lambda t: t.replace('name = "litellm"\nversion', 'name = "LiteLLM"\nversion'),
    "capitalised other pin": lambda t: t.replace('name = "mcp"\nversion', 'name = "MCP"\nversion'),
}


def uv_export(folder) -> str:
    from tests.sdk_real.sdk_harness import find_python312, uv_binary

    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), "UV_NO_CONFIG": "1",
           "UV_PYTHON": find_python312(), "UV_PYTHON_DOWNLOADS": "never"}
    done = subprocess.run([uv_binary(), "export", "--frozen", "--no-hashes", "--offline", "--project", str(folder)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_known_bad_pin_is_found_in_any_form_uv_reads(make_workspace, form):
    ws = make_workspace(git=False)
    lock = ws / ROLLOUT / "uv.lock"
    lock.write_bytes(FORMS[form](_bad(lock.read_text())).encode())
    assert f"litellm=={BAD}" in uv_export(ws / ROLLOUT)  # uv reads the pin
    found = [d for d in doctor(ws) if d["code"] == "DEP003"]
    assert len(found) == 1 and f"litellm {BAD} with mcp" in found[0]["message"], found


def test_a_lock_of_uvs_own_form_is_read_without_a_full_parse(make_workspace):
    from osmosis_workspace.readers import uvlock

    ws = make_workspace(git=False)
    text = (ws / ROLLOUT / "uv.lock").read_text()
    lock = uvlock.parse(text)
    assert lock is not None and lock.packages is None  # the block search, not the whole parse
    full = uvlock.parse(text.replace('version = 1\n', 'version = 1  # a comment uv does not write\n', 1).replace("[[package]]\n", "[[package]] \n", 1))
    assert full is not None and full.packages is not None
    for name in ("litellm", "mcp", "osmosis-ai", "no-such-package"):
        assert lock.pin(name) == (None if full.pin(name) is None else full.pin(name)), name
        assert lock.versions(name) == full.versions(name)


def _big_lock(text: str, size: int) -> str:
    """The lock grown past ``size`` with packages of its own form (more of them, as a large ML tree has)."""
    head, _, rest = text.partition("\n[[package]]\n")
    blocks, n, out = rest.split("\n[[package]]\n"), 0, [head]
    total = len(text)
    while total < size:
        for block in blocks:
            extra = "\n[[package]]\n" + block.replace('name = "', f'name = "filler{n}-', 1)
            out.append(extra)
            total += len(extra)
            n += 1
    return "\n[[package]]\n".join([out[0], rest]) + "".join(out[1:])


def test_a_lock_past_two_megabytes_is_a_lock(make_workspace):
    ws = make_workspace(git=False)
    lock = ws / ROLLOUT / "uv.lock"
    lock.write_text(_big_lock(_bad(lock.read_text()), 6_000_000))
    assert lock.stat().st_size > 6_000_000
    started = time.monotonic()
    found = doctor(ws)
    took = time.monotonic() - started
    assert [d["code"] for d in found] == ["DEP003"], found  # read (no DEP002), and the bad pin found
    assert took < 20, took


def test_a_lock_past_the_cap_is_not_read(make_workspace):
    from osmosis_workspace.readers import uvlock

    ws = make_workspace(git=False)
    lock = ws / ROLLOUT / "uv.lock"
    with open(lock, "a") as handle:
        handle.truncate(uvlock.MAX_LOCK_BYTES + 1)
    assert [d["code"] for d in doctor(ws)] == ["DEP002"]
