"""`RailNetwork`: the SNCF railway network (stations by UIC code, lines, kilometre-point
distances, TGV / Intercités timetables) loaded from the package's derived file."""

from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from ..places.names import normalise
from .communes import CommunePoints
from .datafile import read_arrays, unpack_strings
from .geo import EARTH_RADIUS_KM
from .graph import ContractedGraph
from .result import NoRoute, Route, RouteResult, Stop, TrainLeg

DATA_FILE = Path(__file__).resolve().parent / "data" / "network.npz"
UicLike = Union[int, str]
_SEGMENT_RANK = {"A": 0, "B": 1, "C": 2}
Polyline = Tuple[str, List[Tuple[float, float]]]
# A commune no station serves is served by the passenger stations nearest to it: at most
# NEAREST_COUNT of them, within NEAREST_KM (straight distance) of the commune's point.
NEAREST_KM = 35.0
NEAREST_COUNT = 3


def parse_uics(uics: Iterable[UicLike], name: str) -> List[int]:
    # A single code would be iterated digit by digit: refuse it.
    """UIC codes as ints; ValueError naming the parameter for anything that is not one."""
    if isinstance(uics, (str, int)):
        raise ValueError(f"{name} must be a collection of UIC codes, not a single {type(uics).__name__}")
    out = []
    for uic in uics:
        text = str(uic).strip()
        if isinstance(uic, bool) or not text.isdigit():
            raise ValueError(f"{name}: {uic!r} is not a UIC code (digits, e.g. 87543017)")
        out.append(int(text))
    return out


class RailNetwork:
    """Stations, lines and distances of the network; routes between sets of UIC codes."""

    def __init__(self, arrays: Dict[str, np.ndarray], path: Path) -> None:
        self.path = path
        self.attribution = unpack_strings(arrays["attribution"])[0]
        self.uic = arrays["uic"]
        self.lon, self.lat = arrays["lon"], arrays["lat"]
        self.passenger = arrays["passenger"]
        self.names = unpack_strings(arrays["names"])
        # SNCF's segment of a passenger station: "A" national, "B" regional, "C" local, "" none.
        self.segment = unpack_strings(arrays["segment"])
        self.line_codes = unpack_strings(arrays["line_codes"])
        self._arrays = arrays
        src, dst = arrays["edge_src"], arrays["edge_dst"]
        self.graph = ContractedGraph(len(self.uic), src, dst, arrays["edge_km"])
        self.node_of: Dict[int, int] = {u: i for i, u in enumerate(self.uic.tolist()) if u}
        # Lines of each edge as a bit mask: a route stays on a line while the masks intersect.
        ptr, lines = arrays["edge_line_ptr"].tolist(), arrays["edge_line"].tolist()
        self._lines: List[Dict[int, int]] = [{} for _ in range(len(self.uic))]
        for e, (a, b) in enumerate(zip(src.tolist(), dst.tolist())):
            mask = sum(1 << line for line in lines[ptr[e] : ptr[e + 1]])
            self._lines[a][b] = self._lines[b][a] = mask
        # Python lists: a route reads them node by node, faster than numpy scalars.
        self._uics: List[int] = self.uic.tolist()
        self._points: List[Tuple[float, float]] = list(zip(self.lon.tolist(), self.lat.tolist()))
        self._cache: "OrderedDict[Tuple[object, ...], RouteResult]" = OrderedDict()
        self.cache_size = 4096
        n = len(self.uic)
        self._train_key = arrays["train_from"].astype(np.int64) * n + arrays["train_to"]
        self._train_minutes = arrays["train_minutes"]
        self._train_number = unpack_strings(arrays["train_number"])
        self._principal: Dict[Tuple[Tuple[UicLike, ...], Optional[str]], List[int]] = {}
        self._near: Dict[str, List[Tuple[int, float]]] = {}
        stations = np.flatnonzero(self.passenger & (self.uic != 0))
        self._station_nodes = stations
        self._station_rad = np.radians(np.c_[self.lon[stations], self.lat[stations]])

    @classmethod
    def load(cls, path: Optional[Union[str, Path]] = None) -> "RailNetwork":
        """The network of `path` (default: the package's file), loaded once per path.
        A missing or damaged file raises NetworkFileError naming it."""
        return _load(Path(path).resolve() if path is not None else DATA_FILE)

    def station_name(self, uic: UicLike) -> Optional[str]:
        """SNCF's traveller name of a passenger station, else the network's label; None for
        a code the network does not know."""
        node = self.node_of.get(int(uic)) if str(uic).strip().isdigit() else None
        return None if node is None else self.names[node]

    def stations(self, uics: Iterable[UicLike], name: str = "uics") -> List[int]:
        """The passenger nodes among `uics` (freight-only points are never answered)."""
        nodes = (self.node_of.get(u) for u in parse_uics(uics, name))
        return sorted({n for n in nodes if n is not None and self.passenger[n]})

    def principal(self, uics: Iterable[UicLike], name: str = "uics", town: Optional[str] = None) -> List[int]:
        """The UIC codes of the principal stations among `uics` (a town's stations): its
        national (A) stations, and its regional (B) ones named after the town ("Avignon
        Centre" beside Avignon TGV, "Lyon Vaise"), so that a trip to Paris from Marseille
        arrives at a main-line station, not at an RER halt, and one from Orange to Avignon
        at Avignon Centre; without any, the stations of the best segment present."""
        if isinstance(uics, (str, int)):
            parse_uics(uics, name)  # raises: a single code is no collection
        key = (tuple(uics), town)
        try:
            found = self._principal.get(key)
        except TypeError:  # codes that cannot be hashed: parse_uics judges them
            return self._find_principal(key[0], name, town)
        if found is None:
            found = self._principal[key] = self._find_principal(key[0], name, town)
        return list(found)

    def _find_principal(self, uics: Sequence[UicLike], name: str, town: Optional[str]) -> List[int]:
        nodes = self.stations(uics, name)
        ranks = [_SEGMENT_RANK.get(self.segment[n][:1], 3) for n in nodes]
        best = min(ranks, default=3)
        if town and best == 0:
            prefix = normalise(town)
            keep = [r == 0 or (r == 1 and normalise(self.names[n]).startswith(prefix)) for n, r in zip(nodes, ranks)]
        else:
            keep = [r == best for r in ranks]
        return [self._uics[n] for n, kept in zip(nodes, keep) if kept]

    def nearest(
        self, lon: float, lat: float, radius_km: float = NEAREST_KM, count: int = NEAREST_COUNT
    ) -> List[Tuple[int, float]]:
        """The UIC codes of the `count` passenger stations nearest to (lon, lat) within
        `radius_km` (straight distance), nearest first, with their distance in km."""
        lon1, lat1 = np.radians(lon), np.radians(lat)
        rad = self._station_rad
        h = np.sin((rad[:, 1] - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(rad[:, 1]) * np.sin((rad[:, 0] - lon1) / 2) ** 2
        km = 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))
        order = np.argsort(km, kind="stable")[:count]
        return [(self._uics[int(self._station_nodes[i])], float(km[i])) for i in order if km[i] <= radius_km]

    def near_commune(self, insee: Optional[str], points: Optional[CommunePoints] = None) -> List[Tuple[int, float]]:
        """The 2 x NEAREST_COUNT stations `nearest` to the point of the commune of INSEE code
        `insee` (data/communes.npz); [] for a commune without a point, or none within NEAREST_KM."""
        if not insee:
            return []
        if insee not in self._near:
            where = (points or CommunePoints.load()).point(insee)
            self._near[insee] = self.nearest(*where, count=2 * NEAREST_COUNT) if where else []
        return list(self._near[insee])

    def uics(self, segment: Optional[str] = None) -> List[int]:
        """UIC codes of the passenger stations (of one SNCF segment, "A", "B" or "C", if given)."""
        return [
            int(self.uic[n])
            for n in np.flatnonzero(self.passenger).tolist()
            if segment is None or self.segment[n] == segment
        ]

    def polylines(self) -> List[Polyline]:
        """Every line section as (line code, [(lon, lat), ...]) in kilometre-point order, and
        the inferred links between lines and stations as ("", [two points])."""
        return list(_polylines(self))

    def route(
        self,
        departure_uics: Iterable[UicLike],
        arrival_uics: Iterable[UicLike],
        via: Sequence[Iterable[UicLike]] = (),
        access: Optional[Mapping[int, float]] = None,
    ) -> RouteResult:
        """Shortest route by rail distance from one of `departure_uics` to one of
        `arrival_uics` through one station of each set of `via`, in order (the last
        `cache_size` answers are kept: a Route is immutable). `access` (UIC code -> km)
        adds a distance to reach a station (a commune served by its nearest stations) to
        the choice of stations; the route's length is by rail only."""
        if self.cache_size <= 0:
            return self._route(departure_uics, arrival_uics, via, access)
        try:
            key: Tuple[object, ...] = (
                _frozen(departure_uics),
                _frozen(arrival_uics),
                tuple(map(_frozen, via)),
                frozenset(access.items()) if access else None,
            )
        except (TypeError, AttributeError):  # codes that cannot be hashed: no caching (parse_uics judges them)
            return self._route(departure_uics, arrival_uics, via, access)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        result = self._cache[key] = self._route(departure_uics, arrival_uics, via, access)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return result

    def _route(
        self,
        departure_uics: Iterable[UicLike],
        arrival_uics: Iterable[UicLike],
        via: Sequence[Iterable[UicLike]],
        access: Optional[Mapping[int, float]] = None,
    ) -> RouteResult:
        names = ["departure_uics"] + [f"via[{i}]" for i in range(len(via))] + ["arrival_uics"]
        if isinstance(via, (str, int)):
            raise ValueError("via must be a sequence of collections of UIC codes, one per stop")
        wanted = [parse_uics(uics, name) for uics, name in zip([departure_uics, *via, arrival_uics], names)]
        layers = [self.stations(uics, name) for uics, name in zip(wanted, names)]
        for layer, uics, name in zip(layers, wanted, names):
            if not layer:
                return NoRoute(
                    f"no passenger station of the network for {name} ({', '.join(map(str, uics)) or 'empty'})"
                )
        if not via and set(layers[0]) & set(layers[-1]):
            return NoRoute("departure and arrival are the same station")
        offsets = [np.array([access.get(self._uics[n], 0.0) for n in layer]) if access else 0.0 for layer in layers]
        cost, back = np.zeros(len(layers[0])) + offsets[0], []
        for here, there, offset in zip(layers, layers[1:], offsets[1:]):
            total = cost[:, None] + self.graph.distances(here, there)
            back.append(np.argmin(total, axis=0))
            cost = total[back[-1], np.arange(len(there))] + offset
        if not np.isfinite(cost.min()):
            return NoRoute(
                f"no rail connection from {self.names[layers[0][0]]} to {self.names[layers[-1][0]]}"
                + (" through the requested stops" if via else "")
            )
        chosen = [int(np.argmin(cost))]
        for b in reversed(back):
            chosen.append(int(b[chosen[-1]]))
        points = [layer[i] for layer, i in zip(layers, reversed(chosen))]
        km = float(cost.min()) - (sum(access.get(self._uics[n], 0.0) for n in points) if access else 0.0)
        return self._assemble(points, layers, km)

    def _assemble(self, points: List[int], layers: List[List[int]], km: float) -> Route:
        path = [points[0]]
        for a, b in zip(points, points[1:]):
            path.extend(self.graph.path(a, b)[1:])
        changes, lines = self._changes(path)
        requested = set(points[1:-1])
        marks = {path[0], path[-1]} | requested | changes
        uics = self._uics
        named = [i for i, n in enumerate(path) if n in marks]
        stops = tuple(
            Stop(
                uics[n],
                self.names[n],
                *self._points[n],
                end=n in (path[0], path[-1]),
                requested=n in requested,
                change=n in changes,
            )
            for i, n in zip(named, map(path.__getitem__, named))
            if uics[n] and (i == 0 or n != path[i - 1])
        )
        codes = self.uic[path]
        trains = [self._fastest_train(here, there) for here, there in zip(layers, layers[1:])]
        timetable, minutes = "", None
        if all(t is not None for t in trains):
            minutes = sum(t.minutes for t in trains if t is not None)
            timetable = "fastest TGV / Intercités train of each leg (calendars not matched, no connection times)"
        else:
            missing = next(i for i, t in enumerate(trains) if t is None)
            timetable = (
                f"no timetable: no TGV or Intercités train runs from {self.names[points[missing]]} "
                f"to {self.names[points[missing + 1]]}"
            )
        return Route(
            stops=stops,
            km=round(km, 3),
            path=tuple(codes[codes != 0].tolist()),
            coords=tuple(map(self._points.__getitem__, path)),
            lines=tuple(lines),
            trains=tuple(t for t in trains if t is not None) if minutes is not None else (),
            minutes=minutes,
            timetable=timetable,
        )

    def _changes(self, path: List[int]) -> Tuple[Set[int], List[str]]:
        """Nodes where the route leaves every line it was on, and the lines used, in order."""
        changes: Set[int] = set()
        used: List[str] = []
        current = 0
        lines = self._lines
        for a, b in zip(path, path[1:]):
            mask = lines[a][b]
            if not mask:  # an inferred link: no line of its own
                continue
            if current & mask:
                current &= mask
                continue
            if current:
                changes.add(a)
                used.append(self._first_line(current))
            current = mask
        if current:
            used.append(self._first_line(current))
        return changes, used

    def _first_line(self, mask: int) -> str:
        return self.line_codes[(mask & -mask).bit_length() - 1]

    def _fastest_train(self, here: List[int], there: List[int]) -> Optional[TrainLeg]:
        """The fastest train calling at one of `here` then at one of `there`, if any."""
        if not len(self._train_key):
            return None
        keys = (np.asarray(here, dtype=np.int64)[:, None] * len(self.uic) + np.asarray(there)).ravel()
        at = np.minimum(np.searchsorted(self._train_key, keys), len(self._train_key) - 1)
        at = at[self._train_key[at] == keys]
        if not len(at):
            return None
        i = int(at[np.argmin(self._train_minutes[at])])
        a, b = divmod(int(self._train_key[i]), len(self.uic))
        return TrainLeg(int(self.uic[a]), int(self.uic[b]), self._train_number[i], int(self._train_minutes[i]))


def _frozen(uics: Any) -> Hashable:
    """A hashable key for a collection of codes (TypeError where it has none)."""
    return uics if isinstance(uics, (str, int)) else frozenset(uics)


@lru_cache(maxsize=8)
def _load(path: Path) -> RailNetwork:
    return RailNetwork(read_arrays(path), path)


def _polylines(network: RailNetwork) -> Iterable[Polyline]:
    arrays = network._arrays
    ptr, nodes = arrays["section_ptr"].tolist(), arrays["section_node"]
    for s, line in enumerate(arrays["section_line"].tolist()):
        part = nodes[ptr[s] : ptr[s + 1]]
        yield network.line_codes[line], list(zip(network.lon[part].tolist(), network.lat[part].tolist()))
    links = np.flatnonzero(arrays["edge_kind"] >= 2)
    for a, b in zip(arrays["edge_src"][links].tolist(), arrays["edge_dst"][links].tolist()):
        yield "", [(float(network.lon[a]), float(network.lat[a])), (float(network.lon[b]), float(network.lat[b]))]
