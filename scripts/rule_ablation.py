"""Which reading rule earns its keep: the recorded requests of the same-answers check read again with
each step of `seqkit_trip`, each qualifier and each qualifier rule left out in turn, and the trips
answered counted right against each set's gold.

The entities and roles come from the recorded files (`tests/travel/data/answers/`, written by
`same_answers.py record` from the main job's pipeline), so no model runs and the figures are
reproducible from the repository. It prints counts only, per set: the never-read sets
(`written_eval`, `written_after`) are counted, never shown.

    python scripts/rule_ablation.py                        # every step, qualifier and rule
    python scripts/rule_ablation.py --only step:chain rule:other_means.other_means
    python scripts/rule_ablation.py --sets dev written_train

A variant is `step:NAME` (a step of seqkit_trip), `pipe:NAME` (a qualifier pipe) or `rule:ATTR.RULE`
(one rule of a qualifier, its other rules kept); `a+b` leaves out both. Each row gives, per set, the
right answers gained (+) or lost (-) without it, and how many answers changed at all.
"""

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from same_answers import answers, reading_pipeline, recorded, sources  # noqa: E402

from spacy_seqkit.travel.corpus.records import read_records, record_trip  # noqa: E402
from spacy_seqkit.travel.pipeline.qualifiers.base import Qualifier  # noqa: E402
from spacy_seqkit.travel.pipeline.trip import Trip  # noqa: E402


def golds(paths: Dict[str, Path], names: List[str]) -> Dict[str, List[Trip]]:
    return {name: [record_trip(r) for r in read_records(paths[name])] for name in names}


def variants(reading) -> List[str]:
    """Every step of the trip component, every qualifier pipe and every rule of one."""
    found = [f"step:{name}" for name, _ in reading.get_pipe("seqkit_trip").steps]
    for name in reading.pipe_names:
        pipe = reading.get_pipe(name)
        if isinstance(pipe, Qualifier):
            found.append(f"pipe:{name}")
            found += [f"rule:{pipe.attr}.{rule}" for rule in pipe.rules]
    return found


@contextmanager
def left_out(reading, variant: str) -> Iterator[None]:
    """`reading` with the steps, pipes and rules `variant` names left out, restored on exit."""
    trip = reading.get_pipe("seqkit_trip")
    steps, disabled, patched = list(trip.steps), [], []
    try:
        for part in variant.split("+"):
            kind, _, name = part.partition(":")
            if kind == "step":
                if name not in {n for n, _ in steps}:
                    raise SystemExit(f"{part}: no such step of seqkit_trip")
                trip.steps = [(n, f) for n, f in trip.steps if n != name]
            elif kind == "pipe":
                if name not in reading.pipe_names:
                    raise SystemExit(f"{part}: no such pipe ({', '.join(reading.pipe_names)})")
                reading.disable_pipe(name)
                disabled.append(name)
            elif kind == "rule":
                attr, _, rule = name.partition(".")
                pipe = next((p for _, p in reading.pipeline if isinstance(p, Qualifier) and p.attr == attr), None)
                if pipe is None or rule not in pipe.rules:
                    raise SystemExit(f"{part}: no such qualifier rule")
                process = pipe.process
                pipe.process = lambda doc, words, mentions, process=process, rule=rule: [
                    fired for fired in process(doc, words, mentions) if fired[1] != rule
                ]
                patched.append(pipe)
            else:
                raise SystemExit(f"{part}: a variant is step:NAME, pipe:NAME or rule:ATTR.RULE")
        yield
    finally:
        trip.steps = steps
        for name in disabled:
            reading.enable_pipe(name)
        for pipe in patched:  # a pipe with two rules left out was patched twice: one instance attribute
            pipe.__dict__.pop("process", None)


def trips(reading, rows: List[dict]) -> List[Trip]:
    return [Trip(departure=a["departure"], arrival=a["arrival"]) for a in answers(reading, rows)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", help="these variants only")
    parser.add_argument("--sets", nargs="+", help="these recorded sets only")
    args = parser.parse_args(argv)
    rows, paths = recorded(), sources()
    missing = [n for n in rows if not paths.get(n, Path("")).is_file()]
    if missing:  # the generated sets exist once `spacy project run generate` has made them
        print(f"no gold for {', '.join(missing)}: left out", file=sys.stderr)
    names = [n for n in rows if n not in missing and (not args.sets or n in args.sets)]
    gold = golds(paths, names)
    reading = reading_pipeline()
    base = {n: trips(reading, rows[n]) for n in names}
    right = {n: sum(t.same_as(g) for t, g in zip(base[n], gold[n])) for n in names}
    width = max(len(n) for n in names)
    print(f"{'variant':<40}" + "".join(f"{n:>{width + 1}}" for n in names) + "  changed")
    print(f"{'all rules (right answers)':<40}" + "".join(f"{right[n]:>{width + 1}}" for n in names))
    for variant in args.only or variants(reading):
        with left_out(reading, variant):
            now = {n: trips(reading, rows[n]) for n in names}
        delta = {n: sum(t.same_as(g) for t, g in zip(now[n], gold[n])) - right[n] for n in names}
        changed = sum(a != b for n in names for a, b in zip(now[n], base[n]))
        print(f"{variant:<40}" + "".join(f"{delta[n]:>+{width + 1}d}" for n in names) + f"  {changed}", flush=True)


if __name__ == "__main__":
    main()
