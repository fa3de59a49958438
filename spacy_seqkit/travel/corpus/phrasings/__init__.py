"""Hand-written phrasings of French travel requests, and of sentences that are not ones.

Slot syntax, inside a template's pattern:
- `{DEP}`, `{ARR}`, `{VIA}`, `{VIA2}`: a place that gets a span (DEPART, ARRIVEE, VIA, VIA).
  `{PLACE}` and `{PLACE2}` are places that get no span (negatives).
- A prefix joins a preposition to the place and contracts it with the place's article:
  `{de:DEP}` → "de Lyon", "d'Avignon", "du Havre", "de la gare de Lyon";
  `{à:ARR}` → "à Lyon", "au Havre", "aux Sables-d'Olonne", "à la Part-Dieu".
  No prefix keeps the article ("depuis {DEP}" → "depuis la gare de Lyon", "depuis Le Havre");
  `=` drops a station's article ("billet {=DEP} {=ARR}" → "billet gare de Lyon Dijon").
- Any other `{NAME}` is a filler drawn from `FILLERS[NAME]` (may be empty, e.g. greetings).
"""
import re
from typing import Dict, List, NamedTuple, Tuple

from . import invalid, means, registers, searches, trips
from .fillers import FILLERS

SLOT = re.compile(r"\{(?P<prep>de:|à:|=)?(?P<name>[A-Z]+[0-9]?)\}")
# The entity label of each place slot.
SLOT_LABELS = {"DEP": "DEPART", "ARR": "ARRIVEE", "VIA": "VIA", "VIA2": "VIA"}
PLACE_SLOTS = set(SLOT_LABELS) | {"PLACE", "PLACE2"}

# Families: valid trips, then INVALID ones. Requests of the INVALID families that have
# only one end ("one_end"), an end in doubt ("alternative": "de Nîmes ou d'Arles à Aix") or
# an end abroad ("abroad") keep a span on the end that is certain.
VALID_FAMILIES = ("trip", "reverse", "via", "multi", "terse", "formal", "spoken", "ruled_out", "search")
INVALID_FAMILIES = ("one_end", "alternative", "abroad", "no_travel", "place_thing", "foreign", "gibberish",
                    "other_mode")
ONE_END_FAMILIES = ("one_end", "alternative", "abroad")
# INVALID families whose places keep their roles' spans: what makes them INVALID is a rule
# of the trip component (another means of transport), not where the places are. A
# recognizer trained to leave the places of "en voiture de X à Y" unmarked marked fewer
# places everywhere (trip accuracy 0.923 -> 0.878 on holdout in one run).
LABELLED_INVALID_FAMILIES = ("other_mode",)


class Template(NamedTuple):
    id: str
    family: str
    pattern: str

    @property
    def slots(self) -> List[str]:
        return [m.group("name") for m in SLOT.finditer(self.pattern)]

    @property
    def is_valid_trip(self) -> bool:
        slots = self.slots
        return "DEP" in slots and "ARR" in slots and self.family not in LABELLED_INVALID_FAMILIES




# Every family's patterns, one module per group of families, in the order the generator
# draws them (the order is part of what a seed reproduces).
_BY_FAMILY: Dict[str, Tuple[str, ...]] = {
    **trips.PHRASINGS, **registers.PHRASINGS, **invalid.PHRASINGS, **means.PHRASINGS, **searches.PHRASINGS,
}
FAMILY_ORDER = ("trip", "reverse", "via", "multi", "terse", "one_end", "formal", "spoken", "alternative",
                "abroad", "no_travel", "place_thing", "foreign", "gibberish", "ruled_out", "other_mode", "search")
_PHRASINGS: Dict[str, Tuple[str, ...]] = {family: _BY_FAMILY[family] for family in FAMILY_ORDER}


def _build() -> Tuple[Template, ...]:
    templates = []
    for family, patterns in _PHRASINGS.items():
        for i, pattern in enumerate(patterns):
            templates.append(Template(f"{family}-{i:03d}", family, pattern))
    return tuple(templates)


TEMPLATES: Tuple[Template, ...] = _build()


def check_templates(templates=TEMPLATES) -> None:
    """Raise ValueError for a malformed template (unknown slot, family/slot mismatch, duplicate)
    or a family that `FAMILY_ORDER` does not place."""
    if set(_BY_FAMILY) != set(FAMILY_ORDER):
        raise ValueError(f"families without a place in FAMILY_ORDER: {sorted(set(_BY_FAMILY) ^ set(FAMILY_ORDER))}")
    seen = set()
    for t in templates:
        if t.pattern in seen:
            raise ValueError(f"template {t.id}: duplicate pattern {t.pattern!r}")
        seen.add(t.pattern)
        for name in t.slots:
            if name not in PLACE_SLOTS and name not in FILLERS:
                raise ValueError(f"template {t.id}: unknown slot {{{name}}}")
        if (t.family in VALID_FAMILIES) != t.is_valid_trip:
            raise ValueError(f"template {t.id}: family {t.family!r} does not match its slots")
        labelled = ONE_END_FAMILIES + LABELLED_INVALID_FAMILIES
        if t.family in INVALID_FAMILIES and t.family not in labelled and set(t.slots) & set(SLOT_LABELS):
            raise ValueError(f"template {t.id}: a negative must not have labelled slots")
