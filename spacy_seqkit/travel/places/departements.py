"""A name in a given département: "saint-sulpice" in the Tarn is Saint-Sulpice-la-Pointe, read where
a request names the département after the place ("Saint-Sulpice, dans le Tarn")."""

import functools
from typing import Dict, Tuple

from .communes import read_communes
from .index import compound_head, shipped_data, short_form
from .names import normalise


@functools.lru_cache(maxsize=1)
def by_departement() -> Dict[Tuple[str, str], str]:
    """(a current commune's name, short form or compound head, or a delegated commune's name,
    normalised; its département) → the commune's name; of several, the one whose name it is, then
    one a station serves, then the most inhabited. Built the first time a request names a
    département (0.6 s)."""
    served = set(shipped_data().stations.commune.values())
    ranked: Dict[Tuple[str, str], Tuple[tuple, str]] = {}
    for c in read_communes():
        if c.kind in ("C", "D"):  # a delegated commune by its own name: "Belleville" (Rhône)
            current = c.kind == "C"
            for own, form in ((1, c.name), (0, current and short_form(c.name)), (0, current and compound_head(c.name))):
                if form:
                    key, rank = (normalise(form), c.departement), (own, c.name in served, c.population)
                    if key not in ranked or rank > ranked[key][0]:
                        ranked[key] = (rank, c.name)
    return {key: name for key, (_, name) in ranked.items()}
