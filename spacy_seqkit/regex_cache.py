"""Start a pipeline without compiling its tokenizer's largest regular expression again.

Importing `spacy.lang.fr` compiles the French tokenizer's `TOKEN_MATCH`, a pattern of 1.4
million characters: about 2.4 s of pure-Python work on every start, more than a third of
the time `resolve` took to answer its first order. CPython compiles a pattern in two steps:
its `re` compiler turns the pattern into a list of opcodes (the slow part), then
`_sre.compile` builds the matcher from that list at once (and validates it). `load` keeps
the opcodes of the large patterns spaCy compiles in a cache file at the first start, and at
the next start puts the matchers built from them into `re`'s own cache of compiled patterns
before spaCy asks for them, so that `re.compile(pattern)` returns the same matcher without
compiling. Matching is unchanged: the cached opcodes are the ones CPython's compiler
writes (`compile_opcodes` takes its steps, and the first start keeps what they give).

The cache file is per Python build and regex engine version (`sys.version`,
`_sre.MAGIC`), in `$SPACY_SEQKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/spacy_seqkit`, else
`~/.cache/spacy_seqkit`; `SPACY_SEQKIT_CACHE_DIR=""` turns it off. A missing, unreadable
or foreign cache file, a Python without these internals, or a folder that cannot be
written only means the pattern is compiled as usual.
"""

import hashlib
import importlib
import marshal
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

# Patterns at least this long are worth caching (the French TOKEN_MATCH: 1.4 M
# characters, 2.4 s; the next largest tokenizer pattern: 18 k characters, 35 ms).
MIN_PATTERN_CHARS = 100_000
CACHE_ENV = "SPACY_SEQKIT_CACHE_DIR"
FORMAT = 1

# (flags given to re.compile, flags of the pattern, opcodes, groups, groupindex, indexgroup)
Compiled = Tuple[int, int, List[int], int, Dict[str, int], Tuple[Optional[str], ...]]

# `re` with its internals (_compiler, _parser, _cache), which typeshed does not describe.
_re: Any = re


def load(name: Any, **kwargs) -> Any:
    """`spacy.load(name, **kwargs)`, with the large patterns it compiles taken from the
    cache file, or written to it the first time."""
    import spacy  # torch and thinc are imported here, before the cache is used

    with cached_patterns():
        return spacy.load(name, **kwargs)


def blank(name: str, **kwargs) -> Any:
    """`spacy.blank(name, **kwargs)`, with the large patterns it compiles taken from the
    cache file, or written to it the first time (as `load`)."""
    import spacy

    with cached_patterns():
        return spacy.blank(name, **kwargs)


@contextmanager
def cached_patterns() -> Iterator[Optional["RegexCache"]]:
    """Within the block, `re.compile` of a pattern the cache file holds returns the
    matcher built from its opcodes, and a large pattern compiled for the first time has
    its opcodes kept; they are written to the file at the end of the block. Yields the
    cache (None where it cannot work)."""
    cache = RegexCache.default()
    if cache is None:
        yield None
        return
    cache.seed()
    compiler = _re._compiler
    original = compiler.compile

    def compile_and_keep(pattern, flags=0):
        # re._compile calls this on a miss of its own cache; the same steps as CPython's
        # compiler, keeping the opcodes of a large pattern on the way.
        if isinstance(pattern, str) and len(pattern) >= MIN_PATTERN_CHARS and not flags & re.DEBUG:
            entry = compile_opcodes(pattern, flags)
            cache.entries[pattern] = entry
            cache.changed = True
            return _build(pattern, entry)
        return original(pattern, flags)

    compiler.compile = compile_and_keep
    try:
        yield cache
    finally:
        compiler.compile = original
        if cache.changed:
            cache.write()


class RegexCache:
    """The opcodes of large patterns, in one file per Python build."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: Dict[str, Compiled] = {}
        self.changed = False

    @classmethod
    def default(cls) -> Optional["RegexCache"]:
        """The cache in the user's cache folder, or None where it cannot work
        (turned off, or a Python without these internals of `re`)."""
        folder = cache_folder()
        if folder is None or not _has_internals():
            return None
        tag = hashlib.sha256(f"{sys.version}|{_engine().MAGIC}|{FORMAT}".encode()).hexdigest()[:16]
        return cls(folder / f"regex-{sys.implementation.cache_tag}-{tag}.marshal")

    def read(self) -> Dict[str, Compiled]:
        try:
            data = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        return data if isinstance(data, dict) else {}

    def seed(self) -> int:
        """Put the file's patterns into `re`'s cache; returns how many."""
        self.entries = self.read()
        seeded = 0
        for pattern, entry in list(self.entries.items()):
            try:
                compiled = _build(pattern, entry)
            except Exception:  # a damaged entry: compiled as usual, and written again
                del self.entries[pattern]
                continue
            _re._cache.setdefault((str, pattern, entry[0]), compiled)  # keyed as re keys it
            seeded += 1
        return seeded

    def write(self) -> bool:
        """Write the entries to the file (atomically); False if it cannot be written."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            partial.write_bytes(marshal.dumps(self.entries))
            os.replace(partial, self.path)  # processes starting together never read half a file
        except OSError:
            return False
        self.changed = False
        return True


def cache_folder() -> Optional[Path]:
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "spacy_seqkit"


def _has_internals() -> bool:
    compiler = getattr(re, "_compiler", None)
    return (
        sys.implementation.name == "cpython"
        and isinstance(getattr(re, "_cache", None), dict)
        and hasattr(compiler, "_code")
        and hasattr(getattr(re, "_parser", None), "parse")
    )


def compile_opcodes(pattern: str, flags: int) -> Compiled:
    """What CPython's `re._compiler.compile(pattern, flags)` hands `_sre.compile`."""
    parsed = _re._parser.parse(pattern, flags)
    code = [int(op) for op in _re._compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: List[Optional[str]] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return flags, flags | parsed.state.flags, code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _engine() -> Any:
    """CPython's regex engine, `_sre` (untyped: typeshed does not describe it)."""
    return importlib.import_module("_sre")


def _build(pattern: str, entry: Compiled) -> "re.Pattern":
    _, flags, code, groups, groupindex, indexgroup = entry
    return _engine().compile(pattern, flags, list(code), groups, dict(groupindex), tuple(indexgroup))
