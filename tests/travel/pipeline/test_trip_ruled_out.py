"""Places a request rules out ("pas Hendaye", "à Sedan, non pardon, à Reims") are no ends,
and ordinary sentences with "pas" or "non" keep theirs."""

import pytest
import spacy
from trip_helpers import marked_doc, read, reading

from spacy_seqkit.travel.pipeline.reading import add_reading

# (text, the mentions with the roles a recognizer gives them, departure, arrival)
RULED_OUT = [
    # where one was born or grew up
    (
        "j'ai grandi à Nancy mais j'habite à Montreuil",
        [("Nancy", "ARRIVEE"), ("Montreuil", "DEPART")],
        "Montreuil",
        None,
    ),
    (
        "je suis née à Brest, je pars de Lyon pour Dijon",
        [("Brest", "DEPART"), ("Lyon", "DEPART"), ("Dijon", "ARRIVEE")],
        "Lyon",
        "Dijon",
    ),
    # a person named like a town
    (
        "Bonjour, je suis Mme Laval et je voudrais aller de Tours à Vierzon.",
        [("Laval", "DEPART"), ("Tours", "DEPART"), ("Vierzon", "ARRIVEE")],
        "Tours",
        "Vierzon",
    ),
    (
        "ma sœur Nancy m'attend à Épinal, je pars de Metz",
        [("Nancy", "DEPART"), ("Épinal", "ARRIVEE"), ("Metz", "DEPART")],
        "Metz",
        "Épinal",
    ),
    (
        "Oubliez Lille, c'est à Arras que je veux arriver, en partant de Douai",
        [("Lille", "ARRIVEE"), ("Arras", "ARRIVEE"), ("Douai", "DEPART")],
        "Douai",
        "Arras",
    ),
    (
        "pas de départ de Massy : je partirai de Paris pour Le Mans",
        [("Massy", "DEPART"), ("Paris", "DEPART"), ("Le Mans", "ARRIVEE")],
        "Paris",
        "Le Mans",
    ),
    # a train not to take, then a contrast
    (
        "On m'a dit de ne pas prendre le train pour Lyon mais pour Mâcon ; je pars de Dijon jeudi.",
        [("Lyon", "ARRIVEE"), ("Mâcon", "ARRIVEE"), ("Dijon", "DEPART")],
        "Dijon",
        "Mâcon",
    ),
    (
        "pas Hendaye finalement : de Dax à Libourne",
        [("Hendaye", "ARRIVEE"), ("Dax", "DEPART"), ("Libourne", "ARRIVEE")],
        "Dax",
        "Libourne",
    ),
    (
        "je pars de Dax, pas à Hendaye, à Bayonne",
        [("Dax", "DEPART"), ("Hendaye", "ARRIVEE"), ("Bayonne", "ARRIVEE")],
        "Dax",
        "Bayonne",
    ),
    (
        "de Paris, non pas Lyon mais Grenoble",
        [("Paris", "DEPART"), ("Lyon", "ARRIVEE"), ("Grenoble", "ARRIVEE")],
        "Paris",
        "Grenoble",
    ),
    (
        "je ne vais pas à Lyon mais à Grenoble depuis Paris",
        [("Lyon", "ARRIVEE"), ("Grenoble", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Grenoble",
    ),
    (
        "de Charleville à Sedan, non pardon, à Reims",
        [("Charleville", "DEPART"), ("Sedan", "ARRIVEE"), ("Reims", "ARRIVEE")],
        "Charleville-Mézières",
        "Reims",
    ),
    (
        "de Paris, enfin non, de Versailles, à Brest",
        [("Paris", "DEPART"), ("Versailles", "DEPART"), ("Brest", "ARRIVEE")],
        "Versailles",
        "Brest",
    ),
    (
        "de Cahors à Brive, ou plutôt à Souillac",
        [("Cahors", "DEPART"), ("Brive", "ARRIVEE"), ("Souillac", "ARRIVEE")],
        "Cahors",
        "Souillac",
    ),
    (
        "de Figeac à Rodez, enfin plutôt à Millau",
        [("Figeac", "DEPART"), ("Rodez", "ARRIVEE"), ("Millau", "ARRIVEE")],
        "Figeac",
        "Millau",
    ),
    (
        "je voulais aller à Lens mais finalement ce sera Béthune, depuis Lille",
        [("Lens", "ARRIVEE"), ("Béthune", "ARRIVEE"), ("Lille", "DEPART")],
        "Lille",
        "Béthune",
    ),
    (
        "je pars de Nantes non attendez de Laval et je vais à Brest",
        [("Nantes", "DEPART"), ("Laval", "DEPART"), ("Brest", "ARRIVEE")],
        "Laval",
        "Brest",
    ),
    (
        "un aller pour Brest depuis Angers plutôt que Nantes",
        [("Brest", "ARRIVEE"), ("Angers", "DEPART"), ("Nantes", "DEPART")],
        "Angers",
        "Brest",
    ),
    (
        "au lieu de Rennes je voudrais partir de Laval pour Brest",
        [("Rennes", "DEPART"), ("Laval", "DEPART"), ("Brest", "ARRIVEE")],
        "Laval",
        "Brest",
    ),
    (
        "Paris Bordeaux sans passer par Tours",
        [("Paris", "DEPART"), ("Bordeaux", "ARRIVEE"), ("Tours", "VIA")],
        "Paris",
        "Bordeaux",
    ),
    (
        "n'importe quelle gare sauf Tours, moi je vais d'Orléans à Blois",
        [("Tours", "DEPART"), ("Orléans", "DEPART"), ("Blois", "ARRIVEE")],
        "Orléans",
        "Blois",
    ),
    (
        "Je pars de Nancy, enfin de Metz, pour Strasbourg",
        [("Nancy", "DEPART"), ("Metz", "DEPART"), ("Strasbourg", "ARRIVEE")],
        "Metz",
        "Strasbourg",
    ),
    (
        "Je ne veux pas aller à Lille, je veux aller de Paris à Rouen",
        [("Lille", "ARRIVEE"), ("Paris", "DEPART"), ("Rouen", "ARRIVEE")],
        "Paris",
        "Rouen",
    ),
]
RULED_OUT += [
    # where one lives, works or is, before a pair "de X à Y": context, no end
    (
        "J'habite à Rouen mais là je cherche un train de Caen à Granville",
        [("Rouen", "DEPART"), ("Caen", "DEPART"), ("Granville", "ARRIVEE")],
        "Caen",
        "Granville",
    ),
    (
        "Je travaille à Nantes. Je voudrais un billet de Angers à Tours",
        [("Nantes", "ARRIVEE"), ("Angers", "DEPART"), ("Tours", "ARRIVEE")],
        "Angers",
        "Tours",
    ),
]
KEPT = [
    # a train not to take with no contrast after its place: a time, a way of taking it
    (
        "je ne veux pas prendre le train pour Lyon avant midi depuis Paris",
        [("Lyon", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Lyon",
    ),
    # born there, and going back
    (
        "je suis né à Brest et je veux y retourner depuis Paris",
        [("Brest", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Brest",
    ),
    (
        "je ne veux pas aller à Lyon avant midi depuis Paris",
        [("Lyon", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Lyon",
    ),
    ("je ne veux pas partir trop tard de Lyon pour Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], "Lyon", "Paris"),
    ("je ne pars pas de Lyon avant 10h, je vais à Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], "Lyon", "Paris"),
    (
        "c'est pas grave si c'est lent, de Nantes à Rennes",
        [("Nantes", "DEPART"), ("Rennes", "ARRIVEE")],
        "Nantes",
        "Rennes",
    ),
    ("de Paris à Lyon, non ?", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")], "Paris", "Lyon"),
    ("un billet pas cher de Metz à Nancy", [("Metz", "DEPART"), ("Nancy", "ARRIVEE")], "Metz", "Nancy"),
    (
        "je vais à Lyon, non pas à Grenoble, depuis Paris",
        [("Lyon", "ARRIVEE"), ("Grenoble", "ARRIVEE"), ("Paris", "DEPART")],
        "Paris",
        "Lyon",
    ),
    ("de Paris à Lyon plutôt en fin de journée", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")], "Paris", "Lyon"),
    ("de Paris à Lyon, enfin si possible", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")], "Paris", "Lyon"),
    # where one is, with no pair after it, is where one leaves from
    ("je suis à Vichy et je veux aller à Moulins", [("Vichy", "DEPART"), ("Moulins", "ARRIVEE")], "Vichy", "Moulins"),
]


def tagged(nlp, text, ents):
    """`text` run through `seqkit_trip` with `ents` as the recognizer's entities."""
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ents]
    return read(nlp, doc)


@pytest.mark.parametrize("text,ents,departure,arrival", RULED_OUT)
def test_trip_ruled_out_places_are_no_ends(nlp, text, ents, departure, arrival):
    doc = tagged(nlp, text, ents)
    trip = doc._.trip
    assert (trip["departure"], trip["arrival"], trip["steps"]) == (departure, arrival, [])
    kept = {e.text for e in doc.ents}
    assert len(kept) == len(ents) - 1  # the ruled-out mention is no entity any more


@pytest.mark.parametrize("text,ents,departure,arrival", KEPT)
def test_trip_ordinary_negations_keep_their_ends(nlp, text, ents, departure, arrival):
    doc = tagged(nlp, text, ents)
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == (departure, arrival)


def test_trip_ruled_out_place_dropped_from_ents_through_the_pipeline():
    nlp = spacy.blank("fr")
    patterns = [{"label": "ARRIVEE", "pattern": p} for p in ("Sedan", "Reims")] + [
        {"label": "DEPART", "pattern": "Charleville"}
    ]
    nlp.add_pipe("entity_ruler").add_patterns(patterns)
    add_reading(nlp)
    doc = nlp("je pars de Charleville pour Sedan, non pardon, pour Reims")
    assert [(e.text, e.label_) for e in doc.ents] == [("Charleville", "DEPART"), ("Reims", "ARRIVEE")]
    assert doc._.trip["arrival"] == "Reims"
    no_fix = spacy.blank("fr")
    no_fix.add_pipe("entity_ruler").add_patterns(patterns)
    add_reading(no_fix, {"seqkit_trip": {"fix_ents": False}})
    doc = no_fix("je pars de Charleville pour Sedan, non pardon, pour Reims")
    assert doc._.trip["arrival"] == "Reims" and "Sedan" in [e.text for e in doc.ents]


@pytest.mark.parametrize(
    "text,ents,departure,arrival",
    [
        # of two ends read with one role, the one a correction brings (the other stays a mention)
        (
            "je pars de Vannes pour Lorient, finalement plutôt au départ d'Auray",
            [("Vannes", "DEPART"), ("Lorient", "ARRIVEE"), ("Auray", "DEPART")],
            "Auray",
            "Lorient",
        ),
        (
            "billet pour Sète depuis Agde, en fait pour Béziers",
            [("Sète", "ARRIVEE"), ("Agde", "DEPART"), ("Béziers", "ARRIVEE")],
            "Agde",
            "Béziers",
        ),
        # "l'inverse", "le contraire" after a correction's words: the ends the other way round
        (
            "Départ Niort, arrivée Saintes, euh non, l'inverse",
            [("Niort", "DEPART"), ("Saintes", "ARRIVEE")],
            "Saintes",
            "Niort",
        ),
        (
            "de Laon à Soissons, pardon, c'est le contraire",
            [("Laon", "DEPART"), ("Soissons", "ARRIVEE")],
            "Soissons",
            "Laon",
        ),
        (
            "Le trajet entre Saint-Brieuc et Lamballe, mais dans l'autre sens, demain",
            [("Saint-Brieuc", "DEPART"), ("Lamballe", "ARRIVEE")],
            "Lamballe",
            "Saint-Brieuc",
        ),
        # the place of the correction is one the recognizer did not mark
        (
            "le train de euh saint germain en laye euh non pardon poissy pour aller à mantes la jolie",
            [("saint germain en laye", "DEPART"), ("mantes la jolie", "ARRIVEE")],
            "Poissy",
            "Mantes-la-Jolie",
        ),
        # the arrival corrected into a place the reading drops (abroad): the place the "non" brings
        ("Metz → Luxembourg ... non, Thionville pardon", [("Metz", "DEPART")], "Metz", "Thionville"),
        # ... but not a way back, nor two ends read with one role and no correction
        (
            "de Laon à Soissons et l'inverse le lendemain",
            [("Laon", "DEPART"), ("Soissons", "ARRIVEE")],
            "Laon",
            "Soissons",
        ),
        (
            "je pars de Vannes ou alors d'Auray pour Lorient",
            [("Vannes", "DEPART"), ("Auray", "DEPART"), ("Lorient", "ARRIVEE")],
            None,
            None,
        ),
    ],
)
def test_trip_a_correction_brings_the_end_it_names(nlp, text, ents, departure, arrival):
    doc = tagged(nlp, text, ents)
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == (departure, arrival)


# Where someone lives, works or is, read with the role of another end: the other end goes first,
# and such a place is no stop.
HOMES = [
    (
        "je bosse à Levallois, j'habite à Évreux, et je vais voir mes beaux-parents à Lisieux",
        [("Levallois", "ARRIVEE"), ("Évreux", "DEPART"), ("Lisieux", "ARRIVEE")],
        ("Évreux", "Lisieux", []),
    ),
    (
        "j'habite à Auxerre et je travaille à Sens. Demain je vais à Paris depuis Sens.",
        [("Auxerre", "DEPART"), ("Sens", "VIA"), ("Paris", "ARRIVEE"), ("depuis [Sens]", "DEPART")],
        ("Sens", "Paris", []),
    ),
    # an arrival where one works, with a stop read: the stop is the arrival
    (
        "Je suis chez ma sœur à Chartres, je rentre au Mans demain, et la semaine je travaille à Paris.",
        [("Chartres", "DEPART"), ("Mans", "VIA"), ("Paris", "ARRIVEE")],
        ("Chartres", "Le Mans", []),
    ),
    # of two arrivals, the one that is the departure gives way
    (
        "je bosse rue de Lyon à Grenoble, et vendredi je vais de Grenoble à Valence",
        [("à [Grenoble]", "ARRIVEE"), ("de [Grenoble]", "DEPART"), ("Valence", "ARRIVEE")],
        ("Grenoble", "Valence", []),
    ),
    # a return to the departure: the stop read is the arrival
    (
        "Je vais de Brest à Quimper dimanche, je rentre à Brest lundi",
        [("de [Brest]", "DEPART"), ("Quimper", "VIA"), ("rentre à [Brest]", "ARRIVEE")],
        ("Brest", "Quimper", []),
    ),
    # one end read where one lives: that is where one leaves from
    ("j'habite à Auxerre et je vais à Sens", [("Auxerre", "DEPART"), ("Sens", "ARRIVEE")], ("Auxerre", "Sens", [])),
]


@pytest.mark.parametrize("text,ents,expected", HOMES)
def test_trip_where_one_lives_gives_way_to_another_end(nlp, text, ents, expected):
    trip = read(nlp, marked_doc(nlp, text, ents))._.trip
    assert (trip["departure"], trip["arrival"], trip["steps"]) == expected


@pytest.mark.parametrize(
    "text,ents,arrival",
    [
        # A place the words after it put abroad is no end, nor the other end of a pair.
        ("Je veux aller de Paris à Vienne en Autriche.", [("Paris", "DEPART"), ("Vienne", "ARRIVEE")], None),
        ("de Lyon à Valence, en Espagne", [("Lyon", "DEPART")], None),
        ("de Lyon à Valence en train", [("Lyon", "DEPART"), ("Valence", "ARRIVEE")], "Valence"),
        ("de Paris à Valence en Drôme", [("Paris", "DEPART"), ("Valence", "ARRIVEE")], "Valence"),
        # a station abroad, its city first: no French place ("St Pancras" is no Saint-Pancrasse)
        ("Paris Nord -> Londres St Pancras", [("Paris Nord", "DEPART"), ("St Pancras", "ARRIVEE")], None),
        ("Lille Europe Paris Nord", [("Lille Europe", "DEPART"), ("Paris Nord", "ARRIVEE")], "Paris Nord"),
    ],
)
def test_trip_a_place_put_abroad_is_no_end(nlp, text, ents, arrival):
    trip = tagged(nlp, text, ents)._.trip
    assert trip["arrival"] == arrival and trip["is_valid"] is (arrival is not None)


def test_ruled_out_left_out_of_the_pipeline_keeps_the_place():
    text, marked = (
        "je pars de Charleville pour Sedan, non pardon, pour Reims",
        [
            ("Charleville", "DEPART"),
            ("Sedan", "ARRIVEE"),
            ("Reims", "ARRIVEE"),
        ],
    )
    nlp = reading(without=("seqkit_ruled_out",))
    assert read(nlp, marked_doc(nlp, text, marked))._.trip["steps"] == ["Sedan"]  # a stop on the way
    nlp = reading()
    assert read(nlp, marked_doc(nlp, text, marked))._.trip["steps"] == []


def test_ruled_out_explains_the_rule_and_its_cue():
    nlp = reading(seqkit_ruled_out={"explain": True})
    doc = read(
        nlp,
        marked_doc(
            nlp,
            "pas Hendaye finalement : de Dax à Libourne",
            [("Hendaye", "ARRIVEE"), ("Dax", "DEPART"), ("Libourne", "ARRIVEE")],
        ),
    )
    assert [s._.ruled_out for s in doc.spans["places"]] == ["negated", "brings_correction", None]
    assert {"qualifier": "seqkit_ruled_out", "rule": "negated", "cue": "pas", "mention": "Hendaye"} in doc._.cues
    assert doc._.trip["why"][0] == {"rule": "ruled_out.negated", "mention": "Hendaye", "cue": "pas"}
