"""Every qualifier as a user plugs it: resolved from a config, left out of the pipeline (the
pipeline loads and answers without its rules), its `explain` recording the cue that fired, its
words a config choice; and the docs the reading leaves, with their places, save and pickle."""

import json
import pickle

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from trip_helpers import marked_doc, read, reading

from spacy_seqkit.travel.pipeline.reading import QUALIFIERS

# (qualifier, text, marked mentions, its attribute on the doc or on the mention at that index,
# the rule it sets, the cue, the trip with it, the trip without it: departure, stops, arrival)
CASES = [
    (
        "seqkit_language",
        "I need a train from Paris to Lyon",
        [("Paris", "DEPART"), ("Lyon", "ARRIVEE")],
        None,
        "en",
        None,
        (None, [], None),
        ("Paris", [], "Lyon"),
    ),
    (
        "seqkit_called_off",
        "finalement je n'irai pas à Brest depuis Rennes, merci quand même",
        [("Brest", "ARRIVEE"), ("Rennes", "DEPART")],
        None,
        "called_off",
        "n'",
        (None, [], None),
        ("Rennes", [], "Brest"),
    ),
    (
        "seqkit_other_means",
        "le car de Libourne à Figeac",
        [("Libourne", "DEPART"), ("Figeac", "ARRIVEE")],
        None,
        "other_means",
        "car",
        (None, [], None),
        ("Libourne", [], "Figeac"),
    ),
    (
        "seqkit_ruled_out",
        "je pars de Dax, pas à Hendaye, à Bayonne",
        [("Dax", "DEPART"), ("Hendaye", "ARRIVEE"), ("Bayonne", "ARRIVEE")],
        1,
        "negated",
        "pas",
        ("Dax", [], "Bayonne"),
        ("Dax", ["Hendaye"], "Bayonne"),  # without it, a stop on the way
    ),
    (
        "seqkit_context",
        "j'ai grandi à Nancy, je pars de Metz demain",
        [("Nancy", "ARRIVEE"), ("Metz", "DEPART")],
        0,
        "grew_up",
        "grandi",
        ("Metz", [], None),
        ("Metz", [], "Nancy"),
    ),
    (
        "seqkit_alternative",
        "de Nîmes ou d'Arles à Aix-en-Provence",
        [("Nîmes", "DEPART"), ("Aix-en-Provence", "ARRIVEE")],
        0,
        "alternative",
        "ou",
        (None, [], None),
        ("Nîmes", [], "Aix-en-Provence"),
    ),
]


def test_qualifiers_every_one_has_its_case():
    assert sorted(case[0] for case in CASES) == sorted(QUALIFIERS)


def ends(doc):
    return doc._.trip["departure"], list(doc._.trip["steps"]), doc._.trip["arrival"]


@pytest.mark.parametrize("factory,text,marked,index,rule,cue,with_it,without_it", CASES, ids=[c[0] for c in CASES])
def test_qualifier_fires_explains_and_can_be_left_out(factory, text, marked, index, rule, cue, with_it, without_it):
    attr = factory.removeprefix("seqkit_")
    nlp = reading(**{factory: {"explain": True}})
    doc = read(nlp, marked_doc(nlp, text, marked))
    target = doc if index is None else doc.spans["places"][index]
    assert getattr(target._, attr) == rule
    assert ends(doc) == with_it
    record = next(c for c in doc._.cues if c["qualifier"] == factory)
    assert (record["rule"], record["cue"]) == (rule, cue)
    assert any(w["rule"] == f"{attr}.{rule}" for w in doc._.trip["why"])
    quiet = reading()
    doc = read(quiet, marked_doc(quiet, text, marked))
    assert doc._.cues is None  # explain is off by default
    without = reading(without=(factory,))
    assert factory not in without.pipe_names
    assert ends(read(without, marked_doc(without, text, marked))) == without_it


@pytest.mark.parametrize("factory", QUALIFIERS)
def test_qualifier_config_round_trips_and_a_bad_words_setting_names_the_class(factory, tmp_path):
    nlp = spacy.blank("fr")
    nlp.add_pipe(factory, config={"explain": True})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe(factory).explain is True
    assert pickle.loads(pickle.dumps(loaded)).pipe_names == [factory]
    with pytest.raises(ValueError, match="'words' names no word class 'no_such_class'"):
        spacy.blank("fr").add_pipe(factory, config={"words": {"no_such_class": "a b"}})


def test_qualifier_words_override_changes_what_fires():
    nlp = reading(seqkit_ruled_out={"words": {"cues_before": "sauf"}})  # "pas" no longer a cue before a place
    text, marked = CASES[3][1], CASES[3][2]
    assert ends(read(nlp, marked_doc(nlp, text, marked))) == ("Dax", ["Hendaye"], "Bayonne")


def test_reading_docs_with_their_places_save_and_pickle(nlp):
    text, marked = "je pars de Dax, pas à Hendaye, à Bayonne", CASES[3][2]
    doc = read(nlp, marked_doc(nlp, text, marked))
    for copy in (
        Doc(nlp.vocab).from_bytes(doc.to_bytes()),
        pickle.loads(pickle.dumps(doc)),
        next(DocBin(store_user_data=True, docs=[doc]).get_docs(nlp.vocab)),
    ):
        assert json.dumps(copy._.trip, sort_keys=True) == json.dumps(doc._.trip, sort_keys=True)
        places = [(s.text, s.label_, s._.place, s._.ruled_out) for s in copy.spans["places"]]
        assert places == [(s.text, s.label_, s._.place, s._.ruled_out) for s in doc.spans["places"]]
        assert copy.spans["places"][0]._.place.name == "Dax"


def test_reading_a_doc_alone_equals_it_in_a_batch(nlp):
    texts = ["de Paris à Lyon", "pas Hendaye finalement : de Dax à Libourne", "", "un vol de Biarritz pour Lille"]
    alone = [nlp(t)._.trip for t in texts]
    assert [d._.trip for d in nlp.pipe(texts, batch_size=3)] == alone


def test_trip_steps_are_a_config_choice_and_an_unknown_step_fails_naming_it():
    with pytest.raises(ValueError, match="steps must name registered steps.*'teleport'"):
        reading(seqkit_trip={"steps": ["ends_by_role", "teleport"]})
    nlp = reading(seqkit_trip={"steps": ["ruled_out", "ends_by_role"]})
    doc = read(nlp, marked_doc(nlp, "trains albi carmaux jeudi", [("carmaux", "ARRIVEE")]))
    assert ends(doc) == (None, [], "Carmaux")  # no pair_beside step: no other end beside it
    assert doc._.trip["why"] == [{"rule": "seqkit_trip.ends_by_role"}]
