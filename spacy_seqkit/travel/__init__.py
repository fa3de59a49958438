"""The French travel application of the library: read the departure, the arrival and the
stops of a travel request, and answer travel orders in the Travel Order Resolver's formats.

By role, each room importing only the rooms before it (`tests/test_layout.py`):

- `places/`: communes (INSEE), stations (SNCF), départements, and the place contract;
  imports nothing else of `travel/`;
- `pipeline/`: what runs inside `nlp(text)`: the place marker, the trip component, the `Trip`
  value, the language guard, the tokenizer callback; imports `places`;
- `orders/`: answering orders: the spec's CSV formats and limits, one streaming path over
  backends (this process, a process pool, Dask), the HTTP service and its page; imports
  `places` and `pipeline`;
- `corpus/`: training data only (phrasings, noise, generation, records); imports `places` and
  `pipeline`; nothing at inference imports it;
- `evaluation.py`: scoring pipelines on the hand-written sets; `cli.py`: the travel commands;
  `benchmarks/`: the resolve and pipelines benchmarks.

The library never imports this package; this package imports the library.
"""

from .pipeline.trip import Trip
from .places import FrenchPlaces, Places, make_french_places, normalise

__all__ = ["FrenchPlaces", "Places", "Trip", "make_french_places", "normalise"]
