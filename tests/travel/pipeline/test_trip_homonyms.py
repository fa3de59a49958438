"""A name several communes share is the one beside the trip's other end (`homonyms.py`)."""

import pytest
import spacy
from trip_helpers import marked_doc, read

from spacy_seqkit.travel.places.registry import make_french_places


def trip_of(nlp, text, marked):
    doc = marked_doc(nlp, text, marked)
    return read(nlp, doc)._.trip


@pytest.mark.parametrize(
    "text,marked,arrival,insee",
    [
        # Made-up requests: the short name is the biggest commune's alone, its namesake beside the other end.
        (
            "un train depuis etaples jusqu'a boulogne",
            [("etaples", "DEPART"), ("boulogne", "ARRIVEE")],
            "Boulogne-sur-Mer",
            "62160",
        ),
        ("de Chambéry à Aix demain", [("Chambéry", "DEPART"), ("Aix", "ARRIVEE")], "Aix-les-Bains", "73008"),
        ("de Marseille à Aix demain", [("Marseille", "DEPART"), ("Aix", "ARRIVEE")], "Aix-en-Provence", "13001"),
        ("de Paris à Boulogne", [("Paris", "DEPART"), ("Boulogne", "ARRIVEE")], "Boulogne-Billancourt", "92012"),
        # A namesake ten times smaller does not take the name: Valence d'Agen's commune, Clermont-l'Hérault.
        ("de Montauban à Valence", [("Montauban", "DEPART"), ("Valence", "ARRIVEE")], "Valence", "26362"),
        ("de beziers a clermont", [("beziers", "DEPART"), ("clermont", "ARRIVEE")], "Clermont-Ferrand", "63113"),
        ("de Lyon à valence", [("Lyon", "DEPART"), ("valence", "ARRIVEE")], "Valence", "26362"),
        # beside a stop where the departure's département has none of the name
        (
            "d'Arras à Boulogne avec un arrêt à Calais",
            [("Arras", "DEPART"), ("Boulogne", "ARRIVEE"), ("Calais", "VIA")],
            "Boulogne-sur-Mer",
            "62160",
        ),
        (
            "de Lille à Boulogne en passant par Calais",
            [("Lille", "DEPART"), ("Boulogne", "ARRIVEE"), ("Calais", "VIA")],
            "Boulogne-sur-Mer",
            "62160",
        ),
    ],
)
def test_a_shared_name_is_the_commune_beside_the_other_end(nlp, text, marked, arrival, insee):
    trip = trip_of(nlp, text, marked)
    assert (trip["arrival"], trip["arrival_place"]["insee"]) == (arrival, insee)


def test_a_village_with_no_station_gives_way_to_a_served_namesake_beside_the_other_end(nlp):
    """Avesnes (Pas-de-Calais) has no station: beside Maubeuge, "Avesnes" is Avesnes-sur-Helpe, a
    town under 5,000 inhabitants that a station serves."""
    trip = trip_of(nlp, "un aller Avesnes – Maubeuge samedi", [("Avesnes", "DEPART"), ("Maubeuge", "ARRIVEE")])
    assert (trip["departure"], trip["departure_place"]["insee"]) == ("Avesnes-sur-Helpe", "59036")


def test_the_place_value_is_the_homonym_s_own(nlp):
    """Its stations too: a route starts from the place value."""
    trip = trip_of(nlp, "de etaples a boulogne", [("etaples", "DEPART"), ("boulogne", "ARRIVEE")])
    assert trip["arrival_place"]["text"] == "boulogne"
    assert any("Boulogne" in s for s in trip["arrival_place"]["stations"])
    assert trip["arrival_place"]["stations"] == list(make_french_places().place("Boulogne-sur-Mer").stations)


def test_without_homonyms_a_gazetteer_keeps_its_places(nlp, monkeypatch):
    """A place contract without `homonyms` (it is optional) reads every name as it resolves."""
    places = make_french_places()

    class Plain:
        def __getattr__(self, name):
            if name == "homonyms":
                raise AttributeError(name)
            return getattr(places, name)

    nlp2 = spacy.blank("fr")
    nlp2.add_pipe("seqkit_trip")
    monkeypatch.setattr(nlp2.get_pipe("seqkit_trip"), "_places", Plain())
    trip = trip_of(nlp2, "depuis etaples jusqu'a boulogne", [("etaples", "DEPART"), ("boulogne", "ARRIVEE")])
    assert trip["arrival_place"]["insee"] == "92012"


@pytest.mark.parametrize(
    "text,marked,steps",
    [
        # a stop beside the place before it on the way
        (
            "De Dunkerque à Calais, puis Boulogne, puis Amiens",
            [("Dunkerque", "DEPART"), ("Calais", "VIA"), ("Boulogne", "VIA"), ("Amiens", "ARRIVEE")],
            ["Calais", "Boulogne-sur-Mer"],
        ),
        # else beside the place after it
        (
            "de Lyon à Chambéry par Aix",
            [("Lyon", "DEPART"), ("Chambéry", "ARRIVEE"), ("Aix", "VIA")],
            ["Aix-les-Bains"],
        ),
        # beside neither: the name's biggest commune
        (
            "de Paris à Lille en passant par Boulogne",
            [("Paris", "DEPART"), ("Lille", "ARRIVEE"), ("Boulogne", "VIA")],
            ["Boulogne-Billancourt"],
        ),
    ],
)
def test_a_stop_named_as_several_communes_is_the_one_beside_its_neighbours(nlp, text, marked, steps):
    assert trip_of(nlp, text, marked)["steps"] == steps


@pytest.mark.parametrize(
    "text,marked,arrival",
    [
        # The article "aux" holds belongs to the name: the station Les Ormes (Vienne), not Ormes (Loiret).
        ("je vais de Poitiers aux Ormes demain", [("Poitiers", "DEPART"), ("Ormes", "ARRIVEE")], "Les Ormes"),
        ("de Caen au Havre", [("Caen", "DEPART"), ("Havre", "ARRIVEE")], "Le Havre"),
        ("de Tours à Ormes", [("Tours", "DEPART"), ("Ormes", "ARRIVEE")], "Ormes"),
        ("de Tours au Mans", [("Tours", "DEPART"), ("Mans", "ARRIVEE")], "Le Mans"),
        # A town's usual short name, where the commune of exactly that name is a village (Le Puy,
        # Doubs): Le Puy-en-Velay; the article left out of the mention is read too.
        ("de Langeac au Puy lundi", [("Langeac", "DEPART"), ("Puy", "ARRIVEE")], "Le Puy-en-Velay"),
        ("Brioude - Le Puy demain", [("Brioude", "DEPART"), ("Puy", "ARRIVEE")], "Le Puy-en-Velay"),
    ],
)
def test_a_name_is_read_with_the_article_its_preposition_holds(nlp, text, marked, arrival):
    assert trip_of(nlp, text, marked)["arrival"] == arrival


def test_a_town_of_the_name_is_no_short_name_of_a_bigger_one(nlp):
    """ "au Blanc": Le Blanc (Indre, 6,000 inhabitants) is a town, so the name is no short name of
    Le Blanc-Mesnil, the bigger town the name alone would stand for."""
    trip = trip_of(nlp, "de Tours au Blanc samedi", [("Tours", "DEPART"), ("Blanc", "ARRIVEE")])
    assert trip["arrival"] != "Le Blanc-Mesnil"


@pytest.mark.parametrize(
    "text,marked,departure",
    [
        # a name followed by its département is that département's commune, a small one too
        (
            "de Saint-Sulpice, dans le Tarn, pour Toulouse",
            [("Saint-Sulpice", "DEPART"), ("Toulouse", "ARRIVEE")],
            "Saint-Sulpice-la-Pointe",
        ),
        ("de Tarascon, celui d'Ariège, à Foix", [("Tarascon", "DEPART"), ("Foix", "ARRIVEE")], "Tarascon-sur-Ariège"),
        ("de Bruay (62) pour Lille", [("Bruay", "DEPART"), ("Lille", "ARRIVEE")], "Bruay-la-Buissière"),
        # a delegated commune typed by its own name stays that name
        (
            "je quitte Belleville, dans le Rhône, pour Mâcon",
            [("Belleville", "DEPART"), ("Mâcon", "ARRIVEE")],
            "Belleville",
        ),
        # a département its commune is in already, or no département after the name: as before
        ("de Lyon, dans le Rhône, à Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], "Lyon"),
        ("de Tarascon à Foix", [("Tarascon", "DEPART"), ("Foix", "ARRIVEE")], "Tarascon"),
    ],
)
def test_a_name_followed_by_its_departement_is_that_departement_s(nlp, text, marked, departure):
    assert trip_of(nlp, text, marked)["departure"] == departure


def test_a_short_form_whose_commune_no_station_serves_gives_way_to_a_served_namesake(nlp):
    """ "noyelles" stands for Noyelles-sous-Lens (Pas-de-Calais, no station); beside Rue (Somme) it is
    Noyelles-sur-Mer, a village a station serves, in the same département."""
    trip = trip_of(nlp, "je part de noyelles vendredi pour Rue", [("noyelles", "DEPART"), ("Rue", "ARRIVEE")])
    assert trip["departure"] == "Noyelles-sur-Mer"
    trip = trip_of(nlp, "je pars de noyelles pour Lens", [("noyelles", "DEPART"), ("Lens", "ARRIVEE")])
    assert trip["departure"] == "Noyelles-sous-Lens"
