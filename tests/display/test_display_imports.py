"""display/ draws views: it reads the engine's and vision's types, never the hardware or the app."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.imports import REPO, crossing_imports

ALLOWED = {"display", "table", "vision", "pygame", "numpy", *sys.stdlib_module_names}
# The command line belongs to app/ (app/display_cli.py); buttons and cameras reach the screen
# only through the app's loop.
FORBIDDEN = {"argparse", "app", "drivers", "tools"}


def test_display_imports_only_the_engine_vision_and_pygame() -> None:
    assert crossing_imports(REPO / "display", ALLOWED, FORBIDDEN) == []


def test_a_driver_or_a_command_line_in_the_display_is_named(tmp_path: Path) -> None:
    (tmp_path / "display").mkdir()
    (tmp_path / "display" / "loop.py").write_text(
        "import pygame\nimport argparse\n\ndef f() -> None:\n    from drivers.buttons import x\n")
    assert crossing_imports(tmp_path / "display", ALLOWED, FORBIDDEN) == [
        "display/loop.py:2 argparse", "display/loop.py:5 drivers.buttons"]


def test_vision_never_imports_the_display() -> None:
    assert crossing_imports(REPO / "vision", None, {"display"}) == []
