"""Every shared conformance scenario through `cardtable replay LOG --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import find_shared_dir

SHARED = find_shared_dir()
# The scenarios one folder deep too: `corrections/` holds the `correct` and undo-after-a-win ones.
SCENARIOS = sorted((SHARED / "conformance").rglob("*.jsonl")) if SHARED else []


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where `expected` is not a subset of `actual` (reneges compared as a multiset)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            where = f"{path}.{key}"
            if key not in actual:
                found.append(f"{where}: missing")
            elif key == "reneges":
                if sorted(map(json.dumps, value)) != sorted(map(json.dumps, actual[key])):
                    found.append(f"{where}: expected {value}, got {actual[key]}")
            else:
                found.extend(differences(value, actual[key], where))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"]
        return [
            d
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for d in differences(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def run_replay(log: Path) -> subprocess.CompletedProcess[str]:
    """Run the real command line on a log."""
    return subprocess.run(
        [sys.executable, "-m", "app", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )


def scenario_id(path: Path) -> str:
    """The scenario's name, with its folder when it lies below `conformance/`."""
    return path.stem if path.parent.name == "conformance" else f"{path.parent.name}/{path.stem}"


PARAMS = [pytest.param(path, id=scenario_id(path)) for path in SCENARIOS] or [
    pytest.param(
        None,
        id="no-scenarios",
        marks=pytest.mark.skip(
            reason="../shared/conformance is absent (set CARDTABLE_SHARED to its path)"
        ),
    )
]


@pytest.mark.parametrize("log", PARAMS)
def test_conformance_scenario(log: Path) -> None:
    expected = json.loads(log.with_name(log.stem + ".expected.json").read_text())
    result = run_replay(log)
    if "error_line" in expected:
        assert result.returncode == 2, f"{log.stem}: exit {result.returncode}"
        assert result.stdout == "", f"{log.stem}: printed {result.stdout!r}"
        assert result.stderr.startswith(f"line {expected['error_line']}:"), result.stderr
        return
    assert result.returncode == 0, f"{log.stem}: {result.stderr}"
    problems = differences(expected, json.loads(result.stdout))
    assert not problems, f"{log.stem}: " + "; ".join(problems)


def test_conformance_scenarios_are_present(shared_dir: Path) -> None:
    assert len(SCENARIOS) >= 30, "expected the shared conformance scenarios"
    corrections = [path for path in SCENARIOS if path.parent.name == "corrections"]
    assert len(corrections) >= 5, "expected the corrections scenarios"


def test_differences_names_the_key() -> None:
    assert differences({"a": {"b": 1}}, {"a": {"b": 2}}) == [".a.b: expected 1, got 2"]
    assert differences({"reneges": [{"x": 1}, {"y": 2}]}, {"reneges": [{"y": 2}, {"x": 1}]}) == []
