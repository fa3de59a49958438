"""The reading of a request: entities in, `doc._.trip` out (`seqkit_places`, the qualifiers,
`seqkit_trip`)."""

import pickle

import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example
from trip_helpers import read, reading

from spacy_seqkit.travel.pipeline.roles.component import PAIR_STEPS, score_trips
from spacy_seqkit.travel.pipeline.roles.steps import DEFAULT_STEPS


def with_ents(nlp, text, ents):
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ents]
    return doc


def test_trip_empty_doc(nlp):
    doc = nlp("")
    assert doc._.trip["is_valid"] is False
    assert doc._.trip["departure"] is None and doc._.trip["steps"] == []


def test_trip_both_ends_with_typos_resolved(nlp):
    doc = with_ents(nlp, "je veux aller de marseile a paris", [("marseile", "DEPART"), ("paris", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert trip["is_valid"]
    assert (trip["departure"], trip["arrival"]) == ("Marseille", "Paris")
    assert (trip["departure_text"], trip["arrival_text"]) == ("marseile", "paris")


def test_trip_steps_in_reading_order(nlp):
    text = "de Brest à Nice en passant par Rennes puis par Laval"
    doc = with_ents(nlp, text, [("Brest", "DEPART"), ("Nice", "ARRIVEE"), ("Rennes", "VIA"), ("Laval", "VIA")])
    trip = read(nlp, doc)._.trip
    assert trip["steps"] == ["Rennes", "Laval"]
    assert (trip["departure"], trip["arrival"]) == ("Brest", "Nice")


def test_trip_mentions_that_name_no_place_are_narrowed_or_dropped(nlp):
    text = "depuis avignon comment rejoindre Arles samedi"
    doc = with_ents(nlp, text, [("avignon comment", "DEPART"), ("Arles", "ARRIVEE"), ("samedi", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["departure_text"], trip["arrival"]) == ("Avignon", "avignon", "Arles")
    # no name ends in a function word: "Lens mais" is not read as Les Mais (Côtes-d'Armor)
    text = "un billet pour Lens mais vite, depuis Lille"
    doc = with_ents(nlp, text, [("Lens mais vite", "ARRIVEE"), ("Lille", "DEPART")])
    trip = read(nlp, doc)._.trip
    assert (trip["arrival"], trip["arrival_text"]) == ("Lens", "Lens")
    doc = with_ents(nlp, "de xyzzyville à Paris", [("xyzzyville", "DEPART"), ("Paris", "ARRIVEE")])
    assert read(nlp, doc)._.trip["is_valid"] is False


@pytest.mark.parametrize(
    "text,mention,kept",
    [
        ("comment me rendre à Port-Xyzzy depuis la gare de Tours ?", "Port-Xyzzy", True),
        ("un billet pour Saint-Xyzzy-sur-Loire depuis Tours", "Saint-Xyzzy-sur-Loire", True),
        ("Xyzzy depuis Tours", "Xyzzy", False),  # any word is capitalised at the start
        ("UN BILLET POUR XYZZY DEPUIS TOURS", "XYZZY", False),  # and in all-caps text
        ("un billet pour Xyzzy demain depuis Tours", "Xyzzy demain", False),
    ],
)
def test_trip_unknown_places_written_as_names_are_kept_as_typed(text, mention, kept):
    """With `unknown_names = "keep"`; the default, "drop", keeps none of them."""
    keeping = reading(seqkit_places={"unknown_names": "keep"})
    tours = "TOURS" if text.isupper() else "Tours"
    doc = read(keeping, with_ents(keeping, text, [(mention, "ARRIVEE"), (tours, "DEPART")]))
    assert doc._.trip["is_valid"] is kept
    if kept:
        assert doc._.trip["arrival"] == doc._.trip["arrival_text"] == mention
        assert (mention, "ARRIVEE") in [(e.text, e.label_) for e in doc.ents]
    dropping = reading()
    doc = read(dropping, with_ents(dropping, text, [(mention, "ARRIVEE"), (tours, "DEPART")]))
    assert doc._.trip["is_valid"] is False


def test_trip_unknown_places_kept_as_typed_when_asked():
    nlp = reading(seqkit_places={"known_places_only": False})
    doc = with_ents(nlp, "de Xyzzyville à Paris", [("Xyzzyville", "DEPART"), ("Paris", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["arrival"], trip["is_valid"]) == ("Xyzzyville", "Paris", True)


@pytest.mark.parametrize(
    "text,mention",
    [("Metz - Paris avec arrêt à Reims", "Metz - Paris"), ("trajet grenoble marseille", "grenoble marseille")],
)
def test_trip_two_ends_run_together_are_split(nlp, text, mention):
    doc = with_ents(nlp, text, [(mention, "DEPART")])
    trip = read(nlp, doc)._.trip
    first, last = mention.replace(" - ", " ").split()
    assert trip["is_valid"]
    assert (trip["departure_text"], trip["arrival_text"]) == (first, last)


@pytest.mark.parametrize(
    "text,mention,expected",
    [
        # two towns run together, which one slip would make a station: the two towns
        ("Voyage Paris Brest", "Paris Brest", ("Paris", "Brest")),
        ("billet Metz Niort demain", "Metz Niort", ("Metz", "Niort")),
        # a station mistyped, its last word a village: the station
        ("un train saint ouen l'aumône lesse", "saint ouen l'aumône lesse", (None, "Saint-Ouen-l'Aumône Liesse")),
        # a commune mistyped, its first word a town's short form (Bussy-Saint-Georges): the commune
        ("à Bussy Saint Antoine", "Bussy Saint Antoine", (None, "Boussy-Saint-Antoine")),
    ],
)
def test_trip_two_towns_run_together_are_not_a_slip_of_a_third_place(nlp, text, mention, expected):
    label = "DEPART" if expected[0] else "ARRIVEE"
    trip = read(nlp, with_ents(nlp, text, [(mention, label)]))._.trip
    assert (trip["departure"], trip["arrival"]) == expected


def test_trip_function_word_villages_do_not_count_beside_a_place(nlp):
    # "Vers" is a village of the Lot; in "Vers Lyon" it is a preposition.
    assert nlp.get_pipe("seqkit_trip").places.resolve("Vers") == "Vers"
    doc = with_ents(nlp, "de Dijon Vers Lyon", [("Dijon", "DEPART"), ("Vers Lyon", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["arrival"], trip["steps"]) == ("Dijon", "Lyon", [])
    # Lowercase, an ordinary word is no village at all.
    assert nlp.get_pipe("seqkit_trip").places.resolve("vers") is None
    doc = with_ents(nlp, "de Dijon vers Lyon", [("Dijon", "DEPART"), ("vers Lyon", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["arrival"], trip["steps"]) == ("Dijon", "Lyon", [])


def test_trip_chain_of_arrivals_ends_at_its_last_place(nlp):
    text = "Paris → Dijon → Lyon demain"
    doc = with_ents(nlp, text, [("Paris", "DEPART"), ("Dijon", "ARRIVEE"), ("Lyon", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["steps"], trip["arrival"]) == ("Paris", ["Dijon"], "Lyon")


@pytest.mark.parametrize(
    "ents,expected",
    [
        ([("niort", "VIA"), ("poitiers", "VIA")], ("Niort", "Poitiers")),
        ([("niort", "DEPART"), ("poitiers", "VIA")], ("Niort", "Poitiers")),
        ([("niort", "VIA"), ("poitiers", "ARRIVEE")], ("Niort", "Poitiers")),
    ],
)
def test_trip_missing_end_is_taken_from_the_stops(nlp, ents, expected):
    doc = with_ents(nlp, "je monte a niort et je descend a poitiers", ents)
    trip = read(nlp, doc)._.trip
    assert trip["is_valid"] and (trip["departure"], trip["arrival"]) == expected
    assert trip["steps"] == []


@pytest.mark.parametrize("label", ["DEPART", "ARRIVEE"])
def test_trip_two_places_with_one_role_read_in_order(nlp, label):
    doc = with_ents(nlp, "jsui a thonon jveux aller a annemasse", [("thonon", label), ("annemasse", label)])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["arrival"]) == ("Thonon-les-Bains", "Annemasse")


def test_trip_first_arrival_wins_over_later_ones(nlp):
    text = "de Caen à Tours en passant par Alençon et Le Mans"
    doc = with_ents(nlp, text, [("Caen", "DEPART"), ("Tours", "ARRIVEE"), ("Alençon", "VIA"), ("Le Mans", "ARRIVEE")])
    assert read(nlp, doc)._.trip["arrival"] == "Tours"


@pytest.mark.parametrize(
    "text,ents",
    [
        ("je veux aller à Lyon", [("Lyon", "ARRIVEE")]),
        ("je pars de Brest", [("Brest", "DEPART")]),
        ("de Paris à Paris", [("Paris", "DEPART"), ("Paris ", "ARRIVEE")]),
        ("Il fait beau à Nice", []),
    ],
)
def test_trip_invalid_without_two_distinct_ends(nlp, text, ents):
    if ents and ents[-1][0] == "Paris ":
        doc = nlp.make_doc(text)
        doc.ents = [Span(doc, 1, 2, label="DEPART"), Span(doc, 3, 4, label="ARRIVEE")]
    else:
        doc = with_ents(nlp, text, ents)
    assert read(nlp, doc)._.trip["is_valid"] is False


def test_trip_resolve_names_off_keeps_text():
    nlp = reading(seqkit_places={"resolve_names": False})
    doc = with_ents(nlp, "de marseile a paris", [("marseile", "DEPART"), ("paris", "ARRIVEE")])
    assert read(nlp, doc)._.trip["departure"] == "marseile"


def test_trip_pipeline_round_trips(tmp_path, nlp):
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.pipe_names == nlp.pipe_names and "seqkit_trip" in loaded.pipe_names
    assert loaded.get_pipe("seqkit_places").resolve_names is True
    assert pickle.loads(pickle.dumps(loaded)).pipe_names == nlp.pipe_names
    assert spacy.blank("fr").from_config(nlp.config).from_bytes(nlp.to_bytes()).pipe_names == nlp.pipe_names
    text, ents = (
        "je ne pars pas de Lyon mais de Dijon pour Nice",
        [("Lyon", "DEPART"), ("Dijon", "DEPART"), ("Nice", "ARRIVEE")],
    )
    for other in (loaded, pickle.loads(pickle.dumps(loaded))):
        assert read(other, with_ents(other, text, ents))._.trip == read(nlp, with_ents(nlp, text, ents))._.trip


def test_trip_scorer_compares_with_gold_entities(nlp):
    gold = with_ents(nlp, "de Brest à Nice", [("Brest", "DEPART"), ("Nice", "ARRIVEE")])
    right = read(nlp, with_ents(nlp, "de Brest à Nice", [("Brest", "DEPART"), ("Nice", "ARRIVEE")]))
    wrong = read(nlp, with_ents(nlp, "de Brest à Nice", [("Nice", "DEPART"), ("Brest", "ARRIVEE")]))
    assert score_trips([Example(right, gold)])["trip_acc"] == 1.0
    assert score_trips([Example(right, gold), Example(wrong, gold)])["trip_acc"] == 0.5
    assert score_trips([Example(wrong, gold)])["trip_validity_acc"] == 1.0


def test_trip_rewrites_ents_to_the_mentions_it_read(nlp):
    text = "paris lyon samedi"
    doc = with_ents(nlp, text, [("paris lyon", "DEPART"), ("samedi", "ARRIVEE")])
    doc = read(nlp, doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("paris", "DEPART"), ("lyon", "ARRIVEE")]
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("Paris", "Lyon")
    doc = with_ents(nlp, "je monte a niort et je descend a poitiers", [("niort", "VIA"), ("poitiers", "VIA")])
    doc = read(nlp, doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("niort", "DEPART"), ("poitiers", "ARRIVEE")]


def test_trip_leaves_ents_alone_without_fix_ents():
    nlp = reading(seqkit_trip={"fix_ents": False})
    doc = with_ents(nlp, "paris lyon samedi", [("paris lyon", "DEPART"), ("samedi", "ARRIVEE")])
    doc = read(nlp, doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("paris lyon", "DEPART"), ("samedi", "ARRIVEE")]
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("Paris", "Lyon")


class TinyPlaces:
    """Another country's places, written to the place contract as a user would plug them in."""

    NAMES = {"bruxelles": "Bruxelles", "liege": "Liège"}

    def resolve(self, text):
        return self.NAMES.get(text.lower())

    def place(self, text):
        from spacy_seqkit.travel.places import Place

        name = self.resolve(text)
        return Place(text, "commune", name) if name else None

    def name_spans(self, words, max_words=8):
        return [(i, i + 1) for i, word in enumerate(words) if self.resolve(word)]

    def is_excluded(self, text):
        return False


class HalfPlaces:
    """Written to an older contract: `resolve` only."""

    def resolve(self, text):
        return None


@spacy.registry.misc("test.half_places.v1")
def make_half_places():
    return HalfPlaces()


def test_trip_places_missing_from_the_contract_fail_naming_what_is_missing():
    nlp = spacy.blank("fr")
    with pytest.raises(ValueError, match="'places'.*place, name_spans, is_excluded"):
        nlp.add_pipe("seqkit_trip", config={"places": {"@misc": "test.half_places.v1"}})
    with pytest.raises(ValueError, match="'places'.*place, name_spans, is_excluded"):
        nlp.add_pipe("seqkit_places", config={"places": {"@misc": "test.half_places.v1"}})
    with pytest.raises(ValueError, match="'places'.*name_spans"):
        nlp.add_pipe("seqkit_place_marker", config={"places": {"@misc": "test.half_places.v1"}})


@spacy.registry.misc("test.tiny_places.v1")
def make_tiny_places():
    return TinyPlaces()


def test_trip_gazetteer_is_a_config_choice():
    tiny = {"places": {"@misc": "test.tiny_places.v1"}}
    nlp = reading(seqkit_places=tiny, seqkit_trip=tiny)
    doc = with_ents(nlp, "de liege a bruxelles", [("liege", "DEPART"), ("bruxelles", "ARRIVEE")])
    trip = read(nlp, doc)._.trip
    assert (trip["departure"], trip["arrival"], trip["is_valid"]) == ("Liège", "Bruxelles", True)
    doc = with_ents(nlp, "de marseile a paris", [("marseile", "DEPART"), ("paris", "ARRIVEE")])
    assert read(nlp, doc)._.trip["is_valid"] is False


def test_trip_french_places_population_threshold():
    from spacy_seqkit.travel.places import make_french_places

    every, towns = make_french_places(), make_french_places(min_population=20000)
    assert every.resolve("Albert") == "Albert" and towns.resolve("Albert") != "Albert"
    assert towns.resolve("marseile") == "Marseille"
    assert len(towns.place_names()) < len(every.place_names())
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_trip", config={"places": {"@misc": "spacy-seqkit.french_places.v1", "min_population": 20000}})
    assert nlp.get_pipe("seqkit_trip").places.min_population == 20000


def test_trip_value_round_trips_and_compares():
    from spacy_seqkit.travel.pipeline.trip import Trip, trip_accuracy

    trip = Trip("Paris", "Lyon", ("Dijon",), "paris", "lyon", ("dijon",))
    assert Trip.from_dict(trip.to_dict()) == trip
    assert trip.to_rewrite() == "Paris > Dijon > Lyon" and trip.places() == ["Paris", "Dijon", "Lyon"]
    assert Trip.from_rewrite(trip.to_rewrite()).places() == trip.places()
    assert Trip.from_dict({"departure": "Paris", "arrival": "Lyon", "steps": []}).is_valid
    assert not Trip.from_dict(None).is_valid and Trip().to_rewrite() == "INVALID"
    assert not Trip("Paris", "Paris").is_valid
    assert Trip("Saint-Étienne", "Lyon").same_as(Trip("saint etienne", "LYON"))
    assert not Trip("Lyon", "Paris").same_as(Trip("Paris", "Lyon")) and Trip().same_as(Trip())
    accuracy = trip_accuracy([(trip, Trip("paris", "lyon")), (Trip(), trip), (Trip("Paris", "Lyon"), trip)])
    assert accuracy == {"trip_acc": 2 / 3, "trip_exact_acc": 1 / 3, "trip_validity_acc": 2 / 3}


@pytest.mark.parametrize(
    "text,ents",
    [
        ("de Nîmes ou d'Arles à Aix-en-Provence", [("Nîmes", "DEPART"), ("Aix-en-Provence", "ARRIVEE")]),
        ("je pars de Dijon pour Besançon ou pour Belfort", [("Dijon", "DEPART"), ("Besançon", "ARRIVEE")]),
        ("Paris -> Rennes ou Nantes ?", [("Paris", "DEPART"), ("Nantes", "ARRIVEE")]),
        ("soit Lyon soit Grenoble depuis Annecy", [("Grenoble", "ARRIVEE"), ("Annecy", "DEPART")]),
        (
            "on part de Rennes, mieux vaut aller jusqu'à Guingamp ou jusqu'à Morlaix ?",
            [("Rennes", "DEPART"), ("Morlaix", "ARRIVEE")],
        ),
        # "ou peut-être", "ou euh", "ou pr", "voire": still an alternative
        ("je pars de Cahors pour Brive, ou peut-être Tulle", [("Cahors", "DEPART"), ("Brive", "ARRIVEE")]),
        ("euh depuis Sedan pour Reims ou euh Rethel", [("Sedan", "DEPART"), ("Reims", "ARRIVEE")]),
        ("dmain de creil pr compiegne ou pr beauvais", [("creil", "DEPART"), ("compiegne", "ARRIVEE")]),
        ("repartir de Vichy pour Moulins, voire Nevers", [("Vichy", "DEPART"), ("Moulins", "ARRIVEE")]),
        # a place said after a doubt, in a sentence that offers another with "ou"
        (
            "je vais à Colmar, mais je ne sais pas encore si je pars de Metz, où j'ai mon stage, ou de Nancy",
            [("Colmar", "ARRIVEE"), ("Metz", "DEPART")],
        ),
        # two places compared
        ("Je préfère Dunkerque à Albertville.", [("Dunkerque", "DEPART"), ("Albertville", "ARRIVEE")]),
        # the other offered is abroad, or somewhere further
        ("je pars de Sedan, direction Longwy ou Luxembourg", [("Sedan", "DEPART"), ("Longwy", "ARRIVEE")]),
        ("De Vierzon je remonte à Orléans ou plus loin, on verra", [("Vierzon", "DEPART"), ("Orléans", "ARRIVEE")]),
        # the two places of "entre X et Y" after a word of choosing
        (
            "Nous hésitons entre Royan et La Rochelle pour août. Nous partirions de Tours.",
            [("La Rochelle", "ARRIVEE"), ("Tours", "DEPART")],
        ),
        # two places named one each, to choose between
        (
            "Deux offres d'emploi, l'une à Brest, l'autre à Vannes, je dois choisir. Je pars de Rennes.",
            [("Brest", "ARRIVEE"), ("Rennes", "DEPART")],
        ),
    ],
)
def test_trip_an_end_offered_with_an_alternative_is_no_trip(nlp, text, ents):
    trip = read(nlp, with_ents(nlp, text, ents))._.trip
    assert trip["is_valid"] is False


@pytest.mark.parametrize(
    "text,ents,expected",
    [
        ("de Paris à Lyon, ou plutôt demain", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")], ("Paris", "Lyon")),
        ("aller ou retour de Brest à Rennes", [("Brest", "DEPART"), ("Rennes", "ARRIVEE")], ("Brest", "Rennes")),
        # a doubt with no other place offered
        (
            "je ne sais pas si je pars de Brest ou pas, mais ce serait pour Rennes",
            [("Brest", "DEPART"), ("Rennes", "ARRIVEE")],
            ("Brest", "Rennes"),
        ),
        # a preference that compares no places
        ("je préfère partir de Lyon à Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], ("Lyon", "Paris")),
        ("je préfère Lyon à 8h, pour Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], ("Lyon", "Paris")),
        # two places named one each and both visited: no choice
        (
            "Deux rendez-vous, l'un à Brest le matin et l'autre à Vannes à 15h ; je pars de Rennes.",
            [("Rennes", "DEPART"), ("Vannes", "ARRIVEE")],
            ("Rennes", "Vannes"),
        ),
    ],
)
def test_trip_ou_without_an_alternative_place_keeps_the_trip(nlp, text, ents, expected):
    trip = read(nlp, with_ents(nlp, text, ents))._.trip
    assert (trip["departure"], trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,mention", [("Je quitte Laval vendredi pour Londres", "Londres"), ("de la Gare à Lyon", "Gare")]
)
def test_trip_foreign_cities_and_type_words_are_not_kept_as_typed(nlp, text, mention):
    doc = with_ents(nlp, text, [(mention, "ARRIVEE" if mention == "Londres" else "DEPART")])
    doc = read(nlp, doc)
    assert mention not in [e.text for e in doc.ents]


def test_trip_long_mention_is_read_in_linear_time():
    """A 3,000-token mention tries at most MAX_NAME_TOKENS names per token, not every sub-span."""
    from spacy_seqkit.travel.pipeline.mentions.component import PlaceMentions
    from spacy_seqkit.travel.pipeline.mentions.names import MAX_NAME_TOKENS
    from spacy_seqkit.travel.places import make_french_places

    class Counting:
        calls = 0

        def resolve(self, text):
            Counting.calls += 1
            return make_french_places().resolve(text)

        def place(self, text):
            Counting.calls += 1
            return make_french_places().place(text)

        def name_spans(self, words, max_words=8):
            return make_french_places().name_spans(words, max_words)

        def is_excluded(self, text):
            return make_french_places().is_excluded(text)

    mentions = PlaceMentions(places=Counting())
    nlp = spacy.blank("fr")
    text = " ".join(["blabla"] * 3000) + " Lyon"
    found = mentions.read_mention(with_ents(nlp, text, [(text, "ARRIVEE")]).ents[0])
    assert [(span.text, place.name) for span, place in found] == [("Lyon", "Lyon")]
    assert Counting.calls <= 1 + MAX_NAME_TOKENS * 3001


@pytest.mark.parametrize(
    "text,ents",
    [
        ("Hi, I need a train from Paris to Lyon tomorrow morning", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
        ("Quiero ir de Paris a Lyon mañana", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
        ("Ich möchte von Paris nach Lyon fahren", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
        # the sentence of the ends, with too few French words, counts for nothing alone
        ("Next train Lille Tourcoing? Thanks", [("Lille", "DEPART"), ("Tourcoing", "ARRIVEE")]),
        # English labels and English days: English
        ("From: Paris To: Lyon Date: Monday, 2 adults", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
        # a Spanish form: its labels say nothing, its day and travellers do
        ("Origen: Paris / Destino: Lyon / Fecha: sábado / 2 adultos", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]),
    ],
)
def test_trip_a_request_in_another_language_is_invalid(nlp, text, ents):
    doc = read(nlp, with_ents(nlp, text, ents))
    assert doc._.trip["is_valid"] is False and not doc.ents


@pytest.mark.parametrize(
    "text,ents",
    [
        (
            "From: Rennes To: Vannes — Date : jeudi 12 — Passagers : 2 adultes, 1 enfant",
            [("Rennes", "DEPART"), ("Vannes", "ARRIVEE")],
        ),
        ("from rennes to vannes demain 9h stp", [("rennes", "DEPART"), ("vannes", "ARRIVEE")]),
        # a label, before ":", counts for no language
        ("From : Rennes To : Vannes date : demain nb : 3", [("Rennes", "DEPART"), ("Vannes", "ARRIVEE")]),
    ],
)
def test_trip_a_french_form_with_english_labels_is_french(nlp, text, ents):
    """English labels on a French booking form or message ("From: ... To: ..."): the days, the
    passengers and "stp" say it is French."""
    trip = read(nlp, with_ents(nlp, text, ents))._.trip
    assert (trip["departure"], trip["arrival"]) == ("Rennes", "Vannes")


def test_trip_french_requests_with_english_words_stay_trips(nlp):
    text = "Hello, je veux un train de Paris à Lyon demain, thanks"
    trip = read(nlp, with_ents(nlp, text, [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]))._.trip
    assert (trip["departure"], trip["arrival"]) == ("Paris", "Lyon")
    # a trip asked in a French sentence among English ones: the sentence of the ends says
    text = "Hello, I need help please. Je cherche un train de Paris à Lyon le 14. Sorry, my French is not very good."
    trip = read(nlp, with_ents(nlp, text, [("Paris", "DEPART"), ("Lyon", "ARRIVEE")]))._.trip
    assert (trip["departure"], trip["arrival"]) == ("Paris", "Lyon")
    nlp2 = reading(without=("seqkit_language",))
    doc = with_ents(nlp2, "a train from Paris to Lyon please", [("Paris", "DEPART"), ("Lyon", "ARRIVEE")])
    assert read(nlp2, doc)._.trip["is_valid"]


@pytest.mark.parametrize(
    "text,ents,expected",
    [
        ("trains albi carmaux jeudi", [("carmaux", "ARRIVEE")], ("Albi", "Carmaux")),
        ("Le dernier TER entre Arras et Douai", [("Arras", "DEPART")], ("Arras", "Douai")),
        ("CHALONS EN CHAMPAGNE / EPERNAY 8H", [("EPERNAY", "ARRIVEE")], ("Châlons-en-Champagne", "Épernay")),
    ],
)
def test_trip_a_place_beside_the_only_end_is_the_other_end(nlp, text, ents, expected):
    trip = read(nlp, with_ents(nlp, text, ents))._.trip
    assert (trip["departure"], trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,ents",
    [
        ("je pars de brest dmain vers 6h", [("brest", "DEPART")]),
        ("Je veux aller à Lyon demain", [("Lyon", "ARRIVEE")]),
    ],
)
def test_trip_no_other_end_beside_the_only_end(nlp, text, ents):
    assert read(nlp, with_ents(nlp, text, ents))._.trip["is_valid"] is False
    steps = [s for s in DEFAULT_STEPS if s not in PAIR_STEPS]
    no_pairs = reading(seqkit_trip={"steps": steps})
    doc = with_ents(no_pairs, "trains albi carmaux jeudi", [("carmaux", "ARRIVEE")])
    assert read(no_pairs, doc)._.trip["is_valid"] is False


def test_a_read_doc_is_freed_once_the_caller_drops_it(nlp):
    """The reading keeps nothing of a doc once it is answered: `resolve` on a million orders
    holds the memory of one batch, not of every doc read (a Words view holding its doc kept
    every doc alive)."""
    import gc
    import weakref

    from trip_helpers import marked_doc, read

    doc = read(nlp, marked_doc(nlp, "de Lille à Arras", [("Lille", "DEPART"), ("Arras", "ARRIVEE")]))
    assert doc._.trip["arrival"] == "Arras"
    gone = weakref.ref(doc)
    del doc
    gc.collect()
    assert gone() is None
