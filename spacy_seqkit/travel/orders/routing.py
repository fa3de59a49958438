"""Routes for answered orders, a stage after the pipeline (`nlp(text)` never pays for it):
from the UIC codes of the stations serving each place of a trip (`answer.trip_stations`),
the route over SNCF's network through them (`travel.routes`), its answer line
`sentenceID,Departure,Step1,...,Destination` (station names) and its JSON for the service
and its page.

A commune that no station serves (Concarneau, Uzès) is served by the passenger stations
nearest to it (`RailNetwork.near_commune`: within 35 km, by its INSEE code): the route starts
or ends there and its stop says so (`serves`, `access_km`). A place with no station and none
near (a name kept as typed, a commune far from the network) has no route: it is answered
INVALID, with the reason."""

from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..pipeline.trip import INVALID
from ..routes import NoRoute, RailNetwork, Route, RouteResult
from ..routes.communes import CommunePoints
from ..routes.network import NEAREST_COUNT, NEAREST_KM
from .answer import Codes, trip_communes, trip_stations

__all__ = [
    "RouteAnswers",
    "network_json",
    "route_json",
    "route_row",
    "route_stations",
    "trip_communes",
    "trip_stations",
]


def route_stations(
    network: RailNetwork, stations: Sequence[Codes], names: Sequence[str], communes: Sequence[Optional[str]] = ()
) -> RouteResult:
    """The route through the principal stations of each place (`RailNetwork.principal`),
    in order, a place without station served by the stations nearest to its commune
    (INSEE codes `communes`, where given); NoRoute (with its reason) for fewer than two
    places or a place that no station of the network serves, nor any near it."""
    if len(stations) < 2 or len(stations) != len(names):
        return NoRoute("no trip to route")
    principal = [network.principal(codes, name, town=name) if codes else [] for codes, name in zip(stations, names)]
    access: Dict[int, float] = {}
    served: Dict[int, Tuple[str, float]] = {}
    for i, name in enumerate(names):
        if principal[i]:
            continue
        insee = communes[i] if i < len(communes) else None
        # the stations near it, but not those of the other places (Bourg-Saint-Andéol's nearest
        # is Pierrelatte: a trip from there to Pierrelatte starts at the next nearest)
        others = {uic for found in principal for uic in found}
        near = [(uic, km) for uic, km in network.near_commune(insee) if uic not in others][:NEAREST_COUNT]
        if not near:
            placed = CommunePoints.load().point(insee) is not None if insee else False
            return NoRoute(
                f"no station serves {name}" + (f", nor any within {NEAREST_KM:.0f} km of it" if placed else "")
            )
        principal[i] = [uic for uic, _ in near]
        for uic, km in near:
            access[uic] = min(access.get(uic, km), km)
            served.setdefault(uic, (name, round(km, 1)))
    if len(principal) == 2 and set(principal[0]) & set(principal[1]):
        principal = _apart(network, principal, stations, names)
    route = network.route(principal[0], principal[-1], via=principal[1:-1], access=access or None)
    if not served or not isinstance(route, Route):
        return route
    return replace(
        route,
        stops=tuple(
            replace(s, serves=served[s.uic][0], access_km=served[s.uic][1])
            if (s.end or s.requested) and s.uic in served
            else s
            for s in route.stops
        ),
    )


def _apart(network: RailNetwork, ends: List[List[int]], stations: Sequence[Codes], names: Sequence[str]):
    """Two ends sharing a station (Le Creusot and Montceau-les-Mines share their TGV station):
    each end that has other stations keeps those."""
    shared = set(ends[0]) & set(ends[1])
    out = []
    for found, codes, name in zip(ends, stations, names):
        rest = [c for c in codes if int(c) not in shared]
        out.append((network.principal(rest, name, town=name) if rest else []) or found)
    return out


def route_row(order_id: str, route: RouteResult) -> List[str]:
    """`id,Departure,Step1,...,Destination` (the route's named stations), or `id,INVALID`."""
    if not isinstance(route, Route):
        return [order_id, INVALID]
    return [order_id, *(stop.name for stop in route.stops)]


def route_json(route: RouteResult) -> Dict[str, Any]:
    """The route as the service returns it: its named stations with their codes and
    coordinates, length, lines, trains and time, and the drawing's points; or why none."""
    if isinstance(route, NoRoute):
        return {"found": False, "reason": route.reason}
    return {
        "found": True,
        "stops": [
            {
                "uic": str(stop.uic),
                "name": stop.name,
                "lon": stop.lon,
                "lat": stop.lat,
                "end": stop.end,
                "requested": stop.requested,
                "change": stop.change,
                **({"serves": stop.serves, "access_km": stop.access_km} if stop.serves else {}),
            }
            for stop in route.stops
        ],
        "km": route.km,
        "lines": list(route.lines),
        "trains": [
            {"from_uic": str(t.from_uic), "to_uic": str(t.to_uic), "train": t.train, "minutes": t.minutes}
            for t in route.trains
        ],
        "minutes": route.minutes,
        "timetable": route.timetable,
        "path": [str(uic) for uic in route.path],
        "coords": [[round(lon, 5), round(lat, 5)] for lon, lat in route.coords],
    }


class RouteAnswers:
    """The route line of an answered order, for `format.write_answers`: (row, None), or
    (`id,INVALID`, why) where there is no route. Routes are cached by the network."""

    def __init__(self, network: Optional[RailNetwork] = None) -> None:
        self.network = network if network is not None else RailNetwork.load()

    def __call__(self, answer) -> Tuple[List[str], Optional[str]]:
        route = route_stations(self.network, answer.stations, answer.places, answer.communes)
        return route_row(answer.id, route), route.reason if isinstance(route, NoRoute) else None


def network_json(network: RailNetwork, digits: int = 3) -> Dict[str, Any]:
    """The network's lines for the page to draw: polylines of (lon, lat) rounded to
    `digits` decimals (3: about 100 m) and their bounds."""
    lines = []
    for _, points in network.polylines():
        line = [[round(lon, digits), round(lat, digits)] for lon, lat in points]
        if len(line) >= 2:
            lines.append(line)
    lons = [p[0] for line in lines for p in line]
    lats = [p[1] for line in lines for p in line]
    return {
        "lines": lines,
        "bounds": [min(lons), min(lats), max(lons), max(lats)],
        "attribution": network.attribution,
    }
