"""The trip a travel request asks for: one typed value, its canonical string, its accuracy.

`Trip` is what the trip component reads off the entities (`doc._.trip` holds its
`to_dict()`), what the rewriter's answer ("Marseille > Paris" / "INVALID") parses into,
what a gold record holds, and what the Travel Order Resolver writes out.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from ..places.names import normalise
from ..places.place import Place

# The entity labels of the ends and stops of a trip.
LABELS = ("DEPART", "ARRIVEE", "VIA")
INVALID = "INVALID"
REWRITE_SEPARATOR = ">"


@dataclass(frozen=True)
class Trip:
    """Departure, arrival and stops (reference names, stops in reading order), the texts
    they were read from, and the places they name as values (`Place`: kind, codes, the
    stations serving them; None where the trip was not read from a request, e.g. a gold
    record). A trip is valid with two different ends; the place values take no part in
    comparisons."""

    departure: Optional[str] = None
    arrival: Optional[str] = None
    steps: Tuple[str, ...] = ()
    departure_text: Optional[str] = None
    arrival_text: Optional[str] = None
    steps_text: Tuple[str, ...] = field(default=())
    departure_place: Optional[Place] = field(default=None, compare=False)
    arrival_place: Optional[Place] = field(default=None, compare=False)
    step_places: Tuple[Place, ...] = field(default=(), compare=False)

    @property
    def is_valid(self) -> bool:
        return bool(self.departure and self.arrival and self.departure != self.arrival)

    def to_dict(self) -> Dict[str, Any]:
        """The form of `doc._.trip`."""
        return {
            "departure": self.departure,
            "arrival": self.arrival,
            "steps": list(self.steps),
            "is_valid": self.is_valid,
            "departure_text": self.departure_text,
            "arrival_text": self.arrival_text,
            "steps_text": list(self.steps_text),
            "departure_place": self.departure_place.to_dict() if self.departure_place else None,
            "arrival_place": self.arrival_place.to_dict() if self.arrival_place else None,
            "step_places": [place.to_dict() for place in self.step_places],
        }

    @classmethod
    def from_dict(cls, data: Optional[Mapping[str, Any]]) -> "Trip":
        """A trip from `doc._.trip` or from a record's `trip` (None: INVALID)."""
        if not data:
            return cls()
        return cls(
            departure=data.get("departure"),
            arrival=data.get("arrival"),
            steps=tuple(data.get("steps") or ()),
            departure_text=data.get("departure_text"),
            arrival_text=data.get("arrival_text"),
            steps_text=tuple(data.get("steps_text") or ()),
            departure_place=Place.from_dict(data.get("departure_place")),
            arrival_place=Place.from_dict(data.get("arrival_place")),
            step_places=tuple(p for p in map(Place.from_dict, data.get("step_places") or ()) if p is not None),
        )

    def places(self) -> List[str]:
        """Departure, stops, arrival: the Travel Order Resolver's order."""
        if not (self.departure and self.arrival and self.is_valid):
            return []
        return [self.departure, *self.steps, self.arrival]

    def to_rewrite(self) -> str:
        """The canonical string: "Paris > Dijon > Lyon", or "INVALID"."""
        return f" {REWRITE_SEPARATOR} ".join(self.places()) if self.is_valid else INVALID

    @classmethod
    def from_rewrite(cls, text: Optional[str], resolve: Optional[Callable[[str], Optional[str]]] = None) -> "Trip":
        """A trip from a canonical string: "Marseille > Paris", "Paris > Dijon > Lyon"
        (a stop); anything else is invalid. With `resolve` (a gazetteer's), each place
        becomes its canonical name when it has one ("Marseile" → "Marseille"), else
        stays as written."""
        parts = rewrite_places(text)
        if parts is None:
            return cls()
        names = [(resolve(p) if resolve else None) or p for p in parts]
        return cls(
            departure=names[0],
            arrival=names[-1],
            steps=tuple(names[1:-1]),
            departure_text=parts[0],
            arrival_text=parts[-1],
            steps_text=tuple(parts[1:-1]),
        )

    def same_as(self, other: "Trip", exact: bool = False) -> bool:
        """Both invalid, or both valid with the same ends, compared as the gazetteer
        normalises names (case, accents and hyphens do not matter), or as written
        with `exact`."""
        if not self.is_valid or not other.is_valid:
            return self.is_valid == other.is_valid
        same = (lambda a, b: a == b) if exact else same_place
        return same(self.departure, other.departure) and same(self.arrival, other.arrival)


def same_place(a: Optional[str], b: Optional[str]) -> bool:
    return a is not None and b is not None and normalise(a) == normalise(b)


def rewrite_places(text: Optional[str]) -> Optional[List[str]]:
    """The places of a canonical string "A > B [> ...]", or None when it is no trip
    (empty, INVALID, one place, an empty place)."""
    if not text:
        return None
    parts = [p.strip() for p in text.split(REWRITE_SEPARATOR)]
    return parts if len(parts) >= 2 and all(parts) else None


def trip_accuracy(pairs: Iterable[Tuple[Trip, Trip]]) -> Dict[str, Optional[float]]:
    """Over (predicted, gold) pairs: trip accuracy (`Trip.same_as`: both ends the same
    place, spelling aside, or both INVALID), the same with the exact canonical names, and
    validity accuracy."""
    n = correct = exact = valid_correct = 0
    for predicted, gold in pairs:
        n += 1
        correct += predicted.same_as(gold)
        exact += predicted.same_as(gold, exact=True)
        valid_correct += predicted.is_valid == gold.is_valid
    return {
        "trip_acc": correct / n if n else None,
        "trip_exact_acc": exact / n if n else None,
        "trip_validity_acc": valid_correct / n if n else None,
    }
