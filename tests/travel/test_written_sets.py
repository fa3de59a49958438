"""The written requests (corpus/written/): at least 5,000 from at least 20 writers, split by writer
into a training part, never-read evaluation writers (at least 1,500 requests from at least 6) and
never-read writers of new kinds who wrote after the learned roles (at least 300 from at least 3),
and writers read but never learned from (`dev`), each record well formed (spans on spaCy's tokens, trip agreeing with the spans, canonical names
that exist), built from its sources, and no sentence shared with another set."""

import json
import re
from pathlib import Path

import pytest
from script_loader import load_script
from test_handwritten_sets import LABELS, is_known
from test_handwritten_sets import SETS as HANDWRITTEN

WRITTEN = Path(__file__).resolve().parents[2] / "corpus" / "written"
PARTS = ("train", "eval", "after", "dev")


def load_builder():
    return load_script(WRITTEN / "build.py", "written_build")


def records(part):
    with (WRITTEN / f"{part}.jsonl").open(encoding="utf8") as f:
        return [json.loads(line) for line in f]


def key(text):
    return re.sub(r"\s+", " ", text).strip().casefold()


def test_written_sets_size_writers_and_split():
    train, evaluation = records("train"), records("eval")
    writers = {part: {r["writer"] for r in records(part)} for part in PARTS}
    assert len(train) + len(evaluation) >= 5000 and len(writers["train"] | writers["eval"]) >= 20
    assert len(evaluation) >= 1500 and len(writers["eval"]) >= 6
    assert not writers["train"] & writers["eval"], "a writer in both parts"
    assert writers["eval"] == set(load_builder().EVAL_WRITERS)
    # writers of new kinds, after the change: at least 300 requests from at least 3, in no other part
    after = records("after")
    assert len(after) >= 300 and len({r["writer"] for r in after}) >= 3
    assert writers["after"] == set(load_builder().AFTER_WRITERS)
    assert not writers["after"] & (writers["train"] | writers["eval"])
    # writers read but never learned from: in no other part
    assert writers["dev"] == set(load_builder().DEV_WRITERS) and len(records("dev")) >= 1000
    assert not writers["dev"] & (writers["train"] | writers["eval"] | writers["after"])
    for r in train + evaluation + after:
        assert r["brief"] and r["category"] and r["id"].startswith(r["writer"] + "-")


def test_written_sets_are_their_sources_built():
    built = load_builder().build()
    for part in PARTS:
        assert built[part] == records(part), f"corpus/written/{part}.jsonl is stale: run corpus/written/build.py"


def test_written_sets_share_no_sentence_with_each_other_or_the_handwritten_sets():
    seen = {}
    sets = {f"written/{part}": [r["text"] for r in records(part)] for part in PARTS}
    for name in HANDWRITTEN:
        path = WRITTEN.parent / f"{name}.jsonl"
        sets[name] = [json.loads(line)["text"] for line in path.open(encoding="utf8")]
    for name, texts in sets.items():
        for text in texts:
            other = seen.setdefault(key(text), name)
            assert other == name or not name.startswith("written"), f"{text[:60]!r} in {other} and {name}"
    assert len({key(r["text"]) for part in PARTS for r in records(part)}) == sum(len(records(p)) for p in PARTS)


@pytest.fixture(scope="module")
def tokenizer():
    import spacy

    return spacy.blank("fr").tokenizer


@pytest.mark.parametrize("part", PARTS)
def test_written_sets_spans_on_tokens_and_trips_agree(part, tokenizer):
    for r in records(part):
        doc = tokenizer(r["text"])
        starts, ends = {t.idx for t in doc}, {t.idx + len(t.text) for t in doc}
        labels = [s["label"] for s in sorted(r["spans"], key=lambda s: s["start"])]
        where = f"{r['id']} {r['text'][:60]!r}"
        for s in r["spans"]:
            assert s["label"] in LABELS and s["start"] in starts and s["end"] in ends, where
        complete = "DEPART" in labels and "ARRIVEE" in labels
        assert (r["trip"] is not None) == complete == (r["category"] in ("ok", "via")), where
        assert labels.count("DEPART") <= 1 and labels.count("ARRIVEE") <= 1, where


@pytest.fixture(scope="module")
def french_places():
    import csv
    import gzip

    from test_handwritten_sets import CORPUS

    path = CORPUS.parent / "spacy_seqkit" / "travel" / "places" / "data" / "communes.tsv.gz"
    with gzip.open(path, "rt", encoding="utf8") as f:
        return {row["name"] for row in csv.DictReader(f, delimiter="\t") if row["kind"] != "R"}


@pytest.mark.parametrize("part", PARTS)
def test_written_sets_canonical_names_exist(part, french_places):
    unknown = [
        (r["id"], place)
        for r in records(part)
        if r["trip"]
        for place in [r["trip"]["departure"], r["trip"]["arrival"], *r["trip"]["steps"]]
        if not is_known(place, french_places)
    ]
    assert not unknown, unknown[:10]
