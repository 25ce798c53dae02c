"""vision/api.py: every name is its home module's own, loaded only when first asked for."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import vision.api
from tests.imports import REPO

# Import the facade in a fresh interpreter, optionally take one name, then list what is loaded.
PROBE = """
import json, sys
import vision.api
for name in sys.argv[1:]:
    getattr(vision.api, name)
print(json.dumps(sorted(sys.modules)))
"""


def loaded_after(*names: str) -> set[str]:
    """The modules loaded by importing vision.api and then asking it for `names`."""
    result = subprocess.run([sys.executable, "-c", PROBE, *names], capture_output=True, text=True,
                            cwd=REPO, timeout=120, check=True)
    return set(json.loads(result.stdout))


def test_every_public_name_has_one_home_and_is_that_modules_own() -> None:
    homes = [name for names in vision.api.HOMES.values() for name in names]
    assert sorted(homes) == sorted(set(homes)) == sorted(vision.api.__all__)
    for module, names in vision.api.HOMES.items():
        for name in names:
            assert getattr(vision.api, name) is getattr(importlib.import_module(module), name)


def test_importing_the_facade_loads_no_image_library() -> None:
    modules = loaded_after()
    assert not {"cv2", "numpy"} & modules
    assert "vision.zones" not in modules


def test_a_name_loads_its_own_module_and_not_opencv_when_it_needs_none() -> None:
    modules = loaded_after("CalibrationError")
    assert "vision.zones" in modules
    assert "cv2" not in modules
    assert "cv2" in loaded_after("recognise")


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        vision.api.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_dir_lists_the_public_names() -> None:
    assert set(vision.api.__all__) <= set(dir(vision.api))
