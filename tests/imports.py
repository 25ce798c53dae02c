"""The imports of a package's source files, read with `ast` (lazy imports inside functions too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import in a source file; a relative import starts with dots."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, "." * node.level + (node.module or "")


def top_package(module: str) -> str:
    """The first dotted part of a module name ('' for a relative import)."""
    return "" if module.startswith(".") else module.split(".", 1)[0]


def crossing_imports(folder: Path, allowed: set[str] | None, forbidden: set[str]) -> list[str]:
    """`file:line module` for every import under the folder that is forbidden or not allowed."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for line, module in imported_modules(path):
            top = top_package(module)
            if top and (top in forbidden or (allowed is not None and top not in allowed)):
                found.append(f"{path.relative_to(folder.parent).as_posix()}:{line} {module}")
    return found
