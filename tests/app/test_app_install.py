"""The package installed as a wheel (not editable) works from outside the clone."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding cardtable from its wheel; its libraries come from the test venv."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(ROOT),
         "-w", str(wheels)],
        check=True, capture_output=True, cwd=base,
    )
    (wheel,) = wheels.glob("cardtable-*.whl")
    fresh = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True)
    python = fresh / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
         str(wheel)],
        check=True, capture_output=True, cwd=base,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    # The dependencies (numpy, OpenCV, pygame, ...) are borrowed from the venv running the tests;
    # a path in a .pth is searched, but .pth files inside it (the editable install's) are not run.
    (Path(site) / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return fresh


def _run(fresh: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["SDL_VIDEODRIVER"] = "dummy"
    return subprocess.run(
        [str(fresh / "bin" / "cardtable"), *args], capture_output=True, text=True, cwd=cwd,
        env=env, check=False, timeout=300,
    )


def test_the_installed_command_is_not_the_clone(installed: Path, tmp_path: Path) -> None:
    python = installed / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import app, hardware; print(app.__file__); print(hardware.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout.split()
    assert all(str(installed) in path and str(ROOT) not in path for path in where)


def test_version_from_outside_the_clone(installed: Path, tmp_path: Path) -> None:
    result = _run(installed, "--version", cwd=tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, "cardtable 0.1.0")


def test_check_hardware_mock_from_outside_the_clone(installed: Path, tmp_path: Path) -> None:
    result = _run(installed, "check-hardware", "--mock", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "firmware not found" not in result.stdout + result.stderr
