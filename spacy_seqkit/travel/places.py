"""`spacy-seqkit.french_places.v1`: the gazetteer of `seqkit_trip`, as a config choice.

```ini
[components.seqkit_trip.places]
@misc = "spacy-seqkit.french_places.v1"
min_population = 0
```

Another country's places plug in the same way: register a function returning an object
with `resolve(text) -> canonical name or None` and name it in the trip component's config.
"""
import functools
from typing import FrozenSet

from .gazetteer import DATA, Gazetteer, normalise, read_words


def make_french_places(min_population: int = 0) -> Gazetteer:
    """The communes of metropolitan France (INSEE's official list: current, delegated and
    associated communes, and the arrondissements of Paris, Lyon and Marseille) of at least
    `min_population` inhabitants, and the main railway stations. Typo correction leaves
    ordinary French words alone.

    min_population (int): Smallest commune kept (a delegated or associated commune counts
        with the commune it belongs to). Recommended value is 0: all of them.
    """
    return _french_places(min_population)


@functools.lru_cache(maxsize=None)
def _french_places(min_population: int) -> Gazetteer:
    # One instance per setting, so that every component and resolver of the process
    # shares its lookup cache.
    return Gazetteer(min_population=min_population, ordinary_words=ordinary_words(), common_words=common_words())


@functools.lru_cache(maxsize=1)
def common_words() -> FrozenSet[str]:
    """Normalised everyday words of requests: spaCy's French stop words and the words of
    our own request phrasings, fillers and SMS spellings ("dmain", "jveux"; dates,
    tickets, politeness...)."""
    from spacy.lang.fr.stop_words import STOP_WORDS

    from .noise import SMS
    from .templates import FILLERS, SLOT, TEMPLATES

    texts = [SLOT.sub(" ", t.pattern) for t in TEMPLATES]
    texts += [f for key, fillers in FILLERS.items() if key not in ("PERSON", "THING", "SIGN", "ABROAD") for f in fillers]
    texts += [short for _, short in SMS]
    words = {w for text in texts for w in normalise(text).split()}
    return frozenset(words | {normalise(w) for w in STOP_WORDS})


@functools.lru_cache(maxsize=1)
def ordinary_words() -> FrozenSet[str]:
    """Normalised French words that a typo correction must leave alone: the forms of
    spaCy's French lemmatizer tables (`data/french_words.txt.gz`) and the common words."""
    return read_words(DATA / "french_words.txt.gz") | common_words()
