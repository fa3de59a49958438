"""The package's shape: the library never imports the travel application."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "spacy_seqkit"
# The application, and the entry points that wire the application to the library.
MAY_IMPORT_TRAVEL = ("travel", "cli", "__main__", "benchmarks")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path):
    """Absolute names of the modules a file imports (relative imports resolved)."""
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
            yield name
            yield from (f"{name}.{alias.name}" for alias in node.names)


def library_files():
    for path in sorted(PACKAGE.rglob("*.py")):
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if top not in MAY_IMPORT_TRAVEL:
            yield path


def test_layout_finds_the_library_and_reads_imports():
    files = [p.relative_to(PACKAGE).as_posix() for p in library_files()]
    assert "layers/window.py" in files and "components/rewriter.py" in files
    assert not any(f.startswith("travel/") for f in files)
    evaluate = PACKAGE / "travel" / "evaluate.py"
    assert "spacy_seqkit.travel.trip_resolver" in set(imported_modules(evaluate))


@pytest.mark.parametrize("path", list(library_files()), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_layout_library_does_not_import_the_travel_application(path):
    travel = [m for m in imported_modules(path) if m == "spacy_seqkit.travel" or m.startswith("spacy_seqkit.travel.")]
    assert not travel, f"{path.relative_to(PACKAGE)} imports {travel}: the library must not import travel/"
