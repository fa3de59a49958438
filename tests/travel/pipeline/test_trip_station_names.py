"""A station's name is one place even when the recognizer cuts it or marks only its town."""

import pytest
import spacy
from spacy.tokens import Span


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_trip")
    return nlp


def trip_of(nlp, text, marked):
    """The trip of `text` whose entities are the (mention, label) pairs `marked`."""
    doc = nlp.make_doc(text)
    ents = []
    for mention, label in marked:
        start = text.index(mention)
        ents.append(doc.char_span(start, start + len(mention), label=label))
    doc.ents = ents
    doc = nlp.get_pipe("seqkit_trip")(doc)
    return doc._.trip, [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # cut in two: the first part's role
        (
            "billet angers st laud pour nantes",
            [("angers", "DEPART"), ("st laud", "VIA"), ("nantes", "ARRIVEE")],
            ("Angers Saint-Laud", (), "Nantes"),
        ),
        # only the town marked: the station's other words beside it
        (
            "un train limoges benedictins - brive ce soir",
            [("limoges", "DEPART"), ("brive", "ARRIVEE")],
            ("Limoges Bénédictins", (), "Brive-la-Gaillarde"),
        ),
        (
            "2 billets marne la vallee bordeaux",
            [("la vallee", "DEPART"), ("bordeaux", "ARRIVEE")],
            ("Marne-la-Vallée Chessy", (), "Bordeaux"),
        ),
        (
            "Départ Lille Flandres, arrêt à Arras, arrivée Rouen",
            [("Lille", "DEPART"), ("Flandres", "VIA"), ("Arras", "VIA"), ("Rouen", "ARRIVEE")],
            ("Lille Flandres", ("Arras",), "Rouen"),
        ),
        # two places with a word between are two places, not a station read with a typo
        ("de Massy à Palaiseau", [("Massy", "DEPART"), ("Palaiseau", "ARRIVEE")], ("Massy", (), "Palaiseau")),
        # a function word the recognizer took in is no part of the name
        (
            "le train pour Paris est à quelle heure depuis Lyon",
            [("Paris est", "ARRIVEE"), ("Lyon", "DEPART")],
            ("Lyon", (), "Paris"),
        ),
    ],
)
def test_station_names_are_one_place(nlp, text, marked, expected):
    trip, ents = trip_of(nlp, text, marked)
    assert (trip["departure"], tuple(trip["steps"]), trip["arrival"]) == expected
    assert len(ents) == 2 + len(expected[1])  # the mentions are written back as one


def test_station_name_joining_keeps_a_long_mention_as_it_is(nlp):
    doc = nlp.make_doc("bla " * 50 + "Angers")
    doc.ents = [Span(doc, 0, 51, label="DEPART")]
    assert nlp.get_pipe("seqkit_trip")(doc)._.trip["is_valid"] is False
