"""Requests by another means than the train (`other_mode`: INVALID, yet their places keep
their DEPART / ARRIVEE spans: the recognizer finds places, the trip component's rule makes
the request INVALID), and requests that rule a place out by a negation or a correction
(`ruled_out`, valid: the place ruled out gets no span, the real ends DEPART / ARRIVEE).

Patterns in the slot syntax of `phrasings/__init__.py`; `seqkit_trip` reads both the same
way (`pipeline/modes.py`, `pipeline/ruled_out.py`)."""
from typing import Dict, Tuple

PHRASINGS: Dict[str, Tuple[str, ...]] = {
    "other_mode": (
        "je monte {à:ARR} en voiture depuis {DEP}",
        "un vol {de:DEP} pour {ARR} {DATE}",
        "le car {de:DEP} {à:ARR} part à quelle heure ?",
        "{HELLO} y a-t-il un bus {de:DEP} {à:ARR} {DATE} ?",
        "je cherche un covoiturage {de:DEP} {à:ARR} {DATE}",
        "combien de temps à pied {de:DEP} {à:ARR} ?",
        "{WANT} louer une voiture pour aller {de:DEP} {à:ARR}",
        "vols pas chers {=DEP} {=ARR}",
        "Je souhaite réserver un taxi {de:DEP} {à:ARR} {TIME}",
        "en vélo {de:DEP} {à:ARR} c'est faisable en une journée ?",
        "l'autocar {de:DEP} pour {ARR} passe par où ?",
        "je prends ma voiture {DATE} pour descendre {de:DEP} {à:ARR}, quelqu'un veut venir ?",
        "Quel est le prix du ferry {de:DEP} {à:ARR} ?",
        "jveux prendre l'avion {de:DEP} a {ARR} {DATE}",
        "un blablacar {de:DEP} {à:ARR} {DATE} svp",
        "Madame, Monsieur, je souhaiterais affréter un autocar {de:DEP} {à:ARR} pour 40 personnes.",
        "on y va en voiture ? {de:DEP} {à:ARR} ça fait combien de km",
        "premier vol {de:DEP} vers {ARR} {DATE} {PLEASE}",
        "en car {de:DEP} {à:ARR}, combien ça coûte ?",
        "je vais {à:ARR} en moto depuis {DEP} {DATE}",
    ),
    "ruled_out": (
        "pas {PLACE} finalement : {de:DEP} {à:ARR}",
        "je pars {de:DEP}, pas {à:PLACE}, {à:ARR} {DATE}",
        "{WANTN} {TICKET} {de:DEP} non pas pour {PLACE} mais pour {ARR}",
        "je vais {à:PLACE}, non pardon, {à:ARR}, en partant {de:DEP}",
        "{de:PLACE}, enfin non, {de:DEP}, {à:ARR} {PLEASE}",
        "un aller pour {ARR} depuis {DEP} plutôt que {PLACE}",
        "au lieu {de:PLACE}, je partirai {de:DEP} pour aller {à:ARR}",
        "{de:DEP} {à:ARR} sans passer par {PLACE}",
        "je ne vais pas {à:PLACE} mais {à:ARR}, départ {de:DEP} {TIME}",
        "{HELLO} {de:DEP} {à:ARR}, sauf {PLACE} je ne veux pas m'y arrêter",
        "finalement pas {de:PLACE}, je prendrai le train {de:DEP} {à:ARR}",
        "{TICKET} pour {PLACE} oups non pour {ARR}, depuis {DEP}",
        "Je dois me rendre {à:ARR} {DATE}. Je partirai {de:DEP} et non {de:PLACE}.",
        "train {de:DEP} {à:PLACE} euh non pardon {à:ARR}",
        "plutôt qu'{à:PLACE} je descendrai {à:ARR}, je monte {à:DEP}",
    ),
}
