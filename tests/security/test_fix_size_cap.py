"""Issue 18 point 10: `doctor --fix` reads no config bigger than doctor itself reads (2 MB,
generator/osmosis_workspace/core/workspace.py MAX_TEXT_BYTES): a 10 MB config is reported, not parsed nor rewritten."""

from __future__ import annotations

from osmosis_workspace.core.workspace import MAX_TEXT_BYTES
from hostile import cli


def _big_config(path) -> bytes:
    body = 'rollout = "my-rollout"\n' + "".join(f'k{i} = "{"v" * 90}"\n' for i in range(110_000))
    data = body.encode()
    assert len(data) > 5 * MAX_TEXT_BYTES
    path.write_bytes(data)
    return data


def test_fix_leaves_an_oversized_config_unread(make_workspace):
    ws = make_workspace(template="blank", name="ws")
    big = ws / "configs" / "eval" / "big.toml"
    data = _big_config(big)  # no `#:schema` line: --fix would add one if it parsed the file
    result = cli("doctor", ws, "--fix")
    assert big.read_bytes() == data
    assert "big.toml: first line set" not in result.output
    assert "larger than" in result.output, result.output
    assert result.exit_code in (0, 1), result.output


def test_fix_leaves_an_oversized_env_example_alone(make_workspace):
    ws = make_workspace(template="blank", name="ws")
    env = ws / ".env.example"
    data = b"# padding\n" * 300_000
    env.write_bytes(data)
    (ws / "configs" / "eval" / "my-rollout.toml").open("a").write('\n[secrets]\nNEEDED_KEY = "NEEDED_KEY"\n')
    cli("doctor", ws, "--fix")
    assert env.read_bytes() == data
