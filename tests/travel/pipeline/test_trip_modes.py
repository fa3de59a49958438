"""`seqkit_other_means`: a request by car, plane, coach, boat... that asks for no train is
INVALID; "car" (because), "vol" (theft), "en train de" keep their other senses."""

import pytest
import spacy
from trip_helpers import marked_doc, read, reading

from spacy_seqkit.travel.pipeline.qualifiers.other_means.other_means import OtherMeans
from spacy_seqkit.travel.pipeline.reading import add_reading

QUALIFIER = OtherMeans("seqkit_other_means")


def travels_by_other_mode(words):
    words = [w.lower() for w in words]
    return QUALIFIER.names_another_mode(words) and not QUALIFIER.names_a_train(words)


# Every place of the sentences, with the role a recognizer gives it.
ROLES = {
    "Avion": "DEPART",
    "Bus": "ARRIVEE",
    "Charleville": "DEPART",
    "Sedan": "ARRIVEE",
    "Biarritz": "DEPART",
    "Lille": "ARRIVEE",
    "Libourne": "DEPART",
    "Figeac": "ARRIVEE",
    "Nantes": "DEPART",
    "Rennes": "ARRIVEE",
}


def pipeline(other_means=True, **configs):
    """An entity_ruler that labels each place with its role, then the reading pipes (without
    `seqkit_other_means` where `other_means` is False)."""
    nlp = spacy.blank("fr")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": role, "pattern": place} for place, role in ROLES.items()])
    add_reading(nlp, configs)
    if not other_means:
        nlp.remove_pipe("seqkit_other_means")
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return pipeline()


OTHER_MODES = [
    "je monte à Sedan en voiture depuis Charleville",
    "un vol de Biarritz pour Lille",
    "le car de Libourne à Figeac",
    "l'autocar de Libourne à Figeac svp",
    "je cherche des vols Biarritz Lille pas chers",
    "vol Biarritz Lille demain",
    "covoiturage Nantes Rennes samedi",
    # an emoji for the means, the word's edge none
    "✈️ Biarritz > Lille 18h05, terminal 1",
    "🚗 Nantes → Rennes samedi, 2 places",
    "mon cousin veut rejoindre Rennes depuis Nantes en camping-car",  # a compound the tokenizer splits
    "de Nantes à Rennes à pied, combien de temps ?",
    "y a un bus de Nantes à Rennes ce soir ?",
    "je prends ma voiture pour aller de Nantes à Rennes",
    "je suis en train de chercher un vol de Biarritz pour Lille",
    "un taxi de Libourne à Figeac",
    "traversée en ferry de Nantes à Rennes",  # nonsense geography, still a ferry
    "de Nantes à Rennes en vélo",
    "de Nantes à Rennes à vélo",
    "de Nantes à Rennes en voilier",
    "il y a un bateau pour aller de Nantes à Rennes ?",  # not "j'ai un vol"
    "on aimerait faire de Nantes à Rennes en pédalo",
    "un billet d'avion de Biarritz pour Lille",
    "je prendrai le covoiturage de Nantes à Rennes, pas le train",
    "je vais en stop de Nantes à Rennes",
    # a train compared or refused is none asked for
    "je prendrai la voiture de Nantes à Rennes, ça ira plus vite que le train",
    "un vol de Biarritz pour Lille, le train est vraiment trop long",
    "en avion de Biarritz à Lille, mon entreprise refuse que je prenne le train",
    # a clause by another means that is no return
    "je dois aller de Nantes à Rennes, mais on me fait voyager en avion",
    # driving; a coach's ticket
    "je conduis de Nantes à Rennes samedi",
    "vous vendez des billets de car pour aller de Libourne à Figeac ?",
    # flying; a coach asked for by "quel"
    "je veux voler de Biarritz à Lille jeudi",
    "quel car prendre de Libourne à Figeac ?",
    # flying by its verbs; boats, vehicles and a scooter misspelt
    "je voudrais m'envoler de Biarritz pour Lille samedi",
    "je dois décoller de Biarritz vers midi pour atterrir à Lille",
    "on descend la rivière en canoë de Nantes à Rennes",
    # means fewer people take: a barge, a balloon, swimming
    "nous aimerions louer une péniche pour aller de Nantes à Rennes",
    "un vol en montgolfière de Biarritz à Lille, c'est possible ?",
    "je veux rejoindre Rennes depuis Nantes à la nage pour un défi",
    "je dois louer un véhicule utilitaire de Libourne à Figeac",
    "de Nantes à Rennes en trotinette c'est long ?",
    "je roulerai de Nantes à Rennes toute la nuit",
    # a coach that replaces the train, taken
    "je dois prendre le bus de remplacement de Nantes à Rennes, il part d'où ?",
    # a coach asked for, the train avoided
    "un car de nuit de Nantes à Rennes ? je préfère éviter le train cette fois",
    # a means asked about, then the trip: no ticket asked for
    "On y va en bus ? De Nantes à Rennes, ça fait combien de temps ?",
    # the train out of use, another means asked for
    "le train est supprimé, je prends un taxi de Nantes à Rennes ?",
    # a means after the trip's own words, past ";" or ":" only: still the trip's
    "je dois me rendre de Libourne à Figeac chaque lundi ; il existe un abonnement pour le car ?",
    # a clause of its own taking the means, or saying it as the trip's manner, or asking about it
    "Je vais de Nantes à Rennes samedi, je prendrai le bus.",
    "je pars de Nantes pour Rennes, en covoiturage",
    "Mes parents partent de Nantes et vont à Rennes, il y a un car ?",
    # vans, lorries and boats: "en van" after a determiner
    "on va à Rennes en van depuis Nantes, c'est combien de km ?",
    "le fourgon part de Nantes à 6h, on arrive à Rennes vers 8h",
    "on loue un utilitaire pour aller de Libourne à Figeac",
    "une barque de Nantes à Rennes, c'est faisable ?",
    # a donkey ridden
    "aller de Nantes à Rennes à dos d'âne avec les enfants, ça existe ?",
    # a means heading the request, a carpool's offer
    "Covoiturage — départ : Nantes / arrivée : Rennes / 2 places / 12 € par personne",
]
TRAINS = [
    # a means looked at, not taken
    "Je pars de Granville pour Cherbourg samedi voir les bateaux du port avec ma fille",
    # "Van" not after a determiner: a painter, not a van
    "de Nantes à Rennes pour voir l'expo Van Gogh samedi",
    "je vais de Nantes à Rennes car j'ai un rendez-vous",
    "on m'a volé mon sac, je dois rentrer de Biarritz à Lille",
    "un TER de Libourne à Figeac",
    "je monte en voiture jusqu'à la gare puis le TGV de Biarritz pour Lille",
    "billet de train Nantes Rennes, je laisse la voiture au garage",
    "de Nantes à Rennes en voiture 12 du Ouigo",
    "de Nantes à Rennes sans voiture, c'est possible ?",
    "faut que je sois a Rennes a 11h depuis Nantes, j'ai plus de voiture !!",  # no more car
    "plutôt qu'en avion, de Biarritz à Lille",
    "Intercités de Charleville à Sedan",
    "je serai à Avion lundi et je dois rejoindre Bus pour midi",  # communes of the Pas-de-Calais
    "je me suis fait voler mon billet, il me faut un train de Nantes à Rennes",  # theft
    "de Nantes à Rennes",
    # A bike as luggage, a flight or a ferry as the journey's other leg.
    "je voyage de Nantes à Rennes avec mon vélo",
    "de Nantes à Rennes avec deux vélos c'est possible ?",
    "pour rejoindre mon voilier à Rennes je partirai de Nantes",  # a boat one joins
    "de Biarritz à Lille, j'ai un vol à 14h",
    "je dois aller de Libourne à Figeac pour mon avion",
    "je débarque du ferry à Nantes et je dois rejoindre Rennes",
    "un train sans arrêt de Nantes à Rennes, pas un stop à chaque gare",  # "stop": a stop
    # the return by another means: the trip asked for is the rest
    "je voudrais aller de Nantes à Rennes lundi ; je reviendrai en voiture avec un collègue",
    "de Libourne à Figeac, retour en bus",
    "est-ce que le train de Nantes à Rennes est plus rapide que le bus ?",
    # what follows the trip by another means
    "un billet Nantes → Rennes samedi, ensuite je prends le bateau pour Lille",
    # "conduire" said of a journey, not of a car
    "le point de départ sera Nantes, qui doit me conduire jusqu'à Rennes",
    # "rouler" said of a train: it runs
    "Nantes Rennes 7h10, ça roule ce matin ?",
    "le 6h52 de Libourne pour Figeac il roule ?",
    # a coach that replaces the train, asked about: the request is the train's
    "Nantes Rennes demain 8h, y a un car de remplacement ?",
    "de Libourne à Figeac ce soir, il y a un bus à la place ?",
    # a train's coach, not a car
    "de Biarritz à Lille, quatre places dans la même voiture svp",
    "de Nantes à Rennes samedi, deux places en voiture famille",
    # the other leg caught; a means missed or compared
    "de Libourne à Figeac le 3 pour attraper le ferry de 18h",
    "J'arrive en avion à Nantes le 3 au matin et je dois être à Rennes le soir.",  # arriving by it
    "Je vais à Rennes pour le ferry de 18h ; je partirai de Nantes.",  # going for it
    "- car je dois aller de Nantes à Rennes pour le camping",  # "car" after a dash that joins nothing
    "j'ai raté le bus, il me faut Nantes Rennes ce soir",
    "de Nantes à Rennes avec une escale, comme en avion",
    # a landing that is the journey's other leg
    "ma fille atterrit à Biarritz et doit aller jusqu'à Lille",
    # a ticket asked for in a sentence of its own; the means another's, or another leg's
    "Il me faut un billet de Nantes à Rennes lundi. Mon collègue viendra en voiture.",
    "Ma voiture est au garage. Vous pouvez me réserver Libourne – Figeac demain ?",
    # a means of a time gone by, told before the trip asked for
    "Quand j'étais jeune, je montais à Rennes en stop. Je vais de Nantes à Rennes jeudi.",
    # a means out of use
    "Ma voiture est en panne. Je vais de Nantes à Rennes demain, vous avez quelque chose ?",
    # ... or full, or parked
    "un aller Nantes Rennes svp, le covoit est complet",
    "Trajet Nantes → Rennes demain : je dois garer ma voiture à Nantes toute la journée, c'est gratuit ?",
    "Nous aimerions aller à Rennes en partant de Nantes ; nous laisserons la voiture au parking de la gare.",
    # what goes on from the arrival by another means
    "Nous partirons de Nantes pour Rennes, où nous prendrons un car pour le château.",
    # "en train de" before a place is the train, not an action in progress ("en train de chercher")
    "Pour prendre le ferry à Rennes, je dois d'abord aller en train de Nantes à Rennes.",
    # a trip asked for in a sentence of its own, then a means said of what comes after
    "Nous partirons samedi de Nantes pour Rennes avec les enfants. Il y a un bus jusqu'à la plage ?",
    # a means said aside, in a clause naming no place, the trip asked for by a verb of going
    "Pour notre baptême en hélicoptère, nous allons de Nantes à Rennes samedi.",
    "il faudra le bateau après... mais d'abord je vais de Nantes à Rennes, mercredi",
    # ... or by a fare or a ticket
    "Je voudrais un aller simple Nantes → Rennes le 14, nos affaires sont déjà parties en camion.",
    "Nous ferons une balade en bateau samedi, il nous faut deux billets de Nantes à Rennes.",
    "deux allers-retours Nantes Rennes, la suite du voyage en car",
]


@pytest.mark.parametrize("text", OTHER_MODES)
def test_trip_other_modes_are_invalid(nlp, text):
    doc = nlp(text)
    assert doc._.trip["is_valid"] is False and doc.ents == ()
    assert pipeline(other_means=False)(text)._.trip["is_valid"] is True


@pytest.mark.parametrize("text", TRAINS)
def test_trip_train_requests_and_other_senses_of_mode_words_stay_valid(nlp, text):
    doc = nlp(text)
    assert doc._.trip["is_valid"] is True, [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize(
    "words,expected",
    [
        (["car", "de", "Paris"], False),  # "car" opens no coach without a determiner
        (["en", "car"], True),
        (["du", "car"], True),
        (["le", "vol"], True),
        (["vol", "Paris", "Ajaccio"], True),  # a flight search's first word
        (["en", "camping-car", "de", "Vannes", "à", "Auray"], True),
        (["déclarer", "vol", "de", "sac"], False),  # theft
        (["à", "pied"], True),
        (["pied", "à", "terre"], False),
        (["le", "TER", "ou", "le", "bus"], False),
        (["ça", "roule", "?"], False),  # a train that runs
        (["je", "roulerai"], True),
        (["la", "même", "voiture"], False),  # a train's coach
        (["la", "voiture", "bar"], False),
        (["j'ai", "raté", "le", "bus"], False),
        (["ya", "un", "car", "de", "substitution"], False),
        (["le", "car", "de", "substitution"], True),
        (["pour", "attraper", "le", "ferry"], False),
        (["prendre", "le", "ferry"], True),
        (["voir", "les", "bateaux"], False),  # a means looked at, not taken
        (["on", "regarde", "les", "avions"], False),
        (["voir", "en", "bateau"], True),
    ],
)
def test_modes_words_read_in_context(words, expected):
    assert travels_by_other_mode(words) is expected


@pytest.mark.parametrize(
    "text,marked",
    [
        # The recognizer took the means for a place, alone or with the place after it.
        ("un billet d'avion de Biarritz pour Lille", [("avion de Biarritz", "DEPART"), ("Lille", "ARRIVEE")]),
        ("UN BILLET D'AVION DE BIARRITZ POUR LILLE", [("AVION", "DEPART"), ("LILLE", "ARRIVEE")]),
        ("de Nantes à Rennes a velo", [("Nantes", "DEPART"), ("Rennes", "ARRIVEE"), ("velo", "VIA")]),
        ("Covoiturage Nantes Rennes samedi", [("Covoiturage Nantes", "DEPART"), ("Rennes", "ARRIVEE")]),
    ],
)
def test_a_means_the_recognizer_read_as_a_place_is_still_a_means(nlp, text, marked):
    doc = read(nlp, marked_doc(nlp, text, marked))
    assert doc._.trip["is_valid"] is False


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        ("un billet de Lens à Avion", [("Lens", "DEPART"), ("Avion", "ARRIVEE")], ("Lens", "Avion")),
        (
            "arrivee a bus saint remy, depart de lens",
            [("bus saint remy", "ARRIVEE"), ("lens", "DEPART")],
            ("Lens", "Bus-Saint-Rémy"),
        ),
        ("Avion Lens demain", [("Avion", "DEPART"), ("Lens", "ARRIVEE")], ("Avion", "Lens")),
    ],
)
def test_the_towns_avion_and_bus_stay_places(nlp, text, marked, expected):
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], trip["arrival"]) == expected


def test_other_means_words_are_a_config_choice_and_a_bad_class_fails_naming_it():
    nlp = pipeline(seqkit_other_means={"words": {"other_means_words": "avion navette"}})
    assert nlp("je prends la navette de Biarritz pour Lille")._.trip["is_valid"] is False
    assert nlp("un trajet en covoiturage de Biarritz pour Lille")._.trip["is_valid"] is True
    with pytest.raises(ValueError, match="'words' names no word class 'planes'"):
        pipeline(seqkit_other_means={"words": {"planes": "avion"}})


def test_other_means_explains_its_cue_and_round_trips_through_disk(tmp_path):
    nlp = pipeline(seqkit_other_means={"explain": True})
    doc = nlp("un vol de Biarritz pour Lille")
    assert doc._.other_means == "other_means" and doc._.trip["why"] == [
        {"rule": "other_means.other_means", "cue": "vol"}
    ]
    assert doc._.cues == [{"qualifier": "seqkit_other_means", "rule": "other_means", "cue": "vol"}]
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("seqkit_other_means").explain is True
    assert loaded("un vol de Biarritz pour Lille")._.trip == doc._.trip
    without = pipeline(other_means=False)
    without.to_disk(tmp_path / "q")
    assert spacy.load(tmp_path / "q")("un vol de Biarritz pour Lille")._.trip["arrival"] == "Lille"


# A request with a leg by another means and a leg by train: (text, the mentions with the roles a
# recognizer gives them, departure, arrival).
TWO_LEGS = [
    (
        "je vais en voiture de Lyon à Chambéry, puis de Chambéry je prends le train pour Modane",
        [("Lyon", "DEPART"), ("Chambéry", "VIA"), ("de [Chambéry]", "DEPART"), ("Modane", "ARRIVEE")],
        "Chambéry",
        "Modane",
    ),
    (
        "je dois être à Sète lundi. Mon frère me déposera en voiture depuis Agde jusqu'à Béziers, "
        "et je prendrai le train à Béziers.",
        [("Sète", "ARRIVEE"), ("Agde", "DEPART"), ("Béziers", "ARRIVEE"), ("train à [Béziers]", "DEPART")],
        "Béziers",
        "Sète",
    ),
    (
        "je voudrais aller de Lorient à Quimper, puis de Quimper à Douarnenez en bus. Juste le train.",
        [("Lorient", "DEPART"), ("Quimper", "VIA"), ("de [Quimper]", "DEPART"), ("Douarnenez", "ARRIVEE")],
        "Lorient",
        "Quimper",
    ),
]
# The train leaves from where the other means arrives: the last place of a leg by another means
# that the train's words and another place follow is the train's departure.
HANDED_OVER = [
    (
        "Le ferry nous laisse à Cherbourg vers 9 h. Ensuite on voudrait un train pour Caen.",
        [("Caen", "ARRIVEE")],
        "Cherbourg",
        "Caen",
    ),
    (
        "je monte à vélo jusqu'à la gare d'Orthez, puis le train pour Pau",
        [("Pau", "ARRIVEE")],
        "Orthez",
        "Pau",
    ),
]
# The leg by another means keeps its places where the train's leg alone names no two places.
ONE_TRAIN_PLACE = [
    ("je prends le bus jusqu'à Nantes puis le train pour Rennes", [("Nantes", "DEPART"), ("Rennes", "ARRIVEE")]),
    ("je roule en voiture de Nantes à Rennes, puis le TER", [("Nantes", "DEPART"), ("Rennes", "ARRIVEE")]),
]


def _read(text, marked):
    nlp = reading()
    return read(nlp, marked_doc(nlp, text, marked))._.trip


@pytest.mark.parametrize("text,marked,departure,arrival", TWO_LEGS)
def test_trip_a_leg_by_another_means_is_no_end_of_the_train(text, marked, departure, arrival):
    trip = _read(text, marked)
    assert (trip["departure"], trip["arrival"], trip["steps"]) == (departure, arrival, [])


@pytest.mark.parametrize("text,marked", ONE_TRAIN_PLACE)
def test_trip_a_leg_by_another_means_keeps_its_places_when_the_train_needs_them(text, marked):
    trip = _read(text, marked)
    assert (trip["departure"], trip["arrival"]) == ("Nantes", "Rennes")


@pytest.mark.parametrize("text,marked,departure,arrival", HANDED_OVER)
def test_trip_a_leg_by_another_means_hands_its_last_place_to_the_train(text, marked, departure, arrival):
    trip = _read(text, marked)
    assert (trip["departure"], trip["arrival"]) == (departure, arrival)
