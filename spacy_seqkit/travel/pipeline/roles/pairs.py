"""Pairs and chains of places: the other end right beside the one end read ("albi carmaux"), a
request that is only two places ("bordeau toulouse") or two places in one dashed token
("Paris-Saint-Malo"), arrivals chained by "puis", and of several ends read with one role, the one
its words name first."""

import re
from typing import Callable, Optional, Sequence, Tuple

from spacy.tokens import Span

from ...places.contract import Places
from ...places.place import COMMUNE, STATION
from ..base import PLACE
from ..lexicon import lexicon
from ..mentions.names import named_person
from ..words import Words, is_word
from .cues import cued_role, said_role
from .state import End, Ends, Reading

LEX = lexicon()
# A clock time: "07H02", "7h", "18:45".
CLOCK = re.compile(r"\d{1,2}(?:[hH:]\d{2}|[hH])")


def after_a_cue(w: Words, end: End, cues) -> bool:
    """One of `cues` in the seven words before `end`, in its clause."""
    for i in range(end.start - 1, max(-1, end.start - 8), -1):
        if w[i] in LEX["clause_ends"]:
            return False
        if w[i] in cues:
            return True
    return False


def listed_way(r: Reading) -> Optional[Ends]:
    """The arrivals and stops read in text order, where they list an itinerary ("cahors mardi, brive
    mercredi, limoges jeudi. je pars de toulouse"), else None: not where a stop follows a stop's word
    or verb ("nous changeons à Nîmes"), an arrival its own cue says ("arrivée Nice, avec deux arrêts")
    unless the last follows a word of finishing, the last is a stop named again ("... à Nîmes pour
    changer de quai") or a place has no station ("Quimper, Rennes, Paris : trois villes")."""
    way = tuple(sorted(r.arrivals + r.stops, key=lambda e: e.start))
    said = any(cued_role(r.words, a.start) == "ARRIVEE" for a in r.arrivals)
    halts = any(after_a_cue(r.words, s, LEX["stopping"]) for s in r.stops)
    again = any(e.name == way[-1].name for e in way[:-1])
    served = all(e.place.stations for e in way)
    finishing = after_a_cue(r.words, way[-1], LEX["finishing"])
    return way if served and not halts and not again and (not said or finishing) else None


def then_chained(ends: Ends) -> bool:
    """Each end after the first follows "puis" or "ensuite" ("aller à Lisieux puis (à) Rouen")."""
    w = _words(ends[0])
    return all(w.any_in(e.start - 3, e.start, LEX["then"]) for e in ends[1:])


def _words(end: End) -> Words:
    from ..words import words_of

    return words_of(end.span.doc)


def adjacent_place(reading: Reading, end: End, after: bool, max_tokens: int) -> Optional[End]:
    """A known place right after (or before) `end`, of at most `max_tokens` tokens, with at most two
    joining tokens between ("-", "/", "->", "et", ",", "vers") and, after a departure, the clock
    time beside it ("COLMAR 07H02 - SELESTAT 07H15"), that no end read covers: the other end of
    "albi carmaux"; None where "ou" follows it, or it is ruled out."""
    doc, w, places = reading.doc, reading.words, reading.places
    taken = {i for e in reading.read for i in range(e.start, e.end)}
    joiners = LEX["pair_joiners"] | LEX["ordered_joiners"]
    step = 1 if after else -1
    i = end.end if after else end.start - 1
    if after and i < len(doc) and CLOCK.fullmatch(w.text[i]) and w[i + 1] in joiners:
        i += 1
    for _ in range(2):
        if 0 <= i < len(doc) and w[i] in joiners:
            i += step
    if not 0 <= i < len(doc) or i in taken or not is_word(doc[i]):  # "Bordeaux Saint-Jean - La Rochelle"
        return None
    for size in range(min(max_tokens, len(doc)), 0, -1):
        start, stop = (i, i + size) if after else (i - size + 1, i + 1)
        if start < 0 or stop > len(doc) or any(j in taken for j in range(start, stop)):
            continue
        part = doc[start:stop]
        if not (is_word(part[0]) and is_word(part[-1])):  # "Paris Saint-Lazare"
            continue
        if w[start] in LEX["trains"] or (w[start] in LEX["articles"] and w[start + 1] in LEX["trains"]):
            continue  # "le TER Saint-Gervais" is no Le Pré-Saint-Gervais mistyped
        known = next((e for e in reading.mentions if e.start == start and e.end == stop), None)
        place = known.place if known is not None else places.place(w.span(start, stop))
        if place is not None:
            if w[stop if after else start - 1] == "ou":
                return None  # "lille flandres ou lille europe vers arras": one of two, no end
            if (known is not None and known.ruled_out) or named_person(w, start):
                return None  # "de Paris à Vienne en Autriche", "Mme Laval"
            return known or End(Span(doc, start, stop, label=PLACE), place, PLACE)
    return None


def pair_beside(reading: Reading, end: End, max_tokens: int) -> Optional[Tuple[End, End]]:
    """The (departure, arrival) of a bare pair of which the recognizer read one, `end`: the place
    right after a departure or before an arrival; else, for a departure no word says is one, the
    place written as a name right before it that opens the request or a sentence, which departs
    ("Saint-Étienne Lille Europe samedi" with only Lille Europe read). None where there is none."""
    departs = end.role == "DEPART"
    other = adjacent_place(reading, end, departs, max_tokens)
    if other is None and departs and said_role(reading.words, end.start, end.end) is None:
        departs = False
        other = adjacent_place(reading, end, departs, max_tokens)
        if other is not None and not _opens_a_pair(reading.words, other, end):
            return None
    if other is None:
        return None
    if departs:
        return end.as_("DEPART"), other.as_("ARRIVEE")
    return other.as_("DEPART"), end.as_("ARRIVEE")


def _opens_a_pair(w: Words, first: End, second: End) -> bool:
    """`first` right before `second`, opening the request or a sentence, written as a name."""
    opens = first.start == 0 or w.punct[first.start - 1]
    return first.end == second.start and opens and not w.is_lower[first.start]


def cued_first(found: Ends, role: str) -> Ends:
    """Several ends read with one `role`: the last one a correction brings first; else the first
    after no cue of it and exactly one other after its cue, that one first ("Signé : Marie
    Lourdes. Je pars de Dax pour aller à Bayonne"); those where someone lives, works or is after
    the others; and a station before its own town ("vers Paris ... jusqu'à Paris Bercy")."""
    if len(found) < 2:
        return found
    found = _cue_first(found, role)
    homes = tuple(f for f in found if f.home)
    if homes and len(homes) < len(found):  # "je bosse à Levallois, ... voir mes parents à Lisieux"
        found = tuple(f for f in found if not f.home) + homes
    town = found[0].name if found[0].place.kind == COMMUNE else None
    station = next((f for f in found[1:] if f.place.kind == STATION and f.place.commune == town), None)
    return found if station is None else _first(found, station)


def linked_first(r: Reading, departures: Ends, arrivals: Ends) -> Tuple[Ends, Ends]:
    """Of several arrivals, the one said right after the first departure ("un spécialiste à Bron ;
    le train de Villefranche à Lyon Part-Dieu"); with no stop, of several departures, the one said
    right before the first arrival ("UN BILLET ROANNE SAINT-ETIENNE. JE VIENS DE CHARLIEU")."""
    w = r.words
    if departures and len(arrivals) > 1 and not _linked(w, departures[0], arrivals[0]):
        arrivals = _linked_one_first(r, arrivals, lambda a: _linked(w, departures[0], a))
    if arrivals and len(departures) > 1 and not r.stops and not _linked(w, departures[0], arrivals[0]):
        departures = _linked_one_first(r, departures, lambda d: _linked(w, d, arrivals[0]))
    return departures, arrivals


def _linked_one_first(r: Reading, ends: Ends, is_linked: Callable[[End], bool]) -> Ends:
    """`ends` with the one end after the first that `is_linked` first, where it `_may_lead`."""
    linked = [e for e in ends[1:] if is_linked(e)]
    return _first(ends, linked[0]) if len(linked) == 1 and _may_lead(r, linked[0], ends[0]) else ends


def _first(found: Ends, end: End) -> Ends:
    """`found` with `end` first, the others in their order."""
    return (end,) + tuple(f for f in found if f is not end)


# What may stand between a departure and its arrival said right after it (`_linked`).
_LINKS = (LEX["pair_joiners"] - {",", "et"}) | LEX["ordered_joiners"] | LEX["arrival_cues"] | LEX["at"]


def _linked(w: Words, departure: End, arrival: End) -> bool:
    """`arrival` right after `departure`, at most two linking words between: "de Dijon à
    Lons-le-Saunier", "Roanne Saint-Étienne", "de Paris jusqu'à Vernon"."""
    gap = range(departure.end, arrival.start)
    return 0 <= arrival.start - departure.end <= 2 and all(w[i] in _LINKS for i in gap)


def _may_lead(r: Reading, linked: End, first: End) -> bool:
    """The end `linked` (to the other role's first) may go before `first`, of the same role: not the
    same town ("Marne-la-Vallée" and its Chessy station), not a chain ("Grenoble -> Salon ->
    Condom"), not an everyday word in lowercase ("de garde à Châlons"); never before the end a
    correction brings ("de Vannes pour Lorient, finalement plutôt au départ d'Auray")."""
    w, ordinary = r.words, getattr(r.places, "ordinary_words", ())
    same_town = {linked.name, linked.place.commune} & {first.name, first.place.commune} - {None}
    chained = _linked(w, first, linked) or _linked(w, linked, first)
    word = all(w.is_lower[i] and w[i] in ordinary for i in range(linked.start, linked.end))
    return not (same_town or chained or word or first.brings_correction)


def _cue_first(found: Ends, role: str) -> Ends:
    corrected = [f for f in found[1:] if f.brings_correction]
    if corrected:  # "je pars de Nantes pour Rennes, finalement plutôt au départ d'Angers"
        return _first(found, corrected[-1])
    w = _words(found[0])
    if cued_role(w, found[0].start) == role:
        return found
    cued = [f for f in found[1:] if cued_role(w, f.start) == role]
    return found if len(cued) != 1 else _first(found, cued[0])


def bare_pair(w: Words, places: Places) -> Optional[Tuple[Tuple[int, Optional[object]], ...]]:
    """The two places of a request that is only them ("bordeau toulouse", "grenobel lyon demain",
    "lile - arras 8h"): besides them, only a date, an hour, a ticket's words and politeness, and
    only joiners between them; each a single word `places` reads (a slip included), the two
    different and no one place together ("Albigny - Neuville"). ((position, place), ...) or None."""
    around, joiners = LEX["around_a_pair"], LEX["pair_joiners"]
    kept = [i for i in range(w.n) if not (w.punct[i] or w.num[i] or w[i] in around or w[i] in joiners)]
    kept = [i for i in kept if not any(c.isdigit() for c in w.text[i])]  # "8h30", "14/05"
    if len(kept) != 2 or not all(w.alpha[i] for i in kept):
        return None
    first, second = kept
    if any(not (w.punct[i] or w[i] in joiners) for i in range(first + 1, second)):
        return None
    if places.place(w.doc[first : second + 1].text) is not None:
        return None  # one place of two words: "Albigny - Neuville", a station
    found = [places.place(w.text[i]) for i in kept]
    if found[0] is None or found[1] is None or found[0].name == found[1].name:
        return None
    return (first, found[0]), (second, found[1])


def joined_pair(w: Words, places: Places, covered: set) -> Optional[Tuple[Tuple[int, object], Tuple[int, object]]]:
    """Two places joined by a dash in one token that no place names as a whole: spaCy's French
    tokenizer keeps "Paris-Saint-Malo" as one word. The one way to cut it into two exact names of
    places, if there is exactly one. ((position, place), (position, place)) or None."""
    for i, text in enumerate(w.text):
        if "-" not in text or not text.replace("-", "").isalpha() or i in covered:
            continue
        with_article = w.doc[max(0, i - 1) : i + 1].text  # "La Croix-Saint-Ouen": Lacroix-Saint-Ouen
        if places.place(text) is not None or places.place(with_article) is not None:
            continue
        pieces, cuts = text.split("-"), []
        for k in range(1, len(pieces)):
            left, right = "-".join(pieces[:k]), "-".join(pieces[k:])
            if places.name_spans([left]) == [(0, 1)] and places.name_spans([right]) == [(0, 1)]:
                first, second = places.place(left), places.place(right)
                if first is not None and second is not None:
                    cuts.append((first, second))
        if len(cuts) == 1:
            return (i, cuts[0][0]), (i, cuts[0][1])
    return None


def ends_of(reading: Reading, pair: Sequence[Tuple[int, object]]) -> Tuple[End, End]:
    """The (departure, arrival) ends of a pair of (position, place)."""
    doc = reading.doc
    made = [End(Span(doc, i, i + 1, label=PLACE), place, PLACE) for i, place in pair]  # type: ignore[arg-type]
    return made[0].as_("DEPART"), made[1].as_("ARRIVEE")
