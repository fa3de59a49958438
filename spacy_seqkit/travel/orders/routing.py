"""Routes for answered orders, a stage after the pipeline (`nlp(text)` never pays for it):
from the UIC codes of the stations serving each place of a trip (`answer.trip_stations`),
the route over SNCF's network through them (`travel.routes`), its answer line
`sentenceID,Departure,Step1,...,Destination` (station names) and its JSON for the service
and its page.

A trip whose place has no station (a commune without one, a name kept as typed) has no
route: it is answered INVALID, with the reason."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..pipeline.trip import INVALID
from ..routes import NoRoute, RailNetwork, Route, RouteResult
from .answer import Codes, trip_stations

__all__ = ["RouteAnswers", "network_json", "route_json", "route_row", "route_stations", "trip_stations"]


def route_stations(network: RailNetwork, stations: Sequence[Codes], names: Sequence[str]) -> RouteResult:
    """The route through the principal stations of each place (`RailNetwork.principal`),
    in order; NoRoute (with its reason) for fewer than two places or a place that no
    station of the network serves."""
    if len(stations) < 2 or len(stations) != len(names):
        return NoRoute("no trip to route")
    principal = []
    for codes, name in zip(stations, names):
        found = network.principal(codes, name, town=name) if codes else []
        if not found:
            return NoRoute(f"no station serves {name}")
        principal.append(found)
    return network.route(principal[0], principal[-1], via=principal[1:-1])


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
        route = route_stations(self.network, answer.stations, answer.places)
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
