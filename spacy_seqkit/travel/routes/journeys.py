"""Journeys on SNCF's timetables: the trains a traveller takes from a departure time.

`JourneyPlanner.journey` answers the earliest arrival from one of the departure stations
(after the departure time) at one of the arrival stations, then, among the journeys arriving
then, the one with the fewest changes, then the one leaving latest (a traveller does not wait
at a change for a train they could have caught from home later): a forward connection scan
for the earliest arrival and its number of trains, then a backward one from that arrival
(`scan.py`). A change takes at least `change_minutes` in a station; the stations of one city
(Paris's terminals, Lyon Part-Dieu and Perrache...) are joined by a fixed transfer time. Stops
requested on the way are reached in order, each a change of train.

    planner = JourneyPlanner(Timetable.load())
    journey = planner.journey({87751008}, {87686006}, dt.datetime(2024, 7, 2, 8, 0))
"""

import datetime as dt
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .geo import EARTH_RADIUS_KM, haversine_km
from .result import Stop
from .scan import INF, scan
from .timetable import DAY, Connections, Timetable

UicLike = Union[int, str]
CHANGE_MINUTES = 10  # at least, to change trains in one station
CITY_TRANSFER_MINUTES = 30  # from one station of a city to another
PARIS_TRANSFER_MINUTES = 60  # between Paris's terminals, across the city
PARIS = "75056"
CITY_TRANSFER_KM = 8.0  # stations of a city farther apart are not joined (Aix-en-Provence TGV, 12 km out)
MAX_TRAINS = 12  # trains in one journey, at most
ACCESS_MINUTES_PER_KM = 1.5  # to a station near a commune no train serves: 40 km/h over the straight distance


@dataclass(frozen=True)
class Leg:
    """One train of a journey: its kind ("TGV INOUI", "TER"...) and number, the station one
    boards it at and the one one leaves it at, the times, and the stations it calls at in
    between (`calls`, from board to alight: UIC codes and their points)."""

    kind: str
    number: int
    board: Stop
    alight: Stop
    departure: dt.datetime
    arrival: dt.datetime
    calls: Tuple[int, ...] = field(repr=False)
    coords: Tuple[Tuple[float, float], ...] = field(repr=False)

    @property
    def minutes(self) -> int:
        return int((self.arrival - self.departure).total_seconds() // 60)

    @property
    def train(self) -> str:
        return f"{self.kind} {self.number}"


@dataclass(frozen=True)
class Journey:
    """The trains of a journey. `stops` are what the answer line names: the station the first
    train leaves from, the stations where one changes (both stations of a transfer across a
    city), the stops asked for, and the station the last train reaches. `asked` is the
    departure time the journey was planned from, `when` says how it was chosen."""

    legs: Tuple[Leg, ...]
    stops: Tuple[Stop, ...]
    asked: dt.datetime
    when: str = ""
    found: bool = True

    @property
    def departure(self) -> dt.datetime:
        return self.legs[0].departure

    @property
    def arrival(self) -> dt.datetime:
        return self.legs[-1].arrival

    @property
    def minutes(self) -> int:
        return int((self.arrival - self.departure).total_seconds() // 60)

    @property
    def changes(self) -> int:
        return len(self.legs) - 1

    @property
    def coords(self) -> Tuple[Tuple[float, float], ...]:
        return tuple(p for leg in self.legs for p in leg.coords)


@dataclass(frozen=True)
class NoJourney:
    """No journey, and why (a day outside the timetable, no train calling at an end...)."""

    reason: str
    found: bool = False


JourneyResult = Union[Journey, NoJourney]


class JourneyPlanner:
    """Earliest-arrival journeys over a `Timetable` (see the module docstring)."""

    def __init__(
        self,
        timetable: Optional[Timetable] = None,
        change_minutes: int = CHANGE_MINUTES,
        city_transfer_minutes: int = CITY_TRANSFER_MINUTES,
        paris_transfer_minutes: int = PARIS_TRANSFER_MINUTES,
        max_trains: int = MAX_TRAINS,
        city_transfers: bool = True,
    ) -> None:
        for name, value in (
            ("change_minutes", change_minutes),
            ("city_transfer_minutes", city_transfer_minutes),
            ("paris_transfer_minutes", paris_transfer_minutes),
        ):
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number of minutes >= 0, got {value!r}")
        if not isinstance(max_trains, int) or max_trains < 1:
            raise ValueError(f"max_trains must be a whole number >= 1, got {max_trains!r}")
        self.timetable = tt = timetable if timetable is not None else Timetable.load()
        self.max_trains = max_trains
        n = len(tt.station_uic)
        self.change = np.full(n, change_minutes * 60, dtype=np.int32)
        # The stations of one city (INSEE code, Paris, Lyon and Marseille whole) within
        # CITY_TRANSFER_KM of each other, joined by the city's transfer time (one transfer at a
        # time: two in a row are never faster than a direct one, at a fixed time).
        cities: Dict[str, List[int]] = {}
        for s, city in enumerate(tt.city):
            if city:
                cities.setdefault(city, []).append(s)
        pairs: List[List[Tuple[int, int]]] = [[] for _ in range(n)]
        for city, members in cities.items() if city_transfers else ():
            minutes = paris_transfer_minutes if city == PARIS else city_transfer_minutes
            for a in members:
                pairs[a].extend((b, minutes * 60) for b in members if b != a and self._km(a, b) <= CITY_TRANSFER_KM)
        self.transfer_ptr = np.cumsum([0] + [len(p) for p in pairs]).astype(np.int64)
        self.transfer_to = np.array([b for p in pairs for b, _ in p], dtype=np.int32)
        self.transfer_time = np.array([t for p in pairs for _, t in p], dtype=np.int32)
        self._transfers = [dict(p) for p in pairs]
        self._rad = np.radians(np.c_[tt.lon, tt.lat])
        self._stops: Dict[Tuple[int, bool, bool, bool], Stop] = {}
        k = max_trains + 1
        self._labels = {
            "ready": np.empty((n, k), dtype=np.int32),
            "ready_from": np.empty((n, k), dtype=np.int32),
            "ready_min": np.empty(n, dtype=np.int32),
            "arrive": np.empty((n, k), dtype=np.int32),
            "arrive_min": np.empty(n, dtype=np.int32),
            "arrive_hop": np.empty((n, k), dtype=np.int32),
            "arrive_board": np.empty((n, k), dtype=np.int32),
            "trip_trains": np.empty(3 * tt.n_trains, dtype=np.int32),
            "trip_board": np.empty(3 * tt.n_trains, dtype=np.int32),
            "extra": np.empty(n, dtype=np.int32),
        }

    def _km(self, a: int, b: int) -> float:
        tt = self.timetable
        return haversine_km((float(tt.lon[a]), float(tt.lat[a])), (float(tt.lon[b]), float(tt.lat[b])))

    # -- the stations of the ends -------------------------------------------------------------

    def served(self, uics: Iterable[UicLike]) -> List[int]:
        """The UIC codes among `uics` of stations some train of the timetable calls at."""
        tt = self.timetable
        return [int(tt.station_uic[s]) for s in tt.stations(list(uics))]

    def nearest(self, lon: float, lat: float, radius_km: float, count: int) -> List[Tuple[int, float]]:
        """The UIC codes of the `count` stations trains call at nearest to (lon, lat), within
        `radius_km` (straight distance), nearest first, with their distance in km."""
        lon1, lat1 = np.radians(lon), np.radians(lat)
        rad = self._rad
        h = np.sin((rad[:, 1] - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(rad[:, 1]) * np.sin((rad[:, 0] - lon1) / 2) ** 2
        km = 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))
        order = np.argsort(km, kind="stable")[:count]
        return [(int(self.timetable.station_uic[i]), float(km[i])) for i in order if km[i] <= radius_km]

    # -- journeys -------------------------------------------------------------------------------

    def journey(
        self,
        departure_uics: Iterable[UicLike],
        arrival_uics: Iterable[UicLike],
        when: dt.datetime,
        via: Sequence[Iterable[UicLike]] = (),
        access: Optional[Mapping[int, float]] = None,
        names: Sequence[str] = (),
    ) -> JourneyResult:
        """The journey from one of `departure_uics` to one of `arrival_uics` leaving at
        `when` or later, through one station of each set of `via` in order. `access` (UIC
        code -> minutes) is the time to reach a station from the place it stands for (a
        commune no train serves) or from it to the place; `names` (departure, stops, arrival)
        name the places in the reasons of a NoJourney."""
        tt = self.timetable
        if not isinstance(when, dt.datetime):
            raise ValueError(f"when must be a datetime, not {type(when).__name__}")
        groups = [list(departure_uics), *map(list, via), list(arrival_uics)]
        labels = list(names) if len(names) == len(groups) else ["the departure", *("a stop",) * len(via), "the arrival"]
        ends: List[Dict[int, int]] = []
        for uics, name in zip(groups, labels):
            stations = tt.stations(uics)
            if not stations:
                return NoJourney(f"no train of the timetable calls at {name}")
            ends.append({s: int(round(60 * (access or {}).get(int(tt.station_uic[s]), 0.0))) for s in stations})
        if len(ends) == 2 and set(ends[0]) & set(ends[1]):
            return NoJourney("departure and arrival are the same station")
        day = tt.day_index(when.date())
        if day is None:
            return NoJourney(
                f"{when.date().isoformat()} is outside the timetable ({tt.first_day.isoformat()} to "
                f"{tt.last_day.isoformat()})"
            )
        midnight = dt.datetime.combine(tt.first_day + dt.timedelta(days=day), dt.time())
        start = int((when - dt.datetime.combine(when.date(), dt.time())).total_seconds())
        legs: List[Tuple[int, int, int]] = []  # (trip, board row, alight row)
        for i in range(len(ends) - 1):
            found = self._plan(day, start, ends[i], ends[i + 1], requested=0 < i)
            if found is None:
                here, there = labels[i], labels[i + 1]
                return NoJourney(
                    f"no train from {here} to {there} leaving after {_clock(start, midnight)} that day or the next "
                    f"(in {self.max_trains} trains or fewer)"
                )
            legs.extend(found)
            # the next part leaves the stop reached, after a change
            last_trip, _, alight = legs[-1]
            reached = int(tt.stop_station[alight])
            start = self._time(last_trip, alight, arrive=True) + int(self.change[reached])
            ends[i + 1] = {reached: 0}
        return self._assemble(legs, midnight, when, set().union(*map(set, groups[1:-1])) if via else set())

    def _plan(
        self, day: int, start: int, sources: Dict[int, int], targets: Dict[int, int], requested: bool = False
    ) -> Optional[List[Tuple[int, int, int]]]:
        """The legs (trip, board row, alight row) of the best journey from `sources` (station
        -> seconds to reach it) to `targets` leaving at `start` or later, or None."""
        forward, backward = self.timetable.connections(day)
        if requested:  # from a stop asked for, leave from any station of its city
            sources = self._with_transfers(sources)
        ready = {s: start + extra for s, extra in sources.items()}
        best, trains = self._scan(forward, ready, targets, self.max_trains)
        if best >= INF:
            return None
        # Backward: the latest departure that still arrives at `best`, with at most `trains`.
        latest, back_trains = self._scan(
            backward, {s: -(best - extra) for s, extra in targets.items()}, sources, trains
        )
        if latest < INF:
            return self._legs(backward, sources, latest, back_trains, reverse=True)
        # Never seen (the forward journey is one the backward scan can find): the forward one.
        self._scan(forward, ready, targets, self.max_trains)
        return self._legs(forward, targets, best, trains, reverse=False)

    def _with_transfers(self, ends: Dict[int, int]) -> Dict[int, int]:
        """The end stations with the other stations of their city, at the transfer time."""
        out = dict(ends)
        for s, extra in ends.items():
            for o, seconds in self._transfers[s].items():
                if out.get(o, INF) > extra + seconds:
                    out[o] = extra + seconds
        return out

    def _scan(self, hops: Connections, ready: Dict[int, int], targets: Dict[int, int], max_trains: int):
        """Run the scan from the `ready` times at the first stations to `targets` (station ->
        time from it to the destination): (best arrival, fewest trains reaching it)."""
        lab = self._labels
        for name in ("ready", "ready_min", "arrive", "arrive_min", "trip_trains"):
            lab[name].fill(INF)
        lab["ready_from"].fill(-1)
        lab["extra"].fill(-1)
        for s, t in ready.items():
            lab["ready"][s, 0] = lab["ready_min"][s] = t
        for s, extra in targets.items():
            lab["extra"][s] = extra
        first = int(np.searchsorted(hops.dep, np.int32(min(ready.values())), side="left"))
        best = scan(
            hops.src,
            hops.dst,
            hops.dep,
            hops.arr,
            hops.trip,
            hops.flags,
            first,
            lab["ready"],
            lab["ready_from"],
            lab["ready_min"],
            lab["arrive"],
            lab["arrive_min"],
            lab["arrive_hop"],
            lab["arrive_board"],
            lab["trip_trains"],
            lab["trip_board"],
            self.change,
            self.transfer_ptr,
            self.transfer_to,
            self.transfer_time,
            lab["extra"],
            max_trains,
        )
        if best >= INF:
            return INF, 0
        ends = np.array(sorted(targets), dtype=np.int64)
        egress = np.array([targets[s] for s in ends.tolist()], dtype=np.int64)
        reach = lab["arrive"][ends, : max_trains + 1].astype(np.int64) + egress[:, None]
        trains = int(np.flatnonzero((reach == best).any(axis=0))[0])
        return int(best), trains

    def _legs(
        self, hops: Connections, targets: Dict[int, int], best: int, trains: int, reverse: bool
    ) -> List[Tuple[int, int, int]]:
        """The legs of the journey the last scan found to `targets` at `best` with `trains`,
        read back from the labels: (trip, board row, alight row), in travel order."""
        lab = self._labels
        arrive = lab["arrive"]
        station = next(s for s in sorted(targets) if int(arrive[s, trains]) + targets[s] == best)
        legs = []
        k = trains
        while k > 0:
            c, cb = int(lab["arrive_hop"][station, k]), int(lab["arrive_board"][station, k])
            if reverse:  # a backward hop runs from the original arrival to the departure
                legs.append((int(hops.trip[c]), int(hops.pos[c]), int(hops.pos[cb]) + 1))
            else:
                legs.append((int(hops.trip[c]), int(hops.pos[cb]), int(hops.pos[c]) + 1))
            k -= 1
            if k == 0:
                break
            station = int(lab["ready_from"][int(hops.src[cb]), k])
        return legs if reverse else legs[::-1]

    def _time(self, trip: int, row: int, arrive: bool) -> int:
        """A trip's time at a stop row, in seconds after the midnight of the day planned."""
        tt = self.timetable
        shift = (trip // tt.n_trains - 1) * DAY
        return int((tt.stop_arrive if arrive else tt.stop_depart)[row]) + shift

    def _stop(self, station: int, end: bool = False, requested: bool = False, change: bool = False) -> Stop:
        key = (station, end, requested, change)
        stop = self._stops.get(key)
        if stop is None:  # immutable: one object for all journeys
            tt = self.timetable
            stop = self._stops[key] = Stop(
                int(tt.station_uic[station]),
                tt.names[station],
                float(tt.lon[station]),
                float(tt.lat[station]),
                end,
                requested,
                change,
            )
        return stop

    def _assemble(
        self, legs: List[Tuple[int, int, int]], midnight: dt.datetime, when: dt.datetime, requested: set
    ) -> Journey:
        tt = self.timetable
        out: List[Leg] = []
        stops: List[Stop] = []
        for i, (trip, board, alight) in enumerate(legs):
            train = trip % tt.n_trains
            rows = range(board, alight + 1)
            calls = [int(tt.stop_station[r]) for r in rows if r in (board, alight) or tt.stop_flags[r]]
            first, last = int(tt.stop_station[board]), int(tt.stop_station[alight])
            first_stop = self._stop(first, end=i == 0, requested=int(tt.station_uic[first]) in requested, change=i > 0)
            last_stop = self._stop(
                last,
                end=i == len(legs) - 1,
                requested=int(tt.station_uic[last]) in requested,
                change=i < len(legs) - 1,
            )
            if not stops or stops[-1].uic != first_stop.uic:
                stops.append(first_stop)
            stops.append(last_stop)
            out.append(
                Leg(
                    tt.kinds[int(tt.train_kind[train])],
                    int(tt.train_number[train]),
                    first_stop,
                    last_stop,
                    midnight + dt.timedelta(seconds=self._time(trip, board, arrive=False)),
                    midnight + dt.timedelta(seconds=self._time(trip, alight, arrive=True)),
                    tuple(int(tt.station_uic[s]) for s in calls),
                    tuple((float(tt.lon[s]), float(tt.lat[s])) for s in calls),
                )
            )
        return Journey(tuple(out), tuple(stops), when)


def _clock(seconds: int, midnight: dt.datetime) -> str:
    return (midnight + dt.timedelta(seconds=seconds)).strftime("%H:%M")
