"""Trip evaluation on hand-written JSONL sets, with a reference baseline.

Every figure is printed beside the same figure for a baseline that uses
fr_core_news_md's LOC entities and preposition rules, so no number stands alone.
"""

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, Span
from spacy.training import Example

from .corpus.records import REWRITE_FORMS, gold_rewrite, read_records, record_doc, record_trip
from .orders.answer import load_answering, trip_of, trip_values
from .pipeline.reading import add_reading
from .pipeline.trip import Trip, trip_accuracy
from .places.names import normalise

BASELINE_MODEL = "fr_core_news_md"
# Words just before a place that say which end it is (lowercase, accents optional).
DEPART_CUES = {"de", "d'", "d", "du", "des", "depuis", "partant", "provenance", "quitter", "quitte", "part"}
ARRIVEE_CUES = {"à", "a", "au", "aux", "vers", "pour", "jusqu'à", "jusqu'a", "jusque", "destination", "en", "sur"}
VIA_CUES = {"par", "via"}


def baseline_spans(doc: Doc) -> List[Span]:
    """fr_core_news_md's LOC entities, labelled by the word before them; with
    no cue, a first and second place read as departure and arrival."""
    spans = []
    for ent in doc.ents:
        if ent.label_ != "LOC":
            continue
        before = [t.lower_ for t in doc[max(ent.start - 2, 0) : ent.start]]
        cue = before[-1] if before else ""
        label = None
        if cue in VIA_CUES:
            label = "VIA"
        elif cue in DEPART_CUES:
            label = "DEPART"
        elif cue in ARRIVEE_CUES:
            label = "ARRIVEE"
        spans.append((ent, label))
    unlabelled = [i for i, (_, label) in enumerate(spans) if label is None]
    labels_used = {label for _, label in spans}
    for i in unlabelled:
        if "DEPART" not in labels_used:
            spans[i] = (spans[i][0], "DEPART")
            labels_used.add("DEPART")
        elif "ARRIVEE" not in labels_used:
            spans[i] = (spans[i][0], "ARRIVEE")
            labels_used.add("ARRIVEE")
    return [Span(doc, ent.start, ent.end, label=label) for ent, label in spans if label]


class BaselinePipeline:
    """fr_core_news_md + the rules above + the same trip component as ours."""

    def __init__(self) -> None:
        try:
            self.nlp = spacy.load(
                BASELINE_MODEL,
                exclude=["parser", "lemmatizer", "morphologizer", "attribute_ruler", "senter"],
            )
        except OSError:
            raise ValueError(
                f"The baseline needs the '{BASELINE_MODEL}' package: "
                "pip install -c constraints.txt '.[baseline]' (or pass --no-baseline)"
            ) from None
        self.reading = add_reading(spacy.blank("fr")).pipeline  # the same reading as ours

    def pipe(self, texts: Iterable[str], batch_size: int = 64) -> Iterable[Doc]:
        for doc in self.nlp.pipe(texts, batch_size=batch_size):
            doc.ents = baseline_spans(doc)
            for _, pipe in self.reading:
                doc = pipe(doc)
            yield doc


# What went wrong in a wrong trip (`miss_kind`), counted per set by `evaluate` ("misses"): a set
# that may not be read (the never-read writers) still says where its misses lie.
MISS_KINDS = (
    "valid answered INVALID, no end read",
    "valid answered INVALID, one end read",
    "valid answered INVALID, both ends read",
    "a trip where none is asked",
    "the same communes, other names",
    "the ends swapped",
    "one end another place",
    "both ends other places",
)


def miss_kind(predicted: Trip, gold: Trip, doc: Doc, places=None) -> Optional[str]:
    """The kind of miss (`MISS_KINDS`) of a `predicted` trip against the `gold` one, None when it is
    right: a valid request answered INVALID by how many ends `doc`'s entities read (DEPART,
    ARRIVEE), a trip where none is asked, or how the ends differ, each compared by the commune it
    is or stands in (`orders.answer.trip_values`: the trip's own places, else `places.place(name)`;
    "Marne-la-Vallée" and "Marne-la-Vallée Chessy", "Paris" and "Paris Est" are the same communes)."""
    if predicted.same_as(gold):
        return None
    if gold.is_valid and not predicted.is_valid:
        read = sum(e.label_ in ("DEPART", "ARRIVEE") for e in doc.ents)
        return MISS_KINDS[min(read, 2)]
    if not gold.is_valid:
        return MISS_KINDS[3]
    ends, (departure, arrival) = _end_communes(predicted, places), _end_communes(gold, places)
    if ends == [departure, arrival]:
        return MISS_KINDS[4]
    if ends == [arrival, departure]:
        return MISS_KINDS[5]
    return MISS_KINDS[6] if ends[0] == departure or ends[1] == arrival else MISS_KINDS[7]


def _end_communes(trip: Trip, places) -> List[str]:
    """The INSEE code of the departure's and the arrival's commune, the name where it has none."""
    values = trip_values(trip, places)
    return [
        value.insee if value is not None and value.insee else normalise(name)
        for value, name in ((values[0], trip.departure or ""), (values[-1], trip.arrival or ""))
    ]


def _places_of(nlp: Language):
    """The places the pipeline's trip component reads with; None (the French places) without one."""
    return getattr(nlp.get_pipe("seqkit_trip"), "places", None) if "seqkit_trip" in nlp.pipe_names else None


def evaluate(pipe, records: List[Dict[str, Any]], nlp: Language, errors: Optional[List] = None) -> Dict[str, Any]:
    """Entity P/R/F per label, validity accuracy, trip accuracy and the misses by kind."""
    texts = [r["text"] for r in records]
    list(pipe(texts[:8]))  # warm-up: lazy loads (gazetteer, torch kernels) are not speed
    start = time.perf_counter()
    docs = list(pipe(texts))
    seconds = time.perf_counter() - start
    n_words = sum(len(d) for d in docs)
    examples = []
    pairs = []
    places, misses = _places_of(nlp), Counter[str]()
    for record, doc in zip(records, docs):
        examples.append(Example(doc, record_doc(nlp.make_doc, record)))
        pred, gold = trip_of(doc), record_trip(record)
        pairs.append((pred, gold))
        kind = miss_kind(pred, gold, doc, places)
        if kind is None:
            continue
        misses[kind] += 1
        if errors is not None:
            errors.append(
                {
                    "id": record.get("id"),
                    "kind": kind,
                    "text": record["text"],
                    "gold": record.get("trip"),
                    "predicted": {"departure": pred.departure, "steps": list(pred.steps), "arrival": pred.arrival}
                    if pred.is_valid
                    else None,
                    "entities": [(e.text, e.label_) for e in doc.ents],
                }
            )
    has_ents = any(doc.has_annotation("ENT_IOB") for doc in docs)
    scores = Scorer.score_spans(examples, "ents") if has_ents else {}
    per_type = scores.get("ents_per_type") or {}
    accuracy = trip_accuracy(pairs)
    return {
        "n": len(records),
        "ents_p": scores.get("ents_p"),
        "ents_r": scores.get("ents_r"),
        "ents_f": scores.get("ents_f"),
        "ents_per_type": {k: per_type[k] for k in sorted(per_type)},
        "validity_acc": accuracy["trip_validity_acc"],
        "trip_acc": accuracy["trip_acc"],
        "trip_exact_acc": accuracy["trip_exact_acc"],
        "misses": {kind: misses[kind] for kind in MISS_KINDS},
        "words_per_second": n_words / seconds if seconds else None,
    }


def print_report(results: Dict[str, Dict[str, Any]], title: Optional[str] = None) -> None:
    from wasabi import msg

    names = list(results)
    rows = [
        ["trip accuracy"] + [fmt(results[n]["trip_acc"]) for n in names],
        ["trip accuracy, exact names"] + [fmt(results[n]["trip_exact_acc"]) for n in names],
        ["validity accuracy"] + [fmt(results[n]["validity_acc"]) for n in names],
        ["entity P"] + [fmt(results[n]["ents_p"]) for n in names],
        ["entity R"] + [fmt(results[n]["ents_r"]) for n in names],
        ["entity F"] + [fmt(results[n]["ents_f"]) for n in names],
    ]
    labels = sorted({label for n in names for label in results[n]["ents_per_type"]})
    for label in labels:
        for key in ("p", "r", "f"):
            rows.append(
                [f"{label} {key.upper()}"] + [fmt(results[n]["ents_per_type"].get(label, {}).get(key)) for n in names]
            )
    for kind in MISS_KINDS:
        rows.append([f"misses: {kind}"] + [str(results[n]["misses"][kind]) for n in names])
    rows.append(["words/s"] + [fmt(results[n]["words_per_second"], digits=0) for n in names])
    n_records = results[names[0]]["n"]
    msg.divider(f"{title}: trips on {n_records} sentences" if title else f"Trips on {n_records} sentences")
    msg.table(rows, header=["metric"] + names, divider=True, widths="auto", aligns=["l"] + ["r"] * len(names))


def fmt(value: Optional[float], digits: int = 3) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def evaluate_trips(
    model: str,
    data: Path,
    output: Optional[Path] = None,
    baseline: bool = True,
    errors_path: Optional[Path] = None,
) -> Dict[str, Dict[str, Any]]:
    """The figures of `model` (and of the baseline) on one hand-written set; see `evaluate_trip_sets`."""
    return evaluate_trip_sets(model, [(data, output, errors_path)], baseline=baseline)[0]


def evaluate_trip_sets(
    model: str,
    sets: Sequence[Tuple[Path, Optional[Path], Optional[Path]]],
    baseline: bool = True,
) -> List[Dict[str, Dict[str, Any]]]:
    """The figures of `model` (and of the baseline) on each (data, output, errors) set, the
    pipelines loaded once: printed, and written as JSON to `output` and the wrong trips as JSONL
    to `errors` where given. A set with no records is a ValueError naming its file, before any
    pipeline is loaded."""
    records_of = []
    for data, _, _ in sets:
        records = read_records(data)
        if not records:
            raise ValueError(f"{data} holds no records")
        records_of.append(records)
    nlp = load_answering(model)  # as `resolve` loads it
    base = BaselinePipeline() if baseline else None
    all_results = []
    for (data, output, errors_path), records in zip(sets, records_of):
        errors: List[Dict[str, Any]] = []
        results = {"model": evaluate(nlp.pipe, records, nlp, errors)}
        if base is not None:
            results["baseline (fr_core_news_md + rules)"] = evaluate(base.pipe, records, nlp)
        print_report(results, title=str(data))
        if output is not None:
            output.parent.mkdir(parents=True, exist_ok=True)
            payload = {"model": str(model), "data": str(data), "results": results}
            output.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf8")
        if errors_path is not None:
            errors_path.parent.mkdir(parents=True, exist_ok=True)
            with errors_path.open("w", encoding="utf8") as f:
                for e in errors:
                    f.write(json.dumps(e, ensure_ascii=False) + "\n")
        all_results.append(results)
    return all_results


def compare_rewriters(models, data_paths, output=None, baseline: bool = True):
    """Score each (name, pipeline) and the baseline on each hand-written set:
    trip and validity accuracy (the answer read as the Travel Order Resolver
    reads it: gazetteer, n-best) and words/s from `evaluate`; exact
    match and chrF of the top rewrite as the model wrote it against the gold
    of the form it learned to write (its training reader's `rewrite_key`:
    the canonical trip, or with "rewrite_typed" the places as the request
    types them); for the baseline, its trip written canonically. Prints one
    table per set; returns the figures."""
    from wasabi import msg

    from ..scoring import rewrite_score

    systems = []
    for name, path in models:
        nlp = load_answering(path)
        systems.append((name, nlp.pipe, rewrite_key_of(nlp)))
    if baseline:
        systems.append(("baseline (fr_core_news_md + rules)", BaselinePipeline().pipe, "rewrite"))
    blank = spacy.blank("fr")
    results = {}
    for data in data_paths:
        records = read_records(data)
        if not records:
            raise ValueError(f"{data} holds no records")
        table = {}
        for name, pipe, rewrite_key in systems:
            answered: List[Doc] = []

            def keep_docs(texts, pipe=pipe, answered=answered):
                answered[:] = list(pipe(texts))
                return answered

            scores = evaluate(keep_docs, records, blank)
            examples = []
            for doc, record in zip(answered, records):
                predicted = blank.make_doc(doc.text)
                predicted._.rewrite = doc._.rewrite if doc._.rewrite is not None else trip_of(doc).to_rewrite()
                reference = record_doc(blank.make_doc, record)
                reference._.rewrite = gold_rewrite(blank.make_doc, record, rewrite_key)
                examples.append(Example(predicted, reference))
            rewrite = rewrite_score(examples)
            table[name] = {**scores, "exact": rewrite["rewrite_exact"], "chrf": rewrite["rewrite_chrf"]}
        results[str(data)] = table
        names = list(table)
        rows = [
            [label] + [fmt(table[n][key], digits) for n in names]
            for label, key, digits in (
                ("trip accuracy", "trip_acc", 3),
                ("validity accuracy", "validity_acc", 3),
                ("exact match", "exact", 3),
                ("chrF", "chrf", 3),
                ("words/s", "words_per_second", 0),
            )
        ]
        msg.divider(f"{data}: {len(records)} sentences")
        msg.table(rows, header=["metric"] + names, divider=True, widths="auto", aligns=["l"] + ["r"] * len(names))
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(
            json.dumps({"models": dict(models), "results": results}, indent=2, ensure_ascii=False), encoding="utf8"
        )
    return results


def rewrite_key_of(nlp) -> str:
    """The record key a rewriter pipeline learned its rewrites from (its
    training reader's `rewrite_key`), "rewrite" when it does not say."""
    reader = nlp.config.get("corpora", {}).get("train", {})
    key = reader.get("rewrite_key") if reader.get("@readers") == "spacy-seqkit.RewriteCorpus.v1" else None
    return key if key in REWRITE_FORMS else "rewrite"
