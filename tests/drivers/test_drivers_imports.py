"""drivers/ touches the hardware and nothing else: no screen, no recognition, no app, no CLI."""

from __future__ import annotations

import sys

from tests.imports import REPO, crossing_imports

HARDWARE_LIBRARIES = {"gpiozero", "serial", "picamera2", "cv2", "numpy"}
ALLOWED = {"drivers", *HARDWARE_LIBRARIES, *sys.stdlib_module_names}
# The command line belongs to app/ (app/hardware_cli.py); the drivers feed the app, never the
# other way, and know nothing of the screen or of card recognition.
FORBIDDEN = {"argparse", "app", "display", "vision", "table", "tools"}


def test_drivers_import_only_themselves_the_standard_library_and_hardware_libraries() -> None:
    assert crossing_imports(REPO / "drivers", ALLOWED, FORBIDDEN) == []
