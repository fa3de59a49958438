"""How the routes serve the answers to real requests: on the valid answers to hand-written sets
(the gold trips, or a pipeline's answers), the share routed and the detour of each route, its
length over the straight distance between its end stations and over the straight path through
the points it must pass (its ends and the stops asked for).

    python -m spacy_seqkit.travel.benchmarks.route_answers [--model MODEL] corpus/blind.jsonl corpus/holdout.jsonl
"""

import argparse
import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from ..orders.routing import route_stations
from ..routes import RailNetwork, Route
from ..routes.geo import haversine_km
from .routes import corpus_answers

Answer = Tuple[Tuple[Tuple[str, ...], ...], Tuple[str, ...], Tuple[Optional[str], ...]]


def pipeline_answers(model: str, records: List[Dict]) -> List[Answer]:
    """(stations of each place, names, INSEE codes) of the valid answers of `model` to the records' texts."""
    from ..orders.answer import answer_batch
    from ..orders.backends import load_pipeline
    from ..orders.format import Order

    nlp = load_pipeline(model)
    orders = [Order(i + 1, str(r["id"]), r["text"], None) for i, r in enumerate(records)]
    return [(a.stations, a.places, a.communes) for a in answer_batch(nlp, orders) if a.places]


def detours(network: RailNetwork, answers: List[Answer]) -> Tuple[List[float], List[float], List[str]]:
    """Each route's length over the straight distance between its end stations, and over the
    straight path through its requested points (the ends and the stops asked for, in order:
    a route must pass them); the reasons of the answers without a route."""
    ratios, legs, missing = [], [], []
    for stations, names, communes in answers:
        route = route_stations(network, stations, names, communes)
        if not isinstance(route, Route):
            missing.append(f"{' > '.join(names)}: {route.reason}")
            continue
        first, last = route.stops[0], route.stops[-1]
        straight = haversine_km((first.lon, first.lat), (last.lon, last.lat))
        asked = [(s.lon, s.lat) for s in route.stops if s.end or s.requested]
        through = sum(haversine_km(a, b) for a, b in zip(asked, asked[1:]))
        if straight > 1.0:  # two stations of one town: no detour to speak of
            ratios.append(route.km / straight)
            legs.append(route.km / through)
    return ratios, legs, missing


def report(paths: Sequence[Path], model: Optional[str] = None, limit: float = 1.6) -> Dict[str, Dict]:
    network = RailNetwork.load()
    out = {}
    for path in paths:
        records = [json.loads(line) for line in path.open(encoding="utf8")]
        answers = pipeline_answers(model, records) if model else corpus_answers(records)
        ratios, legs, missing = detours(network, answers)
        routed = len(answers) - len(missing)
        out[path.name] = {
            "answers": len(answers),
            "routed": routed,
            "routed_share": routed / max(1, len(answers)),
            "within_limit": sum(r <= limit for r in ratios) / max(1, len(ratios)),
            "within_limit_through_stops": sum(r <= limit for r in legs) / max(1, len(legs)),
            "below_straight": sum(r < 1.0 - 1e-9 for r in ratios),
            "limit": limit,
            "missing": missing,
            "worst": sorted(ratios)[-5:],
        }
        share, within = routed / max(1, len(answers)), sum(r <= limit for r in ratios) / max(1, len(ratios))
        through = sum(r <= limit for r in legs) / max(1, len(legs))
        print(
            f"{path.name}: {len(answers)} valid answers, routed {routed} ({100 * share:.1f} %), "
            f"within {limit}x the straight distance: {100 * within:.1f} % "
            f"(through the stops asked for: {100 * through:.1f} %), "
            f"shorter than straight: {out[path.name]['below_straight']}"
        )
        for reason in missing:
            print(f"  no route: {reason}")
    return out


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="hand-written JSONL sets")
    parser.add_argument("--model", help="a pipeline: route its answers instead of the gold trips")
    parser.add_argument("--limit", type=float, default=1.6)
    args = parser.parse_args(argv)
    report(args.sets, args.model, args.limit)


if __name__ == "__main__":
    main()
