"""A request that is nothing but two places, one maybe mistyped ("bordeau toulouse", "grenobel
lyon demain", "lile - arras 8h"), when the recognizer read neither: the first departs, the
second arrives. Besides the two places, only a date, an hour, a ticket's words and politeness
("demain", "8h", "un aller simple", "svp") may stand in the request, and only joiners ("-",
"->", "/") between them; each place a single word that `Places.place` reads (a slip included:
never a French word), the two different and no one place together ("Albigny - Neuville")."""

from typing import Collection, Optional, Tuple

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
