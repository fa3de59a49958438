"""The other end of a pair, right beside the one end read (the step `pair_beside`): joined by a
dash or by a word that orders them ("vers", "pour", "à"), a station with a hyphenated last word
included ("Bordeaux Saint-Jean - La Rochelle"); never one of two alternatives."""

import pytest
from trip_helpers import ends_of, marked_doc, read, without_steps


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "2 adultes 1 enfant, Bordeaux Saint-Jean - La Rochelle, samedi 9h",
            [("La Rochelle", "ARRIVEE")],
            ("Bordeaux Saint-Jean", "La Rochelle"),
        ),
        (
            "deux adultes et un enfant de 4 ans, Lille Flandres vers Dunkerque",
            [("Dunkerque", "ARRIVEE")],
            ("Lille Flandres", "Dunkerque"),
        ),
        ("2 places, Nancy pour Metz", [("Metz", "ARRIVEE")], ("Nancy", "Metz")),
        # an arrow of any shape: "➝", "⟶"
        ("lun 12 • train Saint-Brieuc ➝ Lannion • 8h", [("Saint-Brieuc", "DEPART")], ("Saint-Brieuc", "Lannion")),
        ("Rennes ⟶ Vannes, 2 places", [("Rennes", "DEPART")], ("Rennes", "Vannes")),
        # the departure's clock time before the dash ("COLMAR 07H02 - SELESTAT 07H15")
        ("Colmar 07h02 - Sélestat 07h15, dispo ?", [("Colmar", "DEPART")], ("Colmar", "Sélestat")),
        ("Quimper 18:45 → Brest", [("Quimper", "DEPART")], ("Quimper", "Brest")),
        # across an arrow, a name typed without its silent "s", before or after the arrow
        ("des TGV Arra -> Douai demain ?", [("Douai", "ARRIVEE")], ("Arras", "Douai")),
        ("dunkerque -> calai le 3, 1 place", [("dunkerque", "DEPART")], ("Dunkerque", "Calais")),
        (
            "vendredi, Saint-Pierre-des-Corps à Poitiers",
            [("Poitiers", "ARRIVEE")],
            ("Saint-Pierre-des-Corps", "Poitiers"),
        ),
        # the train's name before it is no part of the place ("le TER Saint-Gervais" is no Le
        # Pré-Saint-Gervais mistyped)
        (
            "le TER Saint-Gervais – Annemasse prend les vélos ?",
            [("Annemasse", "ARRIVEE")],
            ("Saint-Gervais", "Annemasse"),
        ),
    ],
)
def test_the_other_end_beside_the_one_read(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected
    assert (
        ends_of(without_steps("pair_beside", "lone_end_partner"), text, marked) != expected
    )  # the step makes the pair


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        ("bjr lille flandres ou lille europe vers arras demain", [("arras", "ARRIVEE")], (None, "Arras")),
        ("je pars de Lyon à midi", [("Lyon", "DEPART")], ("Lyon", None)),
        ("un billet pour Nice", [("Nice", "ARRIVEE")], (None, "Nice")),
    ],
)
def test_no_other_end_where_none_is_sure(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # one end read, as the departure, with no word saying so: the name opening the request
        # right before it departs
        ("Saint-Étienne Lille Europe samedi", [("Lille Europe", "DEPART")], ("Saint-Étienne", "Lille Europe")),
        ("Merci. Rennes Nantes demain", [("Nantes", "DEPART")], ("Rennes", "Nantes")),
        # not after a word ("l'aéroport de Tours"), nor typed in lowercase
        ("je suis à l'aéroport de Tours", [("Tours", "DEPART")], ("Tours", None)),
        ("aze Conflans - Jarny", [("Conflans - Jarny", "DEPART")], ("Conflans - Jarny", None)),
    ],
)
def test_the_departure_before_a_departure_read_without_a_cue(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        # Nothing read: a request that is only two places, one maybe mistyped, goes from the first.
        ("bordeau toulouse", ("Bordeaux", "Toulouse")),
        ("grenobel lyon demain 8h30 svp", ("Grenoble", "Lyon")),
        ("lile -> arras", ("Lille", "Arras")),
        # Anything else in the request, one place of two words, or a word: no pair.
        ("bordeau toulouse, combien de temps ?", (None, None)),
        ("Albigny - Neuville", (None, None)),
        ("bonjour merci", (None, None)),
        ("demain toulouse", (None, None)),
    ],
)
def test_a_request_of_two_places_alone_is_their_trip(nlp, text, expected):
    assert ends_of(nlp, text, []) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # Of two ends read with one role, a station goes before its own town.
        (
            "je pars de Clermont-Ferrand vers Paris, puis je continue jusqu'à Paris Bercy",
            [("Clermont-Ferrand", "DEPART"), ("Paris", "ARRIVEE"), ("Paris Bercy", "ARRIVEE")],
            ("Clermont-Ferrand", "Paris Bercy"),
        ),
        (
            "un aller-retour Paris Montparnasse – Bordeaux, départ de Paris vendredi",
            [("Paris Montparnasse", "DEPART"), ("Bordeaux", "ARRIVEE"), ("de [Paris]", "DEPART")],
            ("Paris Montparnasse", "Bordeaux"),
        ),
    ],
)
def test_a_station_goes_before_its_own_town(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # of two arrivals, the one said right after the departure
        (
            "Pour un enterrement à Eymet mardi, je cherche un train de Libourne à Bergerac.",
            [("Eymet", "ARRIVEE"), ("Libourne", "DEPART"), ("Bergerac", "ARRIVEE")],
            ("Libourne", "Bergerac"),
        ),
        (
            "Je vais voir la maison de Monet à Giverny : un train de Paris Saint-Lazare jusqu'à Vernon ?",
            [("Giverny", "ARRIVEE"), ("Paris Saint-Lazare", "DEPART"), ("Vernon", "ARRIVEE")],
            ("Paris Saint-Lazare", "Vernon"),
        ),
        # of two departures, the one said right before the arrival
        (
            "JE VOUDRAIS UN BILLET ROANNE SAINT-ETIENNE POUR LE 16. JE VIENS DE CHARLIEU.",
            [("ROANNE", "DEPART"), ("SAINT-ETIENNE", "ARRIVEE"), ("CHARLIEU", "DEPART")],
            ("Roanne", "Saint-Étienne"),
        ),
        # not a station and its town, not an everyday word in lowercase
        (
            "J'ai un poste à Disneyland, je monte de Lyon à Marne-la-Vallée le 1er",
            [("Disneyland", "ARRIVEE"), ("Lyon", "DEPART"), ("Marne-la-Vallée", "ARRIVEE")],
            ("Lyon", "Marne-la-Vallée Chessy"),
        ),
        (
            "Je suis interne à Reims et je dois être de garde à Châlons-en-Champagne dimanche.",
            [("Reims", "DEPART"), ("garde", "DEPART"), ("Châlons-en-Champagne", "ARRIVEE")],
            ("Reims", "Châlons-en-Champagne"),
        ),
    ],
)
def test_the_end_said_right_beside_the_other_end_goes_first(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "Colmar, avec ses canaux et ses maisons à colombages, sera mon point de départ ; je dois être à Mulhouse lundi.",
            [("Mulhouse", "ARRIVEE")],
            ("Colmar", "Mulhouse"),
        ),
        (
            "jsuis bloquée a la gare de brive faut que je rentre a tulle ce soir",
            [("tulle", "ARRIVEE")],
            ("Brive-la-Gaillarde", "Tulle"),
        ),
        (
            "De Laon, perchée sur sa butte, j'irai à Reims jeudi.",
            [("Reims", "ARRIVEE")],
            ("Laon", "Reims"),
        ),
        # "me laisse": one drops me there, nothing was left behind (no line's news)
        (
            "mon père me laisse à la gare de Vitré vers 8 h, y a-t-il un TER pour Rennes ?",
            [("Rennes", "ARRIVEE")],
            ("Vitré", "Rennes"),
        ),
        # a village named like a river, no station: no second candidate
        (
            "Manosque, au bord de la Durance, sera mon départ ; je vais à Marseille mardi.",
            [("Marseille", "ARRIVEE")],
            ("Manosque", "Marseille"),
        ),
    ],
)
def test_the_one_other_place_before_a_lone_end_is_the_other_end(nlp, text, marked, expected):
    """`lone_end_partner`: one end read, one other known place before it (a station serves it)."""
    assert ends_of(nlp, text, marked) == expected
    assert ends_of(without_steps("lone_end_partner"), text, marked) != expected


@pytest.mark.parametrize(
    "text,marked",
    [
        # after the end: a signature, a change, a leg by other means
        ("Je souhaite me rendre à Dijon samedi. Cordialement, Paul Lorient", [("Dijon", "ARRIVEE")]),
        ("un aller pour Rodez, faut changer à Brive ?", [("Rodez", "ARRIVEE")]),
        # offered as one of two, or the same town
        ("Lens ou une autre gare, pour aller à Lille ?", [("Lille", "ARRIVEE")]),
        ("Amiens (Somme) ou pas loin, je vais à Rouen", [("Rouen", "ARRIVEE")]),
        ("c'est loin de Valence TGV jusqu'au centre de Valence ?", [("Valence", "ARRIVEE")]),
        # an ordinary word typed as one, though a town bears it
        ("Le château aux treize tours m'attend ; je vais à Rennes samedi.", [("Rennes", "ARRIVEE")]),
        # two other places: no telling which
        ("Tarbes, Lourdes, je ne sais pas ; je vais à Pau", [("Pau", "ARRIVEE")]),
    ],
)
def test_no_partner_for_a_lone_end(nlp, text, marked):
    assert ends_of(nlp, text, marked)[0] is None


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # the recognizer read the departure and the stop, not the arrival: the stop stays a stop
        (
            "On aimerait faire Brest - Lille avec une nuit à Rennes.",
            [("Brest", "DEPART"), ("Rennes", "VIA")],
            ("Brest", ["Rennes"], "Lille"),
        ),
        (
            "Pour le salon d'Angers jeudi, je pars de Paris Montparnasse et je m'arrête au Mans.",
            [("Paris Montparnasse", "DEPART"), ("Mans", "VIA")],
            ("Paris Montparnasse", ["Le Mans"], "Angers"),
        ),
    ],
)
def test_the_one_other_place_beside_a_departure_and_stops_is_the_arrival(nlp, text, marked, expected):
    """`arrival_beside_stops`: a departure and stops read, no arrival, one other known place."""
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], trip["steps"], trip["arrival"]) == expected
    trip = read(without_steps("arrival_beside_stops"), marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], trip["steps"], trip["arrival"]) != expected  # the last stop taken for the arrival


@pytest.mark.parametrize(
    "text,marked",
    [
        # two other places, neither after an arrival's cue: no telling which
        ("Départ de Metz avec un arrêt à Lyon ; Nice et Marseille me tentent", [("Metz", "DEPART"), ("Lyon", "VIA")]),
        # offered as one of two
        ("De Metz, via Lyon, pour Nice ou Cannes ?", [("Metz", "DEPART"), ("Lyon", "VIA")]),
    ],
)
def test_no_arrival_beside_stops_where_the_other_places_leave_a_doubt(nlp, text, marked):
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert trip["arrival"] != "Nice"


def test_an_everyday_word_opening_a_sentence_is_no_end(nlp):
    """ "Nuits" (a village) opening a sentence is the word: no arrival beside the stops, the last stop is."""
    text = "Tournée du 3 au 5 : Rennes, ensuite Vannes, ensuite Lorient. Nuits à l'hôtel."
    marked = [("Rennes", "DEPART"), ("Vannes", "VIA"), ("Lorient", "VIA")]
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], trip["arrival"]) == ("Rennes", "Lorient")
    # capitalised elsewhere, the village it names is one
    trip = read(nlp, marked_doc(nlp, "De Rennes, via Vannes, jusqu'à Nuits.", marked[:2]))._.trip
    assert (trip["departure"], trip["arrival"]) == ("Rennes", "Nuits")


def test_an_everyday_word_typed_without_the_article_of_a_name_is_no_other_end(nlp):
    """ "garde" is the verb, not La Garde (whose article is left out): no departure from it."""
    text = "la nounou garde les enfants, moi je dois aller jusqu'à Toulon samedi"
    trip = read(nlp, marked_doc(nlp, text, [("Toulon", "ARRIVEE")]))._.trip
    assert trip["departure"] is None


def test_the_step_that_pairs_a_lone_end_says_why_once(nlp):
    text = "Et moi je suis coincée à Foix, il faut que j'aille à Pamiers."
    why = read(nlp, marked_doc(nlp, text, [("Pamiers", "ARRIVEE")]))._.trip["why"]
    assert why == [{"rule": "seqkit_trip.ends_by_role"}, {"rule": "seqkit_trip.lone_end_partner"}]
