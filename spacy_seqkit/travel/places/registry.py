"""`spacy-seqkit.french_places.v1`: France's places (`FrenchPlaces`) for `seqkit_trip` and
`seqkit_place_marker`, as a config choice.

```ini
[components.seqkit_trip.places]
@misc = "spacy-seqkit.french_places.v1"
min_population = 0
```

Another country's places plug in the same way: register a function returning an object of
the place contract (`contract.Places`) and name it in the components' config.
"""

import functools
from typing import FrozenSet

from .communes import DATA
from .french_places import FrenchPlaces
from .names import read_words


def make_french_places(min_population: int = 0) -> FrenchPlaces:
    """The communes of metropolitan France (INSEE's official list: current, delegated and
    associated communes, and the arrondissements of Paris, Lyon and Marseille) of at least
    `min_population` inhabitants, and the main railway stations. Typo correction leaves
    ordinary French words alone.

    min_population (int): Smallest commune kept (a delegated or associated commune counts
        with the commune it belongs to). Recommended value is 0: all of them.
    """
    return _french_places(min_population)


@functools.lru_cache(maxsize=None)
def _french_places(min_population: int) -> FrenchPlaces:
    # One instance per setting, so that every component and resolver of the process
    # shares its lookup cache.
    return FrenchPlaces(min_population=min_population, ordinary_words=ordinary_words(), common_words=common_words())


@functools.lru_cache(maxsize=1)
def common_words() -> FrozenSet[str]:
    """Normalised everyday words of requests (`data/common_words.txt`, built by
    `scripts/build_common_words.py` from spaCy's French stop words and the request
    phrasings, fillers and SMS spellings: "dmain", "jveux", dates, tickets, politeness)."""
    return frozenset((DATA / "common_words.txt").read_text(encoding="utf8").splitlines()) - {""}


@functools.lru_cache(maxsize=1)
def ordinary_words() -> FrozenSet[str]:
    """Normalised French words that a typo correction must leave alone: the forms of
    spaCy's French lemmatizer tables (`data/french_words.txt.gz`) and the common words."""
    return read_words(DATA / "french_words.txt.gz") | common_words()
