import json
import random
import re
from pathlib import Path

import pytest
import spacy
from rapidfuzz.distance import DamerauLevenshtein
from spacy.tokens import DocBin

from spacy_seqkit.travel.corpus.docbin import convert_file, records_to_docbin
from spacy_seqkit.travel.corpus.generate import (
    AMBIGUOUS,
    generate_corpus,
    make_split,
    read_sentence_keys,
    rewrite_of,
    sentence_key,
)
from spacy_seqkit.travel.places import make_french_places
from spacy_seqkit.travel.corpus.records import REWRITE_KEY, gold_rewrite, typed_rewrite, write_records
from spacy_seqkit.travel.pipeline.trip import Trip
from spacy_seqkit.travel.corpus.noise import (
    EMOJI,
    Segment,
    add_noise,
    emoji,
    no_apostrophes,
    no_hyphens,
    sms,
    strip_accents,
    to_record,
    typo,
    voice,
)
from spacy_seqkit.travel.corpus.phrasings import INVALID_FAMILIES, TEMPLATES, check_templates

CORPUS_DIR = Path(__file__).resolve().parents[3] / "corpus"
HAND_WRITTEN = [CORPUS_DIR / "test.jsonl", CORPUS_DIR / "dev.jsonl", CORPUS_DIR / "blind.jsonl"]
SEED = 0


@pytest.fixture(scope="module")
def corpus():
    """The default corpus, as `python -m spacy_seqkit generate` writes it from the project root."""
    return generate_corpus(seed=SEED, exclude_texts=read_sentence_keys(HAND_WRITTEN))


@pytest.fixture(scope="module")
def tokenizer():
    return spacy.blank("fr").tokenizer


def test_templates_count_and_well_formed():
    check_templates()
    assert len({t.id for t in TEMPLATES}) == len(TEMPLATES) >= 150
    assert len({t.pattern for t in TEMPLATES}) == len(TEMPLATES)


def test_generate_sizes_and_phrasings(corpus):
    train, dev = corpus
    assert len(train) == 8000 and len(dev) == 1500
    assert len({r["id"] for r in train + dev}) == 9500
    assert len({r["template"] for r in train + dev}) >= 150


def test_generate_deterministic_for_a_seed(tmp_path, corpus):
    a = generate_corpus(seed=SEED, n_train=300, n_dev=100, exclude_texts=read_sentence_keys(HAND_WRITTEN))
    b = generate_corpus(seed=SEED, n_train=300, n_dev=100, exclude_texts=read_sentence_keys(HAND_WRITTEN))
    write_records(a[0], tmp_path / "a.jsonl")
    write_records(b[0], tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    # A shorter run is the beginning of the longer one: sentences depend on the seed only.
    assert a[0] == corpus[0][:300] and a[1] == corpus[1][:100]
    other = generate_corpus(seed=SEED + 1, n_train=300, n_dev=100)
    assert [r["text"] for r in other[0]] != [r["text"] for r in a[0]]


def test_generate_records_consistent(corpus):
    gaz = make_french_places()
    resolved = total = 0
    for record in corpus[0] + corpus[1]:
        trip, labels = record["trip"], [s["label"] for s in record["spans"]]
        assert record["rewrite"] == rewrite_of(trip)
        starts = [s["start"] for s in record["spans"]]
        assert starts == sorted(starts)
        if trip is None:
            assert record["rewrite"] == "INVALID"
            # An INVALID request marks at most its one certain end, except one by another
            # means of transport, whose places keep their roles (the trip component's rule).
            assert "VIA" not in labels
            assert labels.count("DEPART") + labels.count("ARRIVEE") <= 1 or record["template"].startswith("other_mode-")
            continue
        assert labels.count("DEPART") == labels.count("ARRIVEE") == 1
        assert labels.count("VIA") == len(trip["steps"])
        for name in [trip["departure"], trip["arrival"], *trip["steps"]]:
            # A commune's official name, or a station by a name the request used for it
            # ("Valence TGV"), which names it again.
            place = gaz.place(name)
            assert place is not None and place.name == name, (name, place)
            assert name in gaz or place.kind == "station", name
            assert place.kind == "station" or not any(c.isdigit() for c in name)  # arrondissements
        span = next(s for s in record["spans"] if s["label"] == "DEPART")
        total += 1
        typed = gaz.place(record["text"][span["start"] : span["end"]])
        resolved += typed is not None and typed.name == trip["departure"]
    # Mentions resolve back to their canonical name, except some typos in small places.
    assert resolved / total > 0.9


def test_generate_spans_on_token_boundaries(corpus, tokenizer):
    for record in corpus[0] + corpus[1]:
        doc = tokenizer(record["text"])
        for span in record["spans"]:
            mention = record["text"][span["start"] : span["end"]]
            assert mention == mention.strip() and mention
            assert doc.char_span(span["start"], span["end"]) is not None, record


def test_generate_typed_rewrite_is_the_places_as_written(corpus, tokenizer):
    """rewrite_typed: the span tokens of departure, stops and arrival, in that order,
    each a run of the request's own tokens (so a rewriter can copy it), resolving to
    the gold trip nearly always (typos in small places aside)."""
    gaz = make_french_places()
    agree = valid = 0
    for record in corpus[0] + corpus[1]:
        typed = record["rewrite_typed"]
        if record["trip"] is None:
            assert typed == "INVALID"
            continue
        valid += 1
        tokens = [t.text for t in tokenizer(record["text"])]
        places = [p.strip() for p in typed.split(">")]
        assert len(places) == 2 + len(record["trip"]["steps"])
        for place in places:
            words = place.split(" ")
            assert any(tokens[i : i + len(words)] == words for i in range(len(tokens))), (record, place)
        resolved = Trip.from_rewrite(typed, lambda text: getattr(gaz.place(text), "name", None))
        agree += resolved.same_as(Trip.from_dict(record["trip"]))
    assert agree / valid > 0.95


def test_typed_rewrite_of_hand_written_records(tokenizer):
    record = {
        "id": "x",
        "text": "de st etienne a Lyon via Roanne stp",
        "spans": [
            {"start": 3, "end": 13, "label": "DEPART"},
            {"start": 16, "end": 20, "label": "ARRIVEE"},
            {"start": 25, "end": 31, "label": "VIA"},
        ],
        "trip": {"departure": "Saint-Étienne", "arrival": "Lyon", "steps": ["Roanne"]},
    }
    assert typed_rewrite(tokenizer, record) == "st etienne > Roanne > Lyon"
    assert typed_rewrite(tokenizer, {**record, "trip": None}) == "INVALID"
    with pytest.raises(ValueError, match="one DEPART and one ARRIVEE"):
        typed_rewrite(tokenizer, {**record, "spans": record["spans"][1:]})


def test_gold_rewrite_of_each_form(tokenizer):
    """A record's own rewrite when it has one, else made from its trip and spans;
    an unknown form is refused naming the argument."""
    record = {
        "id": "x",
        "text": "de st etienne a Lyon",
        "trip": {"departure": "Saint-Étienne", "arrival": "Lyon", "steps": []},
        "spans": [{"start": 3, "end": 13, "label": "DEPART"}, {"start": 16, "end": 20, "label": "ARRIVEE"}],
    }
    assert gold_rewrite(tokenizer, record) == "Saint-Étienne > Lyon"
    assert gold_rewrite(tokenizer, record, "rewrite_typed") == "st etienne > Lyon"
    assert gold_rewrite(tokenizer, {**record, "rewrite_typed": "x > y"}, "rewrite_typed") == "x > y"
    with pytest.raises(ValueError, match="'key'"):
        gold_rewrite(tokenizer, record, "canonical")


def test_compare_rewriters_scores_the_form_a_rewriter_learned():
    from spacy_seqkit.travel.evaluation import rewrite_key_of

    reader = {"@readers": "spacy-seqkit.RewriteCorpus.v1", "path": "train.jsonl", "rewrite_key": "rewrite_typed"}
    nlp = spacy.blank("fr")
    assert rewrite_key_of(nlp) == "rewrite"
    nlp.config["corpora"] = {"train": reader}
    assert rewrite_key_of(nlp) == "rewrite_typed"
    nlp.config["corpora"] = {"train": {**reader, "rewrite_key": "rewrite"}}
    assert rewrite_key_of(nlp) == "rewrite"


def test_generate_split_holds_out_phrasings_and_places(corpus):
    train, dev = corpus
    split = make_split(make_french_places(), SEED)
    train_templates = {r["template"] for r in train}
    dev_templates = {r["template"] for r in dev}
    assert not train_templates & dev_templates
    assert dev_templates <= {t.id for t in split.dev_templates}
    assert 0.05 < len(split.dev_templates) / len(TEMPLATES) < 0.12
    held_out = set(split.dev_places)
    assert 0.1 < len(held_out) / (len(held_out) + len(split.train_places)) < 0.2

    def places(records):
        return {
            n for r in records if r["trip"] for n in [r["trip"]["departure"], r["trip"]["arrival"], *r["trip"]["steps"]]
        }

    assert not places(train) & held_out
    dev_places = places(dev)
    assert len(dev_places & held_out) > 0.5 * len(dev_places)


def test_generate_negatives_and_ambiguous_names(corpus):
    train, dev = corpus
    for records in (train, dev):
        families = {r["template"].rsplit("-", 1)[0] for r in records if r["trip"] is None}
        assert set(INVALID_FAMILIES) <= families
        invalid = sum(r["trip"] is None for r in records) / len(records)
        assert 0.25 < invalid < 0.5
    trip_places = {n for r in train if r["trip"] for n in [r["trip"]["departure"], r["trip"]["arrival"]]}
    negative_text = " ".join(r["text"].lower() for r in train if r["trip"] is None)
    both = [n for n in AMBIGUOUS if n in trip_places and n.lower() in negative_text]
    assert len(both) >= 5, both
    assert any(
        r["template"].startswith("no_travel") and not r["spans"] and any(ch.isupper() for ch in r["text"][1:])
        for r in train
    )


def test_generate_excludes_given_sentences(tmp_path, corpus):
    victims = [r["text"] for r in corpus[0][:50]]
    train, _ = generate_corpus(seed=SEED, n_train=300, n_dev=10, exclude_texts=[v.upper() for v in victims])
    assert not {sentence_key(v) for v in victims} & {sentence_key(r["text"]) for r in train}


@pytest.mark.parametrize("path", HAND_WRITTEN, ids=lambda p: p.name)
def test_no_hand_written_sentence_in_training_data(path, corpus):
    if not path.exists():
        pytest.skip(f"{path} does not exist yet: nothing to compare with")
    hand_written = read_sentence_keys([path])
    assert hand_written, f"{path} has no sentences"
    generated = {sentence_key(r["text"]) for r in corpus[0]}
    assert not hand_written & generated


def test_noise_keeps_spans_exact(tokenizer):
    segments = [
        Segment("Je voudrais aller d'"),
        Segment("Avignon", "DEPART"),
        Segment(" à "),
        Segment("Saint-Étienne", "ARRIVEE"),
        Segment(" demain s'il vous plaît"),
    ]
    seen = set()
    for seed in range(300):
        noisy, applied = add_noise(segments, random.Random(seed), rate=1.0)
        assert applied
        seen.update(applied)
        text, spans = to_record(noisy)
        assert [text[s["start"] : s["end"]] for s in spans] == [s.text for s in noisy if s.label]
        assert [s["label"] for s in spans] == ["DEPART", "ARRIVEE"]
        for s in spans:
            assert (
                DamerauLevenshtein.distance(  # one typo at most; hyphens may become spaces
                    strip_accents(text[s["start"] : s["end"]].lower()).replace("-", " "),
                    strip_accents(["avignon", "saint-étienne"][spans.index(s)]).replace("-", " "),
                )
                <= 1
            )
    assert len(seen) >= 7
    assert add_noise(segments, random.Random(0), rate=0.0) == (segments, [])
    with pytest.raises(ValueError, match="rate"):
        add_noise(segments, random.Random(0), rate=1.5)


def test_noise_transformations():
    rng = random.Random(0)
    segs = [Segment("je veux aller d'"), Segment("Avignon", "DEPART"), Segment(" demain")]
    assert to_record(no_apostrophes(segs, rng))[0] == "je veux aller d Avignon demain"
    sms_all = [sms([Segment("Je veux partir demain")], random.Random(s)) for s in range(20)]
    assert any(to_record(x)[0] == "jveux partir dmain" for x in sms_all)
    assert strip_accents("à Orléans, Besançon") == "a Orleans, Besancon"
    for seed in range(50):
        changed = typo("Marseille", random.Random(seed))
        assert changed != "Marseille" and changed[0] == "M"
        assert DamerauLevenshtein.distance(changed, "Marseille") == 1
    place = [Segment("de "), Segment("Aix-les-Bains", "DEPART"), Segment(", vite-vite !")]
    assert to_record(no_hyphens(place, rng)) == (
        "de Aix les Bains, vite-vite !",
        [{"start": 3, "end": 16, "label": "DEPART"}],
    )
    assert to_record(voice(place, rng)) == ("de aix-les-bains vite-vite", [{"start": 3, "end": 16, "label": "DEPART"}])
    for seed in range(20):
        text, spans = to_record(emoji(place, random.Random(seed)))
        assert any(face in text for face in EMOJI) and text[spans[0]["start"] : spans[0]["end"]] == "Aix-les-Bains"


def test_generate_new_registers_and_negatives(corpus):
    train, _ = corpus
    by_family = {}
    for r in train:
        by_family.setdefault(r["template"].rsplit("-", 1)[0], []).append(r)
    assert all(r["trip"] for r in by_family["formal"] + by_family["spoken"])
    for r in by_family["alternative"] + by_family["abroad"]:
        assert r["trip"] is None and len(r["spans"]) <= 1
    # A description before a place stays out of the span, unless it is part of a station's name.
    gaz = make_french_places()
    described = [
        r for r in train if re.search(r"(la gare|centre-ville|charmante ville) d", r["text"], re.I) and r["trip"]
    ]
    mentions = [r["text"][s["start"] : s["end"]] for r in described for s in r["spans"]]
    assert described and all(
        not re.search(r"gare|centre-ville|charmante", m, re.I) or gaz.is_station(gaz.resolve(m)) for m in mentions
    )
    # "la gare de Lyon" is always the Paris station
    assert all(
        "Paris Gare de Lyon" in r["rewrite"] or r["trip"] is None
        for r in train
        if "gare de lyon" in r["text"].lower() and r["spans"]
    )
    assert sum(bool(re.search(r"\(\d{2}\)|\([A-Z][a-zé]", r["text"])) for r in train) > 50


def test_convert_docs_match_spans(tmp_path, corpus):
    records = corpus[1][:300]
    write_records(records, tmp_path / "dev.jsonl")
    n = convert_file(tmp_path / "dev.jsonl", tmp_path / "dev.spacy")
    assert n == len(records)
    nlp = spacy.blank("fr")
    docs = list(DocBin().from_disk(tmp_path / "dev.spacy").get_docs(nlp.vocab))
    for doc, record in zip(docs, records):
        assert doc.text == record["text"]
        assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == [
            (s["start"], s["end"], s["label"]) for s in record["spans"]
        ]
        assert doc.user_data[REWRITE_KEY] == record["rewrite"]


def test_convert_rewrite_from_trip_and_bad_span():
    record = {
        "id": "h1",
        "text": "de Lyon à Paris",
        "spans": [{"start": 3, "end": 7, "label": "DEPART"}, {"start": 10, "end": 15, "label": "ARRIVEE"}],
        "trip": {"departure": "Lyon", "arrival": "Paris", "steps": []},
    }
    doc = next(iter(records_to_docbin([record]).get_docs(spacy.blank("fr").vocab)))
    assert doc.user_data[REWRITE_KEY] == "Lyon > Paris"
    bad = dict(record, id="oops-42", spans=[{"start": 4, "end": 7, "label": "DEPART"}])
    with pytest.raises(ValueError, match="oops-42"):
        records_to_docbin([bad])


def test_cli_generate_and_convert(tmp_path):
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["generate", str(tmp_path), "--seed", "3", "--n-train", "40", "--n-dev", "10"])
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "train.jsonl").read_text(encoding="utf8").splitlines()
    assert len(lines) == 40 and all(json.loads(line)["rewrite"] for line in lines)
    result = runner.invoke(app, ["convert", str(tmp_path / "dev.jsonl"), str(tmp_path / "dev.spacy")])
    assert result.exit_code == 0, result.output
    assert len(DocBin().from_disk(tmp_path / "dev.spacy")) == 10
    # --no-rewrite: the recognizer's corpus, the same docs and entities without user data
    result = runner.invoke(app, ["convert", str(tmp_path / "dev.jsonl"), str(tmp_path / "ner.spacy"), "--no-rewrite"])
    assert result.exit_code == 0, result.output
    vocab = spacy.blank("fr").vocab
    full = list(DocBin().from_disk(tmp_path / "dev.spacy").get_docs(vocab))
    bare = list(DocBin().from_disk(tmp_path / "ner.spacy").get_docs(vocab))
    assert [(d.text, [(e.start, e.end, e.label_) for e in d.ents]) for d in bare] == [
        (d.text, [(e.start, e.end, e.label_) for e in d.ents]) for d in full
    ]
    assert all(REWRITE_KEY in d.user_data for d in full) and not any(d.user_data for d in bare)
    # several pairs in one process: each output as converted alone
    both = [
        str(tmp_path / "train.jsonl"),
        str(tmp_path / "t.spacy"),
        str(tmp_path / "dev.jsonl"),
        str(tmp_path / "d.spacy"),
    ]
    result = runner.invoke(app, ["convert", *both, "--no-rewrite"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d.spacy").read_bytes() == (tmp_path / "ner.spacy").read_bytes()
    assert len(DocBin().from_disk(tmp_path / "t.spacy")) == 40
    result = runner.invoke(app, ["convert", *both[:3]])
    assert result.exit_code == 2 and "INPUT OUTPUT" in result.output
    result = runner.invoke(app, ["convert", str(tmp_path / "missing.jsonl"), str(tmp_path / "m.spacy")])
    assert result.exit_code == 2 and "missing.jsonl" in result.output


def test_generate_writes_short_names_but_not_those_that_are_words():
    """The generator writes a town by its usual short name ("Clermont"), never by one that is a
    French word too ("Salon" for Salon-de-Provence: a place only with a capital)."""
    from spacy_seqkit.travel.corpus.generate import surface_form

    gazetteer = make_french_places()
    assert gazetteer.resolve("Salon") == "Salon-de-Provence"
    rng = random.Random(0)
    clermont = {surface_form("Clermont-Ferrand", rng, gazetteer).body for _ in range(200)}
    salon = {surface_form("Salon-de-Provence", rng, gazetteer).body for _ in range(200)}
    assert "Clermont" in clermont
    assert "Salon" not in salon and "Salon-de-Provence" in salon


def test_cli_split_writers(tmp_path):
    """`split-writers`: each request to one file, as it was, by its writer; a writer named that wrote
    nothing, a request without a writer, or no writer named fail with a message naming them."""
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    rows = [{"id": f"r{i}", "text": f"de Lyon à Nice {i}", "writer": w} for i, w in enumerate("abcab")]
    source = tmp_path / "written.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf8")
    kept, held = tmp_path / "kept.jsonl", tmp_path / "out" / "held.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["split-writers", str(source), str(kept), str(held), "--writers", "b,c"])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in held.read_text(encoding="utf8").splitlines()] == ["r1", "r2", "r4"]
    assert [json.loads(line)["id"] for line in kept.read_text(encoding="utf8").splitlines()] == ["r0", "r3"]
    result = runner.invoke(app, ["split-writers", str(source), str(kept), str(held), "--writers", "b,zz"])
    assert result.exit_code == 2 and "no request of zz" in result.output
    result = runner.invoke(app, ["split-writers", str(source), str(kept), str(held), "--writers", " , "])
    assert result.exit_code == 2 and "--writers" in result.output
    source.write_text('{"id": "x", "text": "de Lyon à Nice"}\n', encoding="utf8")
    result = runner.invoke(app, ["split-writers", str(source), str(kept), str(held), "--writers", "b"])
    assert result.exit_code == 2 and "line 1 has no writer" in result.output
