"""Requests as people type them into a search box or translate them from a flight search
("montre-moi les trains de X à Y jeudi"), the place as the subject of the sentence ("X sera
mon point de départ"), where one lives and works, the arrival before the departure in a
literary register or typed terse ("Le Lioran depuis Aurillac"), "à destination de" / "en provenance de", a station on each end, and a bare
"X à Y" between two small places (`search`, valid: DEP and ARR).

Patterns in the slot syntax of `phrasings/__init__.py`."""

from typing import Dict, Tuple

PHRASINGS: Dict[str, Tuple[str, ...]] = {
    "search": (
        "montre-moi les trains {de:DEP} {à:ARR} {DATE} après-midi",
        "affiche les trains {de:DEP} {à:ARR} {DATE}",
        "liste de tous les trains {de:DEP} {à:ARR} qui arrivent avant 16 heures",
        "donne-moi la liste des trains {de:DEP} vers {ARR} {DATE}",
        "quel est le train le moins cher {de:DEP} {à:ARR} ?",
        "quel est le premier train {de:DEP} {à:ARR} {DATE} ?",
        "quels trains vont {de:DEP} {à:ARR} {DATE} soir ?",
        "trains {de:DEP} {à:ARR} {DATE}",
        "trains directs {de:DEP} {à:ARR}",
        "je veux voir les trains qui partent {de:DEP} pour {ARR} {DATE} matin",
        "trouve les trains sans correspondance {de:DEP} {à:ARR}",
        "tous les trains {de:DEP} {à:ARR} entre 8h et 10h",
        "{=DEP} sera mon point de départ pour rejoindre {ARR} {DATE}",
        "{=DEP} est ma ville de départ et {ARR} ma destination",
        "ma destination est {ARR}, je pars {de:DEP}",
        "j'habite {à:DEP} et je travaille {à:ARR}, quel train le matin ?",
        "j'habite {à:DEP} et je bosse {à:ARR}, il y a un abonnement ?",
        "je vis {à:DEP} mais mon travail est {à:ARR}",
        "C'est {à:ARR} que je dois me rendre, en partant {de:DEP}, {DATE}.",
        "Vers {ARR}, depuis {DEP}, je voudrais voyager {DATE}.",
        "{à:ARR} je souhaite arriver, {de:DEP} je partirai",
        "je voudrais prendre le train {à:DEP} à destination {de:ARR}",
        "prendre le train {à:DEP} pour aller {à:ARR} {DATE}",
        "un billet à destination {de:ARR} et en provenance {de:DEP}",
        "à destination {de:ARR} en provenance {de:DEP} {DATE} {TIME}",
        "en provenance {de:DEP} et à destination {de:ARR}, {PAX}",
        "de la gare {de:DEP} à la gare {de:ARR} {DATE}",
        "{=ARR} depuis {DEP} {DATE}",
        "billet {ARR} depuis {DEP} {DATE} {TIME}",
        "{=ARR} au départ {de:DEP} {DATE}, horaires ?",
        "aller simple {ARR} en partant {de:DEP}",
        "{=ARR} depuis {DEP} pour le week-end",
        "je vais de la gare {de:DEP} jusqu'à la gare {de:ARR}",
        "{=DEP} à {ARR} {DATE}",
        "{=DEP} à {ARR} svp",
        "{=DEP} vers {ARR}",
    ),
}
