"""`evaluate-trips` on several sets at once: the figures of each, as one set at a time gives them;
the wrong trips counted by kind."""

import json
from collections import Counter

import pytest
import spacy
from typer.testing import CliRunner

from spacy_seqkit.cli import app
from spacy_seqkit.travel.evaluation import MISS_KINDS, miss_kind
from spacy_seqkit.travel.pipeline.trip import Trip
from spacy_seqkit.travel.places.french_places import FrenchPlaces


def write_set(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    return path


def record(text, departure, arrival):
    spans = [
        {"start": text.index(departure), "end": text.index(departure) + len(departure), "label": "DEPART"},
        {"start": text.index(arrival), "end": text.index(arrival) + len(arrival), "label": "ARRIVEE"},
    ]
    return {"text": text, "spans": spans, "trip": {"departure": departure, "arrival": arrival, "steps": []}}


def test_evaluate_trips_several_sets_equal_one_set_at_a_time(model_dir, tmp_path):
    first = write_set(tmp_path / "a.jsonl", [record("de Marseille à Paris", "Marseille", "Paris")])
    # the rule-based pipeline reads Lyon as an arrival: this trip is wrong
    second = write_set(tmp_path / "b.jsonl", [record("de Lyon à Toulouse", "Lyon", "Toulouse")] * 2)
    runner = CliRunner()
    together = ["evaluate-trips", str(model_dir), str(first), str(second), "--no-baseline"]
    together += ["-o", str(tmp_path / "a.json"), "-o", str(tmp_path / "b.json")]
    together += ["--errors", str(tmp_path / "a_err.jsonl"), "--errors", str(tmp_path / "b_err.jsonl")]
    result = runner.invoke(app, together)
    assert result.exit_code == 0, result.output
    for data, name in ((first, "a"), (second, "b")):
        alone = tmp_path / f"{name}_alone.json"
        result = runner.invoke(app, ["evaluate-trips", str(model_dir), str(data), "--no-baseline", "-o", str(alone)])
        assert result.exit_code == 0, result.output
        both, single = (json.loads(p.read_text())["results"]["model"] for p in (tmp_path / f"{name}.json", alone))
        both.pop("words_per_second"), single.pop("words_per_second")
        assert both == single
    assert json.loads((tmp_path / "a.json").read_text())["results"]["model"]["trip_acc"] == 1.0
    assert json.loads((tmp_path / "b.json").read_text())["results"]["model"]["trip_acc"] == 0.0
    assert (tmp_path / "a_err.jsonl").read_text() == ""
    errors = [json.loads(line) for line in (tmp_path / "b_err.jsonl").read_text().splitlines()]
    assert len(errors) == 2 and all(e["kind"] in MISS_KINDS for e in errors)
    # Every wrong trip counted once, by kind, in the figures (a set never read says this much).
    for name, wrong in (("a", 0), ("b", 2)):
        misses = json.loads((tmp_path / f"{name}.json").read_text())["results"]["model"]["misses"]
        assert list(misses) == list(MISS_KINDS) and sum(misses.values()) == wrong
    assert Counter(e["kind"] for e in errors) == {k: v for k, v in misses.items() if v}


def doc_with_ends(text, *ends):
    doc = spacy.blank("fr")(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ends]
    return doc


@pytest.mark.parametrize(
    "predicted, gold, ends, kind",
    [
        (("Marseille", "Paris"), ("Marseille", "Paris"), (), None),
        ((None, None), ("Marseille", "Paris"), (), "valid answered INVALID, no end read"),
        ((None, None), ("Marseille", "Paris"), (("Paris", "ARRIVEE"),), "valid answered INVALID, one end read"),
        (
            (None, None),
            ("Marseille", "Paris"),
            (("Marseille", "DEPART"), ("Paris", "ARRIVEE")),
            "valid answered INVALID, both ends read",
        ),
        (("Marseille", "Paris"), (None, None), (), "a trip where none is asked"),
        # a station and its town's commune ("Marne-la-Vallée" as typed, SNCF's "Marne-la-Vallée Chessy")
        (("Marne-la-Vallée", "Lille"), ("Marne-la-Vallée Chessy", "Lille"), (), "the same communes, other names"),
        (("Paris", "Marseille"), ("Marseille", "Paris Gare de Lyon"), (), "the ends swapped"),
        (("Marseille", "Lyon"), ("Marseille", "Paris"), (), "one end another place"),
        (("Nice", "Lyon"), ("Marseille", "Paris"), (), "both ends other places"),
    ],
)
def test_miss_kind_says_how_a_trip_is_wrong(predicted, gold, ends, kind):
    doc = doc_with_ends("de Marseille à Paris", *ends)
    assert miss_kind(Trip(*predicted), Trip(*gold), doc, FrenchPlaces()) == kind


def test_evaluate_trips_outputs_one_per_set(model_dir, tmp_path):
    data = write_set(tmp_path / "a.jsonl", [record("de Marseille à Paris", "Marseille", "Paris")])
    args = ["evaluate-trips", str(model_dir), str(data), str(data), "-o", str(tmp_path / "x.json"), "--no-baseline"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "--output given 1 times for 2 data sets" in result.output
