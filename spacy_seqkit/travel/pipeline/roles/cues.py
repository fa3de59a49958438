"""The end the words around a place say it is: before it ("depuis Arras", "pour Lyon", "je pars
de Prades", "je vis à Angers"), or after it, the place as the subject ("Pontarlier est ma gare de
départ", "Dole sera ma destination", "Chambéry mon départ", "Menton, j'y vais")."""

from typing import Optional

from ..lexicon import lexicon
from ..words import Words, cue_before

LEX = lexicon()
ROLE_WORDS = {"départ": "DEPART", "depart": "DEPART", "arrivée": "ARRIVEE", "arrivee": "ARRIVEE"}
ROLE_WORDS.update(dict.fromkeys(("destination", "terminus"), "ARRIVEE"))


def left_from(w: Words, start: int) -> bool:
    """The words before `start` say the place is left: "depuis", "départ", "quitter", a leaving
    word's "de" ("je pars de", "au départ de"); not where one is or lives."""
    i = cue_before(w, start)
    if w[i] in LEX["from"]:
        j = i - 1
        while j > i - 3 and w[j] in LEX["taking_place"]:
            j -= 1  # "le départ se fera de Caen", "mon départ aura lieu de Compiègne"
        k = i - 1
        while k > i - 4 and (w[k] in LEX["still"] or w[k][:1] == "-"):
            k -= 1  # "part-il toujours de Paris Austerlitz ?"
        return w[i - 1] not in LEX["towards"] and (
            w[j] in LEX["leaving"] or w[i - 2] in LEX["leaving"] or w[k] in LEX["leaving"]
        )
    return w[i] in LEX["departure_cues"] or w[i] in LEX["departure_words"] or w[i] in LEX["quitting"]


def cued_role(w: Words, start: int) -> Optional[str]:
    """The end the words right before `start` say it is: DEPART after "depuis", "départ", a leaving
    word's "de", the train taken's "à" or "de" ("je prends le train à Évreux"), or the "à" of where
    one is or lives ("je suis à Brest"); ARRIVEE after "pour",
    "vers", "jusqu'à", "à destination de", a leaving or going word's "à" ("je pars à Auray", "aller
    à Rennes"), or where one lives when going home; else None."""
    i = cue_before(w, start)
    cue = w[i]
    if cue in LEX["from"] and w[i - 1] in LEX["towards"]:
        return "ARRIVEE"
    if left_from(w, start) or (cue in LEX["locative"] and chez_after(w, i, LEX["from"])):
        return "DEPART"
    if (cue in LEX["locative"] or cue in LEX["from"]) and w[i - 1] in LEX["trains"] and w[i - 3] in LEX["taking"]:
        return "DEPART"  # "je prends le train à Évreux", "je prendrai le TER de Rouen"
    on_a_trip = w[i - 2] == "en" and w[i - 1] in LEX["on_a_trip"]  # "je pars en vacances à Barsac"
    verb = w[i - 3 if on_a_trip else i - 1]
    if cue in LEX["locative"]:
        if (verb in LEX["leaving"] and verb not in LEX["departure_words"]) or verb in LEX["going_to"]:
            return "ARRIVEE"  # "je pars à Auray", "pr aller a rennes"
        if w[i - 1] in LEX["living"] and w[i - 2] in LEX["first_person"]:
            return "ARRIVEE" if going_home(w) else "DEPART"  # "je vis à Angers"
        if w[i - 1] in LEX["being"]:
            return "DEPART"  # "jsuis a brest"
    if cue in LEX["is_said"] and w[i - 1] in ROLE_WORDS:
        return ROLE_WORDS[w[i - 1]]  # "ma commune de départ est Flers", "la destination sera Gap"
    return "ARRIVEE" if cue in LEX["arrival_cues"] or cue in LEX["reaching"] else None


def chez_after(w: Words, i: int, before) -> bool:
    """ "chez" someone's right before the "à" at `i`, one of `before` right before "chez": "je rentre
    de chez mes parents à Dole" (`from`), "je suis chez ma mère à Romans" (a verb of staying)."""
    return any(w[j] == "chez" and w[j - 1] in before for j in range(i - 3, i))


def going_home(w: Words) -> bool:
    """The request goes home: "rentrer chez moi", "je retourne chez nous"."""
    return any(w[i] == "chez" and w[i + 1] in ("moi", "nous") and w[i - 1] in LEX["homeward"] for i in range(w.n))


def role_after(w: Words, end: int, start: Optional[int] = None) -> Optional[str]:
    """The end the place of tokens `start:end` is said to be by the words after it, or None;
    never for one of two places offered as a choice ("nous hésitons entre Sens et Dole comme
    destination")."""
    if start is not None and one_of_two(w, start):
        return None
    comma = w[end] == ","
    if comma and goes_there(w, end + 1):
        return "ARRIVEE"
    if w[end] in LEX["is_said"]:
        i = end + 1
    elif w[end] in LEX["my"] or (comma and w[end + 1] in LEX["my"]):
        i = end + 1 if comma else end
    else:
        return None
    while w[i] in LEX["role_links"] and i < end + 6:
        i += 1
    role = ROLE_WORDS.get(w[i])
    ends_phrase = i + 1 >= w.n or w[i + 1] in LEX["phrase_ends"] or w.punct[i + 1]
    if role and w[end] not in LEX["is_said"] and not ends_phrase:
        return None  # "Paris, mon départ est à 8 h" says nothing of Paris
    return role


def goes_there(w: Words, start: int) -> bool:
    """The clause from `start` says one goes to the place before it: "j'y vais", "c'est (bien) là
    que je vais", "voilà où je dois être"; not "j'y suis", "là où j'habite"."""
    for i in range(start, min(w.n, start + 8)):
        if w.punct[i]:
            return False
        if w[i] in LEX["there"]:
            verbs = [w[j] for j in range(i + 1, min(w.n, i + 4))]
            going = any(v in LEX["going_there"] or v in LEX["wanting"] for v in verbs)
            return going and not any(v in ("suis", "habite") for v in verbs)
    return False


def one_of_two(w: Words, start: int) -> bool:
    """The place at `start` is offered as one of two: after a word of hesitating or choosing, or
    as the second of "entre A et B"."""
    before = w.lower[max(0, start - 12) : start]
    if any(word.startswith(("hésit", "hesit")) or word in LEX["choosing"] for word in before):
        return True
    return before[-1:] == ["et"] and "entre" in before


def said_role(w: Words, start: int, end: int) -> Optional[str]:
    """The end the words say the place of `start:end` is: before it, else after it."""
    return cued_role(w, start) or role_after(w, end, start)
