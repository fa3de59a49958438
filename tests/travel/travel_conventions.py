"""Facts of the travel conventions that tests check the code and data against.

Kept apart from `spacy_seqkit.travel.places` on purpose: a test must not take its expectation
from the code it checks."""

import csv
import gzip
from pathlib import Path

# Big stations by SNCF's traveller names, the answers of a request that names them.
CONVENTION_STATIONS = (
    "Paris Gare de Lyon",
    "Paris Gare du Nord",
    "Paris Est",
    "Paris Montparnasse",
    "Paris Saint-Lazare",
    "Paris Austerlitz",
    "Paris Bercy Bourgogne - Pays d'Auvergne",
    "Lyon Part Dieu",
    "Lyon Perrache",
    "Marseille Saint-Charles",
    "Lille Flandres",
    "Lille Europe",
    "Bordeaux Saint-Jean",
    "Toulouse Matabiau",
    "Montpellier Saint-Roch",
    "Aix-en-Provence TGV",
    "Avignon TGV",
    "Avignon Centre",
    "Marne-la-Vallée Chessy",
    "Aéroport Charles de Gaulle 2 TGV",
    "Massy TGV",
    "Lyon Saint-Exupéry TGV",
    "Les Aubrais",
    "Valence TGV Rhône-Alpes Sud",
    "Le Creusot - Montceau-les-Mines - Montchanin TGV",
    "Haute Picardie TGV",
    "Nîmes Pont du Gard",
)
# How people type some of them, and the station each spelling names.
STATION_SPELLINGS = {
    "Les Aubrais": "Les Aubrais",
    "les aubrais": "Les Aubrais",
    "Les Aubrais-Orléans": "Les Aubrais",
    "gare des Aubrais": "Les Aubrais",
    "Valence TGV": "Valence TGV Rhône-Alpes Sud",
    "valence tgv rhone alpes sud": "Valence TGV Rhône-Alpes Sud",
    "TGV Haute-Picardie": "Haute Picardie TGV",
    "Haute-Picardie TGV": "Haute Picardie TGV",
    "Nîmes Pont-du-Gard": "Nîmes Pont du Gard",
    "nimes pont du gard": "Nîmes Pont du Gard",
    "Le Creusot Montceau Montchanin TGV": "Le Creusot - Montceau-les-Mines - Montchanin TGV",
    "le creusot tgv": "Le Creusot - Montceau-les-Mines - Montchanin TGV",
    "Reims Champagne-Ardenne TGV": "Champagne-Ardenne TGV",
    "Besançon TGV": "Besançon Franche-Comté TGV",
    "macon tgv": "Mâcon Loché TGV",
    "Part-Dieu": "Lyon Part Dieu",
    "Lyon Part Dieu": "Lyon Part Dieu",
    "lyon part-dieu": "Lyon Part Dieu",
    "gare de la Part-Dieu": "Lyon Part Dieu",
    "gare de Lyon": "Paris Gare de Lyon",
    "Paris Gare de Lyon": "Paris Gare de Lyon",
    "Montparnasse": "Paris Montparnasse",
    "gare Montparnasse": "Paris Montparnasse",
    "St Lazare": "Paris Saint-Lazare",
    "Paris-St-Lazare": "Paris Saint-Lazare",
    "gare Saint-Charles": "Marseille Saint-Charles",
    "Marseille St Charles": "Marseille Saint-Charles",
    "Roissy CDG": "Aéroport Charles de Gaulle 2 TGV",
    "Aix TGV": "Aix-en-Provence TGV",
    "gare d'Avignon TGV": "Avignon TGV",
    "Massy TGV": "Massy TGV",
    "Lille-Europe": "Lille Europe",
    "Matabiau": "Toulouse Matabiau",
    "Paris Gare de l'Est": "Paris Est",
    "Marne-la-Vallée": "Marne-la-Vallée Chessy",
}
STATIONS_FILE = Path(__file__).resolve().parents[2] / "spacy_seqkit" / "travel" / "places" / "data" / "stations.tsv.gz"


def sncf_station_names() -> set:
    """SNCF's traveller names, read from the shipped data file (not through the code)."""
    with gzip.open(STATIONS_FILE, "rt", encoding="utf8") as f:
        return {row["name"] for row in csv.DictReader(f, delimiter="\t")}


def _words(name: str) -> frozenset:
    """The words of a name, lowercase, without accents, "St" written out."""
    import unicodedata

    bare = unicodedata.normalize("NFKD", name.casefold()).encode("ascii", "ignore").decode()
    words = [w for w in "".join(c if c.isalnum() else " " for c in bare).split()]
    return frozenset({"st": "saint", "ste": "sainte"}.get(w, w) for w in words)


def sncf_station_words() -> list:
    """The words of each station's two SNCF names (traveller and network), read from the
    shipped data file: a station is answered by the name a request used for it ("Valence TGV",
    "Paris Nord"), made of these words."""
    with gzip.open(STATIONS_FILE, "rt", encoding="utf8") as f:
        return [_words(row["name"]) | _words(row["network_name"]) for row in csv.DictReader(f, delimiter="\t")]


def is_station_form(name: str, station_words: list) -> bool:
    """`name` is made of the words of one station's SNCF names ("gare de" aside: "Paris Gare de
    l'Est")."""
    words = _words(name) - {"gare", "de", "l"}
    return any(words <= each for each in station_words)
