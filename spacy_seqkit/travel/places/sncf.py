"""SNCF's passenger stations, and the names people type for them.

The stations come from `data/stations.tsv.gz`, built by `scripts/build_station_data.py`
from SNCF's open data (see `data/SNCF.md`). `station_forms` lists the spellings of one
station that name it and nothing else ("Part-Dieu", "Valence TGV", "Les Aubrais-Orléans");
`index_forms` settles the forms several stations claim. Forms are written as people write
them; the gazetteer normalises them (case, accents, hyphens, "St"), with its own function
passed as `normalise` where forms are compared. A few forms start with "Gare" ("Gare de
Lyon", "Gare du Nord", "Gare de l'Est"): they must be looked up whole, before "gare de" is
read as a mere type word (the gare de Lyon is in Paris).
"""

import csv
import functools
import gzip
import re
import unicodedata
from pathlib import Path
from typing import Callable, Collection, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

DATA_FILE = Path(__file__).resolve().parent / "data" / "stations.tsv.gz"
COLUMNS = ("uic", "uics", "name", "network_name", "code", "segment", "insee", "lon", "lat")
# A city this big has stations known by their own name ("Part-Dieu", "Montparnasse").
BIG_CITY_POPULATION = 100_000
# Words that name no station on their own: kinds of place, directions, regions, linking words.
# "Lille Europe" is no reason to read "Europe" as a station, nor "Évreux Normandie" "Normandie";
# with "TGV" they do ("Lorraine TGV", "TGV Haute-Picardie").
GENERIC_WORDS = frozenset(
    "ville centre halte plage port nord sud est ouest rive droite gauche haut haute bas basse "
    "aeroport village bourg bains tgv ter tram train rer zone industrielle europe france pays "
    "normandie bretagne picardie lorraine alsace champagne ardenne bourgogne auvergne provence savoie "
    "flandre flandres aquitaine occitanie anjou bearn sologne berry limousin rhone alpes loire "
    "hopital universite lycee college stade musee musees prefecture parc chateau foret porte pont "
    "mairie eglise quartier cite campus international tt le la les l de du des d et sur sous en lez "
    "aux au pres".split()
)
# A remainder starting with one of these belongs to the commune's name ("Angoulins sur Mer").
_LINKING_STARTS = frozenset("sur sous en les lez le la l de d du des aux au pres".split())
# "Paris Est" is "la gare de l'Est" to travellers.
_COMPASS_GARES = {"nord": "Gare du Nord", "est": "Gare de l'Est", "sud": "Gare du Sud", "ouest": "Gare de l'Ouest"}
# " - " joins the communes a station serves ("Le Creusot - Montceau-les-Mines - Montchanin TGV").
_PART_SEPARATOR = re.compile(r"\s+[-–]\s+")
# "Montceau-les-Mines" is "Montceau" inside a station's name.
_COMPOUND_TAIL = re.compile(r"-(?:les|lès|lez|sur|sous|en|aux)-.*$", re.IGNORECASE)
_ARRONDISSEMENT = re.compile(r" \d+(?:er|e) Arrondissement$")
_KEY_ARTICLE = re.compile(r"^(?:le|la|les|l) ")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "sts": "saints", "stes": "saintes"}
_SEGMENT_RANK = {"A": 0, "B": 1, "C": 2}
MIN_LETTERS = 4


class StationDataError(ValueError):
    """The stations file is missing or damaged."""


class Station(NamedTuple):
    uic: str  # first UIC code (8 digits)
    uics: Tuple[str, ...]  # all its UIC codes
    name: str  # SNCF's traveller name ("Les Aubrais")
    network_name: str  # SNCF's network name ("Les Aubrais-Orléans"), "" when none
    code: str  # SNCF's short code ("LAB")
    segment: str  # A national, B regional, C local; one letter a UIC code ("A;B")
    insee: str  # INSEE code of its commune
    lon: Optional[float]  # None where SNCF gives no position
    lat: Optional[float]


class Collision(NamedTuple):
    key: str  # the normalised form
    stations: Tuple[str, ...]  # names of the stations that claimed it
    kept: Optional[str]  # the station it was given to, None when dropped


class FormIndex(NamedTuple):
    stations_by_key: Dict[str, Tuple[Station, ...]]  # several only where SNCF names them alike
    collisions: List[Collision]


def fold(text: str) -> str:
    """Lowercase, no accents, punctuation as spaces, "st" → "saint": how forms are compared
    here when no `normalise` is given."""
    text = text.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("Æ", "Ae")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    return " ".join(_ABBREVIATIONS.get(w, w) for w in _NON_ALNUM.sub(" ", text).split())


def _float(text: str) -> Optional[float]:
    return float(text) if text else None


@functools.lru_cache(maxsize=None)
def read_stations(path: Union[str, Path] = DATA_FILE) -> Tuple[Station, ...]:
    """The stations of `path` (default: the shipped file), in UIC order.

    Raises StationDataError, naming the file, when it is missing or damaged.
    """
    path = Path(path)
    try:
        with gzip.open(path, "rt", encoding="utf8", newline="") as f:
            rows = list(csv.reader(f, delimiter="\t"))
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as error:
        raise StationDataError(f"cannot read the stations file {path}: {error}") from error
    if not rows or tuple(rows[0]) != COLUMNS:
        raise StationDataError(f"{path} is not a stations file: its header is {rows[:1]}, expected {list(COLUMNS)}")
    stations = []
    for line, row in enumerate(rows[1:], start=2):
        try:
            if len(row) != len(COLUMNS):
                raise ValueError(f"{len(row)} columns instead of {len(COLUMNS)}")
            uics = tuple(row[1].split(";"))
            if not all(len(u) == 8 and u.isdigit() for u in uics) or uics[0] != row[0] or not row[2]:
                raise ValueError(f"bad UIC codes or name: {row[:3]}")
            uic, _, name, network_name, code, segment, insee, lon, lat = row
            stations.append(Station(uic, uics, name, network_name, code, segment, insee, _float(lon), _float(lat)))
        except ValueError as error:
            raise StationDataError(f"{path}, line {line}: {error}") from error
    return tuple(stations)


def city_name(commune_name: Optional[str]) -> Optional[str]:
    """The city of a municipal arrondissement ("Lyon 3e Arrondissement" → "Lyon"), else the name."""
    return _ARRONDISSEMENT.sub("", commune_name) if commune_name else commune_name


def named_like_commune(station: Station, commune_name: Optional[str], normalise: Callable[[str], str] = fold) -> bool:
    """Whether the station bears its commune's name ("Tours" in Tours): that name then means both."""
    city = city_name(commune_name)
    return city is not None and normalise(station.name) == normalise(city)


def is_station_specific(
    form: str,
    commune_keys: Collection[str] = frozenset(),
    word_keys: Collection[str] = frozenset(),
    normalise: Callable[[str], str] = fold,
) -> bool:
    """Whether `form` can name a station and nothing else: at least 4 letters, not a
    commune's name, not an ordinary word, not only generic words ("Rive Droite", "Europe")
    unless with "TGV" ("Meuse TGV").

    commune_keys: normalised names of every commune; word_keys: normalised French words.
    """
    key = normalise(form)
    words = key.split()
    named = [w for w in words if w != "tgv"]
    return (
        sum(c.isalpha() for c in key) >= MIN_LETTERS
        and key not in commune_keys
        and key not in word_keys
        and bool(named)
        and (len(named) < len(words) or not all(w in GENERIC_WORDS for w in named))
    )


def _short_part(part: str) -> str:
    return _COMPOUND_TAIL.sub("", part)


def _tgv_forms(name: str) -> List[str]:
    """ "Valence TGV" and "TGV Valence" for "Valence TGV Rhône-Alpes Sud"; "Le Creusot TGV",
    "Montchanin TGV", "Le Creusot Montceau Montchanin TGV" for a station serving several towns."""
    words = name.split(" ")
    if "TGV" not in words:
        return []
    i = words.index("TGV")
    head, tail = " ".join(words[:i]), " ".join(words[i + 1 :])
    if not head:  # "TGV Haute-Picardie"
        return [f"{tail} TGV"]
    forms = [f"TGV {head}"] + ([f"{head} TGV"] if tail else [])
    parts = _PART_SEPARATOR.split(head)
    if len(parts) > 1:
        forms.append(" ".join(_short_part(p) for p in parts) + " TGV")
        forms.extend(f"{p} TGV" for part in parts for p in dict.fromkeys((part, _short_part(part))))
    return forms


# The tail of a compound commune name people drop: "Saint-Gervais" for Saint-Gervais-les-Bains.
_LINKING_ENDS = _LINKING_STARTS | {"lès", "et"}
_COMMUNE_TAIL = re.compile(r"^(.+?)-(?:les|lès|lez|sur|sous|en|de|du|des|la|le)-")


def _shortened_forms(
    name: str,
    parts: List[str],
    commune_name: Optional[str],
    word_keys: Collection[str],
    normalise: Callable[[str], str],
) -> List[str]:
    """What people leave out of a long name: its last towns ("Moûtiers - Salins" for
    Moûtiers - Salins - Brides-les-Bains), the commune after a place of its own ("Golfe Juan"
    for Golfe Juan Vallauris: with a word of its own that is no French word, not ending on a
    linking word, so not "Le Vieux" of Le Vieux Briollay), the tail of the commune's name
    ("Saint-Gervais Le Fayet" for Saint-Gervais-les-Bains Le Fayet)."""
    # Not for a TGV station: "Le Creusot - Montceau" is two towns, "Le Creusot TGV" the station.
    forms = [" - ".join(parts[:2])] if len(parts) > 2 and "TGV" not in name.split(" ") else []
    if commune_name and len(parts) == 1:
        if name.endswith(" " + commune_name) and name != commune_name:
            place = name[: -len(commune_name) - 1]
            words = normalise(place).split()
            if any(w not in word_keys and len(w) > 2 for w in words) and words[-1] not in _LINKING_ENDS:
                forms.append(place)
        short = _COMMUNE_TAIL.match(commune_name)
        if name.startswith(commune_name + " ") and short is not None and "-" in short.group(1):
            forms.append(short.group(1) + name[len(commune_name) :])
    return forms


def _city_forms(
    name: str, city: str, commune_keys: Collection[str], word_keys: Collection[str], normalise: Callable[[str], str]
) -> List[str]:
    """ "Part-Dieu" for "Lyon Part Dieu" (in Lyon), "Gare de l'Est" for "Paris Est"."""
    if not name.startswith(city + " ") or _PART_SEPARATOR.search(name):
        return []
    rest = name[len(city) + 1 :]
    key = normalise(rest)
    if key in _COMPASS_GARES:
        return [_COMPASS_GARES[key]]
    if not rest[:1].isalpha() or any(c.isdigit() for c in rest) or key.split(" ", 1)[0] in _LINKING_STARTS:
        return []
    return [rest] if is_station_specific(rest, commune_keys, word_keys, normalise) else []


def station_forms(
    station: Station,
    commune_name: Optional[str],
    *,
    commune_population: int = 0,
    commune_keys: Collection[str] = frozenset(),
    word_keys: Collection[str] = frozenset(),
    normalise: Callable[[str], str] = fold,
) -> List[str]:
    """The names people type for `station`, its traveller name first, one spelling a
    normalised key.

    Both SNCF names (and a network name's added town first: "Orléans Les Aubrais"); "TGV" first or last, with the towns of a multi-town name alone
    ("Montchanin TGV"); a multi-town name with its towns shortened ("Le Creusot Montceau
    Montchanin TGV"); and, for a national station or a regional one of a big city, the name
    without its city ("Part-Dieu", "Gare de Lyon"). A form other than the traveller name is kept
    only when `is_station_specific` and when it is no truncation of the commune's name
    ("Juvisy" for Juvisy-sur-Orge, "Fauga" for Le Fauga) nor of a traveller name that is a
    commune's ("Mézidon" for Mézidon-Canon): none is a commune's name, nor what people call
    the town.

    commune_name: official name of the station's commune (an arrondissement is read as its
        city), None when unknown. commune_population: that commune's population.
    commune_keys, word_keys: normalised commune names and French words (see
        `is_station_specific`); normalise: the gazetteer's normalisation.
    """
    city = city_name(commune_name)
    derived = [station.network_name] if station.network_name else []
    # "Les Aubrais-Orléans" is "Orléans les Aubrais" to travellers: a network name that adds a
    # town to a traveller name that is no commune's, the town first.
    town = station.network_name[len(station.name) + 1 :].strip(" -") if station.network_name else ""
    if (
        town
        and station.network_name[: len(station.name) + 1] in (station.name + "-", station.name + " ")
        and normalise(town) in commune_keys
        and normalise(station.name) not in commune_keys
    ):
        derived.append(f"{town} {station.name}")
    derived += _tgv_forms(station.name)
    parts = _PART_SEPARATOR.split(station.name)
    if len(parts) > 1 and "TGV" not in station.name.split(" "):
        derived.append(" ".join(_short_part(p) for p in parts))
    derived += _shortened_forms(station.name, parts, commune_name, word_keys, normalise)
    # A local halt (segment C only) is not known by its name without the city's.
    if city and ("A" in station.segment or ("B" in station.segment and commune_population >= BIG_CITY_POPULATION)):
        derived += _city_forms(station.name, city, commune_keys, word_keys, normalise)
    name_key = normalise(station.name)
    # Without their article: "Le Boucau" and "Fauga" are what people call Boucau and Le Fauga.
    towns = [_KEY_ARTICLE.sub("", normalise(city)) + " "] if city else []
    if name_key in commune_keys:
        towns.append(_KEY_ARTICLE.sub("", name_key) + " ")
    forms = {name_key: station.name}
    for form in derived:
        key = normalise(form)
        if (
            key not in forms
            and is_station_specific(form, commune_keys, word_keys, normalise)
            and not any(town.startswith(_KEY_ARTICLE.sub("", key) + " ") for town in towns)
        ):
            forms[key] = form
    return list(forms.values())


def _best_segment(station: Station) -> int:
    return min(_SEGMENT_RANK.get(s, len(_SEGMENT_RANK)) for s in station.segment.split(";"))


def index_forms(forms: Mapping[Station, Iterable[str]], normalise: Callable[[str], str] = fold) -> FormIndex:
    """Normalised form → station(s), from each station's forms.

    A form several stations claim goes to those SNCF names so (traveller or network name);
    if none is, to the one of best segment (A over B over C) when it is alone there; else
    it is dropped. Each collision is listed.
    """
    claims: Dict[str, List[Station]] = {}
    for station, claimed in forms.items():
        for form in claimed:
            claimants = claims.setdefault(normalise(form), [])
            if station not in claimants:
                claimants.append(station)
    by_key: Dict[str, Tuple[Station, ...]] = {}
    collisions = []
    for key, stations in claims.items():
        if len(stations) == 1:
            by_key[key] = tuple(stations)
            continue
        named = [s for s in stations if key in (normalise(s.name), normalise(s.network_name))]
        if len(named) > 1:
            kept: Tuple[Station, ...] = tuple(named)
        else:
            best = min(map(_best_segment, stations))
            top = [s for s in stations if _best_segment(s) == best]
            kept = tuple(named) or (tuple(top) if len(top) == 1 else ())
        if kept:
            by_key[key] = kept
        collisions.append(Collision(key, tuple(s.name for s in stations), " / ".join(s.name for s in kept) or None))
    return FormIndex(by_key, collisions)
