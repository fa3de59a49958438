"""The end a place is said to be by the words after it, the place as the subject of the
sentence: "Pontarlier est ma gare de départ", "Dole sera ma destination", "Nantes comme
destination", "Chambéry mon départ" (`role_after`; read by `cued_ends`)."""

from typing import Optional

from spacy.tokens import Doc

# The place as the subject: "Pontarlier est ma gare de départ", "Dole sera ma destination",
# "Nantes comme destination"; or, with no verb, a possessive right after it: "Chambéry mon départ".
IS = frozenset({"est", "sera", "serait", "reste", "comme"})
MY = frozenset({"mon", "ma", "notre"})
ROLE_WORDS = {"départ": "DEPART", "depart": "DEPART", "arrivée": "ARRIVEE", "arrivee": "ARRIVEE"}
ROLE_WORDS.update(dict.fromkeys(("destination", "terminus"), "ARRIVEE"))
# What may stand between "est" and the role: "ma gare de", "mon point de", "la ville d'".
ROLE_LINKS = frozenset("de d' d’ du mon ma notre le la l' l’ point gare ville lieu station".split())


def _word(doc: Doc, i: int) -> str:
    return doc[i].lower_ if 0 <= i < len(doc) else ""


def role_after(doc: Doc, end: int) -> Optional[str]:
    """The end a place is said to be by the words after it ("Pontarlier est ma gare de départ",
    "Dole sera ma destination", "Nantes comme destination", "Chambéry mon départ"), or None."""
    if _word(doc, end) in IS:
        i = end + 1
    elif _word(doc, end) in MY:
        i = end
    else:
        return None
    while _word(doc, i) in ROLE_LINKS and i < end + 6:
        i += 1
    return ROLE_WORDS.get(_word(doc, i))
