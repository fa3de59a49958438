"""A request that calls its trip off is no order ("je ne veux pas aller à Lyon depuis Paris",
"j'annule"); one that goes on to ask for a trip, or denies only its circumstances, keeps it
(`seqkit_called_off`: `doc._.called_off`)."""

import pytest
from trip_helpers import marked_doc, read, reading


def called_off(doc):
    return doc._.called_off == "called_off"


def told_of_the_past(doc):
    return doc._.called_off == "told_of_the_past"


CALLED_OFF = [
    ("Je ne veux pas aller à Lyon depuis Paris.", [("Lyon", "ARRIVEE"), ("Paris", "DEPART")]),
    ("Paris Lyon en TGV, mais je n'ai plus de sous, donc je ne pars pas.", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
    ("finalement je n'irai pas à Brest depuis Rennes, merci quand même", [("Brest", "ARRIVEE"), ("Rennes", "DEPART")]),
    ("je voulais aller de Toulon à Nice mais finalement on ne part plus", [("Toulon", "DEPART"), ("Nice", "ARRIVEE")]),
    ("je n'ai pas du tout envie d'aller à Paris depuis Rennes", [("Paris", "ARRIVEE"), ("Rennes", "DEPART")]),
    ("de Lille à Marseille, mais finalement non, je reste", [("Lille", "DEPART"), ("Marseille", "ARRIVEE")]),
    (
        "je voulais aller à Dijon depuis Besançon mais il y a grève, donc j'annule",
        [("Dijon", "ARRIVEE"), ("Besançon", "DEPART")],
    ),
    ("je voudrais annuler mon Nantes Rennes de demain", [("Nantes", "DEPART"), ("Rennes", "ARRIVEE")]),
    # the places of the cancelled trip are in the cue's sentence
    ("J'annule mon Nantes – Rennes de demain. Merci de me rembourser.", [("Nantes", "DEPART"), ("Rennes", "ARRIVEE")]),
    ("je ne peux pas monter à Paris depuis Lyon cette semaine", [("Paris", "ARRIVEE"), ("Lyon", "DEPART")]),
]
KEPT = [
    # a cancellation, then a trip asked for: in another sentence, or with a verb of booking
    (
        "Mon TER de ce matin est annulé. Merci de me placer sur un train de Brest à Rennes ce soir.",
        [("Brest", "DEPART"), ("Rennes", "ARRIVEE")],
        "Brest",
        "Rennes",
    ),
    # whatever sentence before the cue names the trip too
    (
        "Mon billet Quimper – Paris de ce matin. Il est annulé. Merci de me placer sur un train de Quimper à Paris.",
        [("Quimper", "DEPART"), ("Paris", "ARRIVEE"), ("de [Quimper]", "DEPART"), ("à [Paris]", "ARRIVEE")],
        "Quimper",
        "Paris",
    ),
    (
        "suite à l'annulation de mon ter, reservez moi un Arras – Lille pour demain 7h",
        [("Arras", "DEPART"), ("Lille", "ARRIVEE")],
        "Arras",
        "Lille",
    ),
    (
        "Ma place a été annulée par erreur, pouvez-vous me proposer Dax – Pau jeudi ?",
        [("Dax", "DEPART"), ("Pau", "ARRIVEE")],
        "Dax",
        "Pau",
    ),
    (
        "je ne vais pas à Lyon mais à Grenoble depuis Paris",
        [("Grenoble", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Grenoble",
    ),
    ("je ne veux pas partir trop tard de Lyon pour Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], "Lyon", "Paris"),
    (
        "Mon train a été annulé. Je dois quand même aller de Lyon à Paris.",
        [("Lyon", "DEPART"), ("Paris", "ARRIVEE")],
        "Lyon",
        "Paris",
    ),
    # a ticket cancelled, and the trip it is moved to
    (
        "pouvez-vous transférer mon billet de ce matin, annulé par la grève, sur le train de Brest à Rennes ?",
        [("Brest", "DEPART"), ("Rennes", "ARRIVEE")],
        "Brest",
        "Rennes",
    ),
    # a flight or a coach cancelled is no trip called off: the train replaces it
    (
        "mon avion pour Nice est annulé à cause de l'orage, un train de Lyon à Nice ce soir ?",
        [("Nice", "ARRIVEE"), ("de [Lyon]", "DEPART"), ("à [Nice]", "ARRIVEE")],
        "Lyon",
        "Nice",
    ),
    ("TRAIN CAEN -> BAYEUX SVP, MON CAR EST ANNULÉ", [("CAEN", "DEPART"), ("BAYEUX", "ARRIVEE")], "Caen", "Bayeux"),
    # a train asked for anew, before or after the cancellation
    (
        "Pouvez-vous m'indiquer un train de Tours à Poitiers ce soir ? Le mien a été annulé.",
        [("Tours", "DEPART"), ("Poitiers", "ARRIVEE")],
        "Tours",
        "Poitiers",
    ),
    (
        "Lunel – Nîmes, le 7h34 est annulé, il y en a un autre ?",
        [("Lunel", "DEPART"), ("Nîmes", "ARRIVEE")],
        "Lunel",
        "Nîmes",
    ),
    (
        "mon TGV Paris Lyon a été annulé, quand part le suivant ?",
        [("Paris", "DEPART"), ("Lyon", "ARRIVEE")],
        "Paris",
        "Lyon",
    ),
    (
        "de Paris, finalement non, de Lyon, à Marseille",
        [("Lyon", "DEPART"), ("Marseille", "ARRIVEE")],
        "Lyon",
        "Marseille",
    ),
    (
        "de Paris à Lyon, sauf Dijon je ne veux pas m'y arrêter",
        [("Paris", "DEPART"), ("Lyon", "ARRIVEE")],
        "Paris",
        "Lyon",
    ),
    (
        "Départ Thionville, arrivée Metz, je ne vais pas jusqu'au bout de la ligne",
        [("Thionville", "DEPART"), ("Metz", "ARRIVEE")],
        "Thionville",
        "Metz",
    ),
    (
        "Je ne pars plus de Lyon, je pars de Grenoble pour Valence",
        [("Lyon", "DEPART"), ("Grenoble", "DEPART"), ("Valence", "ARRIVEE")],
        "Grenoble",
        "Valence",
    ),
    (
        "Je voudrais aller de Lyon à Paris, mais je ne peux pas monter à l'étage des trains duplex.",
        [("Lyon", "DEPART"), ("Paris", "ARRIVEE")],
        "Lyon",
        "Paris",
    ),
    (
        "de Nantes à Brest jeudi, mon père ne peut pas monter à bord sans aide",
        [("Nantes", "DEPART"), ("Brest", "ARRIVEE")],
        "Nantes",
        "Brest",
    ),
    (
        "je n'ai pas de voiture, je dois aller de Lyon à Paris",
        [("Lyon", "DEPART"), ("Paris", "ARRIVEE")],
        "Lyon",
        "Paris",
    ),
]


@pytest.mark.parametrize("text,marked", CALLED_OFF)
def test_trip_called_off_is_invalid(nlp, text, marked):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert called_off(doc) and doc._.trip["is_valid"] is False and doc.ents == ()


@pytest.mark.parametrize("text,marked,departure,arrival", KEPT)
def test_trip_not_called_off_keeps_its_ends(nlp, text, marked, departure, arrival):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert not called_off(doc)
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == (departure, arrival)


@pytest.mark.parametrize(
    "text,marked",
    [
        ("hier je suis allé de Lille à Paris en train, c'était top", [("Lille", "DEPART"), ("Paris", "ARRIVEE")]),
        ("l'an dernier j'ai pris le train de Strasbourg à Colmar", [("Strasbourg", "DEPART"), ("Colmar", "ARRIVEE")]),
        ("mon train de Nancy à Metz hier avait deux heures de retard", [("Nancy", "DEPART"), ("Metz", "ARRIVEE")]),
        ("Quel bonheur ce fut, l'été dernier, ce train de Nancy à Metz !", [("Nancy", "DEPART"), ("Metz", "ARRIVEE")]),
    ],
)
def test_a_trip_told_and_not_asked_for_is_invalid(nlp, text, marked):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert told_of_the_past(doc) and doc._.trip["is_valid"] is False


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # a word of a request after the story keeps the trip
        (
            "hier j'ai raté mon train de Lyon à Paris, il y en a un ce soir ?",
            [("Lyon", "DEPART"), ("Paris", "ARRIVEE")],
            ("Lyon", "Paris"),
        ),
        (
            "mon train d'hier a été annulé, je dois aller de Nancy à Metz",
            [("Nancy", "DEPART"), ("Metz", "ARRIVEE")],
            ("Nancy", "Metz"),
        ),
        (
            "la semaine dernière c'était Lyon, demain de Lyon à Dijon",
            [("Lyon", "DEPART"), ("Dijon", "ARRIVEE")],
            ("Lyon", "Dijon"),
        ),
        # "l'été dernier": the summer, no deed done
        (
            "Lyon Dijon en train comme l'été dernier, le samedi 12",
            [("Lyon", "DEPART"), ("Dijon", "ARRIVEE")],
            ("Lyon", "Dijon"),
        ),
    ],
)
def test_a_story_before_a_request_keeps_the_trip(nlp, text, marked, expected):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert not told_of_the_past(doc)
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,marked",
    [
        ("Mon rêve : descendre de Calais à Menton en train de nuit", [("Calais", "DEPART"), ("Menton", "ARRIVEE")]),
        (
            "Le roman s'ouvre dans le TER entre Rodez et Millau, un soir d'orage",
            [("Rodez", "DEPART"), ("Millau", "ARRIVEE")],
        ),
        ("un souvenir : le train de Gap à Briançon sous la neige", [("Gap", "DEPART"), ("Briançon", "ARRIVEE")]),
        (
            "Le livre raconte la vie d'une garde-barrière entre Limoges et Guéret",
            [("Limoges", "DEPART"), ("Guéret", "ARRIVEE")],
        ),
        (
            "nous étions dans le train Paris-Strasbourg ce jour-là, on s'en souvient encore",
            [("Paris", "DEPART"), ("Strasbourg", "ARRIVEE")],
        ),
        ("jai toujours revé du train de nuit paris-nice", [("paris", "DEPART"), ("nice", "ARRIVEE")]),
    ],
)
def test_a_trip_dreamt_of_or_seen_in_a_story_is_invalid(nlp, text, marked):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.called_off == "told" and doc._.trip["is_valid"] is False
    assert doc._.trip["why"][0]["rule"] == "called_off.told"


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # a word of a request beside the dream keeps the trip
        (
            "je rêve d'aller de Calais à Menton, un billet pour samedi svp",
            [("Calais", "DEPART"), ("Menton", "ARRIVEE")],
            ("Calais", "Menton"),
        ),
        # a story's word that is part of a place's name
        ("de Breuil Roman à Niort le 12 mai", [("Breuil Roman", "DEPART"), ("Niort", "ARRIVEE")], None),
    ],
)
def test_a_story_with_a_request_or_a_place_named_like_one_keeps_the_trip(nlp, text, marked, expected):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.called_off != "told" and doc._.trip["is_valid"]
    if expected:
        assert (doc._.trip["departure"], doc._.trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,marked",
    [
        (
            "j'ai déjà nos billets Dijon-Beaune pour lundi, le vélo est-il accepté à bord ?",
            [("Dijon", "DEPART"), ("Beaune", "ARRIVEE")],
        ),
        (
            "Ma réservation Laval – Vitré est deja faite ; y a-t-il un ascenseur ?",
            [("Laval", "DEPART"), ("Vitré", "ARRIVEE")],
        ),
    ],
)
def test_a_ticket_held_already_asks_for_no_trip(nlp, text, marked):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.called_off == "ticket_held" and doc._.trip["is_valid"] is False


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # someone else's ticket
        (
            "je pars de Dax pour Pau, mon frère a déjà son billet",
            [("Dax", "DEPART"), ("Pau", "ARRIVEE")],
            ("Dax", "Pau"),
        ),
        # the way back asked for
        (
            "j'ai déjà mon billet aller, il me faut le retour de Pau à Dax",
            [("Pau", "DEPART"), ("Dax", "ARRIVEE")],
            ("Pau", "Dax"),
        ),
        # another ticket asked for
        (
            "mes billets sont déjà pris, je voudrais un billet de Dax à Pau pour ma fille",
            [("Dax", "DEPART"), ("Pau", "ARRIVEE")],
            ("Dax", "Pau"),
        ),
    ],
)
def test_a_ticket_held_beside_a_trip_asked_for_keeps_it(nlp, text, marked, expected):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.called_off != "ticket_held"
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,marked,trip",
    [
        (
            "Météo du jour : Rodez 12°C, Millau 14°C, averses le soir",
            [("Rodez", "DEPART"), ("Millau", "ARRIVEE")],
            None,
        ),
        # a train taken, or a request, beside the weather keeps the trip
        (
            "il pleut à Rodez, je prendrai le train de Rodez à Millau",
            [("de [Rodez]", "DEPART"), ("Millau", "ARRIVEE")],
            ("Rodez", "Millau"),
        ),
        (
            "avec la pluie annoncée je voudrais aller de Rodez à Millau",
            [("Rodez", "DEPART"), ("Millau", "ARRIVEE")],
            ("Rodez", "Millau"),
        ),
    ],
)
def test_the_weather_of_two_places_asks_for_no_trip(nlp, text, marked, trip):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert (doc._.called_off == "weather") is (trip is None)
    assert ((doc._.trip["departure"], doc._.trip["arrival"]) if doc._.trip["is_valid"] else None) == trip


@pytest.mark.parametrize("text,marked", CALLED_OFF[:2])
def test_called_off_left_out_of_the_pipeline_reads_the_trip(text, marked):
    nlp = reading(without=("seqkit_called_off",))
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.trip["is_valid"] and doc._.called_off is None


def test_called_off_explains_its_cue():
    nlp = reading(seqkit_called_off={"explain": True})
    doc = read(nlp, marked_doc(nlp, *CALLED_OFF[0]))
    assert doc._.cues == [{"qualifier": "seqkit_called_off", "rule": "called_off", "cue": "ne"}]
    assert doc._.trip["why"] == [{"rule": "called_off.called_off", "cue": "ne"}]


def test_a_cancelled_event_beside_a_trip_home_keeps_the_trip(nlp):
    """An event cancelled ("formation annulée") and a trip home asked right after it ("je rentre
    de La Rochelle à Nantes"): the trip stands ("rentre", the present of "rentrer", is a verb of
    going: the conjugation table writes it without a grave accent)."""
    text = "formation annulée à Niort, du coup je rentre de La Rochelle à Nantes ce soir"
    doc = read(nlp, marked_doc(nlp, text, [("La Rochelle", "DEPART"), ("Nantes", "ARRIVEE")]))
    assert not called_off(doc)
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("La Rochelle", "Nantes")
