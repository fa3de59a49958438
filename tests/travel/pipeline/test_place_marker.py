"""`seqkit_place_marker`: the tokens of known place names get the marker norm."""

import pickle

import pytest
import spacy

from spacy_seqkit.travel.pipeline.place_marker import MARKER


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_place_marker")
    return nlp


def marked(doc):
    return [t.text for t in doc if t.norm_ == MARKER]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("de langres a chaumont", ["langres", "chaumont"]),
        ("AIX LES BAINS ANNECY SAMEDI", ["AIX", "LES", "BAINS", "ANNECY"]),
        ("de port vendres a cerbere", ["port", "vendres", "cerbere"]),
        ("je veux voir la mer a saint malo", ["saint", "malo"]),
        ("je vais à orange", ["orange"]),
        ("bonjour, comment allez-vous ?", []),
        ("", []),
    ],
)
def test_place_marker_marks_known_names_whatever_their_case(nlp, text, expected):
    doc, plain = nlp(text), nlp.make_doc(text)
    assert marked(doc) == expected
    # Other tokens keep their norm.
    assert [t.norm_ for t in doc if t.norm_ != MARKER] == [t.norm_ for t in plain if t.text not in expected]


def test_place_marker_feeds_the_norm_feature(nlp):
    from spacy.attrs import NORM

    doc = nlp("de langres a chaumont")
    assert list(doc.to_array([NORM])[[1, 3]]) == [nlp.vocab.strings[MARKER]] * 2


def test_place_marker_config_round_trips_and_bad_marker_is_named(nlp, tmp_path):
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert marked(loaded("de langres a chaumont")) == ["langres", "chaumont"]
    assert marked(pickle.loads(pickle.dumps(loaded))("de langres a chaumont")) == ["langres", "chaumont"]
    other = spacy.blank("fr")
    with pytest.raises(ValueError, match="marker"):
        other.add_pipe("seqkit_place_marker", config={"marker": ""})
