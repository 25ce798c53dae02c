"""vision/ is a library: it imports nothing from the screen, the hardware, the app or the tools."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.imports import REPO, crossing_imports, imported_modules, top_package

AROUND_VISION = {"display", "drivers", "app", "tools", "table", "benchmarks", "scripts", "tests"}
COMMAND_LINE = {"argparse"}  # vision's commands live in app/ (vision_cli, vision_live_cli)


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sample.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_imports_are_found_at_module_level_and_inside_functions(tmp_path: Path) -> None:
    path = _write(tmp_path, "import os\nfrom vision.cards import Quad\n"
                            "def f() -> None:\n    from drivers.camera import make_source\n"
                            "    import display.render as r\n")
    assert [m for _, m in imported_modules(path)] == [
        "os", "vision.cards", "drivers.camera", "display.render"]


def test_relative_imports_name_no_package(tmp_path: Path) -> None:
    path = _write(tmp_path, "from . import cards\nfrom .detect import find_cards\n")
    assert [top_package(m) for _, m in imported_modules(path)] == ["", ""]


def test_a_file_that_crosses_the_boundary_is_named_with_its_line(tmp_path: Path) -> None:
    _write(tmp_path / "vision", "import numpy\nfrom display.render import draw\n")
    assert crossing_imports(tmp_path / "vision", None, AROUND_VISION) == [
        "vision/sample.py:2 display.render"]


def test_vision_imports_nothing_from_the_packages_around_it() -> None:
    assert crossing_imports(REPO / "vision", None, AROUND_VISION) == []


def test_vision_sees_the_standard_library_and_its_numeric_packages_only() -> None:
    allowed = {"vision", "numpy", "cv2", "pygame", *sys.stdlib_module_names}
    assert crossing_imports(REPO / "vision", allowed, COMMAND_LINE) == []
