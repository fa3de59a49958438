"""French places: every commune of INSEE's official list and the main railway stations,
with name resolution for what people type.

The communes (current, delegated and associated communes, and the arrondissements of Paris,
Lyon and Marseille) come from `data/communes.tsv.gz`, built by
`scripts/build_gazetteer_data.py` from INSEE's Code officiel géographique (see
`data/README.md`). Canonical names are the official ones ("Dunkerque",
"Cherbourg-en-Cotentin", "Saint-Étienne"). The lookup index of all communes is shipped
built (`data/index.pickle.gz`, written by `scripts/build_gazetteer_index.py`), so a process
reads it in milliseconds the first time a `Gazetteer` is asked something instead of
building it (0.6 s); it carries a digest of what it was built from (this module, the
stations, the communes), and where that no longer matches, or for another
`min_population`, the index is built as before.
"""
import csv
import functools
import gzip
import hashlib
import pickle
import re
import unicodedata
from pathlib import Path
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Tuple

from . import stations as _stations_module
from .stations import STATIONS

DATA = Path(__file__).resolve().parent / "data"
INDEX_FILE = DATA / "index.pickle.gz"
ARTICLES = ("Le ", "La ", "Les ", "L'")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# Abbreviations people type in place names, expanded before lookup.
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "sts": "saints", "stes": "saintes", "mt": "mont"}
# Fuzzy matching: how many edits a mention of a given normalised length may carry.
_MIN_FUZZY_LENGTH = 5
# Typos are corrected towards towns of this size; smaller communes only for long names
# (_MIN_SMALL_FUZZY_LENGTH), since most short words are one edit away from some village.
_MIN_FUZZY_POPULATION = 5000
_MIN_SMALL_FUZZY_LENGTH = 9
# A town of this size wins over a village ten times smaller that matches a mention more
# literally ("clermont" is Clermont-Ferrand, "le puy" Le Puy-en-Velay).
_TOWN = 10000
# Places this big are typo targets of a mention that names a small village exactly.
_BIG_PLACE = 20000
_MIN_SHORT_FORM_POPULATION = 8000
# A commune this small is not what a lowercase ordinary word means ("aube", "côte", "mer").
_MIN_WORD_PLACE_POPULATION = 10000
# Abbreviations people type for a few big cities (SMS, forums), and the usual names of towns
# whose official name is longer.
CITY_ALIASES = {
    "bdx": "Bordeaux", "tlse": "Toulouse", "mtp": "Montpellier", "mrs": "Marseille",
    "Le Puy": "Le Puy-en-Velay", "Luchon": "Bagnères-de-Luchon",
}
# Words that say what kind of place follows, never a place on their own: "la gare de X",
# "l'aéroport de X", "le centre-ville de X" are X.
TYPE_WORDS = frozenset({
    "gare", "gares", "gare sncf", "gare routiere", "aeroport", "aerogare", "terminal", "centre",
    "centre ville", "hypercentre", "ville", "cite", "port", "quartier", "village", "bourg",
    "commune", "station", "halte", "quai", "voie", "hall", "capitale", "metropole", "agglomeration",
    "region", "departement", "banlieue", "faubourg", "hopital", "universite", "campus",
})
_TYPE_PREFIX = re.compile(
    r"^(?:(?:la |le |l |les )?(?:petite |grande |belle |jolie |charmante |magnifique |vieille )?"
    r"(?:gare(?: sncf| routiere| tgv)?|aeroport|aerogare|centre(?: ville)?|hypercentre|ville|cite|port|"
    r"quartier|village|bourg|commune|station|capitale|metropole|agglomeration|banlieue)"
    r"(?: (?:medievale|historique|royale|imperiale|fortifiee|natale|voisine))? (?:de |d |du |des ))+"
)
_ARTICLE = re.compile(r"^(?:la|le|les|l) ")
_TYPE_SUFFIX = re.compile(r" (?:gare(?: sncf)?|centre(?: ville)?|ville|tgv|sncf)$")
_TRAILING_DEPARTEMENT = re.compile(r"(?: \d{1,3}| \([^)]*\))+$")
# Foreign places people travel to from France (French exonyms): never a French place, so
# never kept as typed. Names that are also French communes ("Vienne") are left out.
FOREIGN_PLACES = frozenset({
    "londres", "bruxelles", "geneve", "lausanne", "bale", "berne", "zurich", "lugano", "neuchatel",
    "luxembourg", "monaco", "monte carlo", "barcelone", "madrid", "seville", "bilbao", "saint sebastien",
    "gerone", "valence espagne", "milan", "turin", "rome", "venise", "florence", "genes", "naples",
    "vintimille", "amsterdam", "rotterdam", "la haye", "anvers", "liege", "namur", "charleroi",
    "bruges", "gand", "mons", "francfort", "cologne", "berlin", "munich", "stuttgart", "fribourg",
    "karlsruhe", "sarrebruck", "mannheim", "dusseldorf", "hambourg", "lisbonne", "porto", "andorre",
    "dublin", "edimbourg", "manchester", "prague", "vienne autriche", "varsovie", "budapest",
    "montreal", "quebec", "new york", "espagne", "italie", "suisse", "belgique", "allemagne",
    "angleterre", "royaume uni", "irlande", "portugal", "pays bas", "autriche", "canada", "maroc",
    "tunisie", "algerie", "europe",
})


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


class Commune(NamedTuple):
    code: str  # INSEE code
    name: str  # official name
    kind: str  # C current commune, D delegated, A associated, R municipal arrondissement
    departement: str
    population: int  # 0 where INSEE gives none (delegated and associated communes)
    parent: str  # INSEE code of the commune a D, A or R belongs to, else ""


class Entry(NamedTuple):
    name: str  # canonical name
    population: int
    rank: int  # 0 station alias, 1 name, 2 name without its article, 3 alias, 4 short form
    current: bool = True  # a current commune (or a station), not a delegated one


class _Index(NamedTuple):
    populations: Dict[str, int]  # canonical name → population (largest place of that name)
    stations: Dict[str, str]  # station name → commune
    by_key: Dict[str, Entry]  # normalised key → best entry
    # Typo targets, each by first character (a typo is corrected to a key of its own):
    fuzzy_keys: Dict[str, List[str]]  # keys a typo may be corrected to
    station_keys: Dict[str, List[str]]  # station names and aliases
    big_keys: Dict[str, List[str]]  # names of towns of _BIG_PLACE inhabitants or more


@functools.lru_cache(maxsize=1)
def read_communes() -> Tuple[Commune, ...]:
    """The communes of `data/communes.tsv.gz` (metropolitan France)."""
    with gzip.open(DATA / "communes.tsv.gz", "rt", encoding="utf8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return tuple(
            Commune(r["code"], r["name"], r["kind"], r["departement"], int(r["population"] or 0), r["parent"])
            for r in rows
        )


@functools.lru_cache(maxsize=1)
def read_departements() -> Dict[str, str]:
    """Département code → official name (`data/departements.tsv.gz`)."""
    with gzip.open(DATA / "departements.tsv.gz", "rt", encoding="utf8") as f:
        return {r["code"]: r["name"] for r in csv.DictReader(f, delimiter="\t")}


# First words of compound names that name nothing on their own ("Saint-Malo" is not "Saint").
_GENERIC_HEADS = {
    "saint", "sainte", "saints", "le", "la", "les", "l", "mont", "pont", "port", "val", "bois",
    "villeneuve", "villefranche", "neuville", "chateau", "bourg", "ile", "notre", "grand",
    "petit", "haute", "haut", "basse", "bas", "vieux", "vieille", "fort", "cap", "plan", "puy",
    "village", "maisons", "aux", "moulins", "rue", "parc",
}


def _short_form(name: str) -> Optional[str]:
    """ "Clermont" for Clermont-Ferrand, "Touquet" for Le Touquet-Paris-Plage, else None."""
    body = name
    for article in ARTICLES:
        if body.startswith(article):
            body = body[len(article):]
    head = re.split(r"[- ]", body, maxsplit=1)[0]
    if head == body or len(head) < 3 or normalise(head) in _GENERIC_HEADS:
        return None
    return head


def _arrondissement_keys(name: str) -> List[str]:
    """ "Paris 15e Arrondissement" → "paris 15", "paris 15e", "paris 15eme"..."""
    match = re.match(r"^(Paris|Lyon|Marseille) (\d+)(?:er|e) Arrondissement$", name)
    if not match:
        return []
    city, n = match.group(1).lower(), match.group(2)
    return [f"{city} {n}{suffix}" for suffix in ("", "e", "eme", "er", "ieme", " arrondissement")]


@functools.lru_cache(maxsize=None)
def _load_index(min_population: int) -> _Index:
    """The index of places of `min_population` inhabitants or more: the shipped one
    when it is current, else built."""
    if min_population == 0:
        shipped = read_shipped_index()
        if shipped is not None:
            return shipped
    return build_index(min_population)


def index_digest() -> str:
    """A digest of what the index is built from: this module, the stations, the communes."""
    digest = hashlib.sha256()
    for path in (Path(__file__), Path(_stations_module.__file__), DATA / "communes.tsv.gz"):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def read_shipped_index() -> Optional[_Index]:
    """The shipped index (every commune), or None when it is missing or was built from
    other code or data than this."""
    try:
        with gzip.open(INDEX_FILE, "rb") as f:
            digest, index = pickle.load(f)
    except (OSError, EOFError, ValueError, pickle.UnpicklingError, AttributeError, TypeError):
        return None
    return index if digest == index_digest() and isinstance(index, _Index) else None


def write_index(path: Path = INDEX_FILE) -> Path:
    """Build the index of every commune and write it, with its digest, to `path`."""
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same bytes for the same index
        pickle.dump((index_digest(), build_index(0)), f, protocol=4)
    return path


def build_index(min_population: int) -> _Index:
    populations: Dict[str, int] = {}
    candidates: Dict[str, List[Entry]] = {}
    by_code = {c.code: c for c in read_communes() if c.kind == "C"}

    def add(key: str, entry: Entry) -> None:
        if key:
            candidates.setdefault(key, []).append(entry)

    # A delegated or associated commune has no population of its own: it counts with the
    # commune it belongs to ("Vire" with Vire Normandie).
    def size(commune: Commune) -> int:
        parent = by_code.get(commune.parent) if commune.kind in "DA" else None
        return parent.population if parent is not None else commune.population

    places = [c for c in read_communes() if c.kind != "R" and size(c) >= min_population]
    # The population of a name: its largest current commune's, else the largest size.
    for commune in sorted(places, key=lambda c: c.kind != "C"):
        if commune.kind == "C" or commune.name not in populations:
            populations[commune.name] = max(size(commune), populations.get(commune.name, 0))
    for commune in places:
        name, pop, current = commune.name, populations[commune.name], commune.kind == "C"
        add(normalise(name), Entry(name, pop, 1, current))
        for article in ARTICLES:
            if name.startswith(article):
                add(normalise(name[len(article):]), Entry(name, pop, 2, current))
        head = _short_form(name)
        # "Florac" for Florac Trois Rivières; heads of three or four letters only for towns
        # ("Aix"), not for every "Bar-sur-..." village.
        if head and (len(head) >= 5 or pop >= (_MIN_SHORT_FORM_POPULATION if len(head) > 3 else _BIG_PLACE)):
            add(normalise(head), Entry(name, pop, 4, current))
            article = next((a for a in ARTICLES if name.startswith(a)), None)
            if article:  # "la baule" for La Baule-Escoublac, "les sables" for Les Sables-d'Olonne
                add(normalise(article + head), Entry(name, pop, 4, current))
    for commune in read_communes():  # "Paris 15e" is Paris
        city = by_code.get(commune.parent)
        if commune.kind == "R" and city is not None and city.name in populations:
            for key in _arrondissement_keys(commune.name):
                add(key, Entry(city.name, populations[city.name], 3))
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
        if k not in TYPE_WORDS and (
            e.rank == 0
            or (e.rank < 4 and (e.population >= _MIN_FUZZY_POPULATION or len(k) >= _MIN_SMALL_FUZZY_LENGTH))
        )
    )
    big_keys = sorted(k for k, e in by_key.items() if e.rank in (1, 2) and e.population >= _BIG_PLACE)
    station_keys = sorted(k for k, e in by_key.items() if e.rank == 0)
    return _Index(populations, stations, by_key, *map(_by_initial, (fuzzy_keys, station_keys, big_keys)))


def _by_initial(keys: List[str]) -> Dict[str, List[str]]:
    """The keys grouped by first character, in their order."""
    groups: Dict[str, List[str]] = {}
    for key in keys:
        groups.setdefault(key[:1], []).append(key)
    return groups


def _best(entries: List[Entry]) -> Entry:
    """The entry a key stands for: a station; else a real name, unless an alias or short
    form names a town (_TOWN) ten times bigger ("clermont" is Clermont-Ferrand, not Clermont
    in the Oise); among equals the most populous."""
    best = min(entries, key=lambda e: (e.rank, -e.population, not e.current, e.name))
    if best.rank in (1, 2):
        bigger = [e for e in entries if e.population >= max(10 * best.population, _TOWN)]
        if bigger:
            return min(bigger, key=lambda e: (-e.population, not e.current, e.name))
    return best


class Gazetteer:
    """The communes of metropolitan France with at least `min_population` inhabitants (0:
    all of them; delegated and associated communes count with the commune they belong to),
    and the main railway stations.

    `ordinary_words`: words, normalised (`normalise`), that typo correction must leave
    alone ("demain" is not a typo of Denain); exact place names are matched before they
    are asked, so a place named like a word ("Tours") still resolves. `common_words`:
    the everyday words of requests ("mer", "vers", "bus"), never marked as names by
    `name_spans` unless they name a town.
    """

    def __init__(
        self,
        min_population: int = 0,
        ordinary_words: FrozenSet[str] = frozenset(),
        common_words: FrozenSet[str] = frozenset(),
    ) -> None:
        if isinstance(min_population, bool) or not isinstance(min_population, int) or min_population < 0:
            raise ValueError(f"'min_population' must be an integer >= 0, got {min_population!r}")
        self.min_population = min_population
        self.ordinary_words = frozenset(ordinary_words)
        self.common_words = frozenset(common_words)

    @property
    def _index(self) -> _Index:
        return _load_index(self.min_population)

    def canonical_names(self) -> List[str]:
        """Every canonical name: places (one per distinct name) and stations, sorted."""
        return sorted(set(self._index.populations) | set(self._index.stations))

    def place_names(self) -> List[str]:
        """Distinct commune names (no stations), sorted."""
        return sorted(self._index.populations)

    def station_names(self) -> List[str]:
        return sorted(self._index.stations)

    def is_station(self, name: str) -> bool:
        return name in self._index.stations

    def stations_of(self, name: str) -> List[str]:
        """The stations serving the commune `name` ("Lyon" → Lyon Part-Dieu, Lyon Perrache...)."""
        return sorted(s for s, city in self._index.stations.items() if city == name)

    def departement_of(self, name: str) -> Optional[Tuple[str, str]]:
        """(code, name) of the département of the largest commune called `name`, else None."""
        communes = [c for c in read_communes() if c.name == name and c.kind != "R"]
        if not communes:
            return None
        code = max(communes, key=lambda c: (c.kind == "C", c.population)).departement
        return code, read_departements()[code]

    def typed_forms(self, name: str) -> List[str]:
        """Other ways people write `name` that resolve back to it: short forms ("Clermont"
        for Clermont-Ferrand, "Cherbourg" for Cherbourg-en-Cotentin) and abbreviations ("bdx")."""
        forms = [alias for alias, target in CITY_ALIASES.items() if target == name]
        head = _short_form(name)
        if head:
            forms.append(head)
        return [f for f in forms if self.resolve(f) == name]

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

    def name_spans(self, words: List[str], max_words: int = 8) -> List[Tuple[int, int]]:
        """(start, end) of the runs of `words` that spell a place name exactly (case,
        accents and hyphens aside), longest first, left to right: "de port vendres a
        cerbere" → [(1, 3), (4, 5)]. No typo correction, so it stays cheap. A run that is
        a common word counts only for a town of _MIN_WORD_PLACE_POPULATION ("tours",
        "orange", not "mer" or "vers"); type words never."""
        index = self._index
        keys = [normalise(w) for w in words]
        spans, start = [], 0
        while start < len(words):
            for end in range(min(len(words), start + max_words), start, -1):
                if not keys[start] or not keys[end - 1]:
                    continue
                key = " ".join(k for k in keys[start:end] if k)
                entry = index.by_key.get(key)
                if entry is None or _ARTICLE.sub("", key) in TYPE_WORDS:
                    continue
                if key in self.common_words and entry.rank > 0 and entry.population < _MIN_WORD_PLACE_POPULATION:
                    continue
                spans.append((start, end))
                start = end
                break
            else:
                start += 1
        return spans

    def is_excluded(self, text: str) -> bool:
        """Known not to be a place of this gazetteer: a type word ("gare"), a foreign place
        ("Londres"), an ordinary word. The trip component never keeps such a mention."""
        key = normalise(text)
        return not key or _ARTICLE.sub("", key) in TYPE_WORDS or key in FOREIGN_PLACES or (
            key in self.ordinary_words and self.resolve(text) is None
        )

    def resolve(self, text: str) -> Optional[str]:
        """The canonical name for a mention, or None when nothing matches well enough.

        A station's name or alias; else, after setting aside what says the kind of place
        ("la gare de Tours", "centre-ville de Lyon", "Tours centre") and a département
        after the name ("Saint-Denis (93)"), the commune of that name, case-, accent- and
        hyphen-insensitive ("st etienne" → Saint-Étienne), or of its short form ("Clermont");
        else a fuzzy match tolerating typos (Damerau-Levenshtein, same first letter), never
        for a type word, a foreign place or an ordinary word.
        """
        if not isinstance(text, str):
            raise TypeError(f"resolve() expects a str, got {type(text).__name__}")
        return _resolve_cached(self.min_population, self.ordinary_words, text.strip())


@functools.lru_cache(maxsize=65536)
def _resolve_cached(min_population: int, ordinary_words: FrozenSet[str], text: str) -> Optional[str]:
    # Module-level, so that every gazetteer of the same settings shares the cache.
    index = _load_index(min_population)
    if not text or text in index.stations:
        return text or None
    key = normalise(text)
    entry = index.by_key.get(key)
    # An exact commune name is itself, unless a station alias ("Saint-Charles") or a much
    # bigger town's short form ("Clermont") has its key.
    if text in index.populations and key not in TYPE_WORDS and (entry is None or entry.rank in (1, 2)):
        return text
    lowercase = text == text.lower()
    for candidate in _candidate_keys(key):
        found = _lookup(candidate, index, ordinary_words, lowercase)
        if found is not None:
            return found
    return None


def _candidate_keys(key: str) -> List[str]:
    """The key as typed, then without its type words ("gare de", "centre") and without a
    département after it, then without a leading article ("les sables" → "sables", the
    short form of Les Sables-d'Olonne): most literal first."""
    keys = [key]
    stripped = _TRAILING_DEPARTEMENT.sub("", key)
    stripped = _TYPE_SUFFIX.sub("", _TYPE_PREFIX.sub("", stripped))
    for candidate in (stripped, _ARTICLE.sub("", stripped)):
        if candidate and candidate not in keys:
            keys.append(candidate)
    return keys


def _lookup(key: str, index: _Index, ordinary_words: FrozenSet[str], lowercase: bool) -> Optional[str]:
    if _ARTICLE.sub("", key) in TYPE_WORDS or key in FOREIGN_PLACES:
        return None
    is_word = key in ordinary_words
    entry = index.by_key.get(key)
    if entry is not None:
        small = entry.rank > 0 and entry.population < 2000
        if is_word and entry.rank > 0 and (entry.rank == 4 or (lowercase and entry.population < _MIN_WORD_PLACE_POPULATION)):
            # "côte" is not La Côte, nor "roche" La Roche-sur-Yon, nor "aube" the village of
            # Aube; "fougere" may still be Fougères mistyped.
            return _fuzzy(key, index, index.big_keys, 1) if len(key) >= 6 else None
        if not small or len(key) < 6:
            return entry.name
        # "fougere" is more likely Fougères (24k) mistyped than Fougeré (900).
        return _fuzzy(key, index, index.big_keys, 1) or entry.name
    if is_word or all(w in ordinary_words for w in key.split()):
        # "demain" is not a typo of Denain, nor "guichet" of Guichen, nor "les châteaux"
        # of Les Champeaux; a station's name mistyped still is ("parsi gare de l'est").
        return _fuzzy(key, index, index.station_keys, max_edits(len(key))) if " " in key else None
    return _fuzzy(key, index, index.fuzzy_keys, max_edits(len(key)))


def _fuzzy(key: str, index: _Index, keys: Dict[str, List[str]], limit: int) -> Optional[str]:
    """The best key of `keys` (grouped by first character) within `limit`
    Damerau-Levenshtein edits of the same first letter, by distance, then entry rank,
    then population."""
    if limit == 0 or not key:
        return None
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    # A typo rarely hits the first letter; demanding it keeps ordinary words out, and
    # leaves a twentieth of the keys to compare.
    candidates = keys.get(key[0], [])
    matches = process.extract(key, candidates, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None)
    best: Optional[Tuple[int, int, int, str]] = None
    for candidate, distance, _ in matches:
        entry = index.by_key[candidate]
        rank = (distance, entry.rank, -entry.population, entry.name)
        if best is None or rank < best:
            best = rank
    return best[3] if best else None


def read_words(path: Path) -> FrozenSet[str]:
    """A gzipped word list, one normalised word per line."""
    return frozenset(gzip.decompress(path.read_bytes()).decode("utf8").split("\n")) - {""}


