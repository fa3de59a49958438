"""How a recognized span is read as places: two towns run together ("Paris Brest"), and a name
after "au", "aux", "du", "des" with the article they hold ("aux Ormes": Les Ormes), or after
its article, by a town's short name ("au Puy": Le Puy-en-Velay); a name's silent final "s" left
out ("valencienne"); and a name that is a person's ("Mme Laval")."""

from typing import Optional

from spacy.tokens import Span

from ...places.contract import Places
from ...places.names import normalise
from ...places.place import Place
from ..lexicon import lexicon
from ..words import Words

# The longest run of tokens read as one place name inside a longer mention
# ("Saint Jean Pied de Port", "Aéroport Charles de Gaulle 2 TGV").
MAX_NAME_TOKENS = 8
# Two towns run together are likelier than a slip only when each is this big: "saint ouen
# l'aumone lesse" is Saint-Ouen-l'Aumône Liesse mistyped, not a village of Moselle after it.
RUN_TOGETHER_POPULATION = 10_000
# "aux Ormes", "du Havre": a preposition that holds the name's article (à les, de le), or the
# article itself left out of the mention ("Le Puy - Saint-Étienne" with "Puy" marked).
_ARTICLES = {"au": "Le", "aux": "Les", "du": "Le", "des": "Les", "le": "Le", "la": "La", "les": "Les"}
# A town's usual short name ("Le Puy": Le Puy-en-Velay) wins over the commune of exactly that
# name only where that commune has fewer inhabitants than this.
SHORT_NAME_VILLAGE = 1_000


def run_together(span: Span, places: Places) -> bool:
    """`span` is the names of two or more towns of RUN_TOGETHER_POPULATION inhabitants run
    together, each typed in full, every word in one of them ("Paris Brest", "Metz Niort"):
    those towns, not a slip of a third place (Paris Est) the whole span would be read as. Needs
    the places' `population` (`FrenchPlaces` has it)."""
    population = getattr(places, "population", None)
    if population is None or len(span) < 2:
        return False
    runs = places.name_spans([t.text for t in span])
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


def with_contracted_article(span: Span, places: Places) -> Optional[Place]:
    """The place named by the span with the article before it, or held by its preposition, where
    that is a place's own name: "aux Ormes" is Les Ormes (Vienne), not Ormes (Loiret); or the usual
    short name of a town where the place of exactly that name is a village: "au Puy", "Le Puy -
    Saint-Étienne" (the recognizer leaving "Le" out) are Le Puy-en-Velay, not Le Puy (Doubs, 393
    inhabitants). None where there is no such place ("au Mans" is read as ever) or the place of that
    name is a town ("au Blanc" is no Le Blanc-Mesnil)."""
    if span.start == 0:
        return None
    article = _ARTICLES.get(span.doc[span.start - 1].lower_)
    if article is None:
        return None
    named = f"{article} {span.text}"
    place = places.place(named)
    if place is None:
        return None
    name, key = normalise(place.name), normalise(named)
    if name == key:
        return place
    population = getattr(places, "population", None)
    if population is None or not name.startswith(key + " "):
        return None
    return place if (population(named) or 0) < SHORT_NAME_VILLAGE else None


def silent_s(places: Places, words: Words, i: int) -> Optional[Place]:
    """The station-served place word `i` names once its silent final "s" is written, where it
    ends a name ("de valencienne a maubeuge": the lace, but Valenciennes here; not "a gorge de
    ...")."""
    name = words.text[i] + "s"
    if words[i + 1] in lexicon()["name_particles"] and i + 2 < words.n and words.is_word(i + 2):
        return None
    place = places.place(name)
    return place if place is not None and place.stations and normalise(place.name) == normalise(name) else None


def named_person(words: Words, start: int) -> bool:
    """The mention at `start` is a person's name: after a title ("Mme Laval", "M. Tours") or a
    relative after a possessive ("ma sœur Florence", "mon pote Maxime")."""
    lex = lexicon()
    i = start - 1 - (words.text[start - 1] == "." if start > 0 else 0)
    return i >= 0 and (
        words[i] in lex["titles"] or (words[i] in lex["relatives"] and words[i - 1] in lex["possessives"])
    )
