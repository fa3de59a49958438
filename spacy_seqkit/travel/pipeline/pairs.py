"""Chains and pairs of places the recognizer read with one role: the other end of a terse pair
right beside the one end read ("albi carmaux"), arrivals chained by "puis" ("aller à Lisieux
puis Rouen en partant de Caen"), whose last is the arrival, and of several ends read with one
role, the one its words name ("Signé : Marie Lourdes. Je pars de Dax pour aller à Bayonne")."""

from typing import List, Optional, Sequence, Tuple

from spacy.tokens import Span

from ..places.contract import Places
from ..places.names import normalise
from ..places.place import COMMUNE, STATION, Place
from .cued_ends import PAIR_JOINERS, Found, cued_role, said_role
from .ruled_out import corrects_before, is_ruled_out, where_one_is
from .written import is_word, words_of


def then_chained(mentions: Sequence[Span]) -> bool:
    """Each mention after the first follows "puis" or "ensuite" ("aller à Lisieux puis (à)
    Rouen"): a trip through them in that order."""
    doc = mentions[0].doc
    return all({"puis", "ensuite"} & {t.lower_ for t in doc[max(0, m.start - 3) : m.start]} for m in mentions[1:])


# Words that join a departure to the arrival after it ("Lille Flandres vers Dunkerque", "Nancy
# pour Metz", "Bordeaux à Paris"), read as joiners of a pair whichever end was read.
ORDERED_JOINERS = {"vers", "pour", "à"}


def adjacent_place(
    mention: Span, after: bool, read: Sequence[Tuple[str, Span, Place]], places: Places, max_tokens: int
) -> Optional[Found]:
    """A place `places` knows right after (or before) `mention`, of at most `max_tokens`
    tokens, with at most two joining tokens between ("-", "/", "->", "et", ",", "vers"), that
    no mention of `read` covers: the other end of "albi carmaux"."""
    doc = mention.doc
    taken = {i for _, m, _ in read for i in range(m.start, m.end)}
    step = 1 if after else -1
    i = mention.end if after else mention.start - 1
    for _ in range(2):
        if 0 <= i < len(doc) and (doc[i].lower_ in PAIR_JOINERS or doc[i].lower_ in ORDERED_JOINERS):
            i += step
    if not 0 <= i < len(doc) or i in taken or not is_word(doc[i]):  # "Bordeaux Saint-Jean - La Rochelle"
        return None
    for size in range(min(max_tokens, len(doc)), 0, -1):
        start, end = (i, i + size) if after else (i - size + 1, i + 1)
        if start < 0 or end > len(doc) or any(j in taken for j in range(start, end)):
            continue
        part = doc[start:end]
        if not (is_word(part[0]) and is_word(part[-1])):  # "Paris Saint-Lazare"
            continue
        place = places.place(part.text)
        if place is not None:
            beside = end if after else start - 1
            if 0 <= beside < len(doc) and doc[beside].lower_ == "ou":
                return None  # "lille flandres ou lille europe vers arras": one of two, no end
            if is_ruled_out(part, {m.start for _, m, _ in read} | {part.start}):
                return None  # "de Paris à Vienne en Autriche"
            return part, place
    return None


def pair_beside(
    end: Tuple[str, Span, Place], read: Sequence[Tuple[str, Span, Place]], places: Places, max_tokens: int
) -> Optional[Tuple[Tuple[str, Span, Place], Tuple[str, Span, Place]]]:
    """The two ends of a bare pair of which the recognizer read one, `end` (a departure or an
    arrival): the place right after a departure or before an arrival (`adjacent_place`: "albi
    carmaux" with only one read); else, for a departure no word before or after says is one,
    the place written as a name right before it that opens the request or a sentence, which
    departs ("Saint-Étienne Lille Europe samedi" with only Lille Europe read, as the departure).
    None where there is none; else (departure, arrival)."""
    departs = end[0] == "DEPART"
    other = adjacent_place(end[1], departs, read, places, max_tokens)
    if other is None and departs and said_role(end[1].doc, end[1]) is None:
        departs = False
        other = adjacent_place(end[1], departs, read, places, max_tokens)
        if other is not None and not _opens_a_pair(other[0], end[1]):
            return None
    if other is None:
        return None
    mention = end[1]
    if departs:
        return ("DEPART", mention, end[2]), ("ARRIVEE", *other)
    return ("DEPART", *other), ("ARRIVEE", mention, end[2])


def _opens_a_pair(first: Span, second: Span) -> bool:
    """`first` right before `second`, opening the request or a sentence, written as a name: the
    two are the request's pair ("Saint-Étienne Lille Europe samedi"), not "l'aéroport de Tours"."""
    doc = first.doc
    opens = first.start == 0 or doc[first.start - 1].is_punct
    return first.end == second.start and opens and not first[0].is_lower


def cued_first(found: List[Tuple[str, Span, Place]], role: str) -> List[Tuple[str, Span, Place]]:
    """Several ends read with one `role` ("DEPART", "ARRIVEE"): those where someone lives,
    works or is after the others (`ruled_out.where_one_is`); the last one a correction
    brings first (`ruled_out.corrects_before`); else, the first after no cue of it and exactly
    one other after its cue: that one first ("Signé : Marie Lourdes. Je pars de Dax pour aller à
    Bayonne": Bayonne, after "aller à", not the village of Marie). And a station before its own
    town: it says which of the town's ("vers Paris ... jusqu'à Paris Bercy")."""
    if len(found) < 2:
        return found
    found = _cue_first(found, role)
    homes = [f for f in found if where_one_is(f[1])]
    if homes and len(homes) < len(found):  # "je bosse à Levallois, ... voir mes parents à Lisieux"
        found = [f for f in found if f not in homes] + homes
    town = found[0][2].name if found[0][2].kind == COMMUNE else None
    station = next((f for f in found[1:] if f[2].kind == STATION and f[2].commune == town), None)
    return found if station is None else [station] + [f for f in found if f is not station]


def _cue_first(found: List[Tuple[str, Span, Place]], role: str) -> List[Tuple[str, Span, Place]]:
    corrected = [f for f in found[1:] if corrects_before(f[1])]
    if corrected:  # "je pars de Nantes pour Rennes, finalement plutôt au départ d'Angers"
        return corrected[-1:] + [f for f in found if f is not corrected[-1]]
    if cued_role(found[0][1].doc, found[0][1]) == role:
        return found
    cued = [f for f in found[1:] if cued_role(f[1].doc, f[1]) == role]
    if len(cued) != 1:
        return found
    return cued + [f for f in found if f is not cued[0]]


# Two towns run together are likelier than a slip only when each is this big: "saint ouen
# l'aumone lesse" is Saint-Ouen-l'Aumône Liesse mistyped, not a village of Moselle after it.
RUN_TOGETHER_POPULATION = 10_000


def run_together(span: Span, places: Places) -> bool:
    """`span` is no place name as a whole but the names of two or more towns of
    RUN_TOGETHER_POPULATION inhabitants run together, each typed in full, every word in one of them ("Paris Brest",
    "Metz Niort"): those towns, not a slip of a third place (Paris Est, Metz Nord) that the
    whole span would be read as. Needs the places' `population` (`FrenchPlaces` has it)."""
    population = getattr(places, "population", None)
    if population is None or len(span) < 2:
        return False
    runs = places.name_spans(words_of(span.doc, span.start, span.end))
    if len(runs) < 2:
        return False
    covered = {i for s, e in runs for i in range(s, e)}
    if not all(i in covered for i, t in enumerate(span) if t.is_alpha):
        return False
    for s, e in runs:  # each a town by its own name, not a short form ("Bussy": Bussy-Saint-Georges)
        name = places.resolve(span[s:e].text)
        if (
            name is None
            or normalise(name) != normalise(span[s:e].text)
            or (population(name) or 0) < RUN_TOGETHER_POPULATION
        ):
            return False
    return True
