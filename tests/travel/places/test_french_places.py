import csv
import gzip
import random
import time
from pathlib import Path

import pytest
import spacy

from spacy_seqkit.travel.places import FrenchPlaces, make_french_places, normalise
from spacy_seqkit.travel.places.stations import read_station_data

from travel_conventions import CONVENTION_STATIONS, STATION_SPELLINGS, sncf_station_names

COMMUNES = Path(__file__).resolve().parents[3] / "spacy_seqkit" / "travel" / "places" / "data" / "communes.tsv.gz"


@pytest.fixture(scope="module")
def gaz():
    return make_french_places()


@pytest.fixture(scope="module")
def communes():
    """The data file itself, read here rather than through the code under test."""
    with gzip.open(COMMUNES, "rt", encoding="utf8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_gazetteer_has_every_commune_and_the_stations(gaz, communes):
    assert sum(c["kind"] == "C" for c in communes) > 34000
    assert {"D", "A", "R"} <= {c["kind"] for c in communes}
    names = set(gaz.canonical_names())
    assert {c["name"] for c in communes if c["kind"] != "R"} <= names
    assert set(CONVENTION_STATIONS) <= set(gaz.station_names()) <= sncf_station_names()
    for name in [
        "Paris",
        "Marseille",
        "Saint-Étienne",
        "Le Havre",
        "Dunkerque",
        "Cherbourg-en-Cotentin",
        "Port-Vendres",
        "Sauxillanges",
        "Cherbourg-Octeville",
    ]:
        assert name in names and name in gaz
    assert "London" not in gaz and "Dunkirk" not in gaz


@pytest.mark.parametrize(
    "mention,expected",
    [
        ("Paris", "Paris"),
        ("paris", "Paris"),
        ("PARIS", "Paris"),
        ("marseile", "Marseille"),
        ("bordeau", "Bordeaux"),
        ("toulous", "Toulouse"),
        ("montpelier", "Montpellier"),
        ("st etienne", "Saint-Étienne"),
        ("Saint-Etienne", "Saint-Étienne"),
        ("St-Étienne", "Saint-Étienne"),
        ("aix en provence", "Aix-en-Provence"),
        ("Havre", "Le Havre"),
        ("le havre", "Le Havre"),
        ("gare de lyon", "Paris Gare de Lyon"),
        ("Part-Dieu", "Lyon Part Dieu"),
        ("part dieu", "Lyon Part Dieu"),
        ("St Charles", "Marseille Saint-Charles"),
        ("Montparnasse", "Paris Montparnasse"),
        ("monparnasse", "Paris Montparnasse"),
        ("Paris Gare de Lyon", "Paris Gare de Lyon"),
        ("Saint-Pierre-des-Corps", "Saint-Pierre-des-Corps"),
        # short forms and abbreviations; official names
        ("clermont", "Clermont-Ferrand"),
        ("Brive", "Brive-la-Gaillarde"),
        ("aix", "Aix-en-Provence"),
        ("bdx", "Bordeaux"),
        ("Dunkerque", "Dunkerque"),
        ("Cherbourg", "Cherbourg-en-Cotentin"),
        ("Florac", "Florac Trois Rivières"),
        ("Bercy", "Paris Bercy Bourgogne - Pays d'Auvergne"),
        # the usual short name of a town that is a French word too, as typed with a capital
        ("Chalon", "Chalon-sur-Saône"),
        ("CHALONS", "Châlons-en-Champagne"),
        ("Mantes", "Mantes-la-Jolie"),
        ("Salon", "Salon-de-Provence"),
        ("Romans", "Romans-sur-Isère"),
        ("Digne", "Digne-les-Bains"),
        ("Joué", "Joué-lès-Tours"),
        # small communes are themselves, never another village one edit away
        ("Sauxillanges", "Sauxillanges"),
        ("port vendres", "Port-Vendres"),
        ("Conques", "Conques"),
        ("Mont-Louis", "Mont-Louis"),
        ("bourg saint andéol", "Bourg-Saint-Andéol"),
        ("lons le saunier", "Lons-le-Saunier"),
        ("st jean pied de port", "Saint-Jean-Pied-de-Port"),
        ("la seyne sur mer", "La Seyne-sur-Mer"),
        ("bagneres de luchon", "Bagnères-de-Luchon"),
        # a typo in a long small name is corrected
        ("Sauxillange", "Sauxillanges"),
        # a city of 100,000 inhabitants a little further: one edit in four letters, two in seven to nine
        ("lile", "Lille"),
        ("nime", "Nîmes"),  # its silent "s" left out: not Nice, one edit away too
        ("toulouz", "Toulouse"),
        ("marseil", "Marseille"),
        ("strasbur", "Strasbourg"),
        # abbreviations read, not written by the corpus
        ("mpl", "Montpellier"),
        ("Strasbg", "Strasbourg"),
        ("besac", "Besançon"),  # and the towns' nicknames
        ("perpi", "Perpignan"),
        ("montpel", "Montpellier"),
        ("st naz", "Saint-Nazaire"),
        ("sainté", "Saint-Étienne"),  # by its accent: "sainte" stays a word
        ("toul", "Toul"),
        # the kind of place and a département around the name
        ("la gare de Tours", "Tours"),
        ("gare de Nîmes", "Nîmes"),
        ("aéroport de Nice", "Nice"),
        ("centre-ville de Lyon", "Lyon"),
        ("Tours centre", "Tours"),
        ("Valence TGV", "Valence TGV Rhône-Alpes Sud"),
        ("Saint-Denis (93)", "Saint-Denis"),
        ("valence 26", "Valence"),
        # arrondissements are their city
        ("Paris 15e", "Paris"),
        ("paris 15", "Paris"),
        ("Lyon 3eme", "Lyon"),
        # the first two words of a longer name a station serves, where no commune of that name
        # has one: "st die" (no Saint-Dié at all), "saint gervais" (villages of that name)
        ("st die", "Saint-Dié-des-Vosges"),
        ("Saint Dié", "Saint-Dié-des-Vosges"),
        ("saint gervais", "Saint-Gervais-les-Bains"),
        ("st maixent", "Saint-Maixent-l'École"),
        # an official name typed as such is that commune; a city a station serves keeps its name
        ("Saint-Gervais", "Saint-Gervais"),
        ("saint etienne", "Saint-Étienne"),
        ("st quentin", "Saint-Quentin"),
        # abbreviations in use
        ("tls", "Toulouse"),
        ("clermont fd", "Clermont-Ferrand"),
        # the part of a compound name people say for the commune
        ("hossegor", "Soorts-Hossegor"),
        ("Tyrosse", "Saint-Vincent-de-Tyrosse"),
        ("Font-Romeu", "Font-Romeu-Odeillo-Via"),
        ("Boën", "Boën-sur-Lignon"),
        ("ygos", "Ygos-Saint-Saturnin"),
        ("DOL", "Dol-de-Bretagne"),
        ("ax", "Ax-les-Thermes"),
        ("la sout", "La Souterraine"),
        ("clfd", "Clermont-Ferrand"),
        # a town's first word said for it, over a village that is now part of another commune
        ("villefranche", "Villefranche-sur-Saône"),
        ("Tremblay", "Tremblay-en-France"),
        ("gdl", "Paris Gare de Lyon"),
        ("MLV", "Marne-la-Vallée Chessy"),
        ("pdieu", "Lyon Part Dieu"),
        ("toulouse arenes", "Saint-Cyprien Arènes"),
    ],
)
def test_gazetteer_resolve(gaz, mention, expected):
    assert gaz.resolve(mention) == expected


@pytest.mark.parametrize(
    "text",
    [
        "a paris",
        "de Lyon à Paris",
        "bonjour",
        "voyage",
        "billet",
        "semaine",
        "maison",
        "merci",
        "xqzwv",
        "",
        "   ",
        "Марсель",
        "London",
        "Londres",
        "Genève",
        # type words and ordinary words are no places, nor typos of one
        "manasc",  # two letters more than "mans" (Le Mans): no slip
        "parasc",  # two edits in six letters: no slip of Paris
        "pari",  # a word: not Paris
        "renne",
        "gare",
        "la gare",
        "aéroport",
        "centre",
        "port",
        "ville",
        "guichet",
        "course",
        "demain",
        "coute",
        "mars",
        "aube",
        "côte",
        "roche",
        # a town's short name that is a word too is no place in lowercase
        "salon",
        "romans",
        "digne",
        "joue",
        "sable",
        "sainte",  # not the nickname "sainté"
        # a word with its article, in lowercase, is no village of that name
        "la réunion",
        "le chemin",
        "les halles",
        # a word and its article, whatever its case, is no village's short form (La Maison-Dieu)
        "LA MAISON",
        "La Maison",
    ],
)
def test_gazetteer_resolve_rejects_non_names(gaz, text):
    assert gaz.resolve(text) is None


@pytest.mark.parametrize(
    "text,expected",
    [
        ("La Réunion", "La Réunion"),  # with its capital, the village
        ("la souterraine", "La Souterraine"),  # towns, and short forms, whose name is an article and a word
        ("les arcs", "Les Arcs"),
        ("la teste", "La Teste-de-Buch"),
        ("le havre", "Le Havre"),
        ("LES SABLES", "Les Sables-d'Olonne"),  # a town's short form
        ("La Maison-Dieu", "La Maison-Dieu"),
    ],
)
def test_gazetteer_a_town_named_by_an_article_and_a_word_is_kept_in_lowercase(gaz, text, expected):
    assert gaz.resolve(text) == expected


def test_gazetteer_excluded_mentions(gaz):
    for text in ("gare", "Londres", "Bruxelles", "guichet", "Messieurs"):
        assert gaz.is_excluded(text), text
    for text in ("Port-Boulet", "Tours", "tours", "Marseile", "Aube"):
        assert not gaz.is_excluded(text), text


def test_gazetteer_resolve_type_error(gaz):
    with pytest.raises(TypeError):
        gaz.resolve(None)


def test_gazetteer_population(gaz):
    assert gaz.population("Paris") > gaz.population("Lyon") > gaz.population("Albert") >= 500
    assert gaz.population("Lyon Part Dieu") == gaz.population("Lyon")
    assert gaz.population("Atlantis") is None


def test_gazetteer_shared_name_takes_most_populous(gaz, communes):
    pops = [int(c["population"]) for c in communes if c["name"] == "Saint-Sauveur" and c["population"]]
    assert len(pops) > 1
    assert gaz.population("Saint-Sauveur") == max(pops)


def test_gazetteer_min_population(gaz):
    towns = make_french_places(min_population=20000)
    assert towns.resolve("Sauxillanges") is None and gaz.resolve("Sauxillanges") == "Sauxillanges"
    assert towns.resolve("marseile") == "Marseille"
    assert len(towns.place_names()) < 1000 < 30000 < len(gaz.place_names())


@pytest.mark.parametrize("value", [-1, 1.5, "500", True])
def test_gazetteer_bad_min_population(value):
    with pytest.raises(ValueError, match="min_population"):
        FrenchPlaces(min_population=value)


def test_gazetteer_normalise():
    assert normalise("St-Étienne") == "saint etienne"
    assert normalise("L'Haÿ-les-Roses") == "l hay les roses"
    assert normalise("Ste  Foy") == "sainte foy"


def test_gazetteer_cheap_to_rebuild_and_fast_repeated_lookups(gaz):
    gaz.resolve("marseile")
    start = time.perf_counter()
    for _ in range(200):
        assert FrenchPlaces(ordinary_words=gaz.ordinary_words).resolve("marseile") == "Marseille"
    for _ in range(20000):
        gaz.resolve("marseile")
    assert time.perf_counter() - start < 1.0


def test_gazetteer_stations_and_typed_forms(gaz):
    assert {"Lyon Part Dieu", "Lyon Perrache", "Lyon Vaise"} <= set(gaz.stations_of("Lyon"))
    assert "Aéroport Charles de Gaulle 2 TGV" in gaz.stations_of("Tremblay-en-France")
    assert gaz.stations_of("Albert") == ["Albert"]
    assert gaz.stations_of("Sauxillanges") == []
    assert "Clermont" in gaz.typed_forms("Clermont-Ferrand")
    assert gaz.typed_forms("Cherbourg-en-Cotentin") == ["Cherbourg"]
    assert gaz.typed_forms("Bordeaux") == ["bdx"]
    assert gaz.typed_forms("Lyon") == []
    assert gaz.typed_forms("Salon-de-Provence") == ["Salon"]  # alias and short form: once


def test_gazetteer_shipped_index_is_current_and_equals_a_fresh_build(monkeypatch):
    """The index shipped in data/ is the one the code builds now (rebuild it with
    `python scripts/build_gazetteer_index.py` after changing the gazetteer, the stations
    or the communes), and a process reads it rather than building it."""
    from spacy_seqkit.travel.places import index as gazetteer

    shipped = gazetteer.read_shipped_index()
    assert shipped is not None, "data/index.pickle.gz is missing or stale: run scripts/build_gazetteer_index.py"
    assert shipped == gazetteer.build_index(0)
    assert gazetteer.shipped_data() == gazetteer._build_shipped(shipped)  # stations, communes' codes
    gazetteer.load_index.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(gazetteer, "build_index", lambda min_population: pytest.fail("built, not read"))
            assert gazetteer.load_index(0) == shipped
    finally:
        gazetteer.load_index.cache_clear()


def test_gazetteer_stale_index_is_built_instead(tmp_path, monkeypatch):
    from spacy_seqkit.travel.places import index as gazetteer

    stale = tmp_path / "index.pickle.gz"
    with gzip.open(stale, "wb") as f:
        import pickle

        pickle.dump(("another digest", gazetteer.build_index(0)), f)
    monkeypatch.setattr(gazetteer, "INDEX_FILE", stale)
    gazetteer._read_shipped.cache_clear()
    try:
        assert gazetteer.read_shipped_index() is None
        monkeypatch.setattr(gazetteer, "INDEX_FILE", tmp_path / "missing.pickle.gz")
        gazetteer._read_shipped.cache_clear()
        assert gazetteer.read_shipped_index() is None
        gazetteer.shipped_data.cache_clear()
        assert gazetteer.shipped_data().stations == read_station_data()  # built instead
        gazetteer.load_index.cache_clear()
        assert FrenchPlaces().resolve("marseile") == "Marseille"
    finally:
        gazetteer.load_index.cache_clear()
        gazetteer._read_shipped.cache_clear()
        gazetteer.shipped_data.cache_clear()


def test_fuzzy_match_compares_only_keys_of_the_same_first_letter():
    """Typo correction compares a name with the keys of its first letter only (the rule
    it applies anyway), of a length within reach, found first by Levenshtein's distance:
    the same answers as Damerau-Levenshtein against every key, for letters changed,
    swapped, dropped and doubled."""
    import string

    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    from spacy_seqkit.travel.places import index as gazetteer
    from spacy_seqkit.travel.places.lookup import fuzzy
    from spacy_seqkit.travel.places.names import max_edits

    index = gazetteer.load_index(0)

    def every_key(key, keys, limit):
        matches = process.extract(key, keys, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None)
        ranked = [
            (d, index.by_key[c].rank, -index.by_key[c].population, index.by_key[c].name)
            for c, d, _ in matches
            if c[0] == key[0]
        ]
        return min(ranked)[3] if ranked else None

    def every(keys):
        return [k for group in keys.values() for k in group]

    rng = random.Random(0)
    typos = []
    for n, key in enumerate(rng.sample(every(index.fuzzy_keys), 200)):
        chars = list(key)
        i = rng.randrange(len(chars) - 1)
        if n % 4 == 0:
            chars[i] = rng.choice(string.ascii_lowercase)
        elif n % 4 == 1:
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif n % 4 == 2:
            del chars[i + 1]
        else:
            chars.insert(i + 1, chars[i])
        typos.append("".join(chars))
    for key in typos + ["marseile", "bordaux", "pariss", "zzzzzzzz", "strasbroug", "tuolouse"]:
        for keys in (index.fuzzy_keys, index.big_keys, index.station_keys):
            limit = max_edits(len(key))
            found = fuzzy(key, index, keys, limit)
            assert (found.name if found else None) == every_key(key, every(keys), limit), key


def test_every_sncf_station_is_a_place_under_its_own_name(gaz):
    """A station's traveller name names the station, or the commune of that name it serves
    ("Aime - La Plagne" is Aime-la-Plagne); except where the name is also the usual name of a
    town ten times bigger ("Montereau" is Montereau-Fault-Yonne, the rule that makes
    "clermont" Clermont-Ferrand), or of a city abroad ("Saint-Sébastien" is San Sebastián, not
    the village of Creuse: `lookup.FOREIGN_NAMESAKE_POPULATION`)."""
    others = []
    for name in sorted(sncf_station_names()):
        place = gaz.place(name)
        if place is None or normalise(place.name) != normalise(name) or name not in place.stations:
            others.append((name, place.name if place else None))
    assert others == [
        ("Deville", "Déville-lès-Rouen"),
        ("Montaigu", "Montaigu-Vendée"),
        ("Montereau", "Montereau-Fault-Yonne"),
        ("Saint-Sébastien", None),
    ]


@pytest.mark.parametrize("typed,station", sorted(STATION_SPELLINGS.items()))
def test_station_spellings_resolve_to_their_station(gaz, typed, station):
    place = gaz.place(typed)
    assert place is not None and (place.kind, place.stations) == ("station", (station,)), place
    assert place.uics


@pytest.mark.parametrize(
    "typed,answer",
    [
        # The name the request used, spelled as SNCF or usage writes it, where it says the city:
        ("valence tgv", "Valence TGV"),  # traveller name: Valence TGV Rhône-Alpes Sud
        ("Valence TGV Rhône-Alpes Sud", "Valence TGV Rhône-Alpes Sud"),
        ("paris nord", "Paris Nord"),  # network name Paris-Nord; traveller name Paris Gare du Nord
        ("Paris-Nord", "Paris-Nord"),  # typed with its hyphen
        ("nice ville", "Nice Ville"),  # traveller name: Nice
        ("tgv haute picardie", "TGV Haute-Picardie"),
        ("Paris Bercy", "Paris Bercy"),
        ("marseille st charles", "Marseille Saint-Charles"),
        ("Paris-St-Lazare", "Paris-Saint-Lazare"),  # St written out, the hyphens typed kept
        ("Golfe-Juan", "Golfe-Juan"),  # SNCF: Golfe Juan Vallauris
        ("valance tgv", "Valence TGV"),  # a typo: the form it is closest to
        ("Les Aubrais-Orléans", "Les Aubrais-Orléans"),  # a town joined by SNCF keeps its hyphen
        ("valence ville", "Valence Ville"),  # the name on its front; SNCF's list: Valence
        ("Nîmes Centre", "Nîmes Centre"),
        ("Cherbourg", "Cherbourg"),  # the town before its mergers; SNCF: Cherbourg-en-Cotentin
        ("la baule", "La Baule"),  # SNCF: La Baule-Escoublac
        ("Le Creusot Montceau TGV", "Le Creusot Montceau TGV"),  # its third town left out
        # No city in what was typed: SNCF's traveller name.
        ("gare du nord", "Paris Gare du Nord"),
        ("part dieu", "Lyon Part Dieu"),
        ("Bercy", "Paris Bercy Bourgogne - Pays d'Auvergne"),
        ("roissy cdg", "Aéroport Charles de Gaulle 2 TGV"),
        ("Chasseneuil (Vienne)", "Chasseneuil-du-Poitou"),  # a network name's département: said by no one
    ],
)
def test_a_station_is_answered_by_the_name_the_request_used(gaz, typed, answer):
    place = gaz.place(typed)
    assert place is not None and place.kind == "station" and place.name == answer, place
    # The answer names the same station again (routes and the service look it up by name).
    assert gaz.place(answer).stations == place.stations


@pytest.mark.parametrize("typed", sorted(STATION_SPELLINGS))
def test_a_station_name_is_never_split_by_the_place_marker(gaz, typed):
    """The marker marks a station's name as one place ("gare des" is no part of the name)."""
    words = typed.replace("-", " - ").replace("'", "' ").split()
    spans = gaz.name_spans(words)
    assert len(spans) == 1 and spans[0][1] == len(words), (typed, spans)
    assert spans[0][0] == 0 or words[0].lower() == "gare", (typed, spans)


@pytest.mark.parametrize(
    "text,names",
    [
        # long hyphenated names: punctuation counts for no word of the eight a run may have
        (
            "Train de Péguilhan à Roche-sur-Linotte-et-Sorans-les-Cordiers",
            ["Péguilhan", "Roche-sur-Linotte-et-Sorans-les-Cordiers"],
        ),
        ("de Mende à La Bastide-Saint-Laurent-les-Bains", ["Mende", "La Bastide - Saint-Laurent-les-Bains"]),
        ("tgv Blénod-lès-Pont-à-Mousson Mozac", ["Blénod-lès-Pont-à-Mousson", "Mozac"]),
        # a run yields to a longer one starting inside it: not Paris's gare de Lyon + Part-Dieu
        ("De la gare de Lyon-Part-Dieu à la gare de Grenoble", ["Lyon Part Dieu", "Grenoble"]),
        ("dans le saint aubin des ormeaux", ["Saint-Aubin-des-Ormeaux"]),
        # and the gare de Lyon stays Paris's where nothing longer follows
        ("de la gare de Lyon à Dijon", ["Paris Gare de Lyon", "Dijon"]),
        # a comma ends a name: a town and its description are no station's name
        ("de gagner Albi, ville des peintres", ["Albi"]),
        ("à Lille, Europe oblige", ["Lille"]),
        # a dot does not ("St. Malo", a generated typo "Cergy.. Saint-Christophe")
        ("de Cergy.. Saint-Christophe", ["Cergy Saint-Christophe"]),
    ],
)
def test_name_spans_read_whole_names(gaz, text, names):
    words = [t.text for t in spacy.blank("fr").make_doc(text)]
    assert [gaz.place(" ".join(words[s:e])).name for s, e in gaz.name_spans(words)] == names


@pytest.mark.parametrize(
    "text",
    [
        "De la gare de Lyon-Part-Dieu à la gare de Grenoble",
        "gare de Lyon Perrache demain",
        "Saint-Aubin-des-Ormeaux",
        "Marne la Vallée Chessy puis Lille",
        "tours orange vers mer",
        "de Mende à La Bastide-Saint-Laurent-les-Bains",
        "gagner Albi, ville rouge",
        "",
    ],
)
def test_first_run_is_the_run_name_spans_reads_first_from_every_word(gaz, text):
    """What station names are widened by (`first_run`) reads as `name_spans` reads, from any word on."""
    words = [t.text for t in spacy.blank("fr").make_doc(text)]
    for start in range(len(words) + 1):
        for max_words in (2, 8, len(words) or 1):
            runs = gaz.name_spans(words[start:], max_words)
            expected = runs[0][1] if runs and runs[0][0] == 0 else None
            assert gaz.first_run(words[start:], max_words) == expected, (words[start:], max_words)


@pytest.mark.parametrize("city", ["Fribourg", "fribourg", "Saint-Sébastien", "saint sebastien"])
def test_a_city_abroad_is_no_village_of_its_name(gaz, city):
    """Fribourg (Moselle) and Saint-Sébastien (Creuse) are villages: "pour Fribourg" is the city
    abroad. A town of its own ("Bruges", Gironde, 18,000 inhabitants) keeps its name."""
    assert gaz.place(city) is None
    assert gaz.place("Bruges").insee == "33075"


@pytest.mark.parametrize("country", ["Suisse", "suisse", "la Suisse", "Argentine", "Colombie", "Pérou", "Viêt Nam"])
def test_a_country_is_no_commune_of_its_name(gaz, country):
    """Suisse (Moselle, 94 inhabitants) and Argentine (Savoie) are villages no station serves:
    "vers la Suisse" names the country, never them; nor is a country a commune one letter away
    ("Colombie" is not Colombiès)."""
    assert gaz.resolve(country) is None and gaz.place(country) is None


def test_a_commune_place_carries_its_codes_and_stations(gaz):
    place = gaz.place("marseile")
    assert (place.kind, place.name, place.insee, place.commune) == ("commune", "Marseille", "13055", "Marseille")
    assert "Marseille Saint-Charles" in place.stations and "87751008" in place.uics
    delegated = gaz.place("Beaupréau")
    assert (delegated.name, delegated.commune, delegated.insee) == ("Beaupréau", "Beaupréau-en-Mauges", "49023")


def test_a_name_two_communes_share_is_the_bigger_whatever_its_case(gaz, communes):
    """ "valence" typed in lowercase was the Charente's Valence (400 inhabitants), not the Drôme's."""
    by_code = {c["code"]: c for c in communes}
    for text in ("valence", "Valence", "montreuil", "Montreuil"):
        place = gaz.place(text)
        namesakes = [c for c in communes if c["kind"] == "C" and c["name"] == place.name]
        assert len(namesakes) > 1
        assert int(by_code[place.insee]["population"]) == max(int(c["population"]) for c in namesakes)


def test_homonyms_are_the_other_communes_a_name_may_stand_for(gaz):
    assert [(p.name, p.insee) for p in gaz.homonyms("boulogne")] == [("Boulogne-sur-Mer", "62160")]
    assert ("Aix-les-Bains", "73008") in [(p.name, p.insee) for p in gaz.homonyms("aix")]
    assert all(p.text == "boulogne" for p in gaz.homonyms("boulogne"))  # what was typed
    assert gaz.homonyms("Marseille") == []
    assert gaz.homonyms("bouloggne") == []  # no typo reading


def test_usage_names_of_a_station_named_as_its_commune_are_no_station_of_the_corpus(gaz):
    """ "Valence Ville" names the station Valence in lookups; the corpus still draws Valence as
    the commune, as before usage's names were added (its training requests stay the same)."""
    assert gaz.place("valence ville").name == "Valence Ville"
    assert not gaz.is_station("Valence") and "Valence" not in gaz.station_names()
    assert gaz.is_station("Lyon Part Dieu") and gaz.is_station("Nice")  # "Nice Ville": SNCF's own name


@pytest.mark.parametrize(
    "text,code,name",
    [
        ("saint-sulpice", "81", "Saint-Sulpice-la-Pointe"),  # the short form of a served town
        ("Tarascon", "09", "Tarascon-sur-Ariège"),
        ("Tarascon", "13", "Tarascon"),
        ("Belleville", "69", "Belleville"),  # a delegated commune by its own name
        ("Lyon", "13", None),
    ],
)
def test_a_name_in_a_departement(gaz, text, code, name):
    found = gaz.in_departement(text, code)
    assert (found.name if found else None) == name
