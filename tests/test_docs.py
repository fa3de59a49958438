"""The docs hold: their Python blocks run, their config blocks resolve, the README's links and
the repository paths they name exist, and the generated project page is current.

A block that cannot run here (it needs a trained pipeline) is marked by an HTML comment
`<!-- skip-test: why -->` on the line before it; keep those few."""

import re
import shutil
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

import pytest
import spacy
from spacy.util import registry
from thinc.api import Config

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SKIP = re.compile(r"<!--\s*skip-test:\s*(.*?)\s*-->\s*$")


class Block(NamedTuple):
    page: Path
    line: int
    lang: str
    code: str
    skip: Optional[str]  # the reason given by a skip-test marker, or None

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(lang: str) -> List[Block]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf8")
        for match in FENCE.finditer(text):
            if match.group(1) != lang:
                continue
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = SKIP.search(before)
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(page, line, lang, match.group(2), marker.group(1) if marker else None))
    return found


PYTHON = blocks("python")
INI = blocks("ini")


def test_docs_have_blocks_to_test():
    runnable = [b for b in PYTHON if b.skip is None]
    assert len(runnable) >= 4 and len(INI) >= 8
    # Skipping is for blocks that need what a test cannot have (a trained pipeline), and says why.
    skipped = [b for b in PYTHON + INI if b.skip is not None]
    assert len(skipped) <= 3, [b.id for b in skipped]
    assert all(b.skip for b in skipped)


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_docs_python_block_runs(block, tmp_path, monkeypatch):
    if block.skip is not None:
        pytest.skip(block.skip)
    monkeypatch.chdir(tmp_path)  # a block may write files
    code = compile(block.code, block.id, "exec")
    exec(code, {"__name__": f"docs_block_{block.line}"})


def registered(tree: Dict[str, Any], path: str = "") -> Iterator[tuple]:
    """(path, sub-config) of every block of `tree` that names a registered function or a
    factory, outermost first (a registered block resolves its nested ones itself)."""
    for key, value in tree.items():
        if not isinstance(value, dict):
            continue
        here = f"{path}.{key}" if path else key
        if "factory" in value or any(k.startswith("@") for k in value):
            yield here, value
        else:
            yield from registered(value, here)


def with_parents(fragment: str) -> str:
    """A config fragment (`[components.tok2vec.model.encode]` alone) with the empty parent
    sections a full config would have, which the parser needs."""
    sections = re.findall(r"^\[([^\]]+)\]", fragment, re.MULTILINE)
    parents = []
    for section in sections:
        parts = section.split(".")
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            if parent not in sections and parent not in parents:
                parents.append(parent)
    return "".join(f"[{parent}]\n" for parent in parents) + fragment


@pytest.mark.parametrize("block", INI, ids=[b.id for b in INI])
def test_docs_config_block_resolves(block):
    if block.skip is not None:
        pytest.skip(block.skip)
    has_variables = "${" in block.code
    config = Config().from_str(with_parents(block.code), interpolate=not has_variables)
    found = list(registered(config))
    assert found, f"{block.id}: no registered function or factory in the block"
    for path, sub in found:
        if "factory" in sub:
            settings = {k: v for k, v in sub.items() if k != "factory"}
            if has_variables:
                assert registry.has("factories", sub["factory"]), f"{path}: unknown factory"
            else:
                # Builds the component from its config exactly as `spacy train` would.
                spacy.blank("fr").add_pipe(sub["factory"], name=path.split(".")[-1], config=settings)
        elif has_variables:
            # References to [paths] and [system] cannot be filled in a fragment: check the names.
            for key, name in sub.items():
                if key.startswith("@"):
                    assert registry.has(key[1:], name), f"{path}: {name} is not registered as {key[1:]}"
        else:
            registry.resolve({"block": sub}, validate=True)


def test_docs_project_page_is_current(tmp_path):
    """`spacy project document` (weasel) rewrites only the part between its markers: run it on a
    copy of the page and compare."""
    from weasel.cli.document import project_document

    page = DOCS / "project.md"
    copy = tmp_path / "project.md"
    shutil.copy(page, copy)
    project_document(ROOT, copy)
    assert copy.read_text(encoding="utf8") == page.read_text(encoding="utf8"), (
        "docs/project.md is out of date: run `python -m spacy project document --output docs/project.md`"
    )


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_readme_links_to_pages_that_exist():
    """mkdocs checks the links between pages; the README is not one of them."""
    text = (ROOT / "README.md").read_text(encoding="utf8")
    local = [t for t in LINK.findall(text) if "://" not in t]
    assert any(t.startswith("docs/") for t in local)
    for target in local:
        assert (ROOT / target.split("#")[0]).exists(), f"README links to {target}, which does not exist"


def test_readme_stays_a_short_page():
    # The README is also the PyPI page: reference, results and benchmarks belong in docs/.
    assert len((ROOT / "README.md").read_text(encoding="utf8").splitlines()) <= 250


# `code` spans that name a file or folder of the repository; package-relative ones
# (`layers/decoding.py`, `travel/orders/`) are looked up under spacy_seqkit/.
REPO_PATH = re.compile(
    r"`((?:spacy_seqkit|tests|scripts|configs)/[\w./-]*|corpus/[\w.-]+|"
    r"(?:layers|loaders|components|vectors|travel)/[\w./-]*)`"
)
# The travel application is being moved into rooms (places/, pipeline/, orders/...): the docs name
# its new paths, checked once that layout is in the checkout.
MOVING = ("spacy_seqkit/travel/", "tests/travel/", "scripts/")
NEW_LAYOUT = (ROOT / "spacy_seqkit" / "travel" / "places" / "__init__.py").exists()


def named_paths() -> List[tuple]:
    found = set()
    for page in PAGES:
        if page.name == "changes.md":  # names the old paths too, on purpose
            continue
        for name in REPO_PATH.findall(page.read_text(encoding="utf8")):
            if name.split("/")[0] not in ("spacy_seqkit", "tests", "scripts", "configs", "corpus"):
                name = f"spacy_seqkit/{name}"
            found.add((page.relative_to(ROOT).as_posix(), name))
    return sorted(found)


@pytest.mark.parametrize("page,name", named_paths())
def test_docs_name_paths_that_exist(page, name):
    if not (ROOT / name).exists() and name.startswith(MOVING) and not NEW_LAYOUT:
        pytest.skip("the travel application's new layout is not in this checkout")
    assert (ROOT / name).exists(), f"{page} names {name}, which does not exist"
