"""A name several communes share, read as the one beside the trip's other end: "depuis etaples
jusqu'a boulogne" is Boulogne-sur-Mer (Pas-de-Calais, as Étaples), not Boulogne-Billancourt, the
biggest commune of the name, which the name alone stands for; a stop, as the one beside the place
before it on the way, or after it; and a name followed by its département ("Saint-Sulpice, dans le
Tarn", "Tarascon, celui d'Ariège", "Montaigu en Vendée") as that département's. The other places a name may stand for come from
`Places.homonyms(text)` where the places have it (`FrenchPlaces`: communes of 5,000 inhabitants or
more sharing the typed key); other places keep every end as it resolved."""

import functools
from typing import Dict, Optional, Sequence

from ...places.communes import read_departements
from ...places.names import normalise
from ...places.place import COMMUNE, Place
from ..lexicon import lexicon
from ..words import Words
from .state import End, Reading

LEX = lexicon()


def departement(place: Place) -> Optional[str]:
    """The département of a place, from its INSEE code ("62" for Étaples, "974" overseas)."""
    code = place.insee
    if not code:
        return None
    return code[:3] if code.startswith("97") else code[:2]


def nearer_homonym(place: Place, other: Place, places: object) -> Place:
    """`place`, or the commune of the same name in `other`'s département where `place` is not in
    it; a station named as such stays itself."""
    homonyms = getattr(places, "homonyms", None)
    target = departement(other)
    if homonyms is None or place.kind != COMMUNE or target is None or departement(place) == target:
        return place
    return next((p for p in homonyms(place.text) if departement(p) == target), place)


def settled(reading: Reading) -> Reading:
    """The first departure and arrival, each as the homonym beside the other (else beside a stop),
    and each stop as the homonym beside the place before it on the way, else the one after it ("de
    Dunkerque à Calais, puis Boulogne, puis Amiens": Boulogne-sur-Mer, beside Calais)."""
    if not reading.departures or not reading.arrivals:
        return reading
    departure, arrival = reading.departures[0], reading.arrivals[0]
    reading = _beside(reading, departure, [arrival, *reading.stops])
    # beside the departure as read, else the stops from the last ("de Lille à Boulogne en
    # s'arrêtant à Saint-Omer": Boulogne-sur-Mer, beside Saint-Omer)
    reading = _beside(reading, arrival, [reading.departures[0], *reading.stops[::-1]])
    for i in range(len(reading.stops)):
        way = [reading.departures[0], *reading.stops, reading.arrivals[0]]
        reading = _beside(reading, way[i + 1], [way[i], way[i + 2]])
    in_departement = getattr(reading.places, "in_departement", None)
    if in_departement is None:
        return reading
    for end in (reading.departures[0], *reading.stops, reading.arrivals[0]):
        code = departement_after(reading.words, end.end)
        place = in_departement(end.span.text, code) if code and departement(end.place) != code else None
        if place is not None:
            reading = reading.substituted(end, end.as_(end.role, place))
    return reading


@functools.lru_cache(maxsize=1)
def _departements() -> Dict[str, str]:
    """A département's name or code, normalised → its code: "tarn" → "81", "(81)" read as "81"."""
    return {
        **{normalise(name): code for code, name in read_departements().items()},
        **{c: c for c in read_departements()},
    }


def departement_after(w: Words, end: int) -> Optional[str]:
    """The code of the département named right after a place's name ending at `end`: ", dans le
    Tarn", "en Vendée", "(Ariège)", "(81)", ", celui d'Ariège"; else None."""
    i = end + (w[end] in (",", "("))
    if w[i] in LEX["in_a_departement"]:
        i += 1
        while w[i] in LEX["articles"] or w[i] in LEX["from"]:  # "celui de la Drôme"
            i += 1
    elif w[end] != "(":
        return None
    for n in (4, 3, 2, 1):
        code = _departements().get(normalise(w.span(i, min(i + n, w.n))))
        if code:
            return code
    return None


def _beside(reading: Reading, end: End, others: Sequence[End]) -> Reading:
    for other in others:
        place = nearer_homonym(end.place, other.place, reading.places)
        if place is not end.place:
            return reading.substituted(end, end.as_(end.role, place))
    return reading
