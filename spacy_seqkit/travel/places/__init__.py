"""Places: INSEE's communes and départements, SNCF's stations, and how people name them.

Imports nothing else of `travel/`. Its data files (`data/`) are built by `scripts/`:
communes and départements (`build_gazetteer_data.py`), common words
(`build_common_words.py`), the shipped lookup index (`build_gazetteer_index.py`).

- `contract.py`: `Places`, all the pipeline asks of a country's places;
- `names.py`: how names are compared (`normalise`), type words, foreign places;
- `communes.py`, `sncf.py`, `stations.py`: the reference data (SNCF's stations and the names
  people type for them);
- `place.py`: `Place`, a place as a value (kind, reference name, codes, serving stations);
- `index.py`: every key people may type → the place it stands for (shipped built);
- `lookup.py`: what a mention names, typos tolerated;
- `french_places.py`: `FrenchPlaces`, France's places; `registry.py`: `spacy-seqkit.french_places.v1`.
"""

from .contract import Places
from .french_places import FrenchPlaces
from .names import normalise
from .place import Place
from .registry import make_french_places

__all__ = ["FrenchPlaces", "Place", "Places", "make_french_places", "normalise"]
