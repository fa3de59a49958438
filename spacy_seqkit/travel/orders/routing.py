"""Routes for answered orders, a stage after the pipeline (`nlp(text)` never pays for it):
from the UIC codes of the stations serving each place of a trip (`answer.trip_stations`),
the route over SNCF's network through them (`travel.routes`), its answer line
`sentenceID,Departure,Step1,...,Destination` (station names) and its JSON for the service
and its page.

A commune that no station serves (Concarneau, Uzès) is served by the passenger stations
nearest to it (`RailNetwork.near_commune`: within 35 km, by its INSEE code): the route starts
or ends there and its stop says so (`serves`, `access_km`). A place with no station and none
near (a name kept as typed, a commune far from the network) has no route: it is answered
INVALID, with the reason.

The journey of a trip (`trip_journey`, `JourneyAnswers`: what `resolve --route` writes) is the
trains a traveller takes on SNCF's timetables (`travel.routes.JourneyPlanner`), from the day and
time the request says or `--when` gives (`when.departure`): the line names the station the
first train leaves, the stations where one changes trains and the station the last train
reaches. Where no train answers (a day outside the timetable, an end no train calls at), the
trip is answered with its route over the network, and the reason is given."""

import datetime as dt
from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..pipeline.trip import INVALID
from ..places.place import STATION
from ..routes import NoRoute, RailNetwork, Route, RouteResult
from ..routes.communes import CommunePoints
from ..routes.journeys import ACCESS_MINUTES_PER_KM, Journey, JourneyPlanner, JourneyResult, Leg, NoJourney
from ..routes.network import NEAREST_COUNT, NEAREST_KM
from ..routes.result import Stop
from .answer import Codes, trip_communes, trip_stations
from .when import When, departure

__all__ = [
    "JourneyAnswers",
    "RouteAnswers",
    "journey_json",
    "trip_journey",
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


def trip_journey(
    planner: JourneyPlanner,
    network: RailNetwork,
    stations: Sequence[Codes],
    names: Sequence[str],
    communes: Sequence[Optional[str]],
    when: When,
    kinds: Sequence[str] = (),
) -> JourneyResult:
    """The journey of a trip leaving at `when`: from the principal stations of each place
    that trains call at (`RailNetwork.principal`, else any of its stations trains call at);
    a commune no station with trains serves, or a station no train calls at (`kinds[i] ==
    "station"`: an RER or Transilien station), from the stations with trains nearest to it
    (within 35 km, reached at ACCESS_MINUTES_PER_KM, not those of the other places); NoJourney,
    with its reason, where no train answers."""
    if len(stations) < 2 or len(stations) != len(names):
        return NoJourney("no trip to route")
    ends: List[List[int]] = []
    access: Dict[int, float] = {}
    serves: Dict[int, Tuple[str, float]] = {}
    own = [set(planner.served(codes)) for codes in stations]
    for i, (codes, name) in enumerate(zip(stations, names)):
        found = planner.served(network.principal(codes, name, town=name)) or planner.served(codes) if codes else []
        if not found:
            if codes and i < len(kinds) and kinds[i] == STATION:
                # a station no train of the timetables calls at (RER and Transilien stations are
                # not in TER, TGV and Intercités's exports): from the served stations nearest to it
                point = network.point(codes)
            else:
                insee = communes[i] if i < len(communes) else None
                point = CommunePoints.load().point(insee) if insee else None
            if point is None:
                return NoJourney(f"no train of the timetable calls at {name}" if codes else f"no station serves {name}")
            # the stations near it, but not those of the other places (Fougères's nearest is Vitré)
            others = set().union(*(o for j, o in enumerate(own) if j != i))
            near = [(u, km) for u, km in planner.nearest(*point, NEAREST_KM, 3 * NEAREST_COUNT) if u not in others]
            near = near[:NEAREST_COUNT]
            if not near:
                return NoJourney(f"no station with trains within {NEAREST_KM:.0f} km of {name}")
            found = [uic for uic, _ in near]
            for uic, km in near:
                access[uic] = min(access.get(uic, km * ACCESS_MINUTES_PER_KM), km * ACCESS_MINUTES_PER_KM)
                serves.setdefault(uic, (name, round(km, 1)))
        ends.append(found)
    if len(ends) == 2 and set(ends[0]) & set(ends[1]):  # two places sharing a station keep their own
        shared = set(ends[0]) & set(ends[1])
        apart = []
        for end, codes, name in zip(ends, stations, names):
            rest = [c for c in codes if int(c) not in shared]
            apart.append(planner.served(network.principal(rest, name, town=name)) or planner.served(rest) or end)
        ends = apart
    journey = planner.journey(ends[0], ends[-1], when.at, via=ends[1:-1], access=access or None, names=names)
    if not isinstance(journey, Journey):
        return journey
    stops = tuple(
        replace(s, serves=serves[s.uic][0], access_km=serves[s.uic][1]) if s.end and s.uic in serves else s
        for s in journey.stops
    )
    return replace(journey, stops=stops, when=when.said)


def _stop_json(stop: Stop) -> Dict[str, Any]:
    return {
        "uic": str(stop.uic),
        "name": stop.name,
        "lon": stop.lon,
        "lat": stop.lat,
        "end": stop.end,
        "requested": stop.requested,
        "change": stop.change,
        **({"serves": stop.serves, "access_km": stop.access_km} if stop.serves else {}),
    }


def _leg_json(leg: Leg) -> Dict[str, Any]:
    return {
        "kind": leg.kind,
        "number": str(leg.number),
        "train": leg.train,
        "from": _stop_json(leg.board),
        "to": _stop_json(leg.alight),
        "departure": leg.departure.isoformat(timespec="minutes"),
        "arrival": leg.arrival.isoformat(timespec="minutes"),
        "minutes": leg.minutes,
        "calls": [str(uic) for uic in leg.calls],
        "coords": [[round(lon, 5), round(lat, 5)] for lon, lat in leg.coords],
    }


def journey_json(journey: JourneyResult, when: Optional[When] = None) -> Dict[str, Any]:
    """The journey as the service returns it: when it leaves and how that was chosen, its
    times, changes, named stations and legs (each train's kind, number, stations, times and
    the points of its calls); or why no train was found."""
    if isinstance(journey, NoJourney):
        return {"found": False, "reason": journey.reason, "when": when.said if when else ""}
    return {
        "found": True,
        "when": journey.when,
        "asked": journey.asked.isoformat(timespec="minutes"),
        "departure": journey.departure.isoformat(timespec="minutes"),
        "arrival": journey.arrival.isoformat(timespec="minutes"),
        "minutes": journey.minutes,
        "changes": journey.changes,
        "stops": [_stop_json(stop) for stop in journey.stops],
        "legs": [_leg_json(leg) for leg in journey.legs],
    }


class JourneyAnswers:
    """The journey line of an answered order, for `format.write_answers`: (row, None); where
    no train answers, the network's route line with why (`id,INVALID` and why without one)."""

    def __init__(
        self,
        planner: Optional[JourneyPlanner] = None,
        network: Optional[RailNetwork] = None,
        day: Optional[dt.date] = None,
        time: Optional[dt.time] = None,
        today: Optional[dt.date] = None,
    ) -> None:
        self.planner = planner if planner is not None else JourneyPlanner()
        self.network = network if network is not None else RailNetwork.load()
        self.day, self.time, self.today = day, time, today

    def journey(self, answer) -> Tuple[JourneyResult, When]:
        """The answer's journey (or why there is none) and when it leaves."""
        when = departure(answer.sentence, self.day, self.time, self.today)
        journey = trip_journey(
            self.planner, self.network, answer.stations, answer.places, answer.communes, when, answer.kinds
        )
        return journey, when

    def __call__(self, answer) -> Tuple[List[str], Optional[str]]:
        journey, _ = self.journey(answer)
        if not isinstance(journey, NoJourney):
            return [answer.id, *(stop.name for stop in journey.stops)], None
        route = route_stations(self.network, answer.stations, answer.places, answer.communes)
        return route_row(answer.id, route), route.reason if isinstance(route, NoRoute) else journey.reason
