"""A packaged travel pipeline installs in a fresh virtual environment, as the
README says: `pip install --find-links packages/ fr_NAME`, spacy-seqkit's wheel
(not on PyPI) beside the pipeline. Reaches PyPI for spaCy and the rest."""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import spacy

ROOT = Path(__file__).resolve().parents[2]
PATTERNS = [
    {"label": "DEPART", "pattern": [{"LOWER": "marseille"}]},
    {"label": "ARRIVEE", "pattern": [{"LOWER": "paris"}]},
]
CHECK = """
import json, spacy
nlp = spacy.load("fr_travel_tiny")
doc = nlp("de Marseille à Paris \\ud83d")
print(json.dumps({"trip": doc._.trip, "text": doc.text, "tokenizer": type(nlp.tokenizer).__name__}))
"""


def run(*command, cwd=None, env=None):
    out = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, f"{command}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out.stdout


@pytest.mark.slow
def test_package_installs_from_packages_folder(tmp_path):
    nlp = spacy.blank("fr", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-seqkit.Tokenizer.v1"}}})
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    nlp.add_pipe("seqkit_trip")
    nlp.to_disk(tmp_path / "pipeline")
    packages = tmp_path / "packages"
    packages.mkdir()
    # The project's package command, step by step (project.yml).
    run(
        sys.executable,
        "-m",
        "spacy",
        "package",
        str(tmp_path / "pipeline"),
        str(packages),
        "--name",
        "travel_tiny",
        "--version",
        "0.0.1",
        "--force",
    )
    shutil.copy(packages / "fr_travel_tiny-0.0.1" / "dist" / "fr_travel_tiny-0.0.1.tar.gz", packages)
    source = tmp_path / "source"  # a clean copy: no stale build/ of the working tree
    shutil.copytree(
        ROOT / "spacy_seqkit", source / "spacy_seqkit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    for name in ("setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(packages), ".", cwd=source)

    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = str(env / "bin" / "python")
    # The new environment sees only what it installed, not this checkout.
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run(
        python,
        "-m",
        "pip",
        "install",
        "-q",
        "-c",
        str(ROOT / "constraints.txt"),
        "--find-links",
        str(packages),
        "fr_travel_tiny",
        env=clean,
    )
    result = json.loads(run(python, "-c", CHECK, cwd=tmp_path, env=clean).strip().splitlines()[-1])
    assert result["tokenizer"] == "SurrogateSafeTokenizer"
    assert result["text"] == "de Marseille à Paris \ufffd"
    trip = result["trip"]
    assert (trip["departure"], trip["arrival"], trip["is_valid"]) == ("Marseille", "Paris", True)
    # The plugin came from packages/, installed as a wheel (not this working tree).
    where = "import spacy_seqkit; print(spacy_seqkit.__file__)"
    location = run(python, "-c", where, cwd=tmp_path, env=clean)
    assert str(env) in location
