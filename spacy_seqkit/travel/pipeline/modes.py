"""Does a request travel by another means than the train? Such an order is INVALID
(`seqkit_trip`'s `other_modes = "invalid"`) unless it also asks for a train.

Read off the lowercase words, each rule shaped by what the word also means in French:

- a train word ("train", "TER", "TGV", "Intercités", "Ouigo", "RER", "Transilien", "SNCF")
  keeps the request, whatever else it says ("en voiture jusqu'à la gare, puis le TER");
  "en train de" is the progressive ("je suis en train de chercher un vol"), not a train; nor is
  a train compared or refused ("plus vite que le train", "refuse que je prenne le train", "le
  train est trop long");
- words that only name another means count anywhere: "avion", "bus", "autocar", "bateau",
  "ferry", "vélo", "covoiturage", "taxi", "moto", "blablacar"..., and driving ("je conduis",
  "j'ai roulé");
- "car" is also "because" ("je vais à Lyon car j'ai rendez-vous"): a coach only right
  after a determiner or a preposition ("le car", "en car", "billet de car"; "l'autocar" is a
  word above);
- "vol" is also "theft", and "vole" / "volent" the verb: a flight only as "vols", after
  a determiner ("un vol", "le vol", "mon vol") or as the request's first word ("vol Paris
  Ajaccio", as flight searches are typed);
- "voiture" is also a train's coach ("voiture 12", "en voiture 5"): a car unless a
  number follows;
- "pied" is a flight of stairs or a foot: walking only as "à pied"; "stop" is a sign or a
  stop: hitch-hiking only as "en stop", "du stop";
- a bike, a scooter or a kick scooter also travels as luggage ("avec mon vélo", "déposer
  les vélos"): the means only as "à vélo", "en vélo", "par vélo";
- a plane, a flight or a ferry is often the journey's other leg ("pour mon avion", "j'ai un
  vol à 14h", "je débarque du ferry"): the means unless a possessive or "avoir" comes before
  it, or it is left ("du ferry", "de l'avion");
- a word inside a place mention is no means (the caller blanks it): Avion and Bus are
  communes of the Pas-de-Calais;
- a means ruled out is no means: "sans voiture", "pas en avion", "plutôt qu'en car",
  "au lieu du bus", "je laisse la voiture" (a negation, "laisser", or "plutôt que" / "au
  lieu" within the three words before).

A request that asks for a train and also travels by another means has legs by each
("je vais en voiture de Lyon à Chambéry, puis de Chambéry je prends le train pour Modane"):
the places of a clause by the other means alone are that leg's (`other_mode_clauses`), no
ends, where the rest of the request names two places (`seqkit_trip` reads the train's leg).
One that names no train is read the same way where each clause by another means is the
return or what follows ("de Bordeaux à Toulouse lundi ; je reviendrai en voiture", "Morlaix →
Brest, ensuite je prends le bateau pour Ouessant"); else it is INVALID.
"""

import re
from typing import Collection, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span

from .written import POSSESSIVES, doc_text

OTHER_MODES_SETTINGS = ("invalid", "keep")

TRAIN_WORDS = frozenset(
    "train trains ter tgv inoui inouï intercités intercites intercité intercite ouigo rer transilien "
    "sncf tram-train tramtrain ferroviaire lyria thalys eurostar".split()
)
OTHER_MODE_WORDS = frozenset(
    "avion avions autocar autocars bus bateau bateaux ferry ferries vélo vélos velo velos "
    "covoiturage covoit blablacar flixbus taxi taxis vtc uber moto scooter trottinette "
    "hélicoptère helicoptere hélico helico auto-stop autostop camion vols camping-car camping-cars "
    "minibus conduis conduirai conduisons rouler roulerai roulé voler volerai volerons".split()
)
# Carried as luggage unless ridden: "à vélo", "en trottinette", "par moto".
_LUGGAGE = frozenset("vélo vélos velo velos moto motos scooter scooters trottinette trottinettes".split())
_RIDDEN = frozenset({"à", "a", "en", "par"})
# Often the journey's other leg: "pour mon avion", "j'ai un vol", "je descends du ferry".
_OTHER_LEG = frozenset("avion avions vol vols ferry ferries bateau bateaux".split())
_HAVE = frozenset("ai as a avons avez ont j'ai jai avoir".split())
# To fly, not to steal: "je veux voler de Metz à Nice", not "je me suis fait voler".
_FLYING = frozenset("voler volerai volerons".split())
_MADE = frozenset("fait faire fais faites".split())
_DETERMINERS = frozenset(
    "le la les l' un une des du au aux en par de mon ma mes ton ta tes son sa ses notre nos votre vos "
    "leur leurs ce cet cette premier prochain dernier quel quels autre".split()
)
# Cars and flights named after a determiner only (see the module docstring).
_AFTER_DETERMINER = frozenset({"car", "cars", "vol"})
# "plutôt" alone prefers ("plutôt en car"); "plutôt que" rules out.
_NEGATIONS = frozenset(
    {"pas", "sans", "ni", "jamais", "lieu", "laisser", "laisse", "laissé", "laissant", "laissons", "laissez"}
)
_NEGATION_WINDOW = 3


# Any word that may name a means, in the raw text: most requests have none, and need no more.
_ANY_MODE_WORD = re.compile(
    r"\b(?:"
    + "|".join(map(re.escape, sorted(OTHER_MODE_WORDS | _AFTER_DETERMINER | {"voiture", "voitures", "pied", "stop"})))
    + r")\b",
    re.IGNORECASE,
)


def may_name_a_mode(text: str) -> bool:
    """Whether `text` holds a word that may name another means (a cheap test before
    `travels_by_other_mode`, which reads the words in context)."""
    return _ANY_MODE_WORD.search(text) is not None


def _words(tokens: Sequence[str]) -> List[str]:
    return [t.lower().replace("’", "'") for t in tokens]


def names_a_train(words: Sequence[str]) -> bool:
    """A train word, not the "en train de" of an action in progress, nor a train ruled
    out ("en avion, pas le train")."""
    for i, word in enumerate(words):
        if word in TRAIN_WORDS and not _ruled_out(words, i) and not _dismissed(words, i):
            progressive = (
                word == "train" and 0 < i < len(words) - 1 and words[i - 1] == "en" and words[i + 1] in {"de", "d'"}
            )
            if not progressive:
                return True
    return False


# A train compared or refused: "plus vite que le train", "refuse que je prenne le train", "le
# train est trop long".
_COMPARING = frozenset("plus moins vite rapide cher mieux aussi autant".split())
_REFUSING = frozenset("refuse refusent refusé interdit interdisent".split())


def _dismissed(words: Sequence[str], i: int) -> bool:
    before = words[max(0, i - 5) : i]
    if any(w in _REFUSING for w in before):
        return True
    for j in range(max(0, i - 3), i):
        if words[j] in {"que", "qu'"} and any(w in _COMPARING for w in words[max(0, j - 3) : j]):
            return True
    return "trop" in words[i + 1 : i + 5]


def _other_leg(words: Sequence[str], i: int) -> bool:
    """A plane, flight or ferry of the journey's other leg, not the means asked for."""
    before = words[max(0, i - 2) : i]
    if any(w in POSSESSIVES for w in before) or (len(before) == 2 and before[0] in _HAVE):
        return True
    return before[-1:] == ["du"] or before == ["de", "l'"]


def _other_mode_at(words: Sequence[str], i: int) -> bool:
    word, before = words[i], words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    if word in _LUGGAGE:
        return before in _RIDDEN
    if word in _OTHER_LEG and _other_leg(words, i):
        return False
    if word in _FLYING:  # not "je me suis fait voler mon billet"
        return before not in _MADE
    if word in OTHER_MODE_WORDS:
        return True
    if word in _AFTER_DETERMINER:
        # or a flight search's first word: "vol Paris Ajaccio", "Vol pour Nice"
        return before in _DETERMINERS or (i == 0 and word == "vol")
    if word in {"voiture", "voitures"}:
        return not after.isdigit()
    if word == "stop":  # hitch-hiking, not a stop sign: "en stop", "faire du stop"
        return before in {"en", "du"}
    return word == "pied" and before in {"à", "a"}


def _ruled_out(words: Sequence[str], i: int) -> bool:
    start = max(0, i - _NEGATION_WINDOW)
    if any(w in _NEGATIONS for w in words[start:i]):
        return True
    return any(words[j] in {"que", "qu'"} and j > 0 and words[j - 1] in {"plutôt", "plutot"} for j in range(start, i))


def names_another_mode(words: Sequence[str]) -> bool:
    """A means of transport other than the train, not ruled out ("sans voiture")."""
    return any(_other_mode_at(words, i) and not _ruled_out(words, i) for i in range(len(words)))


def travels_by_other_mode(tokens: Sequence[str]) -> bool:
    """The request (its token texts, those of its place mentions blanked) travels by
    another means and asks for no train."""
    words = _words(tokens)
    return names_another_mode(words) and not names_a_train(words)


# A clause by another means that is the journey's return, not the trip asked for.
RETURNS = frozenset("retour reviendrai reviendrons revenir rentrerai rentrerons rentrer".split())
# Where a request's clauses part: "..., puis ...", ". ", "; ".
_CLAUSE_BREAKS = frozenset({".", ";", ":", "!", "?", ",", "puis", "mais", "ensuite"})


def _mode_clauses(words: Sequence[str]) -> List[Tuple[int, int]]:
    """The (start, end) of the clauses that travel by another means and name no train."""
    found: List[Tuple[int, int]] = []
    start = 0
    for i in range(len(words) + 1):
        if i == len(words) or words[i] in _CLAUSE_BREAKS:
            clause = words[start:i]
            if names_another_mode(clause) and not names_a_train(clause):
                found.append((start, i))
            start = i + 1
    return found


def other_mode_clauses(tokens: Sequence[str], places: Collection[int] = ()) -> Optional[Set[int]]:
    """The positions of the tokens of the clauses that travel by another means and name no
    train (`tokens`: the request's token texts, those of its place mentions blanked; `places`:
    where its mentions start). None where the request travels by another means: it names no
    train, and some clause by another means is neither its return ("..., je reviendrai en
    voiture") nor what follows it ("..., ensuite je prends le bateau pour Ouessant"), or the
    rest of the request names fewer than two places."""
    words = _words(tokens)
    clauses = _mode_clauses(words)
    legs = {i for start, end in clauses for i in range(start, end)}
    if not clauses or names_a_train(words):
        return legs
    other_legs = all(
        (s > 0 and words[s - 1] in {"puis", "ensuite"}) or any(words[i] in RETURNS for i in range(s, e))
        for s, e in clauses
    )
    return legs if other_legs and len([i for i in places if i not in legs]) >= 2 else None


def other_mode_legs(doc: Doc, mentions: Sequence[Span]) -> Optional[Set[int]]:
    """None where the request travels by another means and asks for no train (an INVALID
    order); else the positions of its clauses by another means (`other_mode_clauses`)."""
    if not may_name_a_mode(doc_text(doc)):
        return set()
    # The words of the places are no means of transport: "je serai à Avion" (Pas-de-Calais);
    # a means the recognizer took for a place still is one ("un billet d'avion", "a velo").
    in_places = {i for span in mentions for i in range(span.start, span.end) if not _means_read_as_place(doc, i, span)}
    words = ["" if t.i in in_places else t.text for t in doc]
    if not names_another_mode(_words(words)):
        return set()
    return other_mode_clauses(words, {span.start for span in mentions})


# Before a means, not a town: "billet d'avion", "en avion", "l'avion".
_BEFORE_MEANS = frozenset("d' en l' un le".split())


def _means_read_as_place(doc: Doc, i: int, span: Span) -> bool:
    """Token `i` of the place mention `span` is a means of transport: the mention's one word
    or its first before another place ("avion de Belfort"), typed in lowercase ("un billet
    d'avion", "nice a velo") or after "d'", "en", "l'" ("BILLET D'AVION"), or the request's
    first word before a place's ("Covoiturage Pont Sainte Maxence"); not the town of "je serai
    à Avion", nor a word of a place's name ("arrivée à bus saint remy")."""
    token = doc[i]
    if token.lower_ not in OTHER_MODE_WORDS or i != span.start:
        return False
    if i == 0 and span.end > 1:  # "Covoiturage Pont Sainte Maxence ...": a heading
        return True
    if i + 1 < span.end and doc[i + 1].lower_ not in {"de", "d'", "d’", "à", "a", "pour", "vers"}:
        return False
    return token.text.islower() or doc[i - 1].lower_.replace("’", "'") in _BEFORE_MEANS


def check_other_modes(value: str) -> str:
    """`value` if it is a setting of `other_modes`, else a ValueError naming them."""
    if value not in OTHER_MODES_SETTINGS:
        raise ValueError(
            f"seqkit_trip: other_modes must be one of {', '.join(map(repr, OTHER_MODES_SETTINGS))}, got {value!r}"
        )
    return value
