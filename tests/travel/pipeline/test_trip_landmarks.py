"""A landmark's name is no end of the trip, unless it is a known place (`seqkit_places`'s
`landmarks`, `mentions/landmarks.py`)."""

import pytest
from trip_helpers import marked_doc, read, reading

NO_LANDMARKS = []


def trip_of(nlp, text, marked, landmarks=True):
    """(departure, arrival) of `text` with the entities `marked`; with `landmarks` False, as
    without this rule (`seqkit_places`'s `landmarks = false`)."""
    if not landmarks:
        NO_LANDMARKS[:] = NO_LANDMARKS or [reading(seqkit_places={"landmarks": False})]
        nlp = NO_LANDMARKS[0]
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    return trip["departure"], trip["arrival"]


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # a landmark that is no place is no end ("la Porte" was La Porte du Der, "Dorée" La Dorée)
        ("indique-moi le chemin vers la Porte Dorée", [("la Porte", "DEPART"), ("Dorée", "ARRIVEE")], (None, None)),
        (
            "Je voudrais aller à la Tour Eiffel depuis Lyon",
            [("la Tour Eiffel", "ARRIVEE"), ("Lyon", "DEPART")],
            ("Lyon", None),
        ),
        ("Je vais à la Place Bellecour depuis Villeurbanne", [("la Place", "ARRIVEE")], (None, None)),
        # a street is named after another town: its town is no end, in lowercase too
        (
            "Je cherche la rue de Paris à Lille, le train de Roubaix",
            [("Paris", "DEPART"), ("Lille", "ARRIVEE"), ("Roubaix", "DEPART")],
            ("Roubaix", "Lille"),
        ),
        (
            "Je vais au 12 Avenue de Metz à Nancy, je pars de Toul",
            [("Metz", "ARRIVEE"), ("Nancy", "ARRIVEE"), ("Toul", "DEPART")],
            ("Toul", "Nancy"),
        ),
        # an event named by what it shows is no town ("Salon" is Salon-de-Provence)
        (
            "je dois aller au Salon de l'agriculture à Paris samedi depuis Chartres",
            [("Salon", "ARRIVEE"), ("Paris", "ARRIVEE"), ("Chartres", "DEPART")],
            ("Chartres", "Paris"),
        ),
    ],
)
def test_a_landmark_is_no_end(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected
    assert trip_of(nlp, text, marked, landmarks=False) != expected


def test_a_landmark_that_is_a_station_is_one_end_however_the_recognizer_cut_it(nlp):
    marked = [("Paris Nord", "DEPART"), ("la Porte", "VIA"), ("Clichy", "ARRIVEE")]
    assert trip_of(nlp, "De Paris Nord à la Porte de Clichy", marked) == ("Paris Nord", "Porte de Clichy")


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "Un train de Château Thierry à Paris",
            [("Château Thierry", "DEPART"), ("Paris", "ARRIVEE")],
            ("Château-Thierry", "Paris"),
        ),
        # "place" in lowercase is a seat, not a square
        ("je voudrais une place de Paris à Lyon", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")], ("Paris", "Lyon")),
        # a landmark named after its town: the town is the end
        (
            "Je vais de Paris au Château de Versailles",
            [("Paris", "DEPART"), ("Château de Versailles", "ARRIVEE")],
            ("Paris", "Versailles"),
        ),
        ("Je vais à la Tour depuis Lyon", [("la Tour", "ARRIVEE"), ("Lyon", "DEPART")], ("Lyon", "La Tour")),
        (
            "un billet salon de provence miramas lundi",
            [("salon de provence", "DEPART")],
            ("Salon-de-Provence", "Miramas"),
        ),
        (
            "De Dijon Porte Neuve à Is-sur-Tille",
            [("Dijon Porte Neuve", "DEPART"), ("Is-sur-Tille", "ARRIVEE")],
            ("Dijon Porte Neuve", "Is-sur-Tille"),
        ),
        (
            "de Stade de France Saint-Denis à Paris",
            [("Stade de France Saint-Denis", "DEPART"), ("Paris", "ARRIVEE")],
            ("Stade de France Saint-Denis", "Paris"),
        ),
        (
            "de Lille à Église-Neuve-de-Vergt",
            [("Lille", "DEPART"), ("Église-Neuve-de-Vergt", "ARRIVEE")],
            ("Lille", "Église-Neuve-de-Vergt"),
        ),
        # words in capitals are not read as names: "L'HÔPITAL LUNDI" is no landmark
        (
            "DE SAINT CRICQ VILLENEUVE À GRUGÉ L'HÔPITAL LUNDI PROCHAIN",
            [("SAINT CRICQ VILLENEUVE", "DEPART"), ("GRUGÉ L'HÔPITAL", "ARRIVEE")],
            ("Saint-Cricq-Villeneuve", "Grugé-l'Hôpital"),
        ),
    ],
)
def test_places_named_like_landmarks_stay_places(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # everyday words after an article, in lowercase, name no village no station serves
        ("on part de Rouen et on veut aller à la montagne", [("Rouen", "DEPART")], ("Rouen", None)),
        ("de Nantes, les horaires vers les deux villes ?", [("Nantes", "DEPART")], ("Nantes", None)),
        # a town a station serves stays a place ("souterraine" is a word too)
        ("je pars de Limoges pour aller à la souterraine", [("Limoges", "DEPART")], ("Limoges", "La Souterraine")),
        # and a name written as one
        ("on part de Nantes, on va à La Montagne", [("Nantes", "DEPART")], ("Nantes", "La Montagne")),
    ],
)
def test_everyday_words_after_an_article_are_no_free_place(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected
