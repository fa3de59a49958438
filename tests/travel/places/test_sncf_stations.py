"""SNCF stations: the shipped file, the names people type for a station, the build script."""

import csv
import gzip
from pathlib import Path

import pytest
from script_loader import load_script

from spacy_seqkit.travel.places import sncf

ROOT = Path(__file__).resolve().parents[3]
PLACES = ROOT / "spacy_seqkit" / "travel" / "places"
RAW = ROOT.parent / "shared" / "data" / "sncf"
TRAVEL_DATA = PLACES / "data"

fold = sncf.fold


@pytest.fixture(scope="module")
def communes():
    """INSEE code → (name, population): a commune, an arrondissement's city, or a former
    commune (delegated now) with its new commune's population; and every commune key."""
    with gzip.open(TRAVEL_DATA / "communes.tsv.gz", "rt", encoding="utf8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    by_code = {r["code"]: r for r in sorted(rows, key=lambda r: r["kind"] in "CR")}
    table = {}
    for code, r in by_code.items():
        city = by_code[r["parent"]] if r["kind"] != "C" and r["parent"] in by_code else r
        table[code] = ((city if r["kind"] == "R" else r)["name"], int(city["population"] or 0))
    return table, frozenset(fold(r["name"]) for r in rows)


@pytest.fixture(scope="module")
def words():
    return frozenset(gzip.decompress((TRAVEL_DATA / "french_words.txt.gz").read_bytes()).decode("utf8").split())


@pytest.fixture(scope="module")
def forms(communes, words):
    table, keys = communes
    result = {}
    for station in sncf.read_stations():
        name, population = table.get(station.insee, (None, 0))
        result[station] = sncf.station_forms(
            station, name, commune_population=population, commune_keys=keys, word_keys=words
        )
    return result


@pytest.fixture(scope="module")
def index(forms):
    return sncf.index_forms(forms)


def _station(name, segment="A", network_name="", insee="00000", uic="87000000"):
    return sncf.Station(uic, (uic,), name, network_name, "XXX", segment, insee, 2.0, 48.0)


def test_sncf_file_has_every_passenger_station_once():
    stations = sncf.read_stations()
    assert len(stations) == 2785
    uics = [u for s in stations for u in s.uics]
    assert len(uics) == len(set(uics)) == 2798
    assert len({s.uic for s in stations}) == 2785 and all(s.uic == s.uics[0] for s in stations)
    assert len({s.name for s in stations}) == 2785
    assert sncf.read_stations() is stations  # read once
    aubrais = next(s for s in stations if s.name == "Les Aubrais")
    assert aubrais == sncf.Station(
        "87543017", ("87543017",), "Les Aubrais", "Les Aubrais-Orléans", "LAB", "A", "45147", 1.906629, 47.926801
    )
    nord = next(s for s in stations if s.name == "Paris Gare du Nord")
    assert nord.uics == ("87271007", "87271031", "87271023") and nord.network_name == "Paris-Nord"
    assert sum(s.lon is None for s in stations) == 7


@pytest.mark.parametrize(
    "typed,station",
    [
        ("Les Aubrais", "Les Aubrais"),
        ("les aubrais-orleans", "Les Aubrais"),
        ("Orléans les Aubrais", "Les Aubrais"),
        ("orleans-les aubrais", "Les Aubrais"),
        ("Valence TGV", "Valence TGV Rhône-Alpes Sud"),
        ("TGV Valence", "Valence TGV Rhône-Alpes Sud"),
        ("TGV Haute-Picardie", "Haute Picardie TGV"),
        ("Haute-Picardie TGV", "Haute Picardie TGV"),
        ("Nîmes Pont du Gard", "Nîmes Pont du Gard"),
        ("Nimes Pont-du-Gard", "Nîmes Pont du Gard"),
        ("Le Creusot Montceau Montchanin TGV", "Le Creusot - Montceau-les-Mines - Montchanin TGV"),
        ("Le Creusot-Montceau-Montchanin", "Le Creusot - Montceau-les-Mines - Montchanin TGV"),
        ("Le Creusot TGV", "Le Creusot - Montceau-les-Mines - Montchanin TGV"),
        ("Montchanin TGV", "Le Creusot - Montceau-les-Mines - Montchanin TGV"),
        ("Vendôme TGV", "Vendôme - Villiers-sur-Loir TGV"),
        ("Lyon Part-Dieu", "Lyon Part Dieu"),
        ("Part-Dieu", "Lyon Part Dieu"),
        ("Perrache", "Lyon Perrache"),
        ("Paris Gare de Lyon", "Paris Gare de Lyon"),
        ("gare de Lyon", "Paris Gare de Lyon"),
        ("Gare du Nord", "Paris Gare du Nord"),
        ("gare de l'Est", "Paris Est"),
        ("Paris Montparnasse", "Paris Montparnasse"),
        ("Montparnasse", "Paris Montparnasse"),
        ("St-Lazare", "Paris Saint-Lazare"),
        ("Saint-Charles", "Marseille Saint-Charles"),
        ("Évry-Courcouronnes", "Évry-Courcouronnes"),
        ("Tours", "Tours"),
        ("Paris Bercy", "Paris Bercy Bourgogne - Pays d'Auvergne"),
        ("Meuse TGV", "Meuse TGV"),
    ],
)
def test_sncf_spellings_name_their_station(index, typed, station):
    assert [s.name for s in index.stations_by_key[fold(typed)]] == [station]


@pytest.mark.parametrize(
    "typed",
    [
        "Lyon",
        "Paris",
        "Marseille",
        "Europe",
        "Normandie",
        "Meuse",
        "Saint-Jean",
        "Rive Droite",
        "Rive Gauche",
        "Juvisy",
        "Sarlat",
        "Fauga",
        "Nord",
        "Est",
        "TGV",
        "Part",
        "Bénédictins",
        "Hôpital-Université",
        "CHR",
        "sur Mer",
        "Maison Blanche",
    ],
)
def test_sncf_no_station_for_towns_regions_and_words(index, typed):
    assert fold(typed) not in index.stations_by_key


def test_sncf_forms_are_commune_names_only_where_the_station_is_named_so(forms, communes):
    _, keys = communes
    for station, station_forms in forms.items():
        assert station_forms[0] == station.name
        for form in station_forms[1:]:
            assert fold(form) not in keys, (station.name, form)
    tours = next(s for s in forms if s.name == "Tours")
    assert forms[tours] == ["Tours"] and sncf.named_like_commune(tours, "Tours")
    aubrais = next(s for s in forms if s.name == "Les Aubrais")
    assert not sncf.named_like_commune(aubrais, "Fleury-les-Aubrais")


def test_sncf_forms_keep_what_makes_them_a_station(forms):
    creusot = next(s for s in forms if s.name.startswith("Le Creusot - "))
    for form in forms[creusot][1:]:
        assert "TGV" in form or fold(form) == fold(creusot.network_name), form
    # Most stations are named once: forms are few and never empty.
    total = sum(len(f) for f in forms.values())
    assert len(forms) <= total <= 1.2 * len(forms)


def test_sncf_city_prefix_dropped_only_for_distinctive_remainders():
    keys = frozenset({"lyon", "bordeaux", "saint jean", "reims", "lille"})
    words = frozenset({"nord", "ville"})
    assert "Part Dieu" in sncf.station_forms(_station("Lyon Part Dieu"), "Lyon 3e Arrondissement", commune_keys=keys)
    assert sncf.station_forms(_station("Bordeaux Saint-Jean"), "Bordeaux", commune_keys=keys) == ["Bordeaux Saint-Jean"]
    assert sncf.station_forms(_station("Lille Europe"), "Lille", commune_keys=keys) == ["Lille Europe"]
    assert sncf.station_forms(_station("Angoulins sur Mer"), "Angoulins") == ["Angoulins sur Mer"]
    assert sncf.station_forms(_station("Achères Ville", "B"), "Achères", word_keys=words) == ["Achères Ville"]
    # A regional station loses its city's name only in a big city, a local halt never.
    halt = _station("Reims Maison Blanche", "C")
    regional = _station("Reims Maison Blanche", "B")
    assert sncf.station_forms(halt, "Reims", commune_population=180_000, commune_keys=keys) == [halt.name]
    assert sncf.station_forms(regional, "Reims", commune_population=10_000, commune_keys=keys) == [halt.name]
    assert sncf.station_forms(regional, "Reims", commune_population=180_000, commune_keys=keys) == [
        halt.name,
        "Maison Blanche",
    ]
    assert sncf.station_forms(_station("Paris Est"), "Paris") == ["Paris Est", "Gare de l'Est"]


def test_sncf_network_names_that_name_the_town_are_left_out():
    keys = frozenset({"lorient", "juvisy sur orge"})
    lorient = _station("Lorient Bretagne Sud", network_name="Lorient")
    assert sncf.station_forms(lorient, "Lorient", commune_keys=keys) == ["Lorient Bretagne Sud"]
    juvisy = _station("Juvisy-sur-Orge", "B", network_name="Juvisy")
    assert sncf.station_forms(juvisy, "Juvisy-sur-Orge", commune_keys=keys) == ["Juvisy-sur-Orge"]
    fauga = _station("Le Fauga", "C", network_name="Fauga")
    assert sncf.station_forms(fauga, "Le Fauga") == ["Le Fauga"]
    aubrais = _station("Les Aubrais", network_name="Les Aubrais-Orléans")
    assert sncf.station_forms(aubrais, "Fleury-les-Aubrais") == ["Les Aubrais", "Les Aubrais-Orléans"]
    # the town a network name adds, first: what travellers call it
    assert sncf.station_forms(aubrais, "Fleury-les-Aubrais", commune_keys={"orleans"}) == [
        "Les Aubrais",
        "Les Aubrais-Orléans",
        "Orléans Les Aubrais",
    ]
    # not where the traveller name is a commune's ("Chenonceaux-Chisseaux")
    chenonceaux = _station("Chenonceaux", "C", network_name="Chenonceaux-Chisseaux")
    assert "Chisseaux Chenonceaux" not in sncf.station_forms(
        chenonceaux, "Chisseaux", commune_keys={"chenonceaux", "chisseaux"}
    )


def test_sncf_index_gives_a_shared_form_to_one_station_or_none():
    paris = _station("Paris Gare du Nord", "A;B", uic="87271007")
    metz = _station("Metz Nord", "B", uic="87192039")
    other = _station("Autre Nord", "B", uic="87000001")
    named = _station("Gare du Nord", "C", uic="87000002")
    index = sncf.index_forms({paris: ["Paris Gare du Nord", "Gare du Nord"], metz: ["Metz Nord", "Gare du Nord"]})
    assert index.stations_by_key["gare du nord"] == (paris,)
    assert index.collisions == [
        sncf.Collision("gare du nord", ("Paris Gare du Nord", "Metz Nord"), "Paris Gare du Nord")
    ]
    tie = sncf.index_forms({metz: ["Metz Nord", "Gare du Nord"], other: ["Autre Nord", "Gare du Nord"]})
    assert "gare du nord" not in tie.stations_by_key and tie.collisions[0].kept is None
    # A station SNCF names so keeps the form, whatever its segment.
    own = sncf.index_forms({paris: ["Gare du Nord"], named: ["Gare du Nord"]})
    assert own.stations_by_key["gare du nord"] == (named,)


def test_sncf_missing_file_is_named(tmp_path):
    path = tmp_path / "absent.tsv.gz"
    with pytest.raises(sncf.StationDataError, match="absent.tsv.gz"):
        sncf.read_stations(path)


@pytest.mark.parametrize(
    "content",
    [
        b"not gzip at all",
        gzip.compress(b"uic\tuics\tname\n1\t2\t3\n"),
        gzip.compress(("\t".join(sncf.COLUMNS) + "\n87543017\t87543017\tLes Aubrais\n").encode()),
        gzip.compress(("\t".join(sncf.COLUMNS) + "\nabc\tabc\tX\t\tX\tA\t1\t\t\n").encode()),
        gzip.compress(("\t".join(sncf.COLUMNS) + "\n87543017\t87543017\tX\t\tX\tA\t1\teast\t\n").encode()),
        gzip.compress(("\t".join(sncf.COLUMNS) + "\n").encode() * 3)[:-8],
    ],
)
def test_sncf_damaged_file_is_named(tmp_path, content):
    path = tmp_path / "damaged.tsv.gz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="damaged.tsv.gz"):
        sncf.read_stations(path)


@pytest.mark.skipif(not RAW.exists(), reason=f"SNCF's raw files are not at {RAW}")
def test_sncf_script_rebuilds_the_shipped_file_byte_for_byte(tmp_path):
    script = load_script(ROOT / "scripts" / "build_station_data.py")
    out = tmp_path / "stations.tsv.gz"
    script.main(["--source", str(RAW), "--out", str(out)])
    assert out.read_bytes() == sncf.DATA_FILE.read_bytes()
