"""The start-up cache of large regular expressions: a pattern built from the cache file
matches as the one CPython compiles, is used without compiling, and anything wrong with
the file only means compiling as usual."""

import json
import os
import re
import subprocess
import sys

import pytest

from spacy_seqkit import regex_cache
from spacy_seqkit.regex_cache import CACHE_ENV, MIN_PATTERN_CHARS, RegexCache, cached_patterns

pytestmark = pytest.mark.skipif(not regex_cache._has_internals(), reason="needs CPython's re internals")

# A large pattern with groups, classes, inline flags and anchors, like spaCy's TOKEN_MATCH.
WORDS = [f"mot{i}" for i in range(9000)]
PATTERN = "(?iu)" + "|".join(
    f"(?:^{w}[-‐](?P<tail{i}>[a-zà-ÿ]+)$)" if i < 3 else f"(?:^{w}[-‐][a-zà-ÿ]+$)" for i, w in enumerate(WORDS)
)
PROBES = ["mot0-été", "MOT17-x", "mot8999‐ab", "mot9000-ab", "mot12", "mot5-", "mot5-A1", "xmot5-ab", "mot2-ÿ", ""]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    re.purge()
    yield tmp_path
    re.purge()


def compiled_by_cpython(pattern):
    return re._compiler.compile(pattern, 0)


def test_regex_cache_pattern_is_large_enough_to_be_kept():
    assert len(PATTERN) >= MIN_PATTERN_CHARS


def test_regex_cache_first_start_writes_then_next_start_compiles_nothing(cache_dir, monkeypatch):
    with cached_patterns() as cache:
        first = re.compile(PATTERN)
        assert re.compile("a+b").match("aab")  # small patterns: compiled as usual, not kept
    files = list(cache_dir.glob("regex-*.marshal"))
    assert len(files) == 1 and list(cache.read()) == [PATTERN]
    re.purge()

    def no_compiling(pattern, flags=0):
        raise AssertionError("compiled although the cache has it")

    with cached_patterns():
        monkeypatch.setattr(re._compiler, "compile", no_compiling)
        second = re.compile(PATTERN)
    reference = compiled_by_cpython(PATTERN)
    for built in (first, second):
        assert (built.pattern, built.flags, built.groups, built.groupindex) == (
            reference.pattern,
            reference.flags,
            reference.groups,
            reference.groupindex,
        )
        for probe in PROBES:
            expected = reference.match(probe)
            got = built.match(probe)
            assert (got and (got.span(), got.groupdict())) == (expected and (expected.span(), expected.groupdict()))


def test_regex_cache_damaged_or_foreign_file_means_compiling_as_usual(cache_dir):
    cache = RegexCache.default()
    cache.path.parent.mkdir(parents=True, exist_ok=True)
    for content in (b"not marshal data", b"", regex_cache.marshal.dumps({PATTERN: (0, 32, [1, 2, 3], 0, {}, (None,))})):
        cache.path.write_bytes(content)
        re.purge()
        with cached_patterns():
            built = re.compile(PATTERN)
        assert built.match("mot3-ab") and not built.match("mot3")
        # The damaged entry was replaced by a good one.
        assert PATTERN in RegexCache.default().read()


def test_regex_cache_off_or_unwritable_folder_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "")
    assert RegexCache.default() is None
    with cached_patterns() as cache:
        assert cache is None and re.compile("x+").match("xx")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "below-a-file"))
    re.purge()
    with cached_patterns() as cache:
        assert re.compile(PATTERN).match("mot1-ab")
    assert cache is not None and not cache.path.exists()


START = """
import json, re, sys
from spacy_seqkit import regex_cache

large = []
for module, name in ((re._compiler, "compile"), (regex_cache, "compile_opcodes")):
    def counting(pattern, flags=0, _original=getattr(module, name)):
        if len(pattern) >= regex_cache.MIN_PATTERN_CHARS:
            large.append(len(pattern))
        return _original(pattern, flags)
    setattr(module, name, counting)
# a blank pipeline of a language ("fr"), or a saved one
nlp = regex_cache.blank(sys.argv[1]) if sys.argv[1] == "fr" else regex_cache.load(sys.argv[1])
texts = ["Je vais à Saint-Étienne, puis à Aix-en-Provence", "l'entr'acte du faux-vampire", "new-york"]
print(json.dumps({"large_compiled": large, "tokens": [[t.text for t in nlp(x)] for x in texts]}))
"""


def test_regex_cache_french_pipeline_starts_from_the_cache_with_the_same_tokens(tmp_path):
    """Two starts of a French pipeline in fresh processes: the first compiles spaCy's
    TOKEN_MATCH once and keeps it, the second compiles no large pattern; same tokens."""
    import spacy

    spacy.blank("fr").to_disk(tmp_path / "blank_fr")
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache")}
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", START, str(tmp_path / "blank_fr")],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    assert len(runs[0]["large_compiled"]) == 1 and runs[0]["large_compiled"][0] > 1_000_000
    assert runs[1]["large_compiled"] == []
    assert runs[0]["tokens"] == runs[1]["tokens"]
    assert runs[0]["tokens"][0][:5] == ["Je", "vais", "à", "Saint-Étienne", ","]
    # `blank` (generate, convert) takes the pattern from the same cache
    out = subprocess.run([sys.executable, "-c", START, "fr"], env=env, capture_output=True, text=True, check=True)
    blank = json.loads(out.stdout.strip().splitlines()[-1])
    assert blank == runs[1]
