"""The lookup index of French places: every normalised key people may type (official
names, names without their article, short forms, aliases, arrondissements, stations) → the
place it stands for. Shipped built (`data/index.pickle.gz`, written by
`scripts/build_gazetteer_index.py`) with a digest of what it was built from (the modules
that build it, the stations, the communes), so a process reads it in milliseconds; where the
digest no longer matches, or for another `min_population`, it is built (0.6 s)."""

import functools
import gzip
import hashlib
import pickle
import re
from pathlib import Path
from typing import AbstractSet, Dict, List, NamedTuple, Optional, Tuple

from ...util import collector_paused
from . import names as _names_module
from . import sncf as _sncf_module
from . import stations as _stations_module
from .communes import DATA, Commune, code_by_name, communes_by_code, current_commune, read_communes
from .names import ARTICLES, TYPE_WORDS, normalise
from .stations import StationData, read_station_data

INDEX_FILE = DATA / "index.pickle.gz"
# Typos are corrected towards towns of this size; smaller communes only for long names
# (_MIN_SMALL_FUZZY_LENGTH), since most short words are one edit away from some village.
_MIN_FUZZY_POPULATION = 5000
_MIN_SMALL_FUZZY_LENGTH = 9
# A town of this size wins over a village ten times smaller that matches a mention more
# literally ("clermont" is Clermont-Ferrand, "le puy" Le Puy-en-Velay).
_TOWN = 10000
# Places this big are typo targets of a mention that names a small village exactly.
BIG_PLACE = 20000
_MIN_SHORT_FORM_POPULATION = 8000
# A commune this small is not what a lowercase ordinary word means ("aube", "côte", "mer").
MIN_WORD_PLACE_POPULATION = 10000
# A commune this big is another place a key may name than the one it stands for: "boulogne"
# next to Étaples is Boulogne-sur-Mer (see `pipeline/homonyms.py`).
HOMONYM_POPULATION = 5000
# Abbreviations people type for a few big cities (SMS, forums), and the usual names of towns
# whose official name is longer.
CITY_ALIASES = {
    "bdx": "Bordeaux",
    "tlse": "Toulouse",
    "mtp": "Montpellier",
    "mrs": "Marseille",
    "Le Puy": "Le Puy-en-Velay",
    "Luchon": "Bagnères-de-Luchon",
    # Towns called by the first word of their name, a word of French as well: read only
    # as typed with a capital ("Salon", not "un salon": `lookup._lookup`).
    "Chalon": "Chalon-sur-Saône",
    "Châlons": "Châlons-en-Champagne",
    "Mantes": "Mantes-la-Jolie",
    "Salon": "Salon-de-Provence",
    "Romans": "Romans-sur-Isère",
    "Digne": "Digne-les-Bains",
    "Sablé": "Sablé-sur-Sarthe",
    "Joué": "Joué-lès-Tours",
}
# More abbreviations read in requests, which the corpus does not write (its requests stay those
# drawn with CITY_ALIASES alone).
READ_ALIASES = {
    "mpl": "Montpellier",
    "strasbg": "Strasbourg",
    "montpel": "Montpellier",
    "besac": "Besançon",
    "perpi": "Perpignan",
    "st naz": "Saint-Nazaire",
    "saint naz": "Saint-Nazaire",
    "tls": "Toulouse",
    "clermont fd": "Clermont-Ferrand",
    "clt fd": "Clermont-Ferrand",
    # The part of a compound name people say for the commune (facts of usage): its last part
    # ("Hossegor", "Tyrosse"), its first two ("Font-Romeu"), or a first word that `short_form`
    # keeps for towns only (three or four letters: "Boën", "Ygos", "Dol") or never (two: "Ax");
    # and shorthands ("la sout", "clfd").
    "hossegor": "Soorts-Hossegor",
    "tyrosse": "Saint-Vincent-de-Tyrosse",
    "font romeu": "Font-Romeu-Odeillo-Via",
    "boen": "Boën-sur-Lignon",
    "ygos": "Ygos-Saint-Saturnin",
    "dol": "Dol-de-Bretagne",
    "ax": "Ax-les-Thermes",
    "clfd": "Clermont-Ferrand",
    "villefranche": "Villefranche-sur-Saône",  # a generic head said for the one big town it names
    "la sout": "La Souterraine",
}


# The rank of a key that is the first two words of a station-served commune's longer name.
COMPOUND_HEAD = 5


class Entry(NamedTuple):
    name: str  # canonical name
    population: int
    rank: int  # 0 station alias, 1 name, 2 name without its article, 3 alias, 4 short form, 5 a compound's head
    current: bool = True  # a current commune (or a station), not a delegated one
    code: str = ""  # the commune's INSEE code ("" for a station: its name says which)


class NameIndex(NamedTuple):
    populations: Dict[str, int]  # canonical name → population (largest place of that name)
    stations: Dict[str, str]  # station name → its commune (stations with a name of their own)
    by_key: Dict[str, Entry]  # normalised key → best entry
    # Typo targets, each by first character (a typo is corrected to a key of its own):
    fuzzy_keys: Dict[str, List[str]]  # keys a typo may be corrected to
    station_keys: Dict[str, List[str]]  # station names and aliases
    big_keys: Dict[str, List[str]]  # names of towns of BIG_PLACE inhabitants or more
    # First word of a key → the most words of a key it starts, so that reading a text for
    # names tries only the runs some key could fill.
    head_words: Dict[str, int]
    # Key → the other current communes of HOMONYM_POPULATION or more it may name, biggest
    # first ("boulogne": Boulogne-sur-Mer beside Boulogne-Billancourt).
    homonyms: Dict[str, Tuple[Entry, ...]]


# First words of compound names that name nothing on their own ("Saint-Malo" is not "Saint").
_GENERIC_HEADS = {
    "saint",
    "sainte",
    "saints",
    "le",
    "la",
    "les",
    "l",
    "mont",
    "pont",
    "port",
    "val",
    "bois",
    "villeneuve",
    "villefranche",
    "neuville",
    "chateau",
    "bourg",
    "ile",
    "notre",
    "grand",
    "petit",
    "haute",
    "haut",
    "basse",
    "bas",
    "vieux",
    "vieille",
    "fort",
    "cap",
    "plan",
    "puy",
    "village",
    "maisons",
    "aux",
    "moulins",
    "rue",
    "parc",
}


def _without_articles(name: str) -> str:
    """`name` without the articles it opens with ("Le Touquet-Paris-Plage" → "Touquet-Paris-Plage")."""
    for article in ARTICLES:
        if name.startswith(article):
            name = name[len(article) :]
    return name


def short_form(name: str) -> Optional[str]:
    """ "Clermont" for Clermont-Ferrand, "Touquet" for Le Touquet-Paris-Plage, else None."""
    body = _without_articles(name)
    head = re.split(r"[- ]", body, maxsplit=1)[0]
    if head == body or len(head) < 3 or normalise(head) in _GENERIC_HEADS:
        return None
    return head


def compound_head(name: str) -> Optional[str]:
    """ "Saint-Dié" for Saint-Dié-des-Vosges, "Saint-Gervais" for Saint-Gervais-les-Bains: the
    first two words of a name of three or more whose first names nothing alone; else None."""
    parts = re.split(r"[- ]", _without_articles(name))
    if len(parts) < 3 or normalise(parts[0]) not in _GENERIC_HEADS or normalise(parts[1]) in _GENERIC_HEADS:
        return None
    return None if len(parts[1]) < 3 or "'" in parts[1] else f"{parts[0]}-{parts[1]}"


def _arrondissement_keys(name: str) -> List[str]:
    """ "Paris 15e Arrondissement" → "paris 15", "paris 15e", "paris 15eme"..."""
    match = re.match(r"^(Paris|Lyon|Marseille) (\d+)(?:er|e) Arrondissement$", name)
    if not match:
        return []
    city, n = match.group(1).lower(), match.group(2)
    return [f"{city} {n}{suffix}" for suffix in ("", "e", "eme", "er", "ieme", " arrondissement")]


@functools.lru_cache(maxsize=None)
def load_index(min_population: int) -> NameIndex:
    """The index of places of `min_population` inhabitants or more: the shipped one
    when it is current, else built."""
    if min_population == 0:
        shipped = read_shipped_index()
        if shipped is not None:
            return shipped
    return build_index(min_population)


def index_digest() -> str:
    """A digest of what the index is built from: this module, the names' rules, the
    stations and their forms, the communes, the words."""
    digest = hashlib.sha256()
    sources = (
        Path(__file__),
        Path(_names_module.__file__),
        Path(_stations_module.__file__),
        Path(_sncf_module.__file__),
        DATA / "communes.tsv.gz",
        DATA / "stations.tsv.gz",
        DATA / "french_words.txt.gz",
        DATA / "countries.txt",
    )
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()


class Shipped(NamedTuple):
    """What a process reads at its first answer, shipped built (`data/index.pickle.gz`)."""

    names: NameIndex  # every commune (min_population 0)
    stations: StationData  # `stations.read_station_data()`
    codes: Dict[str, str]  # `communes.code_by_name()`
    current: Dict[str, Commune]  # INSEE code → its current commune (`communes.current_commune`)


def read_shipped_index() -> Optional[NameIndex]:
    """The shipped index (every commune), or None when it is missing or was built from
    other code or data than this."""
    shipped = _read_shipped()
    return shipped.names if shipped is not None else None


@functools.lru_cache(maxsize=1)
def shipped_data() -> Shipped:
    """The stations and communes as the lookups need them: shipped with the index, so the
    first answer does not wait for them (1 s), else built."""
    return _read_shipped() or _build_shipped(load_index(0))


def _build_shipped(index: NameIndex) -> Shipped:
    current = {code: current_commune(code) for code in communes_by_code()}
    return Shipped(index, read_station_data(), code_by_name(), {k: c for k, c in current.items() if c is not None})


@functools.lru_cache(maxsize=1)
def _read_shipped() -> Optional[Shipped]:
    # Without the cyclic garbage collector while the 200,000 objects are made: in a process that
    # holds a pipeline, its passes over the whole heap took half of the 0.27 s this read took
    # there (0.11 s without them); the index holds no cycle.
    try:
        with collector_paused(), gzip.open(INDEX_FILE, "rb") as f:
            digest, shipped = pickle.load(f)
    except (OSError, EOFError, ValueError, pickle.UnpicklingError, AttributeError, TypeError):
        return None
    return shipped if digest == index_digest() and isinstance(shipped, Shipped) else None


def write_index(path: Path = INDEX_FILE) -> Path:
    """Build the index of every commune and write it, with the station and commune data
    and the digest of what they were built from, to `path`."""
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same bytes for the same index
        pickle.dump((index_digest(), _build_shipped(build_index(0))), f, protocol=4)
    return path


def build_index(min_population: int) -> NameIndex:
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
    data = read_station_data()
    # The communes a station serves: a short form names them before a namesake that has none.
    served = {home.code for home in data.commune.values() if home is not None}
    for commune in places:
        name, pop, current = commune.name, populations[commune.name], commune.kind == "C"
        code = commune.code
        add(normalise(name), Entry(name, pop, 1, current, code))
        for article in ARTICLES:
            if name.startswith(article):
                add(normalise(name[len(article) :]), Entry(name, pop, 2, current, code))
        head = short_form(name)
        # "Florac" for Florac Trois Rivières; heads of three or four letters only for towns
        # ("Aix"), not for every "Bar-sur-..." village.
        if head and (len(head) >= 5 or pop >= (_MIN_SHORT_FORM_POPULATION if len(head) > 3 else BIG_PLACE)):
            add(normalise(head), Entry(name, pop, 4, current, code))
            lead = next((a for a in ARTICLES if name.startswith(a)), None)
            if lead:  # "la baule" for La Baule-Escoublac, "les sables" for Les Sables-d'Olonne
                add(normalise(lead + head), Entry(name, pop, 4, current, code))
        compound = compound_head(name) if code in served else None
        if compound:  # "st die" for Saint-Dié-des-Vosges, "saint maixent" for Saint-Maixent-l'École
            add(normalise(compound), Entry(name, pop, COMPOUND_HEAD, current, code))
    for commune in read_communes():  # "Paris 15e" is Paris
        city = by_code.get(commune.parent)
        if commune.kind == "R" and city is not None and city.name in populations:
            for key in _arrondissement_keys(commune.name):
                add(key, Entry(city.name, populations[city.name], 3, True, city.code))
    for alias, name in {**CITY_ALIASES, **READ_ALIASES}.items():
        if name in populations:
            code = max((c for c in by_code.values() if c.name == name), key=lambda c: c.population).code
            add(normalise(alias), Entry(name, populations[name], 3, True, code))
    stations: Dict[str, str] = {}
    for key, station in data.by_key.items():
        home = data.commune.get(station.name)
        stations[station.name] = home.name if home else ""
        add(key, Entry(station.name, populations.get(home.name, 0) if home else 0, 0))
    sizes = {code: c.population for code, c in by_code.items()}
    by_key = {k: _best(v, sizes, served) for k, v in candidates.items()}
    fuzzy_keys = sorted(
        k
        for k, e in by_key.items()
        # Short forms are no typo targets: "classe" is not "Chasse(-sur-Rhône)" mistyped.
        if k not in TYPE_WORDS
        and (
            e.rank == 0 or (e.rank < 4 and (e.population >= _MIN_FUZZY_POPULATION or len(k) >= _MIN_SMALL_FUZZY_LENGTH))
        )
    )
    big_keys = sorted(k for k, e in by_key.items() if e.rank in (1, 2) and e.population >= BIG_PLACE)
    station_keys = sorted(k for k, e in by_key.items() if e.rank == 0)
    head_words: Dict[str, int] = {}
    for key in by_key:
        words = key.split()
        head_words[words[0]] = max(len(words), head_words.get(words[0], 0))
    fuzzy, by_station, big = (_by_initial(keys) for keys in (fuzzy_keys, station_keys, big_keys))
    homonyms = {k: others for k, v in candidates.items() if (others := _homonyms(by_key[k], v, sizes, served))}
    return NameIndex(populations, stations, by_key, fuzzy, by_station, big, head_words, homonyms)


def _homonyms(
    best: Entry, entries: List[Entry], sizes: Dict[str, int], served: AbstractSet[str] = frozenset()
) -> Tuple[Entry, ...]:
    """The current communes of HOMONYM_POPULATION or more a key names besides `best`, and at
    least a tenth of its size (as `_best` lets a ten times bigger town take a key: "clermont"
    beside Béziers stays Clermont-Ferrand), biggest first (each by its own population,
    `sizes`: INSEE code → inhabitants); where `best` is smaller, or a short form's no station serves,
    any a station serves (`served`: INSEE codes): "avesnes" by Maubeuge, "noyelles" by Rue."""
    own = sizes.get(best.code, best.population)
    small = own < HOMONYM_POPULATION or (best.rank >= 4 and best.code not in served)
    least = max(HOMONYM_POPULATION, own // 10)
    seen = {(best.name, best.code)}
    others = []
    for e in sorted(entries, key=lambda e: (-sizes.get(e.code, 0), e.name, e.code)):
        big = sizes.get(e.code, 0) >= least or (small and e.code in served)
        if 0 < e.rank < COMPOUND_HEAD and e.current and big and (e.name, e.code) not in seen:
            seen.add((e.name, e.code))
            others.append(e)
    return tuple(others)


def _by_initial(keys: List[str]) -> Dict[str, List[str]]:
    """The keys grouped by first character, in their order."""
    groups: Dict[str, List[str]] = {}
    for key in keys:
        groups.setdefault(key[:1], []).append(key)
    return groups


def _best(entries: List[Entry], sizes: Dict[str, int], served: AbstractSet[str] = frozenset()) -> Entry:
    """The entry a key stands for: a station; else a real name, unless an alias or short form
    names a town (_TOWN) ten times bigger ("clermont" is Clermont-Ferrand, not Clermont in the
    Oise; a delegated commune by its own inhabitants beside current towns: "tremblay" is
    Tremblay-en-France); among equals the most populous, and of two communes of one name the
    bigger by its own population (`sizes`: INSEE code → inhabitants; "valence": the Drôme's)."""
    best = min(entries, key=lambda e: (e.rank, -e.population, not e.current, e.name, -sizes.get(e.code, 0)))
    if best.rank in (1, 2):
        own = best.population if best.current else sizes.get(best.code, 0)
        bigger = [e for e in entries if e.population >= max(10 * own, _TOWN) and (best.current or e.current)]
        if bigger:
            return min(bigger, key=lambda e: (-e.population, not e.current, e.name, e.rank, -sizes.get(e.code, 0)))
        # The one bigger commune a station serves whose name the key begins, over namesakes no
        # station serves ("saint gervais": Saint-Gervais-les-Bains, not Saint-Gervais in Vendée).
        if not any(e.code in served for e in entries if e.rank in (1, 2)):
            station_towns = {e.code: e for e in entries if e.rank == COMPOUND_HEAD}
            if len(station_towns) == 1:
                town = next(iter(station_towns.values()))
                if town.population > best.population:
                    return town
    return best
