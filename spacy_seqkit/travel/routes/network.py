"""`RailNetwork`: the SNCF railway network (stations by UIC code, lines, kilometre-point
distances, TGV / Intercités timetables) loaded from the package's derived file."""

import math
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..places.names import normalise
from .assemble import RouteAssembler
from .communes import CommunePoints
from .datafile import read_arrays, unpack_strings
from .geo import EARTH_RADIUS_KM
from .graph import ContractedGraph
from .result import NoRoute, RouteResult

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
        if type(uic) is int and uic >= 0:  # the common case, as the rest would answer it
            out.append(uic)
            continue
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
        # All the core's shortest paths now (0.1-0.2 s), not at the first route: a
        # network is loaded to answer routes, and the first one is then as fast as the rest.
        self.graph.prepare()
        self.node_of: Dict[int, int] = {u: i for i, u in enumerate(self.uic.tolist()) if u}
        self.assembler = RouteAssembler(arrays, self.graph, self.names, self.line_codes)
        self._uics: List[int] = self.assembler.uics
        self._cache: "OrderedDict[Tuple[object, ...], RouteResult]" = OrderedDict()
        self.cache_size = 4096
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

    def _node(self, uic: UicLike) -> Optional[int]:
        """The node of a UIC code, None for one the network does not know or no code."""
        return self.node_of.get(int(uic)) if str(uic).strip().isdigit() else None

    def station_name(self, uic: UicLike) -> Optional[str]:
        """SNCF's traveller name of a passenger station, else the network's label; None for
        a code the network does not know."""
        node = self._node(uic)
        return None if node is None else self.names[node]

    def point(self, uics: Iterable[UicLike]) -> Optional[Tuple[float, float]]:
        """(lon, lat) of the first of `uics` the network places; None if it places none."""
        node = next((n for n in map(self._node, uics) if n is not None), None)
        return None if node is None else (float(self.lon[node]), float(self.lat[node]))

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
        # only the stations of the band of latitudes within `radius_km`: a station further
        # north or south is further away than that
        band = np.flatnonzero(np.abs(self._station_rad[:, 1] - lat1) <= radius_km / EARTH_RADIUS_KM * (1 + 1e-9))
        rad = self._station_rad[band]
        h = np.sin((rad[:, 1] - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(rad[:, 1]) * np.sin((rad[:, 0] - lon1) / 2) ** 2
        km = 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))
        order = np.argsort(km, kind="stable")[:count]
        nodes = self._station_nodes[band]
        return [(self._uics[int(nodes[i])], float(km[i])) for i in order if km[i] <= radius_km]

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
        uics, graph = self._uics, self.graph
        offsets = [[access.get(uics[n], 0.0) for n in layer] if access else [0.0] * len(layer) for layer in layers]
        cost, back = [0.0 + o for o in offsets[0]], []
        for here, there, offset in zip(layers, layers[1:], offsets[1:]):
            # the best station of `here` before each of `there` (the first of equals)
            small = len(here) * len(there) <= 16
            rows = graph.small_distances(here, there) if small else graph.distances(here, there).tolist()
            pick, reached = [], []
            for j, extra in enumerate(offset):
                column = [c + row[j] for c, row in zip(cost, rows)]
                i = column.index(min(column))
                pick.append(i)
                reached.append(column[i] + extra)
            back.append(pick)
            cost = reached
        best = min(cost)
        if not math.isfinite(best):
            return NoRoute(
                f"no rail connection from {self.names[layers[0][0]]} to {self.names[layers[-1][0]]}"
                + (" through the requested stops" if via else "")
            )
        chosen = [cost.index(best)]
        for b in reversed(back):
            chosen.append(b[chosen[-1]])
        points = [layer[i] for layer, i in zip(layers, reversed(chosen))]
        km = best - (sum(access.get(uics[n], 0.0) for n in points) if access else 0.0)
        return self.assembler.route(points, layers, km)


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
