"""An end offered with an alternative makes no single trip: "de Nîmes ou d'Arles à Aix",
"Besançon ou pour Belfort", "soit Lyon soit Grenoble"; nor two places compared: "je préfère
Dunkerque à Albertville" (`seqkit_trip` reads such a request as INVALID)."""

from typing import List, Tuple

from spacy.tokens import Span

from ..places.contract import Places
from ..places.place import Place

# Words that offer an alternative: "de Nîmes ou d'Arles", "soit Lyon soit Grenoble".
_ALTERNATIVES = {"ou", "soit"}
# What may stand between "ou" and the alternative place: "ou de", "ou bien à", "ou pour".
# Words that compare the place after them to another: "je préfère Chartres à Fougères".
_PREFERRING = frozenset(
    "préfère préfères préférons préférez préfèrent préférerais préférerait prefere preferes".split()
)
_ALTERNATIVE_LINKS = frozenset(
    "de d' d du des à a au aux pour par vers depuis bien alors plutôt plutot la le les l' l".split()
)


def has_alternative(mention: Span, places: List[Tuple[str, Span, Place]], gazetteer: Places) -> bool:
    """The mention is one of two places offered as alternatives: "Nîmes ou (d')Arles",
    "Besançon ou pour Belfort", "soit Lyon soit Grenoble", or the first of two compared: "je
    préfère Saintes à Roubaix". The other place is a mention of the trip (`places`) or a name
    `gazetteer` knows."""
    doc = mention.doc

    def place_at(start: int) -> bool:
        # A place starts at `start` (after the links of "ou de", "ou bien à"...).
        while start < len(doc) and doc[start].lower_ in _ALTERNATIVE_LINKS:
            start += 1
        if any(m.start == start for _, m, _ in places):
            return True
        return any(
            gazetteer.resolve(doc[start:end].text) is not None
            for end in range(start + 1, min(start + 4, len(doc)) + 1)
            if doc[end - 1].is_alpha
        )

    def place_before(end: int) -> bool:
        return any(m.end == end for _, m, _ in places) or (
            end > 0 and doc[end - 1].is_alpha and gazetteer.resolve(doc[end - 1].text) is not None
        )

    after = mention.end + (1 if mention.end < len(doc) and doc[mention.end].text == "," else 0)
    if after < len(doc) and doc[after].lower_ in _ALTERNATIVES and place_at(after + 1):
        return True
    before = mention.start
    while before > 0 and doc[before - 1].lower_ in _ALTERNATIVE_LINKS:
        before -= 1
    if before > 0 and doc[before - 1].lower_ in _PREFERRING and after < len(doc) and doc[after].lower_ in {"à", "a"}:
        return place_at(after + 1)  # "je préfère Saintes à Roubaix", not "... Saintes à 8 h"
    return (
        before > 0
        and doc[before - 1].lower_ in _ALTERNATIVES
        and (doc[before - 1].lower_ == "soit" or place_before(before - 1))
    )
