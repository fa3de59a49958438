"""The words the reading of a request uses, as data: word classes (`words.toml`), the verbs'
conjugation table (`verbs.toml`), and each qualifier's cues (its folder's `patterns.toml`,
whose classes may include these). Read once, folded as a doc's words are (`fold`)."""

import functools
import sys
import unicodedata
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, Mapping, Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same parser, from PyPI
    import tomli as tomllib

HERE = Path(__file__).parent
# A regular verb's endings, tense by tense, after its stem ("quitt-"); the future and
# conditional after its infinitive.
_ENDINGS = {
    "present": "e es e ons ez ent",
    "imperfect": "ais ait ions iez aient",
    "future": "ai as a ons ez ont",
    "conditional": "ais ait ions iez aient",
    "participle": "é ée és ées",
    "gerund": "ant",
    "subjunctive": "e es e ions iez ent",
}
# The tenses of the table: those, the infinitive, and the forms people type ("jpars", "chuis").
TENSES = ("infinitive", *_ENDINGS, "spoken")


def fold(word: str) -> str:
    """A word as the reading compares it: lowercase, the typographic apostrophe as "'"."""
    return word.lower().replace("’", "'")


def bare(word: str) -> str:
    """`word` without its accents ("départ" → "depart"), its ligatures written out ("sœur" → "soeur")."""
    word = word.replace("œ", "oe").replace("æ", "ae")
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode() or word


def conjugate(lemma: str, tense: str) -> str:
    """The forms of a regular verb of the first group in `tense`, space-separated: "quitter",
    "present" → "quitte quittes quitte quittons quittez quittent" ("préfère", "logeons")."""
    stem = lemma[:-2]
    if tense == "infinitive":
        return lemma
    if tense in ("future", "conditional"):
        return " ".join(lemma + e for e in _ENDINGS[tense].split())
    forms = []
    for ending in _ENDINGS.get(tense, "").split():
        head = stem + "e" if stem.endswith("g") and ending[0] in "ao" else stem  # "logeons"
        if tense == "present" and ending in ("e", "es", "ent"):
            # "préfère" (é before its last consonants), "élève" (e before one consonant); not
            # "rentre", "reste", "réserve" (e before two)
            i = max(head.rfind("é"), head.rfind("e"))
            tail = head[i + 1 :]
            if i > 0 and not any(c in "aeiouyéè" for c in tail) and (head[i] == "é" or len(tail) == 1):
                head = head[:i] + "è" + head[i + 1 :]
        forms.append(head + ending)
    return " ".join(forms)


def _verb_forms(table: Mapping[str, Mapping[str, Any]], spec: str) -> Iterable[str]:
    lemma, _, wanted = spec.partition(":")
    if lemma not in table:
        raise ValueError(f"lexicon: no verb {lemma!r} in verbs.toml")
    entry = table[lemma]
    tenses = wanted.split(",") if wanted else TENSES
    for tense in tenses:
        if tense not in TENSES:
            raise ValueError(f"lexicon: unknown tense {tense!r} in {spec!r} (one of {', '.join(TENSES)})")
        forms = conjugate(lemma, tense) if entry.get("group") == 1 else entry.get(tense, "")
        yield from str(forms).split()


class Lexicon(Dict[str, FrozenSet[str]]):
    """Word classes by name, each a frozenset of folded words (`lexicon["leaving"]`), made the first
    time they are asked for (then a plain dict look-up: the rules ask at every word)."""

    def __init__(self, classes: Mapping[str, Mapping[str, Any]], verbs: Mapping[str, Mapping[str, Any]]):
        super().__init__()
        self.specs = dict(classes)
        self.verbs = verbs

    def __missing__(self, name: str) -> FrozenSet[str]:
        found = self[name] = self._build(name, ())
        return found

    def _build(self, name: str, seen: tuple) -> FrozenSet[str]:
        if name not in self.specs:
            raise ValueError(f"lexicon: no word class {name!r}")
        if name in seen:
            raise ValueError(f"lexicon: {name!r} includes itself ({' > '.join(seen)})")
        spec = self.specs[name]
        words = {fold(w) for w in str(spec.get("words", "")).split(" ") if w}
        words |= {fold(w) for v in spec.get("verbs", ()) for w in _verb_forms(self.verbs, v)}
        if spec.get("accents") == "optional":
            words |= {bare(w) for w in words}
        for other in spec.get("include", ()):
            words |= self._build(other, seen + (name,))
        return frozenset(words)

    def extended(self, classes: Optional[Mapping[str, Mapping[str, Any]]]) -> "Lexicon":
        """This lexicon with more classes (a qualifier's patterns), or some overridden: a
        component's config may give any class its own words."""
        return Lexicon({**self.specs, **(classes or {})}, self.verbs) if classes else self


def read_toml(path: Path) -> Dict[str, Dict[str, Any]]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ValueError(f"lexicon: cannot read {path}: {err}") from None


@functools.lru_cache(maxsize=None)
def lexicon() -> Lexicon:
    """The shared word classes and verbs."""
    return Lexicon(read_toml(HERE / "words.toml"), read_toml(HERE / "verbs.toml"))


def patterns(folder: Path) -> Dict[str, Dict[str, Any]]:
    """A qualifier's patterns.toml: its `[rules.*]` (documentation, read into the rules table)
    and its word classes (every other table)."""
    return read_toml(folder / "patterns.toml")
