"""The package's shape: the library never imports the travel application; inside the
application each room imports only the rooms before it; no import circles."""

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Set

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "spacy_seqkit"
TRAVEL = "spacy_seqkit.travel"
# The application, and the command line that wires it to the library.
MAY_IMPORT_TRAVEL = ("travel", "cli", "__main__")
# Each room of travel/ and the rooms it may import (itself included). Inference (places,
# pipeline, routes, orders) never imports corpus.
ROOMS: Dict[str, Set[str]] = {
    "places": {"places"},
    "pipeline": {"places", "pipeline"},
    "routes": {"places", "routes"},
    "orders": {"places", "pipeline", "routes", "orders"},
    "corpus": {"places", "pipeline", "corpus"},
}
# Modules of travel/ outside the rooms that may import any room: scoring, commands, benchmarks.
ANYWHERE = {"evaluation", "cli", "benchmarks"}
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> Iterator[str]:
    """Absolute names of the modules a file imports, at any depth of the file (relative
    imports resolved): `from a import b` yields "a" and "a.b"; `from . import b` only the
    module b (not the package it sits in)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            if node.module:
                yield name
            yield from (f"{name}.{alias.name}" for alias in node.names)


def package_files() -> List[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def library_files() -> Iterator[Path]:
    for path in package_files():
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if top not in MAY_IMPORT_TRAVEL:
            yield path


def room_of(module: str) -> str:
    """The room of a module of travel/ ("spacy_seqkit.travel.places.index" → "places")."""
    rest = module[len(TRAVEL) + 1 :] if module.startswith(TRAVEL + ".") else ""
    return rest.split(".", 1)[0]


def import_graph() -> Dict[str, Set[str]]:
    """Module → the package's modules it imports (only modules that exist)."""
    modules = {module_name(p): p for p in package_files()}
    return {name: {m for m in imported_modules(path) if m in modules and m != name} for name, path in modules.items()}


def test_layout_finds_the_library_the_rooms_and_reads_imports():
    files = [p.relative_to(PACKAGE).as_posix() for p in library_files()]
    assert "layers/window.py" in files and "components/rewriter.py" in files
    assert not any(f.startswith("travel/") for f in files)
    rooms = {room_of(module_name(p)) for p in package_files() if module_name(p).startswith(TRAVEL + ".")}
    assert set(ROOMS) - {"routes"} <= rooms
    evaluation = PACKAGE / "travel" / "evaluation.py"
    assert "spacy_seqkit.travel.pipeline.reading" in set(imported_modules(evaluation))


@pytest.mark.parametrize("path", list(library_files()), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_layout_library_does_not_import_the_travel_application(path):
    travel = [m for m in imported_modules(path) if m == TRAVEL or m.startswith(TRAVEL + ".")]
    assert not travel, f"{path.relative_to(PACKAGE)} imports {travel}: the library must not import travel/"


TRAVEL_FILES = [
    p for p in package_files() if module_name(p).startswith(TRAVEL + ".") and room_of(module_name(p)) in ROOMS
]


@pytest.mark.parametrize("path", TRAVEL_FILES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_layout_each_room_imports_only_the_rooms_before_it(path):
    room = room_of(module_name(path))
    outside = sorted(
        {
            m
            for m in imported_modules(path)
            if m.startswith(TRAVEL) and room_of(m) not in ROOMS[room] and not (m == TRAVEL or room_of(m) == "")
        }
    )
    assert not outside, (
        f"{path.relative_to(PACKAGE)} ({room}/) imports {outside}: {room}/ may import {sorted(ROOMS[room])}"
    )
    assert TRAVEL not in set(imported_modules(path)), f"{path.relative_to(PACKAGE)} imports the whole travel package"


def test_layout_rooms_of_travel_are_known():
    """A new module of travel/ goes into a room (or is a command, a benchmark, evaluation)."""
    for path in package_files():
        name = module_name(path)
        if name.startswith(TRAVEL + "."):
            assert room_of(name) in set(ROOMS) | ANYWHERE, f"{path.relative_to(PACKAGE)}: no room of travel/ holds it"


def test_layout_has_no_import_circles():
    graph = import_graph()
    seen: Set[str] = set()
    stack: List[str] = []
    on_stack: Set[str] = set()

    def visit(node: str) -> None:
        seen.add(node)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt in on_stack:
                circle = stack[stack.index(nxt) :] + [nxt]
                pytest.fail("import circle: " + " → ".join(circle))
            if nxt not in seen:
                visit(nxt)
        stack.pop()
        on_stack.discard(node)

    for node in sorted(graph):
        if node not in seen:
            visit(node)


@pytest.mark.parametrize("path", package_files(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_layout_no_module_over_400_lines(path):
    lines = len(path.read_text(encoding="utf8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines (at most {MAX_LINES})"
