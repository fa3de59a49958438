"""What `seqkit_trip` reads and writes: each mention as an `End` (its span, place, the role the
recognizer gave it and what the qualifiers said of it), and the `Reading` its steps pass on, each
returning a new one: the ends read, the departures, arrivals and stops, and why."""

from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Optional, Tuple

from spacy.tokens import Doc, Span

from ...places.contract import Places
from ...places.place import Place
from ..base import PLACE
from ..words import Words

DEPART, ARRIVEE, VIA = "DEPART", "ARRIVEE", "VIA"


@dataclass(frozen=True, eq=False)  # two ends are the same end only as one object
class End:
    span: Span
    place: Place
    role: str  # DEPART, ARRIVEE, VIA, or PLACE (a known place the recognizer did not mark)
    ruled_out: Optional[str] = None  # the qualifier rule that rules it out ("ruled_out.negated")
    home: bool = False  # where someone lives, works or is (`seqkit_context`)
    brings_correction: bool = False  # "en fait de Lille" (`seqkit_ruled_out`)
    reversal_after: bool = False  # "..., euh non, l'inverse" right after it (`seqkit_ruled_out`)
    other_leg: bool = False  # in a clause by another means (`seqkit_other_means`)
    alternative: Optional[str] = None  # offered with another place (`seqkit_alternative`)

    @property
    def start(self) -> int:
        return self.span.start

    @property
    def end(self) -> int:
        return self.span.end

    @property
    def name(self) -> str:
        return self.place.name

    def as_(self, role: str, place: Optional[Place] = None) -> "End":
        """This end with another role (and place)."""
        return replace(self, role=role, place=place or self.place)


Ends = Tuple[End, ...]


@dataclass(frozen=True)
class Reading:
    """A request as `seqkit_trip`'s steps read it. `read`: the recognizer's ends still in play, in
    reading order (with the ends a step adds); `mentions`: every mention, ruled out or not, the known
    places the recognizer did not mark (`free`) among them; `departures`, `arrivals`, `stops`: the ends by role, the first departure and arrival
    being the trip's; `invalid`: the rule that makes the request no order; `why`: what decided."""

    doc: Doc
    words: Words
    places: Places
    read: Ends
    mentions: Ends
    landmarks: frozenset = frozenset()
    departures: Ends = ()
    arrivals: Ends = ()
    stops: Ends = ()
    invalid: Optional[str] = None
    why: Tuple[Dict[str, Any], ...] = field(default=())

    @property
    def free(self) -> Ends:
        return tuple(e for e in self.mentions if e.role == PLACE)

    def with_read(self, *added: End) -> Ends:
        """The ends read, with `added` in reading order."""
        return tuple(sorted(self.read + added, key=lambda e: e.start))

    def adding(self, found: End, role: str, **why: Any) -> "Reading":
        """`found` read as a departure or an arrival (`role`), after those of that role; `why`, the
        rule that added it, where the step says one."""
        new = found.as_(role)
        side = "departures" if role == DEPART else "arrivals"
        changed = {side: getattr(self, side) + (new,), "read": self.with_read(new)}
        return replace(self, **changed, why=self.why + (why,) if why else self.why)

    def substituted(self, old: End, new: End) -> "Reading":
        """`old` replaced by `new` wherever it stands."""

        def sub(ends: Ends) -> Ends:
            return tuple(new if e is old else e for e in ends)

        return replace(
            self,
            read=sub(self.read),
            departures=sub(self.departures),
            arrivals=sub(self.arrivals),
            stops=sub(self.stops),
        )

    def roles(self) -> List[Tuple[End, str]]:
        """Each end read with the role it ended up with: the trip's departure and arrival, its
        stops, and the others as the recognizer (or the step that added them) read them."""
        given = {id(e): DEPART for e in self.departures[:1]}
        given.update({id(e): ARRIVEE for e in self.arrivals[:1]})
        given.update({id(e): VIA for e in self.stops})
        return [(e, given.get(id(e), e.role)) for e in self.read]
