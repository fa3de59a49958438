"""Requests by another means than the train (INVALID, no span: `other_mode`), and requests
that rule a place out by a negation or a correction (valid: the place ruled out gets no
span, the real ends DEPART / ARRIVEE: `ruled_out`).

Patterns in the slot syntax of `phrasings/__init__.py`; `seqkit_trip` reads both the same
way (`pipeline/modes.py`, `pipeline/ruled_out.py`)."""
from typing import Dict, Tuple

PHRASINGS: Dict[str, Tuple[str, ...]] = {
    "other_mode": (
        "je monte {à:PLACE} en voiture depuis {PLACE2}",
        "un vol {de:PLACE} pour {PLACE2} {DATE}",
        "le car {de:PLACE} {à:PLACE2} part à quelle heure ?",
        "{HELLO} y a-t-il un bus {de:PLACE} {à:PLACE2} {DATE} ?",
        "je cherche un covoiturage {de:PLACE} {à:PLACE2} {DATE}",
        "combien de temps à pied {de:PLACE} {à:PLACE2} ?",
        "{WANT} louer une voiture pour aller {de:PLACE} {à:PLACE2}",
        "vols pas chers {=PLACE} {=PLACE2}",
        "Je souhaite réserver un taxi {de:PLACE} {à:PLACE2} {TIME}",
        "en vélo {de:PLACE} {à:PLACE2} c'est faisable en une journée ?",
        "l'autocar {de:PLACE} pour {PLACE2} passe par où ?",
        "je prends ma voiture {DATE} pour descendre {de:PLACE} {à:PLACE2}, quelqu'un veut venir ?",
        "Quel est le prix du ferry {de:PLACE} {à:PLACE2} ?",
        "jveux prendre l'avion {de:PLACE} a {PLACE2} {DATE}",
        "un blablacar {de:PLACE} {à:PLACE2} {DATE} svp",
        "Madame, Monsieur, je souhaiterais affréter un autocar {de:PLACE} {à:PLACE2} pour 40 personnes.",
        "on y va en voiture ? {de:PLACE} {à:PLACE2} ça fait combien de km",
        "premier vol {de:PLACE} vers {PLACE2} {DATE} {PLEASE}",
        "en car {de:PLACE} {à:PLACE2}, combien ça coûte ?",
        "je vais {à:PLACE} en moto depuis {PLACE2} {DATE}",
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
