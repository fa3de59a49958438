"""Requests that call their trip off: no order, INVALID, whatever places they name.

- a verb of going or leaving, or of wanting to go, denied, then the trip's words or the end
  of its clause: "je ne veux pas aller à Lyon depuis Paris", "finalement je n'irai pas à
  Brest", "on ne part plus, ma fille est malade", "je n'ai pas du tout envie d'aller à Paris";
- a trip one cancels: "j'annule", "je voudrais annuler mon Paris-Lyon", "le déplacement est
  annulé" (not a train SNCF cancelled: "mon TGV a été annulé, ...");
- "finalement non" that brings no other place ("..., mais finalement non, je reste à Lille");
- a trip told, not asked for: a time gone by and a deed done ("hier je suis allé de Lille à
  Paris en train, c'était top", "l'an dernier j'ai pris le train de Strasbourg à Colmar", "mon
  train de Nancy à Metz hier avait deux heures de retard") with no word of a request
  (`told_of_the_past`).

Unless a request follows: a contrast ("je ne vais pas à Lyon mais à Grenoble"), a verb of
going, leaving or needing that is not denied ("je ne pars plus de Lyon, je pars de Grenoble",
"mon train a été annulé, je dois quand même aller à Dijon"), or an end ("..., départ de Dax").
A denial of the trip's circumstances keeps it: "je ne veux pas partir trop tard de Lyon", "je
ne veux pas aller à Lyon avant midi", "je ne veux pas m'y arrêter".
"""

from typing import List, Optional, Set

from spacy.tokens import Doc

from .written import words_of

GOING = frozenset(
    "vais va allons allez vont irai iras ira irons irez iront irais irait pars part partons partez partent "
    "partirai partira partirons partiront partirais partirait rentre rentrerai voyage voyagerai "
    "descends descendrai monte monterai".split()
)
TO_GO = frozenset("aller partir voyager rentrer descendre monter rejoindre venir rendre faire".split())
WANTING = frozenset("veux voulons voulez veut voudrais voudrait souhaite souhaitons compte comptons peux".split())
DENIALS = frozenset({"pas", "plus", "jamais", "point"})
# What may follow a trip denied: its places' words, or the end of its clause.
# Not "jusqu'à": "je ne vais pas jusqu'au bout de la ligne" says where one gets off.
TRIP_WORDS = frozenset("à a au aux de d' du des depuis pour vers en".split())
CLAUSE_ENDS = frozenset({",", ".", ";", ":", "!", "?", "…"})
# What a denial may deny in its clause, keeping the trip: "pas ... avant midi", "trop tard".
CIRCUMSTANCES = frozenset(
    "avant après apres tard tôt tot trop midi minuit matin soir heure heures h seul seule".split()
)
CONTRASTS = frozenset({"mais", "plutôt", "plutot", "revanche", "contre", "seulement", "sinon"})
NEEDING = frozenset(
    "dois doit devons devez faut besoin cherche voudrais aimerais souhaiterais départ depart arrivée arrivee".split()
)
CANCELLING = frozenset("annule annulons annuler annulé annulée annulés annulation".split())
TRAINS = frozenset("train trains tgv ter ouigo intercités intercites rer".split())
_NOT = frozenset({"ne", "n'"})
# What "finalement non" that calls the trip off is followed by: "..., je reste à Lille", "merci".
SAYING_SO = frozenset("je j' on nous ça ça c' merci tant désolé désolée".split())


def _denied_at(words: List[str], i: int) -> int:
    """Where a denied trip ends, its "ne" at `i` ("ne veux pas aller", "n'irai pas", "n'y vais
    plus", "n'ai pas envie d'aller"), or -1."""
    j = i + 1
    if j < len(words) and words[j] in {"y", "m'", "me"}:
        j += 1
    if j + 1 >= len(words) or words[j + 1] not in DENIALS:
        return -1
    verb, j = words[j], j + 2
    if j + 1 < len(words) and words[j] == "du" and words[j + 1] == "tout":
        j += 2
    if verb in {"ai", "a", "avons"}:  # "je n'ai pas envie d'aller"
        if words[j : j + 2] != ["envie", "d'"]:
            return -1
        verb, j = "veux", j + 2
    if verb in WANTING:
        if j < len(words) and words[j] in {"m'", "me", "y"}:
            j += 1
        if j >= len(words) or words[j] not in TO_GO:
            return -1
        j += 1
    elif verb not in GOING:
        return -1
    if j < len(words) and words[j] in {"m'", "me", "y"}:  # "faire" / "rendre" need their object
        return -1
    if j < len(words) and words[j] not in TRIP_WORDS and words[j] not in CLAUSE_ENDS:
        return -1
    clause = j
    while clause < len(words) and words[clause] not in CLAUSE_ENDS:
        if words[clause] in CIRCUMSTANCES or any(c.isdigit() for c in words[clause]):
            return -1  # "je ne veux pas aller à Lyon avant midi": the hour denied
        clause += 1
    return j


def _asking(words: List[str]) -> List[bool]:
    """For each position, whether a contrast, or a verb of going or needing not denied, stands
    there or after it (one pass from the end: a long request is read once)."""
    asking = [False] * (len(words) + 1)
    for k in range(len(words) - 1, -1, -1):
        word = words[k]
        verb = word in GOING or word in NEEDING or word in TO_GO
        asks = word in CONTRASTS or (verb and not _NOT & set(words[max(0, k - 3) : k]))
        asking[k] = asks or asking[k + 1]
    return asking


def _lowered(doc: Doc) -> List[str]:
    return [w.lower().replace("’", "'") for w in words_of(doc)]


def asks_for_no_trip(doc: Doc) -> bool:
    """The request calls its trip off, or tells one gone by and asks for none: its words read
    once for both (`called_off`, `told_of_the_past`)."""
    words = _lowered(doc)
    return _calls_off(words) or _tells_the_past(set(words))


def called_off(doc: Doc) -> bool:
    """The request calls its trip off (see the module docstring)."""
    return _calls_off(_lowered(doc))


def _calls_off(words: List[str]) -> bool:
    asking: Optional[List[bool]] = None
    for i, word in enumerate(words):
        if word in _NOT:
            end = _denied_at(words, i)
        elif word in CANCELLING and not TRAINS & set(words[max(0, i - 6) : i]):
            end = i + 1
        elif word == "finalement" and words[i + 1 : i + 2] in (["non"], ["pas"]):
            end = i + 2
            if end < len(words) and words[end] in CLAUSE_ENDS:
                end += 1
            if end < len(words) and words[end] not in SAYING_SO:  # "finalement non, (de) Lyon": a correction
                continue
        else:
            continue
        if end < 0:
            continue
        asking = asking or _asking(words)
        if not asking[min(end, len(words))]:
            return True
    return False


# A trip told, not asked for: a time gone by, a deed done, and no word of a request.
PAST_TIMES = frozenset("hier avant-hier dernier dernière derniere passé passée".split())
PAST_DEEDS = frozenset(
    "allé allée allés allées parti partie partis parties pris venu venue venus venues arrivé arrivée "
    "arrivés rentré rentrée rentrés voyagé était etait c'était c'etait avait fait été".split()
)
REQUESTING = (
    NEEDING
    | WANTING
    | GOING
    | frozenset(
        "? billet billets réserver reserver réservation reservation demain prochain prochaine aujourd'hui ajd "
        "dem svp stp possible peux pouvez pourriez jveux jvais jpars jdois aimerais voudrions".split()
    )
)


def told_of_the_past(doc: Doc) -> bool:
    """The request tells a trip gone by and asks for none (see the module docstring)."""
    return _tells_the_past(set(_lowered(doc)))


def _tells_the_past(words: Set[str]) -> bool:
    return bool(words & PAST_TIMES and words & PAST_DEEDS) and not words & REQUESTING
