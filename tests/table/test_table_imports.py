"""table/ is pure Python: it imports only itself and the standard library, and has no CLI."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.imports import REPO, crossing_imports

ALLOWED = {"table", *sys.stdlib_module_names}
FORBIDDEN = {"argparse"}  # the command line belongs to app/ (app/replay_cli.py)


def test_table_imports_only_itself_and_the_standard_library() -> None:
    assert crossing_imports(REPO / "table", ALLOWED, FORBIDDEN) == []


def test_a_third_party_import_in_the_engine_is_named(tmp_path: Path) -> None:
    (tmp_path / "table").mkdir()
    (tmp_path / "table" / "state.py").write_text("import json\nimport numpy as np\n")
    assert crossing_imports(tmp_path / "table", ALLOWED, set()) == ["table/state.py:2 numpy"]


def test_a_command_line_in_the_engine_is_named(tmp_path: Path) -> None:
    (tmp_path / "table").mkdir()
    (tmp_path / "table" / "cli.py").write_text("import argparse\nimport json\n")
    assert crossing_imports(tmp_path / "table", ALLOWED, FORBIDDEN) == ["table/cli.py:1 argparse"]
