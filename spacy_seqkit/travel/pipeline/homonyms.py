"""A name several communes share, read as the one beside the trip's other end: "depuis etaples
jusqu'a boulogne" is Boulogne-sur-Mer (Pas-de-Calais, as Étaples), not Boulogne-Billancourt,
the biggest commune of the name, which the name alone stands for; a stop, as the one beside the
place before it on the way, or after it.

The other places a name may stand for come from `Places.homonyms(text)` where the gazetteer
has it (`FrenchPlaces`: current communes of 5,000 inhabitants or more sharing the typed key);
a gazetteer without it keeps every place as it resolved. And a name after "au", "aux", "du",
"des" is first read with the article they hold ("aux Ormes": Les Ormes, `with_contracted_article`)."""

from typing import List, Optional, Tuple

from spacy.tokens import Span

from ..places.contract import Places
from ..places.names import normalise
from ..places.place import COMMUNE, Place

End = Tuple[str, Span, Place]


def departement(place: Place) -> Optional[str]:
    """The département of a place, from its INSEE code ("62" for Étaples, "974" overseas)."""
    code = place.insee
    if not code:
        return None
    return code[:3] if code.startswith("97") else code[:2]


def nearer_homonym(place: Place, other: Place, places: object) -> Place:
    """`place`, or the commune of the same name in `other`'s département where `place`
    is not in it; a station named as such stays itself."""
    homonyms = getattr(places, "homonyms", None)
    target = departement(other)
    if homonyms is None or place.kind != COMMUNE or target is None or departement(place) == target:
        return place
    return next((p for p in homonyms(place.text) if departement(p) == target), place)


def settle_homonyms(
    departures: List[End], arrivals: List[End], read: List[End], places: object, steps: Optional[List[End]] = None
) -> None:
    """In place: the first departure and arrival, each as the homonym beside the other (see
    `nearer_homonym`), also in `read`, the ends and stops in reading order; and each of `steps`
    as the homonym beside the place before it on the way, else the one after it ("de Dunkerque
    à Calais, puis Boulogne, puis Amiens": Boulogne-sur-Mer, beside Calais)."""
    if not departures or not arrivals:
        return
    departure, arrival = departures[0], arrivals[0]
    departures[0] = _beside(departure, [arrival], read, places)
    arrivals[0] = _beside(arrival, [departure], read, places)
    way = [departures[0], *(steps or []), arrivals[0]]
    for i in range(1, len(way) - 1):
        way[i] = _beside(way[i], [way[i - 1], way[i + 1]], read, places)
    if steps:
        steps[:] = way[1:-1]


def _beside(end: End, others: List[End], read: List[End], places: object) -> End:
    """`end` as the homonym beside the first of `others` that has one (`nearer_homonym`),
    replaced in `read` too; `end` itself where none has."""
    for other in others:
        place = nearer_homonym(end[2], other[2], places)
        if place is not end[2]:
            settled = (end[0], end[1], place)
            read[:] = [settled if p is end else p for p in read]
            return settled
    return end


# "aux Ormes", "du Havre": a preposition that holds the name's article (à les, de le).
_CONTRACTED = {"au": "Le", "aux": "Les", "du": "Le", "des": "Les"}


def with_contracted_article(span: Span, places: Places) -> Optional[Place]:
    """The place named by the span with the article its preposition holds, where that is a
    place's own name: "aux Ormes" is Les Ormes (Vienne), not the commune Ormes (Loiret), "des
    Saules" Les Saules; None where there is no such place ("au Mans" is read as ever)."""
    if span.start == 0:
        return None
    article = _CONTRACTED.get(span.doc[span.start - 1].lower_)
    if article is None:
        return None
    named = f"{article} {span.text}"
    place = places.place(named)
    return place if place is not None and normalise(place.name) == normalise(named) else None
