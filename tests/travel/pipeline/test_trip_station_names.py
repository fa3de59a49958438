"""A station's name is one place even when the recognizer cuts it or marks only its town."""

import pytest
from spacy.tokens import Span
from trip_helpers import marked_doc, read


def trip_of(nlp, text, marked):
    """The trip of `text` whose entities are the (mention, label) pairs `marked`."""
    doc = marked_doc(nlp, text, marked)
    doc = read(nlp, doc)
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
            ("Marne-la-Vallée", (), "Bordeaux"),
        ),
        (
            "Départ Lille Flandres, arrêt à Arras, arrivée Rouen",
            [("Lille", "DEPART"), ("Flandres", "VIA"), ("Arras", "VIA"), ("Rouen", "ARRIVEE")],
            ("Lille Flandres", ("Arras",), "Rouen"),
        ),
        # a TGV station named with its city, the city marked apart
        (
            "Je vais de Reims Champagne-Ardenne TGV à Lille",
            [("Reims", "DEPART"), ("Champagne-Ardenne TGV", "DEPART"), ("Lille", "ARRIVEE")],
            ("Reims Champagne-Ardenne TGV", (), "Lille"),
        ),
        # "TGV" before a city is the train: "le TGV Besançon Dijon" leaves from Besançon
        ("un TGV Besançon Dijon", [("Besançon", "DEPART"), ("Dijon", "ARRIVEE")], ("Besançon", (), "Dijon")),
        # a mention of two places whose second goes on into a station: "Chantilly Paris" + "Nord"
        (
            "Trajet quotidien Chantilly Paris Nord",
            [("Chantilly Paris", "DEPART")],
            ("Chantilly", (), "Paris Nord"),
        ),
        # cut inside a compound: its dashes count for no word of the name
        (
            "de Moûtiers-Salins-Brides-les-Bains à Chambéry",
            [("Moûtiers-Salins-Brides", "DEPART"), ("Bains", "VIA"), ("Chambéry", "ARRIVEE")],
            ("Moûtiers-Salins-Brides-les-Bains", (), "Chambéry"),
        ),
        # cut elsewhere than between the places: the station, then what is left of the mention
        (
            "2 billets marne la vallee bordeaux le 21/07",
            [("marne", "DEPART"), ("la vallee bordeaux", "ARRIVEE")],
            ("Marne-la-Vallée", (), "Bordeaux"),
        ),
        # a longer name from the mention before ("Hellemmes-Lille", a commune) is not what is meant
        (
            "hellemmes lille flandres c 1 station ?",
            [("hellemmes", "DEPART"), ("lille", "ARRIVEE")],
            ("Hellemmes", (), "Lille Flandres"),
        ),
        # the end of a mention that is several places, with the next one, is a station
        (
            "wimille wimereux boulogne ville aujourdhui",
            [("wimille wimereux boulogne", "DEPART"), ("ville", "ARRIVEE")],
            ("Wimille - Wimereux", (), "Boulogne Ville"),
        ),
        # a compound commune's whole name around the part the recognizer marked, over its
        # function words, and two marks joined into it
        (
            "un aller pour bourg saint maurice depuis chambery",
            [("saint maurice", "ARRIVEE"), ("chambery", "DEPART")],
            ("Chambéry", (), "Bourg-Saint-Maurice"),
        ),
        ("billet pau mont de marsan", [("pau", "DEPART"), ("marsan", "ARRIVEE")], ("Pau", (), "Mont-de-Marsan")),
        (
            "de Hendaye à Saint Jean de Luz",
            [("Hendaye", "DEPART"), ("Saint Jean", "ARRIVEE")],
            ("Hendaye", (), "Saint-Jean-de-Luz"),
        ),
        (
            "reims charleville mezieres demain",
            [("reims", "DEPART"), ("charleville", "ARRIVEE"), ("mezieres", "ARRIVEE")],
            ("Reims", (), "Charleville-Mézières"),
        ),
        # names as people shorten them
        (
            "faut que j'aille a st gervais le fayet en partant d'annecy",
            [("st gervais", "ARRIVEE"), ("le fayet", "ARRIVEE"), ("annecy", "DEPART")],
            ("Annecy", (), "Saint-Gervais Le Fayet"),
        ),
        ("de Golfe-Juan à Nice", [("Golfe-Juan", "DEPART"), ("Nice", "ARRIVEE")], ("Golfe-Juan", (), "Nice")),
        (
            "de Paris Gare de Lyon à Moûtiers-Salins samedi",
            [("Paris Gare de Lyon", "DEPART"), ("Moûtiers-Salins", "ARRIVEE")],
            ("Paris Gare de Lyon", (), "Moûtiers-Salins"),
        ),
        # a name after the "gare de" that opens a mention goes on past it
        (
            "Je pars de la gare de Lyon Perrache pour aller à Grenoble",
            [("gare de Lyon", "DEPART"), ("Grenoble", "ARRIVEE")],
            ("Lyon Perrache", (), "Grenoble"),
        ),
        # a word of a name may hold dashes: "Saint-Lazare" beside "Paris"
        (
            "un train Le Havre Paris Saint-Lazare",
            [("Le Havre", "DEPART"), ("Paris", "ARRIVEE")],
            ("Le Havre", (), "Paris Saint-Lazare"),
        ),
        # "est" ends a station's name before a date, a time or the end of the text
        (
            "aller a champagne ardenne tgv depuis paris est mercredi",
            [("champagne ardenne tgv", "ARRIVEE"), ("paris est", "DEPART")],
            ("Paris Est", (), "Champagne-Ardenne TGV"),
        ),
        (
            "dispo meuse tgv vers paris est ??",
            [("meuse tgv", "DEPART"), ("paris", "ARRIVEE")],
            ("Meuse TGV", (), "Paris Est"),
        ),
        # before an arrow or a class
        (
            "aller : paris est → metz jeudi",
            [("paris", "DEPART"), ("metz", "ARRIVEE")],
            ("Paris Est", (), "Metz"),
        ),
        (
            "billet reims vers paris est 1ère cl mercredi",
            [("reims", "DEPART"), ("paris", "ARRIVEE")],
            ("Reims", (), "Paris Est"),
        ),
        # and after "l'", whatever follows: "gare de l'est" is no verb
        (
            "un train pour paris gare de l'est partant d'angers saint-laud",
            [("paris gare de l'est partant d'angers saint-laud", "ARRIVEE")],
            ("Angers Saint-Laud", (), "Paris Gare de l'Est"),
        ),
        # of two station names as long, the one that leaves none of the mention out ("Aix en
        # Provence TGV", not "TGV Aix en Provence" and a "TGV" left over)
        (
            "billet Avignon TGV Aix en Provence TGV",
            [("en Provence TGV", "ARRIVEE")],
            ("Avignon TGV", (), "Aix-en-Provence TGV"),
        ),
        # a place then the station its "gare" opens, read as one mention or cut before "lyon"
        ("meaux gare de l'est demain", [("meaux gare de l'est", "DEPART")], ("Meaux", (), "Paris Est")),
        ("melun gare de lyon", [("melun gare", "DEPART"), ("lyon", "ARRIVEE")], ("Melun", (), "Paris Gare de Lyon")),
        # "nord" lowercase ends a station's name before a train's name
        ("amiens paris nord tgv", [("amiens", "DEPART"), ("paris", "ARRIVEE")], ("Amiens", (), "Paris Nord")),
        # and before any word but "de" ("au nord de ..."): it is no verb
        (
            "creil paris nord le plus tot possible",
            [("creil", "DEPART"), ("paris", "ARRIVEE")],
            ("Creil", (), "Paris Nord"),
        ),
        ("de lyon a paris au nord de la ville", [("lyon", "DEPART"), ("paris", "ARRIVEE")], ("Lyon", (), "Paris")),
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
    assert read(nlp, doc)._.trip["is_valid"] is False
