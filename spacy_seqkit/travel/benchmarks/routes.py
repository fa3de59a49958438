"""Benchmark of the railway routes: build and load time, memory, routes per second, and a
map of the network with a few routes.

    python -m spacy_seqkit.travel.benchmarks.routes [OUT_DIR]
"""

import itertools
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..routes import RailNetwork, Route
from ..routes.datafile import read_arrays
from ..routes.network import DATA_FILE

Row = Dict[str, Union[str, float]]
Pair = Tuple[Sequence[int], Sequence[int]]
ROOT = Path(__file__).resolve().parents[3]
SNCF = ROOT.parent / "shared" / "data" / "sncf"
SHOWN = [(87751008, 87686006), (87611004, 87271007), (87581009, 87212027), (87471003, 87756056)]


def default_pairs(network: RailNetwork, n_random: int, seed: int) -> Dict[str, List[Pair]]:
    """Every pair of SNCF's national (A) stations, and random pairs of passenger stations."""
    rng = random.Random(seed)
    stations = network.uics()
    big: List[Pair] = [([a], [b]) for a, b in itertools.combinations(network.uics("A"), 2)]
    return {
        "A-station pairs": big,
        "random passenger pairs": [([a], [b]) for a, b in (rng.sample(stations, 2) for _ in range(n_random))],
    }


def time_routes(network: RailNetwork, pairs: List[Pair], keep_rows: bool, cache: bool = False) -> float:
    """Routes per second over `pairs`; with `keep_rows` the core's shortest paths are computed
    once, for all pairs, at the first route (the network's default); without, every route
    computes the rows it needs (the cost of one route alone); without `cache` no answer is
    reused."""
    network.cache_size = 4096 if cache else 0
    network.graph.all_pairs = keep_rows
    start = time.perf_counter()
    for departure, arrival in pairs:
        if not keep_rows:
            network.graph.rows.clear()
        network.route(departure, arrival)
    return len(pairs) / (time.perf_counter() - start)


def corpus_answers(records: List[Dict]) -> List[Tuple[Tuple[Tuple[str, ...], ...], Tuple[str, ...], Tuple]]:
    """The (stations of each place, names, INSEE codes) of every valid gold trip of `records`,
    as `resolve --route` receives them from the pipeline (places from the French places)."""
    from ..orders.answer import trip_values
    from ..pipeline.trip import Trip

    answers = []
    for record in records:
        trip = Trip.from_dict(record.get("trip"))
        values = trip_values(trip)
        if values:
            stations = tuple(tuple(v.uics) if v else () for v in values)
            answers.append((stations, tuple(trip.places()), tuple(v.insee if v else None for v in values)))
    return answers


def generated_records(n: int, seed: int) -> List[Dict]:
    """`n` requests of the generated corpus (the dev split of `spacy_seqkit generate`)."""
    from ..corpus.generate import generate_corpus

    return generate_corpus(seed=seed, n_train=1, n_dev=n)[1]


def time_answers(network: RailNetwork, answers: List, cache: bool) -> Tuple[float, float]:
    """(routes/s, share routed) of `route_stations` over `answers`, from `network` as it is
    (freshly loaded: the core's shortest paths computed, no station, commune or chain looked
    up yet); with `cache`, the answer cache of 4096 routes."""
    from ..orders.routing import route_stations

    network.graph.all_pairs = True
    network._cache.clear()
    network.cache_size = 4096 if cache else 0
    start = time.perf_counter()
    found = sum(isinstance(route_stations(network, *answer), Route) for answer in answers)
    return len(answers) / (time.perf_counter() - start), found / max(1, len(answers))


def build_seconds() -> Optional[float]:
    """Seconds the build script takes, or None without the raw SNCF data."""
    if not (SNCF / "liste-des-gares.csv").is_file():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "build_rail_network.py"),
                "--sncf",
                str(SNCF),
                "--out",
                str(Path(tmp) / "network.npz"),
            ],
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - start


def draw(network: RailNetwork, routes: List[Route], path: Path) -> None:
    """The network in grey, `routes` in colour, into a PNG at `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 9))
    for _, points in network.polylines():
        xs, ys = zip(*points)
        ax.plot(xs, ys, color="0.75", linewidth=0.5)
    for route in routes:
        xs, ys = zip(*route.coords)
        label = f"{route.stops[0].name} - {route.stops[-1].name} ({route.km:.0f} km)"
        ax.plot(xs, ys, linewidth=2, label=label)
    ax.set_aspect(1.45)  # about 1 / cos(46.5°): kilometres equal both ways
    ax.set_title("SNCF network (Liste des gares) and shortest routes")
    ax.legend(loc="lower left", fontsize=8)
    ax.set_axis_off()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def run_routes_benchmark(
    pairs: Optional[Dict[str, List[Pair]]] = None,
    out_dir: Union[str, Path] = "benchmarks/results",
    n_random: int = 2000,
    seed: int = 0,
    build: bool = True,
    n_generated: int = 5000,
) -> List[Row]:
    """Measure, print a table, draw `out_dir`/routes.png; returns the table's rows."""
    rows: List[Row] = []
    answers = corpus_answers(generated_records(n_generated, seed)) if n_generated else []
    if build:
        seconds = build_seconds()
        rows.append(
            {
                "measure": "build (scripts/build_rail_network.py)",
                "value": "no raw data" if seconds is None else round(seconds, 2),
                "unit": "s",
            }
        )
    loads = []
    for _ in range(5):
        start = time.perf_counter()
        RailNetwork(read_arrays(DATA_FILE), DATA_FILE)
        loads.append(time.perf_counter() - start)
    rows.append(
        {
            "measure": "load (read file + graph + all shortest paths of its core), median of 5",
            "value": round(sorted(loads)[2], 3),
            "unit": "s",
        }
    )
    rows.append({"measure": "network file", "value": round(DATA_FILE.stat().st_size / 1e6, 3), "unit": "MB"})
    tracemalloc.start()
    network = RailNetwork(read_arrays(DATA_FILE), DATA_FILE)
    loaded = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()  # it slows Python down: timings run without it
    pairs = pairs or default_pairs(network, n_random, seed)
    for name, group in pairs.items():
        for label, keep, cache in (
            ("no cached row, no answer cache", False, False),
            ("all pairs at the first route, first pass", True, False),
            ("all pairs, second pass", True, False),
            ("answer cache, first pass", True, True),
            ("answer cache, repeated", True, True),
        ):
            rows.append(
                {
                    "measure": f"routes/s, {name} ({len(group)}), {label}",
                    "value": round(time_routes(network, group, keep, cache)),
                    "unit": "routes/s",
                }
            )
    if answers:
        served = [a for a in answers if all(a[0])]
        start = time.perf_counter()
        network.graph.prepare()
        rows.append(
            {
                "measure": f"  of the load: the core's all shortest paths ({network.graph.m} nodes)",
                "value": round(time.perf_counter() - start, 3),
                "unit": "s",
            }
        )
        for label, answered, cache, fresh in (
            ("every valid answer, network as loaded", answers, False, True),
            ("answers whose places have stations, network as loaded", served, False, True),
            ("answers whose places have stations, second pass", served, False, False),
            ("answers whose places have stations, answer cache", served, True, False),
        ):
            if fresh:
                network = RailNetwork(read_arrays(DATA_FILE), DATA_FILE)
            speed, routed = time_answers(network, answered, cache)
            name = f"routes/s, generated corpus ({n_generated} requests), {label} ({len(answered)})"
            rows.append({"measure": name, "value": round(speed), "unit": "routes/s"})
            rows.append({"measure": f"  routed, {label}", "value": round(100 * routed, 1), "unit": "%"})
    tracemalloc.start()
    network = RailNetwork(read_arrays(DATA_FILE), DATA_FILE)
    all_pairs = [p for group in pairs.values() for p in group]
    time_routes(network, all_pairs, keep_rows=True, cache=True)
    current = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    rows.append({"measure": "memory after load (tracemalloc)", "value": round(loaded / 1e6, 1), "unit": "MB"})
    rows.append(
        {
            "measure": f"memory after {len(all_pairs)} routes (rows + 4096 answers kept)",
            "value": round(current / 1e6, 1),
            "unit": "MB",
        }
    )
    shown = [r for r in (network.route([a], [b]) for a, b in SHOWN) if isinstance(r, Route)]
    png = Path(out_dir) / "routes.png"
    draw(network, shown, png)
    width = max(len(str(r["measure"])) for r in rows)
    for r in rows:
        print(f"{str(r['measure']):<{width}}  {r['value']:>10} {r['unit']}")
    print(f"map: {png}")
    return rows


if __name__ == "__main__":
    run_routes_benchmark(out_dir=sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results")
