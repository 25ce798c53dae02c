"""Shared fixtures: where the read-only `shared/` folder lies beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def find_shared_dir() -> Path | None:
    """Return the `shared/` folder (env CARDTABLE_SHARED, else beside the checkout), if present."""
    candidates = [os.environ.get("CARDTABLE_SHARED"), REPO_ROOT.parent / "shared"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared folder; skips the test with a clear message when it is absent."""
    found = find_shared_dir()
    if found is None:
        pytest.skip("../shared is absent (set CARDTABLE_SHARED to its path to run this test)")
    return found
