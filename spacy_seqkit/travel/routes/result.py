"""What a route request answers: a `Route`, or a `NoRoute` with its reason."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import List, NamedTuple, Optional, Tuple, Union


@dataclass(frozen=True)
class Stop:
    """A station the route names: an end, a requested stop or a change of line. A station
    that stands for a commune no station serves (its nearest) names that commune in `serves`
    and the straight distance to it in `access_km`."""

    uic: int
    name: str
    lon: float
    lat: float
    end: bool = False
    requested: bool = False
    change: bool = False
    serves: str = ""
    access_km: Optional[float] = None


@dataclass(frozen=True)
class TrainLeg:
    """The fastest TGV / Intercités train from one requested point to the next (calendars
    not matched): the stations it calls at, its number and its time in minutes."""

    from_uic: int
    to_uic: int
    train: str
    minutes: int


class NodeTables(NamedTuple):
    """What a route's graph nodes are: each node's UIC code (0 for a junction) and point."""

    uics: List[int]
    points: List[Tuple[float, float]]


@dataclass(frozen=True)
class Route:
    """The shortest route by rail distance through the requested stops.

    `stops` names the ends, the requested stops and the stations where the line changes;
    `path` is every station passed (UIC codes), `coords` every point of the drawing
    (junctions between stations included), both worked out from the route's graph `nodes`
    when first read (`resolve --route` names the stops only); `trains` is empty where no single
    train serves some leg (then `minutes` is None and `timetable` says why)."""

    stops: Tuple[Stop, ...]
    km: float
    lines: Tuple[str, ...]
    nodes: Tuple[int, ...] = field(repr=False)
    tables: NodeTables = field(repr=False, compare=False)
    trains: Tuple[TrainLeg, ...] = ()
    minutes: Optional[int] = None
    timetable: str = ""
    found: bool = True

    @cached_property
    def path(self) -> Tuple[int, ...]:
        return tuple(filter(None, map(self.tables.uics.__getitem__, self.nodes)))

    @cached_property
    def coords(self) -> Tuple[Tuple[float, float], ...]:
        return tuple(map(self.tables.points.__getitem__, self.nodes))


@dataclass(frozen=True)
class NoRoute:
    """No route, and why: no station for an end, no connection, the same station."""

    reason: str
    found: bool = False


RouteResult = Union[Route, NoRoute]
