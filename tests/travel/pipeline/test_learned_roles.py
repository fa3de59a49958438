"""Every named place a candidate: the suggester a span categorizer reads (`spacy-seqkit.place_suggester.v1`),
the roles it learns taken by `seqkit_places` (`roles`: recognizer / union / learned), a text
classifier's NO_TRIP read by the `learned_intent` step, and the training docs the corpus gives both."""

import pytest
import spacy
from spacy.tokens import Span
from thinc.api import Config
from trip_helpers import marked_doc, read

from spacy_seqkit.travel.corpus.records import record_doc
from spacy_seqkit.travel.pipeline.reading import add_reading
from spacy_seqkit.travel.pipeline.roles.suggester import place_candidates

SUGGESTER_CONFIG = """
[suggester]
@misc = "spacy-seqkit.place_suggester.v1"
with_entities = true

[suggester.places]
@misc = "spacy-seqkit.french_places.v1"
"""


@pytest.fixture(scope="module")
def suggester():
    return spacy.util.registry.resolve(Config().from_str(SUGGESTER_CONFIG))["suggester"]


def spans_of(doc, ragged, start=0):
    n = int(ragged.lengths[0]) if len(ragged.lengths) else 0
    return [doc[int(s) : int(e)].text for s, e in ragged.data[start : start + n].tolist()]


def test_suggester_resolves_from_config_and_proposes_known_places(nlp, suggester):
    doc = nlp.make_doc("Rennes, départ demain, pour aller voir ma tante à Saint-Malo")
    ragged = suggester([doc])
    assert list(ragged.lengths) == [2]
    assert spans_of(doc, ragged) == ["Rennes", "Saint-Malo"]
    # the recognizer's own mentions too, known or not (a typo, a hamlet)
    marked = marked_doc(nlp, "de Rennnes à Saint-Malo", [("Rennnes", "DEPART")])
    assert "Rennnes" in spans_of(marked, suggester([marked]))


def test_suggester_batch_equals_each_doc_alone(nlp, suggester):
    texts = ["Je veux aller de Marseille à Paris", "", "bonjour", "entre Nantes et Angers demain"]
    docs = [nlp.make_doc(t) for t in texts]
    batch = suggester(docs)
    assert list(batch.lengths) == [int(suggester([d]).lengths[0]) for d in docs]
    offset = 0
    for doc in docs:
        alone = suggester([doc])
        assert batch.data[offset : offset + int(alone.lengths[0])].tolist() == alone.data.tolist()
        offset += int(alone.lengths[0])
    assert batch.data.shape == (offset, 2)


def test_suggester_without_entities_proposes_index_names_only(nlp):
    config = Config().from_str(SUGGESTER_CONFIG.replace("with_entities = true", "with_entities = false"))
    suggest = spacy.util.registry.resolve(config)["suggester"]
    doc = marked_doc(nlp, "de Rennnes à Saint-Malo", [("Rennnes", "DEPART")])
    assert spans_of(doc, suggest([doc])) == ["Saint-Malo"]


def test_suggester_rejects_what_is_not_places():
    config = Config().from_str('[suggester]\n@misc = "spacy-seqkit.place_suggester.v1"\nplaces = 3\n')
    with pytest.raises(Exception, match="places"):
        spacy.util.registry.resolve(config)


def with_roles(nlp, text, marked, learned):
    """`text` with the recognizer's `marked` entities and a span categorizer's `learned` roles."""
    doc = marked_doc(nlp, text, marked)
    spans = []
    for mention, label in learned:
        start = text.index(mention)
        spans.append(doc.char_span(start, start + len(mention), label=label))
    doc.spans["roles"] = spans
    return read(nlp, doc)


TEXT = "Nantes, départ 7h12, pour Angers"


@pytest.mark.parametrize(
    "roles, trip",
    [
        ("recognizer", None),  # the recognizer marked one end: the other is lost
        ("union", ("Nantes", "Angers")),  # the categorizer's role for the place it did not mark
        ("learned", ("Nantes", "Angers")),
    ],
)
def test_a_known_place_the_recognizer_missed_takes_its_learned_role(roles, trip):
    from spacy_seqkit.travel.pipeline.roles.steps import DEFAULT_STEPS

    # without the step that takes the one other place before a lone end as its partner
    steps = [s for s in DEFAULT_STEPS if s != "lone_end_partner"]
    nlp = add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": roles}, "seqkit_trip": {"steps": steps}})
    doc = with_roles(nlp, TEXT, [("Angers", "ARRIVEE")], [("Nantes", "DEPART"), ("Angers", "ARRIVEE")])
    answer = doc._.trip
    assert ((answer["departure"], answer["arrival"]) if answer["is_valid"] else None) == trip


def test_learned_roles_override_the_recognizers_only_with_learned():
    text = "de Lille à Arras"
    marked = [("Lille", "ARRIVEE"), ("Arras", "DEPART")]  # the recognizer swapped them
    learned = [("Lille", "DEPART"), ("Arras", "ARRIVEE")]
    union = with_roles(add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": "union"}}), text, marked, learned)
    assert union._.trip["departure"] == "Arras"
    learned_doc = with_roles(
        add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": "learned"}}), text, marked, learned
    )
    assert (learned_doc._.trip["departure"], learned_doc._.trip["arrival"]) == ("Lille", "Arras")


@pytest.mark.parametrize(
    "text, learned, trip",
    [
        # a town's name that is also a word, typed in lowercase: the index leaves it to the words,
        # the categorizer read it as an end
        ("chalons reims 7h12", [("chalons", "DEPART"), ("reims", "ARRIVEE")], ("Châlons-en-Champagne", "Reims")),
        ("train bastia → corte dmain stp", [("bastia", "DEPART"), ("corte", "ARRIVEE")], ("Bastia", "Corte")),
        # a word that names a hamlet, or an article and a word, stays a word whatever the role
        ("jvais au chateau depuis tours", [("chateau", "ARRIVEE"), ("tours", "DEPART")], None),
        ("de Lyon à la tour", [("Lyon", "DEPART"), ("la tour", "ARRIVEE")], None),
    ],
)
def test_a_candidate_with_a_learned_role_is_read_as_the_place_it_spells(text, learned, trip):
    nlp = add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": "learned"}})
    answer = with_roles(nlp, text, [], learned)._.trip
    assert ((answer["departure"], answer["arrival"]) if answer["is_valid"] else None) == trip


@pytest.mark.parametrize(
    "text, marked, learned, trip",
    [
        # the recognizer cut the name short; the candidate holds all its words
        (
            "bourg st maurice - chambery dim 17h",
            [("st maurice -", "DEPART"), ("chambery", "ARRIVEE")],
            [("bourg st maurice", "DEPART"), ("chambery", "ARRIVEE")],
            ("Bourg-Saint-Maurice", "Chambéry"),
        ),
        (
            "troyes depuis paris est c combien en 2nde ?",
            [("troyes", "ARRIVEE"), ("paris", "DEPART")],
            [("troyes", "ARRIVEE"), ("paris est", "DEPART")],
            ("Paris Est", "Troyes"),
        ),
        # "est" the verb: "Paris est-il", "Paris est à"
        (
            "Le 6h17 de Chartres pour Paris est-il supprimé ?",
            [("Chartres", "DEPART"), ("Paris", "ARRIVEE")],
            [("Chartres", "DEPART"), ("Paris est", "ARRIVEE")],
            ("Chartres", "Paris"),
        ),
    ],
)
def test_a_mention_cut_short_takes_the_candidate_that_holds_it(text, marked, learned, trip):
    nlp = add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": "learned"}})
    answer = with_roles(nlp, text, marked, learned)._.trip
    assert (answer["departure"], answer["arrival"]) == trip


def test_without_a_span_categorizer_every_mode_reads_as_the_recognizer(nlp):
    doc = read(nlp, marked_doc(nlp, "de Lille à Arras", [("Lille", "DEPART"), ("Arras", "ARRIVEE")]))
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("Lille", "Arras")


def test_a_bad_roles_setting_fails_early_naming_it():
    with pytest.raises(ValueError, match="roles"):
        add_reading(spacy.blank("fr"), {"seqkit_places": {"roles": "both"}})


def test_a_classifier_saying_no_trip_makes_the_request_invalid_with_learned_intent(nlp):
    from spacy_seqkit.travel.pipeline.roles.steps import DEFAULT_STEPS

    text = "de Lille à Arras"
    doc = marked_doc(nlp, text, [("Lille", "DEPART"), ("Arras", "ARRIVEE")])
    doc.cats = {"TRIP": 0.2, "NO_TRIP": 0.8}
    assert read(nlp, doc)._.trip["is_valid"], "not a default step: the classifier is read only when asked"
    nlp = add_reading(spacy.blank("fr"), {"seqkit_trip": {"steps": ["learned_intent", *DEFAULT_STEPS]}})
    doc = marked_doc(nlp, text, [("Lille", "DEPART"), ("Arras", "ARRIVEE")])
    doc.cats = {"TRIP": 0.2, "NO_TRIP": 0.8}
    answer = read(nlp, doc)._.trip
    assert not answer["is_valid"] and answer["why"] == [{"rule": "intent.no_trip"}]
    doc = marked_doc(nlp, text, [("Lille", "DEPART"), ("Arras", "ARRIVEE")])
    doc.cats = {"TRIP": 0.8, "NO_TRIP": 0.2}
    assert read(nlp, doc)._.trip["arrival"] == "Arras"


def test_training_docs_carry_roles_and_intent():
    nlp = spacy.blank("fr")
    record = {
        "id": "x1",
        "text": "de Lille à Arras",
        "spans": [{"start": 3, "end": 8, "label": "DEPART"}, {"start": 11, "end": 16, "label": "ARRIVEE"}],
        "trip": {"departure": "Lille", "arrival": "Arras", "steps": []},
        "category": "ok",
    }
    doc = record_doc(nlp.make_doc, record)
    assert [(s.text, s.label_) for s in doc.spans["roles"]] == [("Lille", "DEPART"), ("Arras", "ARRIVEE")]
    assert doc.cats == {"TRIP": 1.0, "NO_TRIP": 0.0}
    told = dict(record, category="nointent", spans=[], trip=None)
    assert record_doc(nlp.make_doc, told).cats == {"TRIP": 0.0, "NO_TRIP": 1.0}
    generated = {"id": "g", "text": "bonjour", "spans": [], "trip": None, "template": "gibberish-3"}
    assert record_doc(nlp.make_doc, generated).cats["NO_TRIP"] == 1.0
    plain = {"id": "h", "text": "bonjour", "spans": [], "trip": None}
    assert record_doc(nlp.make_doc, plain).cats == {}


def test_place_candidates_are_in_order_and_unique(nlp):
    from spacy_seqkit.travel.places.registry import make_french_places

    places = make_french_places()
    doc = nlp.make_doc("Lyon, Lyon et encore Lyon puis Paris")
    doc.ents = [Span(doc, 0, 1, label="DEPART")]
    found = place_candidates(doc, places)
    assert found == sorted(set(found))
    assert [doc[s:e].text for s, e in found] == ["Lyon", "Lyon", "Lyon", "Paris"]


def test_known_names_are_read_once_per_doc(nlp):
    """The suggester and `seqkit_places` share one reading of the doc's known names."""
    from spacy_seqkit.travel.pipeline.words import words_of
    from spacy_seqkit.travel.places.registry import make_french_places

    places = make_french_places()
    doc = nlp.make_doc("de Lille à Arras puis Lens")
    words = words_of(doc)
    first = words.name_spans(places)
    assert first == places.name_spans(words.text) and words.name_spans(places) is first
    assert place_candidates(doc, places, with_entities=False) == sorted(first)


ROLES_TRAIN = [
    ("Je vais de Marseille à Paris", [(11, 20, "DEPART"), (23, 28, "ARRIVEE")]),
    ("Un billet pour Nantes depuis Lyon", [(15, 21, "ARRIVEE"), (29, 33, "DEPART")]),
    ("de Lille à Rennes par Paris", [(3, 8, "DEPART"), (11, 17, "ARRIVEE"), (22, 27, "VIA")]),
]


def roles_pipeline(factory: str):
    nlp = spacy.blank("fr")
    nlp.add_pipe(
        factory,
        name="roles",
        config={
            "spans_key": "roles",
            "suggester": {
                "@misc": "spacy-seqkit.place_suggester.v1",
                "with_entities": False,
                "places": {"@misc": "spacy-seqkit.french_places.v1"},
            },
        },
    )
    return nlp


def test_seqkit_roles_writes_what_spancat_singlelabel_writes(tmp_path):
    """`seqkit_roles` resolves from a config, trains as spaCy's single-label span categorizer,
    loads its weights, and writes the same spans, labels and scores (a doc alone or in a batch,
    an empty doc, a doc with no candidate)."""
    from spacy.training import Example

    spacy.util.fix_random_seed(0)
    ours = roles_pipeline("seqkit_roles")
    examples = []
    for text, spans in ROLES_TRAIN:
        doc = ours.make_doc(text)
        reference = doc.copy()
        reference.spans["roles"] = [reference.char_span(s, e, label=label) for s, e, label in spans]
        examples.append(Example(doc, reference))
    optimizer = ours.initialize(lambda: examples)
    for _ in range(5):
        ours.update(examples, sgd=optimizer)
    ours.to_disk(tmp_path / "ours")
    theirs = spacy.load(tmp_path / "ours", config={"components": {"roles": {"factory": "spancat_singlelabel"}}})
    assert type(theirs.get_pipe("roles")).__name__ == "SpanCategorizer"
    assert type(spacy.load(tmp_path / "ours").get_pipe("roles")).__name__ == "RolesCategorizer"
    texts = ["Je vais de Marseille à Paris puis Lyon", "", "bonjour", "de Brest à Quimper", "Nantes"]

    def written(nlp, alone):
        docs = [nlp(t) for t in texts] if alone else list(nlp.pipe(texts, batch_size=8))
        out = []
        for doc in docs:
            group = doc.spans["roles"]
            scores = group.attrs.get("scores")
            out.append(
                (
                    [(s.start, s.end, s.label_) for s in group],
                    None if scores is None else (scores.shape, scores.tolist()),
                )
            )
        return out

    assert written(ours, alone=False) == written(theirs, alone=False) == written(ours, alone=True)
    assert any(spans for spans, _ in written(ours, alone=False))
