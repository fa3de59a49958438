"""Journeys on the timetables: the earliest arrival, then the fewest changes, then the latest
departure; checked against a brute-force scan of the trains on station pairs that one train
joins, and on journeys a traveller knows."""

import datetime as dt
import random

import numpy as np
import pytest

from spacy_seqkit.travel.routes import Journey, JourneyPlanner, NoJourney, Timetable
from spacy_seqkit.travel.routes.timetable import ALIGHT, BOARD, DAY

TUESDAY = dt.date(2024, 7, 2)
PARIS_GARE_DE_LYON, PARIS_MONTPARNASSE, PARIS_NORD = 87686006, 87391003, 87271007
MARSEILLE, BORDEAUX, LYON_PART_DIEU, AMIENS, NICE = 87751008, 87581009, 87723197, 87313874, 87756056
ROUEN = 87411017  # Rouen Rive Droite


@pytest.fixture(scope="module")
def planner() -> JourneyPlanner:
    return JourneyPlanner(Timetable.load())


def direct_trains(tt: Timetable, day: int):
    """(from station, to station) -> [(departure, arrival, train)] of every train of the
    day (and the day before and after, shifted) one may board at the first and leave at
    the second: the brute force."""
    pairs = {}
    for slot in (-1, 0, 1):
        d = day + slot
        if not 0 <= d < tt.n_days:
            continue
        for train in np.flatnonzero(tt.days[:, d]).tolist():
            rows = list(tt.stops(train))
            for i, r in enumerate(rows):
                if not tt.stop_flags[r] & BOARD:
                    continue
                for s in rows[i + 1 :]:
                    if tt.stop_flags[s] & ALIGHT:
                        key = (int(tt.stop_station[r]), int(tt.stop_station[s]))
                        pairs.setdefault(key, []).append(
                            (int(tt.stop_depart[r]) + slot * DAY, int(tt.stop_arrive[s]) + slot * DAY, train)
                        )
    return pairs


def check_legs(tt: Timetable, journey: Journey, day: dt.date) -> None:
    """Each leg is a train running that day (or the day before or after) between stops it
    lets one board and leave at, at its times; a change takes 10 minutes at least."""
    midnight = dt.datetime.combine(day, dt.time())
    for leg in journey.legs:
        found = False
        for train in np.flatnonzero(tt.train_number == leg.number).tolist():
            if tt.kinds[tt.train_kind[train]] != leg.kind:
                continue
            for shift in (-1, 0, 1):
                d = tt.day_index(day) + shift
                if not (0 <= d < tt.n_days and tt.days[train, d]):
                    continue
                rows = list(tt.stops(train))
                at = {int(tt.station_uic[tt.stop_station[r]]): r for r in rows}
                r, s = at.get(leg.board.uic), at.get(leg.alight.uic)
                if r is None or s is None or r >= s:
                    continue
                dep = midnight + dt.timedelta(seconds=int(tt.stop_depart[r]) + shift * DAY)
                arr = midnight + dt.timedelta(seconds=int(tt.stop_arrive[s]) + shift * DAY)
                found |= bool(dep == leg.departure and arr == leg.arrival and tt.stop_flags[r] & BOARD)
        assert found, leg
    for before, after in zip(journey.legs, journey.legs[1:]):
        assert after.departure - before.arrival >= dt.timedelta(minutes=10)


def test_journeys_on_pairs_one_train_joins_are_the_brute_force_earliest(planner):
    """2,000 station pairs one train joins, from 08:00 on a Tuesday: the journey arrives no
    later than the earliest direct train; arriving as early, it is a direct train (no change
    among equal arrivals) and leaves no earlier than the direct train arriving then; arriving
    sooner, its trains run, at their times, with time to change."""
    tt = planner.timetable
    day = tt.day_index(TUESDAY)
    pairs = direct_trains(tt, day)
    start = 8 * 3600
    usable = sorted(k for k, trains in pairs.items() if k[0] != k[1] and any(d >= start for d, _, _ in trains))
    random.Random(0).shuffle(usable)
    when = dt.datetime.combine(TUESDAY, dt.time(8, 0))
    midnight = dt.datetime.combine(TUESDAY, dt.time())
    direct = faster = 0
    for a, b in usable[:2000]:
        trains = [(arr, -dep, t) for dep, arr, t in pairs[(a, b)] if dep >= start]
        arrival, minus_dep, _ = min(trains)
        journey = planner.journey([int(tt.station_uic[a])], [int(tt.station_uic[b])], when)
        assert isinstance(journey, Journey), (tt.names[a], tt.names[b], journey)
        reached = int((journey.arrival - midnight).total_seconds())
        left = int((journey.departure - midnight).total_seconds())
        assert reached <= arrival, (tt.names[a], tt.names[b])
        assert left >= start
        if reached == arrival:
            direct += 1
            assert journey.changes == 0, (tt.names[a], tt.names[b], journey.legs)
            # the latest departure of the direct trains arriving then
            assert left == max(-m for arr, m, _ in trains if arr == arrival)
        else:
            faster += 1
            check_legs(tt, journey, TUESDAY)
    # most pairs have no faster journey than their direct train (1,395 at this commit)
    assert direct >= 1200 and direct + faster == 2000


def test_paris_to_marseille_leaves_gare_de_lyon_on_one_tgv(planner):
    paris = [PARIS_GARE_DE_LYON, PARIS_MONTPARNASSE, PARIS_NORD]
    journey = planner.journey(paris, [MARSEILLE], dt.datetime(2024, 7, 2, 8, 0))
    assert isinstance(journey, Journey) and journey.changes == 0
    leg = journey.legs[0]
    assert leg.board.name == "Paris Gare de Lyon" and leg.alight.name == "Marseille Saint-Charles"
    assert leg.kind in ("TGV INOUI", "OUIGO") and leg.departure >= dt.datetime(2024, 7, 2, 8, 0)
    assert [s.name for s in journey.stops] == ["Paris Gare de Lyon", "Marseille Saint-Charles"]
    assert len(leg.calls) == len(leg.coords) >= 2 and leg.minutes == journey.minutes < 5 * 60
    bordeaux = planner.journey(paris, [BORDEAUX], dt.datetime(2024, 7, 2, 8, 0))
    assert bordeaux.stops[0].name == "Paris Montparnasse" and bordeaux.changes == 0


def test_a_change_across_paris_names_both_stations(planner):
    journey = planner.journey([AMIENS], [LYON_PART_DIEU], dt.datetime(2024, 7, 2, 8, 0))
    names = [s.name for s in journey.stops]
    assert names[0] == "Amiens" and names[-1] == "Lyon Part Dieu"
    assert "Paris Gare du Nord" in names and "Paris Gare de Lyon" in names
    arrive_nord = next(leg.arrival for leg in journey.legs if leg.alight.name == "Paris Gare du Nord")
    leave_lyon = next(leg.departure for leg in journey.legs if leg.board.name == "Paris Gare de Lyon")
    assert leave_lyon - arrive_nord >= dt.timedelta(minutes=60)  # Paris's transfer time
    for before, after in zip(journey.legs, journey.legs[1:]):
        assert after.departure - before.arrival >= dt.timedelta(minutes=10)


def test_a_requested_stop_is_called_at(planner):
    journey = planner.journey([MARSEILLE], [PARIS_GARE_DE_LYON], dt.datetime(2024, 7, 2, 8, 0), via=[[LYON_PART_DIEU]])
    assert isinstance(journey, Journey)
    stop = next(s for s in journey.stops if s.uic == LYON_PART_DIEU)
    assert stop.requested and journey.stops[0].name == "Marseille Saint-Charles"


def test_journeys_without_trains_say_why(planner):
    outside = planner.journey([MARSEILLE], [PARIS_GARE_DE_LYON], dt.datetime(2024, 8, 2, 8, 0))
    assert isinstance(outside, NoJourney) and "outside the timetable (2024-06-26 to 2024-07-26)" in outside.reason
    nowhere = planner.journey(
        [12345678], [PARIS_GARE_DE_LYON], dt.datetime(2024, 7, 2, 8), names=["Nulle-Part", "Paris"]
    )
    assert nowhere.reason == "no train of the timetable calls at Nulle-Part"
    same = planner.journey([MARSEILLE], [MARSEILLE], dt.datetime(2024, 7, 2, 8))
    assert same.reason == "departure and arrival are the same station"
    late = planner.journey([MARSEILLE], [PARIS_GARE_DE_LYON], dt.datetime(2024, 7, 26, 23, 0))
    assert isinstance(late, NoJourney) and "leaving after 23:00" in late.reason  # the timetable's last day


def test_journey_planner_refuses_bad_parameters(planner):
    with pytest.raises(ValueError, match="change_minutes"):
        JourneyPlanner(planner.timetable, change_minutes=-1)
    with pytest.raises(ValueError, match="max_trains"):
        JourneyPlanner(planner.timetable, max_trains=0)
    with pytest.raises(ValueError, match="when"):
        planner.journey([MARSEILLE], [NICE], "2024-07-02T08:00")


def test_journeys_are_the_same_however_often_asked(planner):
    when = dt.datetime(2024, 7, 5, 17, 30)
    first = planner.journey([NICE], [BORDEAUX], when)
    planner.journey([AMIENS], [MARSEILLE], dt.datetime(2024, 7, 6, 6, 0))
    assert planner.journey([NICE], [BORDEAUX], when) == first


def brute_force_earliest(tt: Timetable, planner: JourneyPlanner, day: int, source: int, target: int, start: int):
    """The earliest arrival at `target` from `source` at `start` (seconds after the day's
    midnight), by relaxing every train of the day (and the day before and after) again and
    again until nothing improves: a train is boarded where one is ready (the start, an
    arrival plus the station's change time, an arrival at a station of the same city plus the
    transfer); no connection scan, no count of trains."""
    instances = []
    for slot in (-1, 0, 1):
        d = day + slot
        if 0 <= d < tt.n_days:
            for train in np.flatnonzero(tt.days[:, d]).tolist():
                rows = list(tt.stops(train))
                instances.append(
                    [
                        (
                            int(tt.stop_station[r]),
                            int(tt.stop_arrive[r]) + slot * DAY,
                            int(tt.stop_depart[r]) + slot * DAY,
                            int(tt.stop_flags[r]),
                        )
                        for r in rows
                    ]
                )
    inf = 1 << 40
    arrive = [inf] * len(tt.station_uic)
    ready = [inf] * len(tt.station_uic)
    ready[source] = start
    changed = True
    while changed:
        changed = False
        for stops in instances:
            onboard = False
            for station, arr, dep, flags in stops:
                if onboard and flags & ALIGHT and arr < arrive[station]:
                    arrive[station] = arr
                    changed = True
                if not onboard and flags & BOARD and ready[station] <= dep:
                    onboard = True
        for s, arr in enumerate(arrive):
            if arr < inf:
                best = arr + int(planner.change[s])
                if best < ready[s]:
                    ready[s] = best
                for o in range(int(planner.transfer_ptr[s]), int(planner.transfer_ptr[s + 1])):
                    other = int(planner.transfer_to[o])
                    if arr + int(planner.transfer_time[o]) < ready[other]:
                        ready[other] = arr + int(planner.transfer_time[o])
    return arrive[target] if arrive[target] < inf else None


@pytest.mark.slow
def test_journeys_between_random_stations_arrive_as_early_as_the_brute_force(planner):
    """20 random pairs of stations, most needing changes (Paris's transfers, 10-minute changes):
    the journey's arrival is the earliest a relaxation of every train finds."""
    tt = planner.timetable
    day = tt.day_index(TUESDAY)
    midnight = dt.datetime.combine(TUESDAY, dt.time())
    stations = sorted(set(tt.stop_station.tolist()))
    rng = random.Random(3)
    for _ in range(20):
        a, b = rng.sample(stations, 2)
        expected = brute_force_earliest(tt, planner, day, a, b, 8 * 3600)
        journey = planner.journey([int(tt.station_uic[a])], [int(tt.station_uic[b])], midnight + dt.timedelta(hours=8))
        found = int((journey.arrival - midnight).total_seconds()) if isinstance(journey, Journey) else None
        assert found == expected, (tt.names[a], tt.names[b], found, expected)


def test_the_forward_scan_alone_reads_back_a_journey_arriving_as_early(planner):
    """The forward scan's own journey (what the planner answers should the backward scan find
    none) arrives when the planner's does, with as many trains, and leaves no later."""
    tt = planner.timetable
    when = dt.datetime.combine(TUESDAY, dt.time(8))
    midnight = dt.datetime.combine(TUESDAY, dt.time())
    forward, _ = tt.connections(tt.day_index(TUESDAY))
    for a, b in ((AMIENS, LYON_PART_DIEU), (NICE, BORDEAUX), (MARSEILLE, PARIS_GARE_DE_LYON)):
        source, target = tt.stations([a])[0], tt.stations([b])[0]
        best, trains = planner._scan(forward, {source: 8 * 3600}, {target: 0}, planner.max_trains)
        alone = planner._assemble(
            planner._legs(forward, {target: 0}, best, trains, reverse=False), midnight, when, set()
        )
        journey = planner.journey([a], [b], when)
        assert alone.arrival == journey.arrival and alone.changes == journey.changes
        assert alone.departure <= journey.departure
        check_legs(tt, alone, TUESDAY)


def test_a_station_no_train_of_the_exports_calls_at_starts_from_the_served_stations_near_it(planner):
    """Poissy (RER A, Transilien J) is in SNCF's station list but in none of the TER, TGV and
    Intercités exports: its journey starts at a station with trains within 35 km, reached on
    foot or by local transport, and says which place that station serves and how far it is."""
    from spacy_seqkit.travel.orders.routing import trip_journey
    from spacy_seqkit.travel.orders.when import When
    from spacy_seqkit.travel.routes.network import RailNetwork

    network = RailNetwork.load()
    poissy = [int(network.uic[i]) for i, name in enumerate(network.names) if name == "Poissy"]
    assert poissy and not planner.served(poissy)
    when = When(dt.datetime(2024, 7, 2, 8, 0), "test")
    journey = trip_journey(
        planner, network, (poissy, (ROUEN,)), ("Poissy", "Rouen"), (None, None), when, kinds=("station", "commune")
    )
    assert isinstance(journey, Journey), journey
    first = journey.stops[0]
    assert first.uic not in poissy and first.serves == "Poissy" and 0 < first.access_km <= 35
    assert journey.stops[-1].name.startswith("Rouen")
    nowhere = trip_journey(
        planner,
        network,
        ([12345678], (ROUEN,)),
        ("Nulle-Part", "Rouen"),
        (None, None),
        when,
        kinds=("station", "commune"),
    )
    assert isinstance(nowhere, NoJourney) and nowhere.reason == "no train of the timetable calls at Nulle-Part"
