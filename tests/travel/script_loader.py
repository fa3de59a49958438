"""A script of the repository (scripts/, corpus/*/build.py) loaded as a module by its path."""

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(path: Path, name: str = "") -> ModuleType:
    """The module of the script at `path` (relative to the repository's root, or absolute), named
    `name` (else its file's stem)."""
    path = ROOT / path
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
