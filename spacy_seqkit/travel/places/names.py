"""How place names are compared: `normalise` (case, accents, hyphens, punctuation and
"st" aside), the words that say what kind of place follows ("gare de", "centre-ville"),
foreign places, and how many typos a mention of a given length may carry."""

import gzip
import re
import unicodedata
from pathlib import Path
from typing import FrozenSet

ARTICLES = ("Le ", "La ", "Les ", "L'")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# Abbreviations people type in place names, expanded before lookup.
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "sts": "saints", "stes": "saintes", "mt": "mont"}
# Fuzzy matching: how many edits a mention of a given normalised length may carry.
_MIN_FUZZY_LENGTH = 5
# Words that say what kind of place follows, never a place on their own: "la gare de X",
# "l'aéroport de X", "le centre-ville de X" are X.
TYPE_WORDS = frozenset(
    {
        "gare",
        "gares",
        "gare sncf",
        "gare routiere",
        "aeroport",
        "aerogare",
        "terminal",
        "centre",
        "centre ville",
        "hypercentre",
        "ville",
        "cite",
        "port",
        "quartier",
        "village",
        "bourg",
        "commune",
        "station",
        "halte",
        "quai",
        "voie",
        "hall",
        "capitale",
        "metropole",
        "agglomeration",
        "region",
        "departement",
        "banlieue",
        "faubourg",
        "hopital",
        "universite",
        "campus",
    }
)
TYPE_PREFIX = re.compile(
    r"^(?:(?:la |le |l |les )?(?:petite |grande |belle |jolie |charmante |magnifique |vieille )?"
    r"(?:gare(?: sncf| routiere| tgv)?|aeroport|aerogare|centre(?: ville)?|hypercentre|ville|cite|port|"
    r"quartier|village|bourg|commune|station|capitale|metropole|agglomeration|banlieue)"
    r"(?: (?:medievale|historique|royale|imperiale|fortifiee|natale|voisine))? (?:de |d |du |des ))+"
)
ARTICLE = re.compile(r"^(?:la|le|les|l) ")
TYPE_SUFFIX = re.compile(r" (?:gare(?: sncf| centrale)?|centre(?: ville)?|ville|tgv|sncf)$")
TRAILING_DEPARTEMENT = re.compile(r"(?: \d{1,3}| \([^)]*\))+$")
# Foreign cities people travel to from France (French exonyms): never a French place, so
# never kept as typed. Names that are also French towns ("Vienne") are left out; a village named
# as one ("Fribourg", Moselle) gives way to it (`lookup.FOREIGN_NAMESAKE_POPULATION`).
_FOREIGN_CITIES = frozenset(
    {
        "londres",
        "bruxelles",
        "geneve",
        "lausanne",
        "bale",
        "berne",
        "zurich",
        "lugano",
        "martigny",
        "neuchatel",
        "luxembourg",
        "monaco",
        "monte carlo",
        "barcelone",
        "madrid",
        "seville",
        "bilbao",
        "saint sebastien",
        "gerone",
        "valence espagne",
        "milan",
        "turin",
        "rome",
        "venise",
        "florence",
        "genes",
        "naples",
        "vintimille",
        "amsterdam",
        "rotterdam",
        "la haye",
        "anvers",
        "liege",
        "namur",
        "charleroi",
        "bruges",
        "gand",
        "mons",
        "francfort",
        "cologne",
        "berlin",
        "munich",
        "stuttgart",
        "fribourg",
        "karlsruhe",
        "sarrebruck",
        "mannheim",
        "dusseldorf",
        "hambourg",
        "lisbonne",
        "porto",
        "andorre",
        "dublin",
        "edimbourg",
        "manchester",
        "prague",
        "vienne autriche",
        "varsovie",
        "budapest",
        "montreal",
        "quebec",
        "new york",
        "europe",
    }
)


def read_countries() -> FrozenSet[str]:
    """The countries of `data/countries.txt`, normalised ("etats unis")."""
    lines = (Path(__file__).parent / "data" / "countries.txt").read_text(encoding="utf8").splitlines()
    return frozenset(normalise(line) for line in lines if line and not line.startswith("#"))


def normalise(text: str) -> str:
    """Lowercase, strip accents, hyphens and punctuation, expand "st" → "saint"."""
    text = text.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("Æ", "Ae")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    words = _NON_ALNUM.sub(" ", text).split()
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


# Countries and foreign cities: never a French place.
COUNTRIES = read_countries()
FOREIGN_PLACES = _FOREIGN_CITIES | COUNTRIES


def max_edits(length: int) -> int:
    """Edits tolerated by the fuzzy match for a normalised mention of `length` characters."""
    if length < _MIN_FUZZY_LENGTH:
        return 0
    return 1 if length <= 9 else 2


def read_words(path: Path) -> FrozenSet[str]:
    """A gzipped word list, one normalised word per line."""
    return frozenset(gzip.decompress(path.read_bytes()).decode("utf8").split("\n")) - {""}
