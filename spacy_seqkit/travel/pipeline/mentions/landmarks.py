"""Places of a town that are no town: "la Porte Dorée", "la Tour Eiffel", "la Place Bellecour",
"la rue de Paris", "le Salon de l'agriculture".

A word that names a kind of landmark, capitalised, followed by a capitalised name ("Porte
Dorée", "Tour Eiffel"), is the name of a landmark. Its words may each spell a commune ("la
Porte" is read as La Porte du Der, "Dorée" as La Dorée, "la Tour" as La Tour): a mention within
a landmark's name is no end of the trip, unless the name itself is a known place (the stations
"Porte de Clichy", "Pont de l'Alma"; the communes "Château-Thierry" typed "Chateau Thierry",
"Pont Saint Esprit"). A landmark word alone ("je vais à la Tour") stays a place. A landmark
named after a town keeps the town as a possible end ("le Château de Versailles"), a street does
not ("la rue de Paris à Lille"), and is a street in lowercase too."""

from typing import List, Optional, Set, Tuple

from spacy.tokens import Doc, Span

from ...places.contract import Places
from ..lexicon import fold, lexicon
from ..words import is_word, words_of

# Word classes (lexicon/words.toml): "landmark_words" (kinds of landmark a name follows),
# "street_words" (streets, named after other towns: "rue de Paris" is in Lille; their town is no
# end, and they are streets in lowercase too; not "place", "chemin", "route" or "quai", which are
# also a seat, a way and a platform), "articles", "from_any" (what may join the landmark word and
# its name, "Porte de Clignancourt"; "de" also names a landmark after its town, "le Château de
# Versailles"), "joining" (what joins the words of a name: "Rendez-Vous").
LEX = lexicon()
# Most requests have none of these words, and are read no further.
_WORDS = LEX["landmark_words"] | LEX["street_words"] | LEX["event_words"]


def without_landmarks(doc: Doc, spans: List[Span], places: Places) -> Tuple[List[Span], Set[int]]:
    """The recognizer's `spans` without the words of landmarks that are no known place (the
    town of "le Château de Versailles" kept), those of a landmark that is a known place joined
    into one ("la Porte" + "Clichy": "la Porte de Clichy", with the last one's label); and the
    landmarks' tokens (no cue may name a place among them either)."""
    landmark, known = landmarks(doc, places)
    spans = [part for part in (_outside(s, landmark) for s in spans) if part is not None]
    for first, last in known:
        inside = [s for s in spans if s.start < last and s.end > first]
        if len(inside) > 1 or (inside and (inside[0].start > first or inside[0].end < last)):
            whole = Span(doc, min(first, inside[0].start), max(last, inside[-1].end), label=inside[-1].label)
            spans = sorted([s for s in spans if s not in inside] + [whole], key=lambda s: s.start)
    return spans, landmark


def _outside(span: Span, tokens: Set[int]) -> Optional[Span]:
    """The part of `span` after the `tokens` it starts with (a landmark's words before its
    town: "Château de Versailles" → "Versailles"), or None where they cover it or lie within."""
    start = span.start
    while start < span.end and start in tokens:
        start += 1
    if start == span.end or any(i in tokens for i in range(start, span.end)):
        return None
    return span if start == span.start else Span(span.doc, start, span.end, label=span.label)


def landmarks(doc: Doc, places: Places) -> Tuple[Set[int], List[Tuple[int, int]]]:
    """The tokens of `doc` that name a landmark that is no known place, its article included:
    "la Porte Dorée", "la Place Bellecour" (of a landmark named after its town, "le Château de
    Versailles", only the landmark's words: the town may be an end); and the (start, end) of
    the landmark names that are known places ("Porte de Clichy", a station). Words in capitals
    ("GRUGÉ L'HÔPITAL LUNDI") are not read as names."""
    found: Set[int] = set()
    known: List[Tuple[int, int]] = []
    n, words = len(doc), words_of(doc)
    links_words = LEX["articles"] | LEX["from_any"]
    for i, lower in enumerate(words.lower):
        if lower not in _WORDS:
            continue
        token = doc[i]
        end = i + 1  # past the words that link the landmark's word to its name
        while end < n and words[end] in links_words:
            end += 1
        if lower in LEX["event_words"]:  # "au Salon de l'agriculture": an event, not Salon-de-Provence
            shown = i + 1 < end < n and words.is_lower[end] and words.alpha[end]
            if shown and places.place(words.span(i, end + 1)) is None:  # not "salon de provence"
                found.update(range(i - (words[i - 1] in LEX["articles"]), i + 1))
            continue
        street = token.lower_ in LEX["street_words"]
        if not street and (token.lower_ not in LEX["landmark_words"] or not _title(token.text)):
            continue
        if token.i + 1 < n and fold(doc[token.i + 1].text) in LEX["joining"]:
            continue  # a compound name: "Église-Neuve-de-Vergt", "Pont-Audemer"
        links = set(words.lower[token.i + 1 : end])
        name_start = end
        while end < n and (
            (is_word(doc[end]) and _title(doc[end].text))
            or (fold(doc[end].text) in LEX["joining"] and end + 1 < n and _title(doc[end + 1].text))
        ):
            end += 1
        if end == name_start:
            continue
        start = token.i - 1 if token.i > 0 and words[token.i - 1] in LEX["articles"] else token.i
        # a place, with a town's words before it or not: "Dijon Porte Neuve", "Champ de
        # Mars-Tour Eiffel", "Porte de Clichy", "Stade de France Saint-Denis"
        firsts = [token.i] + [i for i in range(max(0, start - 4), start) if _title(doc[i].text)]
        place = next(
            (
                (first, stop)
                for stop in range(end, name_start, -1)
                for first in firsts
                if places.place(words.span(first, stop)) is not None
            ),
            None,
        )
        if place is not None:
            if place[0] == token.i:
                known.append(place)
            continue
        town = not street and bool(links & LEX["from_any"]) and places.place(doc[name_start:end].text) is not None
        found.update(range(start, name_start if town else end))
    return found, known


def _title(text: str) -> bool:
    """Capitalised, not in capitals: "Dorée", not "DORÉE"."""
    return text[:1].isupper() and not (len(text) > 1 and text.isupper())
