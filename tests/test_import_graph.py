"""The product packages import one another without a cycle, imports inside functions included."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.imports import REPO

PACKAGES = ("table", "vision", "drivers", "display", "app", "tools", "hardware")
"""The packages scanned: the product, as the wheel ships it."""

Graph = dict[str, set[str]]


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages under `root`, by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imported_names(module: str, path: Path) -> Iterator[str]:
    """Every name an import anywhere in the module may load, relative ones made absolute:
    `from a import b` gives both `a` and `a.b`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *base.split(".")])
                base = base.strip(".")
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def known_module(name: str, known: dict[str, Path]) -> str | None:
    """The longest leading part of a dotted name that is one of the known modules."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path = REPO, packages: tuple[str, ...] = PACKAGES) -> Graph:
    """For each module, the other scanned modules it imports, at the top or inside a function."""
    known = modules(root, packages)
    graph: Graph = {}
    for module, path in known.items():
        targets = {known_module(name, known) for name in imported_names(module, path)}
        graph[module] = {target for target in targets if target and target != module}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: list[str] = []
            while not component or component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


VISION_FACADE = frozenset({"vision", "vision.api"})
"""What app/ may import from recognition: the facade (and the bare package)."""


def vision_behind_the_facade(graph: Graph) -> list[str]:
    """Every import of a vision module other than the facade by app/, as `app.x -> vision.y`."""
    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  if module == "app" or module.startswith("app.")
                  for target in targets
                  if target.startswith("vision.") and target not in VISION_FACADE)


def write_package(root: Path, files: dict[str, str]) -> None:
    """Source files under `root`, by their path relative to it."""
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def test_the_product_packages_import_without_a_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_graph_holds_lazy_and_top_level_imports_of_the_product() -> None:
    graph = import_graph()
    assert "app.demo_table" in graph["app.runner"]  # inside run_table
    assert "display.cards" in graph["display.prompts"]  # at the top
    assert "vision.api" in graph["app.camera_feed"]  # under TYPE_CHECKING and in a function


def test_a_cycle_closed_by_a_lazy_relative_import_is_found(tmp_path: Path) -> None:
    write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/one.py": "from pkg import two\n",
        "pkg/two.py": "import pkg.three\n",
        "pkg/three.py": "def late() -> None:\n    from .one import thing\n",
        "pkg/four.py": "from pkg.one import thing\n",
    })
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.three"] == {"pkg.one"}
    assert cycles(graph) == [["pkg.one", "pkg.three", "pkg.two"]]


def test_an_import_from_a_parent_package_is_resolved(tmp_path: Path) -> None:
    write_package(tmp_path, {
        "pkg/__init__.py": "from . import sub\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/leaf.py": "from .. import top\nfrom ..sub import other\n",
        "pkg/sub/other.py": "",
        "pkg/top.py": "from pkg.sub.leaf import x\n",
    })
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg"] == {"pkg.sub"}
    assert graph["pkg.sub.leaf"] == {"pkg", "pkg.top", "pkg.sub", "pkg.sub.other"}
    assert cycles(graph) == [["pkg.sub.leaf", "pkg.top"]]


def test_app_imports_recognition_only_through_its_facade() -> None:
    graph = import_graph()
    assert vision_behind_the_facade(graph) == []
    assert any("vision.api" in targets for module, targets in graph.items()
               if module.startswith("app."))


def test_an_app_module_reaching_past_the_facade_is_named(tmp_path: Path) -> None:
    write_package(tmp_path, {
        "app/__init__.py": "",
        "app/good.py": "from vision.api import recognise\nimport vision\n",
        "app/bad.py": "def late() -> None:\n    from vision.tracker import EventKind\n",
        "vision/__init__.py": "",
        "vision/api.py": "from vision import tracker\n",
        "vision/tracker.py": "",
    })
    graph = import_graph(tmp_path, ("app", "vision"))
    assert vision_behind_the_facade(graph) == ["app.bad -> vision.tracker"]
