"""The hand-written evaluation sets (corpus/test.jsonl, corpus/dev.jsonl, the blind
and holdout sets corpus/blind.jsonl, corpus/holdout.jsonl, and the train requests naming
stations corpus/stations.jsonl) are well formed: spans sit on spaCy token boundaries, trips agree with
spans, canonical names are official commune names or stations, and the sets are big enough
and disjoint."""

import csv
import gzip
import json
import re
from pathlib import Path

import pytest
from script_loader import load_script

from spacy_seqkit.travel.places.stations import COLLOQUIAL_NAMES

from travel_conventions import is_station_form, sncf_station_names, sncf_station_words

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
SETS = {"test": 320, "dev": 150, "blind": 400, "holdout": 150, "stations": 400}  # minimum number of sentences
# The share of INVALID requests and of requests with stops each set was written to hold: the
# stations set is mostly requests for a train between named stations.
MIX = {name: ((0.30, 0.42), (0.08, 0.15)) for name in SETS}
MIX["stations"] = ((0.10, 0.20), (0.05, 0.15))
LABELS = {"DEPART", "ARRIVEE", "VIA"}
# The canonical stations are SNCF's traveller names, or the name a request used for one, made
# of the words of its SNCF names ("Valence TGV", "Paris Nord"), read from the data file, not
# from the code this data is meant to check.
STATIONS = sncf_station_names()
STATION_WORDS = sncf_station_words()


def is_known(place, french_places):
    if place in french_places or place in STATIONS or is_station_form(place, STATION_WORDS):
        return True
    # a station's name in use, answered as typed ("Valence Ville", "Cherbourg")
    return any(place in forms for forms in COLLOQUIAL_NAMES.values())


def read(name):
    path = CORPUS / f"{name}.jsonl"
    with path.open(encoding="utf8") as f:
        return [(number, line) for number, line in enumerate(f, 1)]


def records(name):
    return [json.loads(line) for _, line in read(name)]


@pytest.fixture(scope="module")
def tokenizer():
    import spacy

    return spacy.blank("fr").tokenizer


@pytest.fixture(scope="module")
def french_places():
    """Official commune names, read from the data file rather than through the gazetteer."""
    path = CORPUS.parent / "spacy_seqkit" / "travel" / "places" / "data" / "communes.tsv.gz"
    with gzip.open(path, "rt", encoding="utf8") as f:
        return {row["name"] for row in csv.DictReader(f, delimiter="\t") if row["kind"] != "R"}


def normalize(text):
    return re.sub(r"\s+", " ", text).strip().casefold()


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_lines_are_json_records(name):
    for number, line in read(name):
        record = json.loads(line)
        assert set(record) == {"id", "text", "spans", "trip"}, f"{name}:{number}"
        assert isinstance(record["text"], str) and record["text"].strip(), f"{name}:{number}"
        assert isinstance(record["spans"], list), f"{name}:{number}"


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_size_and_uniqueness(name):
    recs = records(name)
    assert len(recs) >= SETS[name]
    ids = [r["id"] for r in recs]
    assert len(set(ids)) == len(ids), "duplicate ids"
    texts = [normalize(r["text"]) for r in recs]
    dups = {t for t in texts if texts.count(t) > 1}
    assert not dups, f"duplicate texts: {sorted(dups)[:5]}"


@pytest.mark.parametrize("a,b", [(a, b) for i, a in enumerate(SETS) for b in list(SETS)[:i]])
def test_handwritten_sets_are_disjoint(a, b):
    first = {normalize(r["text"]) for r in records(a)}
    second = {normalize(r["text"]) for r in records(b)}
    assert not first & second, sorted(first & second)[:5]


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_spans_on_token_boundaries(name, tokenizer):
    for rec in records(name):
        text = rec["text"]
        doc = tokenizer(text)
        starts = {t.idx for t in doc}
        ends = {t.idx + len(t.text) for t in doc}
        previous_end = 0
        for span in sorted(rec["spans"], key=lambda s: s["start"]):
            where = f"{rec['id']} {text!r} {span}"
            assert span["label"] in LABELS, where
            assert 0 <= span["start"] < span["end"] <= len(text), where
            assert span["start"] >= previous_end, f"overlapping spans in {where}"
            mention = text[span["start"] : span["end"]]
            assert mention == mention.strip(), f"span with outer whitespace in {where}"
            assert span["start"] in starts and span["end"] in ends, f"not on tokens: {where}"
            previous_end = span["end"]


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_trip_agrees_with_spans(name):
    for rec in records(name):
        labels = [s["label"] for s in sorted(rec["spans"], key=lambda s: s["start"])]
        where = f"{rec['id']} {rec['text']!r}"
        assert labels.count("DEPART") <= 1 and labels.count("ARRIVEE") <= 1, where
        complete = "DEPART" in labels and "ARRIVEE" in labels
        assert (rec["trip"] is not None) == complete, where
        if complete:
            assert set(rec["trip"]) == {"departure", "arrival", "steps"}, where
            assert len(rec["trip"]["steps"]) == labels.count("VIA"), where
        else:
            assert "VIA" not in labels, f"VIA stop in an INVALID request: {where}"


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_canonical_names_exist(name, french_places):
    unknown = [
        (rec["id"], place)
        for rec in records(name)
        if rec["trip"] is not None
        for place in [rec["trip"]["departure"], rec["trip"]["arrival"], *rec["trip"]["steps"]]
        if not is_known(place, french_places)
    ]
    assert not unknown, f"canonical names neither official commune names nor stations: {unknown}"


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_have_the_intended_mix(name):
    recs = records(name)
    invalid = sum(r["trip"] is None for r in recs) / len(recs)
    with_via = sum(bool(r["trip"] and r["trip"]["steps"]) for r in recs) / len(recs)
    (low, high), (via_low, via_high) = MIX[name]
    assert low <= invalid <= high, f"INVALID share {invalid:.2f}"
    assert via_low <= with_via <= via_high, f"VIA share {with_via:.2f}"


def load_builder():
    return load_script(CORPUS / "handwritten" / "build.py", "handwritten_build")


@pytest.mark.parametrize("name", list(SETS))
def test_handwritten_sets_jsonl_matches_its_source(name, french_places):
    """The JSONL is what build.py makes of the marked-up source, and every marked place,
    one-end requests included, has a known canonical name."""
    builder = load_builder()
    built, _ = builder.build(name)
    assert built == records(name), f"corpus/{name}.jsonl is stale: run corpus/handwritten/build.py"
    source = (CORPUS / "handwritten" / f"{name}.txt").read_text(encoding="utf8").splitlines()
    marked = {
        span["canonical"]
        for line in source
        if line.strip() and not line.lstrip().startswith("#")
        for span in builder.parse_line(line.strip())[3]
    }
    unknown = {place for place in marked if not is_known(place, french_places)}
    assert not unknown, sorted(unknown)
