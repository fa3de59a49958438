"""SNCF's passenger stations as places: each station under the names people type for it
(`sncf.station_forms`), tied to its commune, so that "Les Aubrais", "Valence TGV" or "gare de
Lyon" name one station and are never cut into communes.

A station that bears its commune's name ("Tours" in Tours, "Compiègne") adds no name of its
own: typed, that name is the commune, and the station serves it (`StationData.serving`). A
station's answer is SNCF's traveller name ("Lyon Part Dieu", "Paris Est").
"""

import functools
import re
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .communes import Commune, read_communes
from .names import ARTICLE, normalise, read_words
from .sncf import DATA_FILE, Station, index_forms, read_stations, station_forms

__all__ = [
    "COLLOQUIAL_NAMES",
    "DATA_FILE",
    "Station",
    "StationData",
    "answer_name",
    "read_station_data",
    "spelled_forms",
]

# What people call a few big stations, beside SNCF's names (facts of usage): airports by their
# codes, Marne-la-Vallée for Disneyland's station, the Paris stations by their old names, a few
# stations by the name on their front ("Valence Ville") or of their town before a merger ("Cherbourg").
COLLOQUIAL_NAMES = {
    "Aéroport Charles de Gaulle 2 TGV": (
        "Roissy CDG",
        "CDG",
        "Charles de Gaulle",
        "aéroport CDG",
        "aéroport Charles-de-Gaulle",
        "Roissy Charles de Gaulle",
        "CDG TGV",
    ),
    "Lyon Saint-Exupéry TGV": ("Saint-Exupéry", "aéroport Saint-Exupéry", "Lyon Saint-Exupéry"),
    "Marne-la-Vallée Chessy": ("Marne-la-Vallée", "Disneyland", "Marne la Vallée Disneyland", "MLV"),
    # The abbreviations commuters and booking sites type for a few stations.
    "Paris Gare de Lyon": ("GDL",),
    "Lyon Part Dieu": ("Pdieu",),
    "Saint-Quentin en Yvelines - Montigny-le-Bretonneux": ("SQY",),
    "Saint-Cyprien Arènes": ("Toulouse Arènes", "gare des Arènes"),
    "Aix-en-Provence TGV": ("Aix TGV", "TGV Aix"),
    # The TGV stations of a city named with the city (Reims's stands in Bezannes); "TGV" after
    # it only: "le TGV Besançon Dijon" is a train from Besançon.
    "Champagne-Ardenne TGV": ("Reims Champagne-Ardenne TGV", "Reims Champagne-Ardenne"),
    "Besançon Franche-Comté TGV": ("Besançon TGV",),
    "Mâcon Loché TGV": ("Mâcon TGV",),
    "Paris Est": ("Paris Gare de l'Est", "Paris-Est"),
    "Paris Bercy Bourgogne - Pays d'Auvergne": ("Paris Bercy", "Bercy", "Paris Bercy Bourgogne"),
    "Strasbourg": ("Strasbourg Gare Centrale",),
    "Bordeaux Saint-Jean": ("gare Saint-Jean",),
    "Montpellier Saint-Roch": ("gare Saint-Roch",),
    "Le Creusot - Montceau-les-Mines - Montchanin TGV": ("Le Creusot Montceau TGV",),
    # Stations SNCF's list names as their town, by the names on their fronts and in use.
    "Valence": ("Valence Ville",),
    "Albi": ("Albi Ville",),
    "Dole": ("Dole Ville",),
    "Nîmes": ("Nîmes Centre",),
    "Cherbourg-en-Cotentin": ("Cherbourg",),
    "La Baule-Escoublac": ("La Baule",),
}


# "St-Pierre", "Ste Foy": SNCF's network names abbreviate Saint, Sainte.
_SAINT = re.compile(r"\b(Ste?)(?=[- ])")


class StationData(NamedTuple):
    stations: Tuple[Station, ...]
    by_name: Dict[str, Station]  # traveller name → station
    by_key: Dict[str, Station]  # normalised form → the station it names (no commune's name)
    commune: Dict[str, Commune]  # traveller name → the current commune it stands in
    serving: Dict[str, Tuple[str, ...]]  # commune name → names of the stations serving it
    forms: Dict[str, Tuple[str, ...]]  # traveller name → its forms, as written (for the corpus)


def _named_in(
    station: Station, named: Dict[str, Commune], by_departement: Dict[str, List[Tuple[str, Commune]]], home: str
) -> List[Commune]:
    """The communes a station's name joins, in its département: SNCF names a station between
    two towns "Vernon - Giverny", "Les Arcs - Draguignan", "Montréjeau - Gourdan-Polignan"
    (in Gourdan-Polignan), "Étaples - Le Touquet" (Le Touquet-Paris-Plage: the one commune
    of the département whose name starts with the part)."""
    parts = [p.strip() for p in station.name.split(" - ")]
    if len(parts) < 2:
        return []
    found = []
    for part in parts:
        key = normalise(part)
        same = named.get(key)
        if same is not None and same.departement == home:
            found.append(same)
            continue
        longer = [c for k, c in by_departement.get(home, []) if k.startswith(key + " ")]
        if len(longer) == 1:
            found.append(longer[0])
    return found


def _commune_of(code: str, by_code: Dict[str, List[Commune]]) -> Optional[Commune]:
    """The current commune of an INSEE code: itself, the city of an arrondissement, the
    commune a delegated or associated one belongs to."""
    communes = by_code.get(code, [])
    current = next((c for c in communes if c.kind == "C"), None)
    if current is not None:
        return current
    for commune in communes:
        parent = next((c for c in by_code.get(commune.parent, []) if c.kind == "C"), None)
        if parent is not None:
            return parent
    return None


def data_station(stations: Tuple[Station, ...], name: str) -> Station:
    found = next((s for s in stations if s.name == name), None)
    if found is None:
        raise ValueError(f"COLLOQUIAL_NAMES names {name!r}, which is no station of {DATA_FILE}")
    return found


@functools.lru_cache(maxsize=1)
def read_station_data() -> StationData:
    """The shipped stations (`data/stations.tsv.gz`), their forms and communes."""
    stations = read_stations()
    by_code: Dict[str, List[Commune]] = {}
    for each in read_communes():
        by_code.setdefault(each.code, []).append(each)
    keyed = [(normalise(c.name), c) for c in read_communes()]  # normalised once: 37,000 names
    commune_keys = frozenset(key for key, _ in keyed)
    words = read_words(DATA_FILE.parent / "french_words.txt.gz")
    commune: Dict[str, Commune] = {}
    forms: Dict[Station, List[str]] = {}
    for station in stations:
        home = _commune_of(station.insee, by_code)
        codes = by_code.get(station.insee, [])
        own = next((c for c in codes if c.kind == "C"), None) or next((c for c in codes if c.kind in "DA"), home)
        if home is not None:
            commune[station.name] = home
        forms[station] = station_forms(
            station,
            own.name if own else None,
            commune_population=home.population if home else 0,
            commune_keys=commune_keys,
            word_keys=words,
            normalise=normalise,
        )
        # "Lyon Saint-Exupéry" for Lyon Saint-Exupéry TGV, unless that is a town ("Massy").
        without = " ".join(w for w in station.name.split() if w != "TGV")
        if without != station.name and normalise(without) not in commune_keys and normalise(without) not in words:
            forms[station].append(without)
    index = index_forms(forms, normalise=normalise)
    by_key: Dict[str, Station] = {}
    for key, claimants in index.stations_by_key.items():
        if key in commune_keys or len(claimants) != 1:
            continue  # a commune's name is the commune; a name two stations share names neither
        by_key[key] = claimants[0]
        bare = ARTICLE.sub("", key)  # "aubrais" for Les Aubrais, unless a commune or word
        if bare != key and bare not in commune_keys and bare not in words:
            by_key.setdefault(bare, claimants[0])
    for name, colloquial in COLLOQUIAL_NAMES.items():
        for form in colloquial:
            by_key.setdefault(normalise(form), data_station(stations, name))
    # "gare Montparnasse", "gare Matabiau": a station's own name after "gare" (communes' are
    # read without their type words: "la gare de Tours" is Tours).
    for key, station in list(by_key.items()):
        if not key.startswith("gare "):
            by_key.setdefault("gare " + key, station)
    # A station named like a commune (current, delegated or associated) serves it, and stands
    # in its current commune where SNCF's INSEE code is one that no longer exists ("Auneau").
    named = {key: c for key, c in sorted(keyed, key=lambda kc: kc[1].kind != "C") if c.kind != "R"}

    def departement(station: Station) -> str:
        return next((c.departement for c in by_code.get(station.insee, [])), "")

    by_departement: Dict[str, List[Tuple[str, Commune]]] = {}
    for key, each in named.items():
        by_departement.setdefault(each.departement, []).append((key, each))
    serving: Dict[str, List[str]] = {}
    for station in stations:
        same = named.get(normalise(station.name))
        if station.name not in commune and same is not None:
            current = _commune_of(same.code, by_code)
            if current is not None:
                commune[station.name] = current
        for place in (
            commune.get(station.name),
            same,
            *_named_in(station, named, by_departement, departement(station)),
        ):
            if place is not None and station.name not in serving.get(place.name, []):
                serving.setdefault(place.name, []).append(station.name)
    return StationData(
        stations,
        {s.name: s for s in stations},
        by_key,
        commune,
        {name: tuple(found) for name, found in serving.items()},
        {s.name: tuple(f) for s, f in forms.items()},
    )


def spelled_forms(data: StationData, name: str, names_a_commune: Callable[[str], bool]) -> Dict[str, str]:
    """The written forms of the station `name` by normalised key: SNCF's (its traveller name
    first), usage's (`COLLOQUIAL_NAMES`); a network name that joins a qualifier to the city
    with a hyphen spelled as traveller names are ("Paris-Nord", "Nice-Ville", "Metz-Ville":
    Paris Nord, Nice Ville, Metz Ville), a town so joined to a station named after no commune
    keeping it ("Les Aubrais-Orléans")."""
    station = data.by_name[name]
    spelled: Dict[str, str] = {}
    for form in (name, *data.forms.get(name, ()), *COLLOQUIAL_NAMES.get(name, ())):
        if "(" in form and form != name:
            continue  # a network name's département or "(RER)" is said by no one
        if form == station.network_name and "-" in form and normalise(form) != normalise(name):
            head, rest = form.split("-", 1)
            town = names_a_commune(normalise(rest)) and not names_a_commune(normalise(name))
            if name.startswith(head) and not town:
                form = f"{head} {rest}"
        spelled.setdefault(normalise(form), form)
    return spelled


_SEPARATORS = re.compile(r"(\s*-\s*|\s+)")


def _as_typed(form: str, typed: str) -> str:
    """`form` with "St-" / "Ste-" written out, and with the hyphens of `typed` where a request
    written in lower and upper case types the same words joined by one ("Golfe-Juan",
    "Calais-Fréthun": not Golfe Juan, Calais - Fréthun)."""
    form = _SAINT.sub(lambda m: "Saint" + m.group(1)[2:], form)
    parts, typed_parts = _SEPARATORS.split(form), _SEPARATORS.split(typed.strip())
    if typed in (typed.lower(), typed.upper()) or len(parts) != len(typed_parts):
        return form
    if any(normalise(a) != normalise(b) for a, b in zip(parts[::2], typed_parts[::2])):
        return form
    for i in range(1, len(parts), 2):
        if typed_parts[i] == "-":
            parts[i] = "-"
    return "".join(parts)


def answer_name(name: str, spelled: Dict[str, str], typed_keys: Sequence[str], typed: str = "") -> str:
    """The name the station `name` (SNCF's traveller name; `spelled`: its `spelled_forms`) is
    answered by, the request having typed it as `typed_keys` (normalised, most literal first, as the lookup tries them): the
    form of the station's names it typed (the closest one for a typo: one edit in five
    letters), with a capital, where that form holds the first word of the traveller name, its
    city ("Valence TGV", "Paris Nord", "Besançon TGV", "TGV Haute-Picardie"); else the
    traveller name ("gare du Nord", "Bercy", "CDG"). People ask for the name they used back;
    the traveller name stays in the place value (`Place.stations`)."""
    form = next((spelled[k] for k in typed_keys if k in spelled), None)
    if form is None and typed_keys:
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        key, distance, _ = min(
            (process.extractOne(k, list(spelled), scorer=Levenshtein.distance) for k in typed_keys),
            key=lambda found: found[1],
        )
        form = spelled[key] if distance <= max(1, len(key) // 5) else None
    if form is None:
        return name
    city = ARTICLE.sub("", normalise(name)).split(" ", 1)[0]
    if city not in normalise(form).split(" "):
        return name
    form = _as_typed(form, typed)
    return form[:1].upper() + form[1:]
