"""A request that is nothing but two places, one maybe mistyped ("bordeau toulouse", "grenobel
lyon demain", "lile - arras 8h"), when the recognizer read neither: the first departs, the
second arrives. Besides the two places, only a date, an hour, a ticket's words and politeness
("demain", "8h", "un aller simple", "svp") may stand in the request, and only joiners ("-",
"->", "/") between them; each place a single word that `Places.place` reads (a slip included:
never a French word), the two different and no one place together ("Albigny - Neuville").
And two places joined by a dash in one token ("Paris-Saint-Malo": `joined_pair`)."""

from typing import Collection, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..places.contract import Places
from ..places.place import Place

Found = Tuple[Span, Place]

# What a terse request holds besides its two places.
AROUND = frozenset(
    "demain dmain dem ajd auj aujourd'hui aujourdhui ce cet cette soir matin midi aprem après-midi apres-midi "
    "nuit semaine prochain prochaine lundi mardi mercredi jeudi vendredi samedi dimanche h heure heures "
    "svp stp merci pls please billet billets train trains tgv ter un une aller simple retour aller-retour "
    "a/r 1 2".split()
)


def bare_pair(doc: Doc, places: Places, joiners: Collection[str]) -> Optional[Tuple[Found, Found]]:
    """The two places of a request that is only them (see the module docstring), `joiners`
    the words that may join them, or None."""
    words = [t for t in doc if not (t.is_punct or t.like_num or t.lower_ in AROUND or t.lower_ in joiners)]
    words = [t for t in words if not any(c.isdigit() for c in t.text)]  # "8h30", "14/05"
    if len(words) != 2 or not all(t.is_alpha for t in words):
        return None
    first, second = words
    if any(not (t.is_punct or t.lower_ in joiners) for t in doc[first.i + 1 : second.i]):
        return None
    if places.place(doc[first.i : second.i + 1].text) is not None:
        return None  # one place of two words: "Albigny - Neuville", a station
    found = [places.place(t.text) for t in words]
    if found[0] is None or found[1] is None or found[0].name == found[1].name:
        return None
    return (doc[first.i : first.i + 1], found[0]), (doc[second.i : second.i + 1], found[1])


def joined_pair(
    doc: Doc, places: Places, taken: Sequence[Span], runs: List[Tuple[int, int]]
) -> Optional[Tuple[Found, Found]]:
    """Two places joined by a dash in one token, which no place names as a whole: spaCy's
    French tokenizer keeps "Paris-Saint-Malo", "Lyon-Saint-Étienne" as one word (its "Saint-"
    compounds), so no mention can hold one of them. The one way to cut it into two exact
    names of places, if there is exactly one."""
    candidates = [t for t in doc if "-" in t.text and t.text.replace("-", "").isalpha()]
    if not candidates:
        return None
    covered = {i for span in taken for i in range(span.start, span.end)}
    # in a place's name as a whole ("Aix-les-Bains", "Paris-Saint-Lazare", "La Croix-Saint-Ouen")
    covered.update(i for s, e in runs for i in range(s, e))
    for token in candidates:
        with_article = doc[max(0, token.i - 1) : token.i + 1].text  # "La Croix-Saint-Ouen": Lacroix-Saint-Ouen
        if token.i in covered or places.place(token.text) is not None or places.place(with_article) is not None:
            continue
        pieces = token.text.split("-")
        cuts = []
        for k in range(1, len(pieces)):
            left, right = "-".join(pieces[:k]), "-".join(pieces[k:])
            if places.name_spans([left]) == [(0, 1)] and places.name_spans([right]) == [(0, 1)]:
                first, second = places.place(left), places.place(right)
                if first is not None and second is not None:
                    cuts.append((first, second))
        if len(cuts) == 1:
            span = doc[token.i : token.i + 1]
            return (span, cuts[0][0]), (span, cuts[0][1])
    return None
