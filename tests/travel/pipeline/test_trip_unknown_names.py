"""`seqkit_places`'s `unknown_names`: may a name that is no known place (nor a typo of one) be
an end? "drop" (the default) or "keep" (as typed, when written as a name)."""

import pytest
import spacy
from trip_helpers import marked_doc, read, reading

from spacy_seqkit.travel.pipeline.reading import add_reading


def pipeline(**config):
    nlp = spacy.blank("fr")
    nlp.add_pipe("entity_ruler").add_patterns(
        [
            {"label": "DEPART", "pattern": [{"LOWER": {"IN": ["poudlard", "marseille"]}}]},
            {"label": "ARRIVEE", "pattern": [{"LOWER": {"IN": ["narnia", "paris"]}}]},
        ]
    )
    return add_reading(nlp, {"seqkit_places": config})


def test_unknown_names_kept_as_typed_or_dropped():
    text = "je veux aller de Poudlard à Narnia"
    kept = pipeline(unknown_names="keep")(text)._.trip
    assert kept["is_valid"] and (kept["departure"], kept["arrival"]) == ("Poudlard", "Narnia")
    assert kept["departure_place"]["kind"] == "unknown"
    dropped = pipeline()(text)
    assert dropped._.trip["is_valid"] is False and dropped.ents == ()
    # Known places are ends under both rules.
    for nlp in (pipeline(), pipeline(unknown_names="drop")):
        trip = nlp("je veux aller de Marseille à Paris")._.trip
        assert (trip["departure"], trip["arrival"]) == ("Marseille", "Paris")


def test_unknown_names_bad_setting_fails_when_the_config_is_resolved():
    with pytest.raises(ValueError, match="unknown_names must be one of 'keep', 'drop'"):
        pipeline(unknown_names="maybe")


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # an article capitalised only because it starts the sentence, then an everyday word: no village
        (
            "La réunion est à Toulouse et je suis basé à Agen",
            [("La réunion", "DEPART"), ("Toulouse", "ARRIVEE"), ("Agen", "DEPART")],
            ("Agen", "Toulouse"),
        ),
        (
            "Le bois de Vincennes, non : je pars de Lyon pour Dijon",
            [("Le bois", "DEPART"), ("Lyon", "DEPART"), ("Dijon", "ARRIVEE")],
            ("Lyon", "Dijon"),
        ),
        # written as a name, or a town of 5,000 inhabitants or more: the place
        ("De Paris à La Réunion", [("Paris", "DEPART"), ("La Réunion", "ARRIVEE")], ("Paris", "La Réunion")),
        (
            "La teste, c'est ma destination, je pars de Bordeaux",
            [("La teste", "ARRIVEE"), ("Bordeaux", "DEPART")],
            ("Bordeaux", "La Teste-de-Buch"),
        ),
        (
            "Albert est ma gare d'arrivée, je pars d'Amiens",
            [("Albert", "ARRIVEE"), ("Amiens", "DEPART")],
            ("Amiens", "Albert"),
        ),
    ],
)
def test_an_article_capitalised_by_the_sentence_and_a_word_name_no_village(text, marked, expected):
    nlp = reading()
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], trip["arrival"]) == expected
