"""The end a place is said to be by the words after it, the place as the subject of the
sentence: "Pontarlier est ma gare de départ", "Dole sera ma destination", "Nantes comme
destination", "Chambéry mon départ" (`role_after`; read by `cued_ends`)."""

from typing import Optional

from spacy.tokens import Doc

from .written import word_at

# The place as the subject: "Pontarlier est ma gare de départ", "Dole sera ma destination",
# "Nantes comme destination"; or, with no verb, a possessive right after it: "Chambéry mon départ".
IS = frozenset({"est", "sera", "serait", "reste", "comme"})
MY = frozenset({"mon", "ma", "notre"})
ROLE_WORDS = {"départ": "DEPART", "depart": "DEPART", "arrivée": "ARRIVEE", "arrivee": "ARRIVEE"}
ROLE_WORDS.update(dict.fromkeys(("destination", "terminus"), "ARRIVEE"))
# What may stand between "est" and the role: "ma gare de", "mon point de", "la ville d'".
ROLE_LINKS = frozenset("de d' d’ du mon ma notre le la l' l’ point gare ville lieu station".split())


# After "X mon départ", "X, ma destination": the role word ends the phrase ("Paris, mon départ
# est à 8 h" says nothing of Paris).
PHRASE_ENDS = frozenset({"", "et", "finale", "final", "finalement"})
# "Menton, j'y vais", "Moulins, c'est bien là que je vais", "Tours, voilà où je dois être": the
# place, then where one goes (not "j'y suis", "là où j'habite").
GOING_THERE = frozenset("vais va allons allez vont irai ira irons iront serai serons arrive arrivons".split())
WANTING = frozenset("dois doit devons voudrais veux voulons aimerais compte".split())
THERE = frozenset({"y", "là", "où"})
CHOOSING = frozenset("choix choisir choisis balance hésite hesite".split())


def role_after(doc: Doc, end: int, start: Optional[int] = None) -> Optional[str]:
    """The end the place of tokens `start:end` is said to be by the words after it ("Pontarlier
    est ma gare de départ", "Dole sera ma destination", "Nantes comme destination", "Chambéry
    mon départ", "Chamonix, ma destination", "Menton, j'y vais"), or None; never for one of two
    places offered as a choice ("nous hésitons entre Sens et Dole comme destination")."""
    if start is not None and _one_of_two(doc, start):
        return None
    comma = word_at(doc, end) == ","
    if comma and _goes_there(doc, end + 1):
        return "ARRIVEE"
    if word_at(doc, end) in IS:
        i = end + 1
    elif word_at(doc, end) in MY or (comma and word_at(doc, end + 1) in MY):
        i = end + 1 if comma else end
    else:
        return None
    while word_at(doc, i) in ROLE_LINKS and i < end + 6:
        i += 1
    role = ROLE_WORDS.get(word_at(doc, i))
    if (
        role
        and word_at(doc, end) not in IS
        and not (word_at(doc, i + 1) in PHRASE_ENDS or (i + 1 < len(doc) and doc[i + 1].is_punct))
    ):
        return None
    return role


def _goes_there(doc: Doc, start: int) -> bool:
    """The clause from `start` says one goes to the place before it: "j'y vais", "c'est (bien) là
    que je vais", "voilà où je dois être"."""
    for i in range(start, min(len(doc), start + 8)):
        if doc[i].is_punct:
            return False
        if word_at(doc, i) in THERE:
            verbs = [word_at(doc, j) for j in range(i + 1, min(len(doc), i + 4))]
            return any(v in GOING_THERE or v in WANTING for v in verbs) and not any(
                v in {"suis", "habite"} for v in verbs
            )
    return False


def _one_of_two(doc: Doc, start: int) -> bool:
    """The place at `start` is offered as one of two: after a word of hesitating or choosing
    ("hésitons", "hesite", "choix"), or as the second of "entre A et B"."""
    before = [word_at(doc, i) for i in range(max(0, start - 12), start)]
    if any(w.startswith(("hésit", "hesit")) or w in CHOOSING for w in before):
        return True
    return before[-1:] == ["et"] and "entre" in before
