"""The package installed as a wheel (not editable) works from outside the clone and holds
nothing of the tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from tests.imports import imported_modules, top_package

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("table", "vision", "tools", "app", "drivers", "display", "hardware")
HARNESS = {"faultcheck", "faultcheck_threads", "crashcheck", "powercut", "misread_sim",
           "camera_fault", "read_only"}
"""The test machinery's modules (tests/harness/), none of which the table ships."""


def clean_copy(target: Path) -> Path:
    """The clone's files as a fresh clone with its changes would hold them: what git ignores
    (a `build/` left by an earlier build, whose stale modules setuptools would ship) left out."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, cwd=ROOT, check=False,
    )
    if listed.returncode != 0:  # not a git checkout: copy all but builds, caches and venvs
        skip = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                      "__pycache__", ".*_cache")
        return Path(shutil.copytree(ROOT, target, ignore=skip))
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is listed too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` builds from a clean copy of the clone."""
    wheels = tmp_path_factory.mktemp("wheels")
    source = clean_copy(tmp_path_factory.mktemp("source") / "cardtable")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source),
         "-w", str(wheels)],
        check=True, capture_output=True, cwd=wheels,
    )
    (built,) = wheels.glob("cardtable-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A fresh venv holding cardtable from its wheel; its libraries come from the test venv."""
    base = tmp_path_factory.mktemp("install")
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


def test_the_wheel_holds_the_table_and_no_test_machinery(wheel: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    sources = [PurePosixPath(name) for name in names if name.endswith(".py")]
    tops = {source.parts[0] for source in sources}
    assert tops == set(PRODUCT), sorted(tops)  # no tests/, no benchmarks/, nothing else
    assert {"app/cli.py", "drivers/camera.py", "table/__init__.py"} <= set(names)
    assert [str(source) for source in sources if source.stem in HARNESS] == []
    assert not [name for name in names if name.endswith(".c")]  # the power-cut shim's source
    testing = {"unittest", "pytest", "hypothesis", "tests"}
    found = [f"{source}:{line} {module}" for source in sources
             for line, module in imported_modules(tmp_path / source)
             if top_package(module) in testing]
    assert found == []
