"""Each subcommand loads only what it uses: registering every command is cheap, handlers import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands import COMMAND_MODULES
from table.log import dump_events
from tests.imports import REPO
from tests.table.tablelog import HAND_E3, events

# Run the console script's entry point in a fresh interpreter, then list what it had loaded.
PROBE = """
import json, sys
from app.cli import build_parser, main
if sys.argv[1:] == ["--parser-only"]:
    build_parser()
    status = 0
else:
    status = main(sys.argv[1:])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}), file=sys.stderr)
"""

HEAVY = ("numpy", "cv2", "pygame", "serial", "gpiozero", "sqlite3")
LIBRARIES = ("drivers", "display", "vision", "tools")
APP_AT_WORK = ("app.runner", "app.run", "app.controller", "app.journal", "app.config")


def loaded(*argv: str, cwd: Path = REPO) -> tuple[int, set[str]]:
    """The exit status of `cardtable ARGV` and every module it had loaded by its end."""
    result = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                            cwd=cwd, timeout=120, check=False)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    return int(report["status"]), set(report["modules"])


def within(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    """The modules that are one of `packages` or inside one."""
    prefixes = tuple(package + "." for package in packages)
    return sorted(m for m in modules if m in packages or m.startswith(prefixes))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text(dump_events(events(*HAND_E3)), encoding="utf-8")
    return path


def test_registering_every_command_loads_only_the_command_modules() -> None:
    status, modules = loaded("--parser-only")
    assert status == 0
    first_party = within(modules, ("app", "table", *LIBRARIES))
    assert first_party == sorted({"app", "app.cli", *COMMAND_MODULES})
    assert within(modules, HEAVY) == []


@pytest.mark.parametrize("options", [[], ["--json"]], ids=["text", "json"])
def test_replay_loads_the_engine_and_nothing_else(log: Path, options: list[str]) -> None:
    status, modules = loaded("replay", str(log), *options)
    assert status == 0
    assert {"table.log", "table.state", "table.report"} <= modules  # the handler's own imports
    assert within(modules, (*HEAVY, *LIBRARIES, *APP_AT_WORK)) == []


def test_simulate_loads_the_engine_and_nothing_else(tmp_path: Path) -> None:
    status, modules = loaded("simulate", "--out", str(tmp_path / "logs"))
    assert status == 0
    assert "table.simulate" in modules
    assert within(modules, (*HEAVY, *LIBRARIES, *APP_AT_WORK)) == []


def test_a_bad_log_is_told_without_loading_more(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe not a log")
    status, modules = loaded("replay", str(bad))
    assert status == 2
    assert within(modules, (*HEAVY, *LIBRARIES, *APP_AT_WORK)) == []


def test_check_hardware_loads_the_drivers_but_not_the_screen() -> None:
    status, modules = loaded("check-hardware", "--mock")
    assert status == 0
    assert {"drivers.check", "gpiozero"} <= modules
    assert within(modules, ("pygame", "display", "vision", "app.runner", "app.controller")) == []
