"""Helpers for the dataset tests: writing rows in each format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SYSTEM = "Multiply the two numbers. Put the product on its own line after '#### '."


def good_row(i: int) -> dict:
    return {"system_prompt": SYSTEM, "user_prompt": f"val1 = {i}.5\nval2 = -{i}.25", "ground_truth": f"{-(i + 0.5) * (i + 0.25):.4f}"}


def jsonl_bytes(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


@pytest.fixture
def write(tmp_path):
    """``write(name, data)``: a file under tmp_path holding ``data`` (bytes or str); returns its path."""

    def make(name: str, data: bytes | str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return path

    return make
