"""Journeys on SNCF's timetables, measured: loading, journeys per second, the same earliest
arrivals as `pyraptor` (RAPTOR, Delling, Pajor, Werneck 2012, in pure Python: PyPI
`pyraptor`) on the same day's trains and the same queries, and the share of the hand-written
sets' valid answers that get a journey (the rest listed with their reason).

    python -m spacy_seqkit.travel.benchmarks.journeys [--queries 2000] [--raptor-queries 20]
        [--png docs/img/journeys.png] corpus/test.jsonl corpus/blind.jsonl ...

The comparison with pyraptor runs both on the trains of Tuesday 2024-07-02 as pyraptor reads a
timetable: no change time, no transfer between stations, a train's stops where one may
neither board nor leave it left out; our planner is set the same way (`change_minutes=0`, no
city transfers) for that part only. Needs the bench extra (`pip install pyraptor`) for it.
"""

import argparse
import datetime as dt
import json
import os
import random
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..routes import Journey, JourneyPlanner, Timetable
from ..routes.timetable import DATA_FILE, _load

DAY = dt.date(2024, 7, 2)
DAY_INDEX = 6  # DAY in the timetable, which starts on 2024-06-26
BIG_CITIES = ("Paris", "Lyon", "Marseille", "Lille", "Bordeaux", "Toulouse", "Nantes", "Strasbourg", "Nice", "Rennes")


def timed_load() -> Tuple[JourneyPlanner, Dict[str, float]]:
    """A planner loaded from the file as at a first start, and how long each part took: the
    file, the planner's tables, the first day's connections, the first journey (numba's
    compiled scan read from its cache, or compiled)."""
    times = {}
    start = time.perf_counter()
    import numba  # noqa: F401

    times["import numba"] = time.perf_counter() - start
    _load.cache_clear()
    start = time.perf_counter()
    tt = Timetable.load(DATA_FILE)
    times["timetable file"] = time.perf_counter() - start
    start = time.perf_counter()
    planner = JourneyPlanner(tt)
    times["planner tables"] = time.perf_counter() - start
    start = time.perf_counter()
    tt.connections(DAY_INDEX)
    times["a day's connections"] = time.perf_counter() - start
    start = time.perf_counter()
    planner.journey([87751008], [87686006], dt.datetime.combine(DAY, dt.time(8)))
    times["first journey"] = time.perf_counter() - start
    return planner, times


def station_pairs(tt: Timetable, n: int, seed: int = 0) -> List[Tuple[int, int]]:
    """`n` pairs of distinct stations trains call at, drawn at random."""
    rng = random.Random(seed)
    stations = sorted(set(tt.stop_station.tolist()))
    return [(a, b) for a, b in (rng.sample(stations, 2) for _ in range(n))]


def journeys_per_second(planner: JourneyPlanner, pairs: Sequence[Tuple[int, int]], when: dt.datetime):
    """(journeys/s by the clock, journeys per second of this process's CPU time, share found,
    results) of `planner` over the station pairs. On a shared machine the two differ by the
    time other processes take the cores."""
    uic = planner.timetable.station_uic
    start, cpu = time.perf_counter(), time.process_time()
    results = [planner.journey([int(uic[a])], [int(uic[b])], when) for a, b in pairs]
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    found = sum(isinstance(r, Journey) for r in results) / len(pairs)
    return len(pairs) / elapsed, len(pairs) / used, found, results


def pyraptor_timetable(tt: Timetable, day: int):
    """The trains of `day` as pyraptor's Timetable: one stop per station, a train's stops
    where one may neither board nor leave left out."""
    from pyraptor.model.structures import (
        Routes,
        Station,
        Stations,
        Stop,
        Stops,
        Transfers,
        Trip,
        Trips,
        TripStopTime,
        TripStopTimes,
    )
    from pyraptor.model.structures import (
        Timetable as RaptorTimetable,
    )

    stations, stops = Stations(), Stops()
    stop_of = {}
    for s, name in enumerate(tt.names):
        station = stations.add(Station(str(s), f"{name} {s}"))
        stop = Stop(str(s), str(s), station, "?")
        station.add_stop(stop)
        stop_of[s] = stops.add(stop)
    trips, stop_times = Trips(), TripStopTimes()
    for train in np.flatnonzero(tt.days[:, day]).tolist():
        trip = Trip()
        trip.hint = str(tt.train_number[train])
        rows = [r for r in tt.stops(train) if tt.stop_flags[r]]
        for i, r in enumerate(rows):
            st = TripStopTime(trip, i, stop_of[int(tt.stop_station[r])], int(tt.stop_arrive[r]), int(tt.stop_depart[r]))
            stop_times.add(st)
            trip.add_stop_time(st)
        if len(rows) >= 2:
            trips.add(trip)
    routes = Routes()
    for trip in trips:
        routes.add(trip)
    return RaptorTimetable(stations, stops, trips, stop_times, routes, Transfers())


def compare_with_pyraptor(tt: Timetable, pairs: Sequence[Tuple[int, int]], rounds: int = 8):
    """(our journeys/s, pyraptor's journeys/s, same earliest arrivals, queries) on the trains
    of DAY as pyraptor reads them, from 08:00."""
    from loguru import logger
    from pyraptor.model.raptor import RaptorAlgorithm, best_stop_at_target_station

    logger.remove()  # pyraptor logs every round
    day = DAY_INDEX
    raptor_tt = pyraptor_timetable(tt, day)
    ours = JourneyPlanner(tt, change_minutes=0, city_transfers=False)
    start = 8 * 3600
    when = dt.datetime.combine(DAY, dt.time(8))
    midnight = dt.datetime.combine(DAY, dt.time())
    began = time.perf_counter()
    our_arrivals = []
    for a, b in pairs:
        j = ours.journey([int(tt.station_uic[a])], [int(tt.station_uic[b])], when)
        our_arrivals.append(int((j.arrival - midnight).total_seconds()) if isinstance(j, Journey) else None)
    our_rate = len(pairs) / (time.perf_counter() - began)
    began = time.perf_counter()
    raptor_arrivals = []
    for a, b in pairs:
        bags = RaptorAlgorithm(raptor_tt).run([raptor_tt.stops.get(str(a))], start, rounds)
        best = bags[rounds]
        target = best_stop_at_target_station([raptor_tt.stops.get(str(b))], best)
        raptor_arrivals.append(best[target].earliest_arrival_time if target != 0 else None)
    raptor_rate = len(pairs) / (time.perf_counter() - began)
    # a journey arriving the next day is out of pyraptor's one-day timetable
    same = sum(o == r or (r is None and (o is None or o >= 86_400)) for o, r in zip(our_arrivals, raptor_arrivals))
    return our_rate, raptor_rate, same, len(pairs), list(zip(pairs, our_arrivals, raptor_arrivals))


def handwritten_coverage(planner: JourneyPlanner, paths: Sequence[Path]):
    """For each set: (valid gold trips, with a journey, the rest with their reason, big-city
    departures, those whose first train leaves from a station of that city)."""
    from ..orders.answer import trip_values
    from ..orders.routing import trip_journey
    from ..orders.when import departure
    from ..pipeline.trip import Trip
    from ..routes import RailNetwork

    network = RailNetwork.load()
    out = {}
    for path in paths:
        answers = []  # (stations, names, communes, kinds) of each valid gold trip, and its request
        for record in map(json.loads, path.open(encoding="utf8")):
            trip = Trip.from_dict(record.get("trip"))
            values = trip_values(trip)
            if values:
                stations = tuple(tuple(v.uics) if v else () for v in values)
                communes = tuple(v.insee if v else None for v in values)
                kinds = tuple(v.kind if v else "" for v in values)
                answers.append(((stations, tuple(trip.places()), communes, kinds), departure(record["text"])))
        missing, big, big_ok = [], 0, 0
        for (stations, names, communes, kinds), when in answers:  # once, to load what the answers need
            trip_journey(planner, network, stations, names, communes, when, kinds)
        began = time.process_time()
        found = [trip_journey(planner, network, s, n, c, w, k) for (s, n, c, k), w in answers]
        rate = len(answers) / (time.process_time() - began)
        for ((stations, names, _, _), _), journey in zip(answers, found):
            if not isinstance(journey, Journey):
                missing.append(f"{' > '.join(names)}: {journey.reason}")
                continue
            if names[0] in BIG_CITIES and stations[0]:
                big += 1
                big_ok += str(journey.legs[0].board.uic) in stations[0]
        out[path.name] = (len(answers), len(answers) - len(missing), missing, big, big_ok, rate)
    return out


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", type=Path, help="hand-written JSONL sets (their gold trips)")
    parser.add_argument("--queries", type=int, default=2000, help="random station pairs timed")
    parser.add_argument("--raptor-queries", type=int, default=20, help="station pairs for the pyraptor comparison")
    parser.add_argument("--png", type=Path, default=None, help="write the speed figure here")
    args = parser.parse_args(argv)
    if args.queries < 1 or args.raptor_queries < 0:
        parser.error("--queries must be a positive integer, --raptor-queries a whole number (0: no pyraptor)")
    planner, load = timed_load()
    print("| loading | seconds |\n| --- | ---: |")
    for part, seconds in load.items():
        print(f"| {part} | {seconds:.3f} |")
    print(f"| the planner, ready (without importing numba) | {sum(load.values()) - load['import numba']:.3f} |")
    tt = planner.timetable
    pairs = station_pairs(tt, args.queries)
    when = dt.datetime.combine(DAY, dt.time(8))
    rate, cpu_rate, found, results = journeys_per_second(planner, pairs, when)
    again, cpu_again, _, _ = journeys_per_second(planner, pairs, when)
    changes = [r.changes for r in results if isinstance(r, Journey)]
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{len(pairs):,} random station pairs from 08:00 on {DAY}: **{rate:,.0f} journeys/s** by the clock "
        f"(again: {again:,.0f}/s), {cpu_rate:,.0f} and {cpu_again:,.0f} per second of CPU time (load average "
        f"{busy:.1f} on {os.cpu_count()} cores); found {found:.1%}, changes: median {np.median(changes):.0f}, "
        f"max {max(changes)}"
    )
    raptor_rate = same_rate = None
    try:
        if not args.raptor_queries:
            raise ImportError
        import pyraptor  # noqa: F401
    except ImportError:
        print("\nno comparison with pyraptor (--raptor-queries 0, or not installed: pip install pyraptor)")
    else:
        same_rate, raptor_rate, same, n, rows = compare_with_pyraptor(
            tt, station_pairs(tt, args.raptor_queries, seed=1)
        )
        ours = same_rate
        print("\n| planner (same trains, no change time) | journeys/s |\n| --- | ---: |")
        print(
            f"| spacy_seqkit connection scan (numba) | {ours:,.1f} |\n| pyraptor 1.3.10 (RAPTOR, Python) | {raptor_rate:,.3f} |"
        )
        print(f"\nratio: **{ours / raptor_rate:,.0f}x**; the same earliest arrival for {same} of {n} queries")
        for (a, b), o, r in rows:
            if o != r and not (r is None and (o is None or o >= 86_400)):
                print(f"  differs: {tt.names[a]} -> {tt.names[b]}: ours {o}, pyraptor {r}")
    if args.sets:
        print(
            "\n| set | valid gold trips | with a journey | share | big-city departures from a station of the city "
            "| journeys per CPU second (a trip's places to its journey) |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        coverage = handwritten_coverage(planner, args.sets)
        for name, (total, found_n, _, big, big_ok, rate) in coverage.items():
            print(f"| {name} | {total} | {found_n} | {found_n / max(total, 1):.1%} | {big_ok} / {big} | {rate:,.0f} |")
        for name, (_, _, missing, _, _, _) in coverage.items():
            for line in missing:
                print(f"  {name}: {line}")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        # pyraptor's figure beside ours on the same trains and queries; else ours alone
        fig, ax = plt.subplots(figsize=(6.5, 2.4))
        names = ["spacy_seqkit (numba CSA)"] + (["pyraptor 1.3.10 (Python RAPTOR)"] if raptor_rate else [])
        values = [same_rate or rate] + ([raptor_rate] if raptor_rate else [])
        ax.barh(names, values, color=["#d7263d", "#888888"][: len(values)])
        ax.set_xscale("log")
        ax.set_xlim(min(values) / 3, max(values) * 30)
        ax.set_xlabel("journeys per second, same trains and queries (log scale)")
        for i, v in enumerate(values):
            ax.text(v, i, f" {v:,.3g}", va="center")
        fig.tight_layout()
        args.png.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.png, dpi=120)
        print(f"\nwrote {args.png}")


if __name__ == "__main__":
    main()
