"""What a mention names: the exact key, then the key without its type words or
département, then a typo-tolerant match (Damerau-Levenshtein, same first letter; a city of
100,000 inhabitants a little further: "lile", "toulouz"), never for a type word, a foreign
place or an ordinary word. Cached per process and settings."""

import functools
from bisect import bisect_left, bisect_right
from typing import Dict, FrozenSet, List, Optional, Tuple

from .index import COMPOUND_HEAD, MIN_WORD_PLACE_POPULATION, Entry, NameIndex, load_index, shipped_data
from .names import (
    ARTICLE,
    COUNTRIES,
    FOREIGN_PLACES,
    TRAILING_DEPARTEMENT,
    TYPE_PREFIX,
    TYPE_SUFFIX,
    TYPE_WORDS,
    max_edits,
    normalise,
)

# A place whose name is an article and an ordinary word is read in lowercase ("les arcs") only
# from this size, or as a station ("la souterraine"): "la réunion", "le bois" are words.
ARTICLE_WORD_POPULATION = 5000
# A commune named as a foreign city is that commune from this size ("Bruges", Gironde); smaller,
# the name is the city abroad ("Fribourg", "Saint-Sébastien": not the villages of Moselle, Creuse).
FOREIGN_NAMESAKE_POPULATION = 5000


# Towns' nicknames whose accent tells them from a word, read before the key drops it: "sainté"
# is Saint-Étienne, "sainte" a word (the other nicknames are keys: `index.READ_ALIASES`).
ACCENTED_NICKNAMES = {"sainté": "Saint-Étienne"}


@functools.lru_cache(maxsize=65536)
def resolve_cached(min_population: int, ordinary_words: FrozenSet[str], text: str) -> Optional[Entry]:
    """The index entry of the place a mention names, or None."""
    # Module-level, so that every gazetteer of the same settings shares the cache.
    index = load_index(min_population)
    if not text:
        return None
    nickname = ACCENTED_NICKNAMES.get(text.lower())
    if nickname is not None and nickname in index.populations:  # "sainté": not the word "sainte"
        return index.by_key.get(normalise(nickname))
    key = normalise(text)
    entry = index.by_key.get(key)
    if text in index.stations and entry is not None and entry.name == text:
        return entry
    # An exact commune name is itself, unless a station alias ("Saint-Charles") or a much
    # bigger town's short form ("Clermont") has its key: not the start of a longer name a
    # station serves ("Saint-Gervais" is Saint-Gervais, "saint gervais" Saint-Gervais-les-Bains).
    # A country is the country: "vers la Suisse" is not Suisse (Moselle, 94 inhabitants), nor a
    # foreign city a village named as it (`FOREIGN_NAMESAKE_POPULATION`).
    if (
        text in index.populations
        and key not in TYPE_WORDS
        and key not in COUNTRIES
        and (key not in FOREIGN_PLACES or index.populations[text] >= FOREIGN_NAMESAKE_POPULATION)
        and (entry is None or entry.rank in (1, 2, COMPOUND_HEAD))
    ):
        return Entry(text, index.populations[text], 1, True, shipped_data().codes.get(text, ""))
    lowercase = text == text.lower()
    for candidate in candidate_keys(key):
        found = _lookup(candidate, index, ordinary_words, lowercase)
        if found is not None:
            return found
    return None


def candidate_keys(key: str) -> List[str]:
    """The key as typed, then without its type words ("gare de", "centre") and without a
    département after it, then without a leading article ("les sables" → "sables", the
    short form of Les Sables-d'Olonne): most literal first."""
    keys = [key]
    without_type = TYPE_PREFIX.sub("", TRAILING_DEPARTEMENT.sub("", key))  # "gare d'avignon tgv"
    stripped = TYPE_SUFFIX.sub("", without_type)
    for candidate in (without_type, stripped, ARTICLE.sub("", stripped)):
        if candidate and candidate not in keys:
            keys.append(candidate)
    return keys


def _lookup(key: str, index: NameIndex, ordinary_words: FrozenSet[str], lowercase: bool) -> Optional[Entry]:
    bare = ARTICLE.sub("", key)
    if bare in TYPE_WORDS or key in FOREIGN_PLACES:
        return None
    is_word = key in ordinary_words
    with_article = bare != key and bare in ordinary_words  # an ordinary word with its article
    # "la réunion", "le bois", "la forêt" in lowercase.
    article_word = lowercase and with_article
    entry = index.by_key.get(key)
    if entry is not None:
        # A village by that name, or, whatever the case, by its short form ("LA MAISON de Pasteur" is
        # no La Maison-Dieu).
        if (article_word or (with_article and entry.rank >= 4)) and entry.rank > 0 and _a_word_not_a_town(entry):
            return None
        small = entry.rank > 0 and entry.population < 2000
        if (
            is_word
            and entry.rank > 0
            and (entry.rank >= 4 or (lowercase and (entry.rank == 3 or entry.population < MIN_WORD_PLACE_POPULATION)))
        ):
            # "côte" is not La Côte, nor "roche" La Roche-sur-Yon, nor "aube" the village of
            # Aube, nor "un salon" Salon-de-Provence (an alias: "Salon" is); "fougere" may
            # still be Fougères mistyped.
            return fuzzy(key, index, index.big_keys, 1) if len(key) >= 6 else None
        if not small or len(key) < 6:
            return entry
        # "fougere" is more likely Fougères (24k) mistyped than Fougeré (900).
        return fuzzy(key, index, index.big_keys, 1) or entry
    if is_word or article_word or all(w in ordinary_words for w in key.split()):
        # "demain" is not a typo of Denain, nor "guichet" of Guichen, nor "les châteaux"
        # of Les Champeaux; a station's name mistyped still is ("parsi gare de l'est").
        return fuzzy(key, index, index.station_keys, max_edits(len(key))) if " " in key else None
    return fuzzy(key, index, index.fuzzy_keys, max_edits(len(key))) or _city_slip(key, index)


# A city of this size is mistyped further than a village may be: "lile", "nime" (Lille, Nîmes:
# one edit in four letters), "toulouz", "marseil" (two edits in seven to nine).
CITY_SLIP_POPULATION = 100_000


def _city_slip(key: str, index: NameIndex) -> Optional[Entry]:
    """A city of CITY_SLIP_POPULATION inhabitants that a one-word key (no French word) is a
    slip of beyond `max_edits`: one edit in four letters, two in seven to nine, of the same first
    letter and at most one letter shorter; the closest, then one the key begins ("nime": Nîmes,
    its silent "s" left out, not Nice), then the biggest."""
    limit = {4: 1, 7: 2, 8: 2, 9: 2}.get(len(key), 0)
    if not limit or " " in key:
        return None
    from rapidfuzz.distance import DamerauLevenshtein

    best: Optional[Tuple[int, bool, int]] = None
    found: Optional[Entry] = None
    for candidate in _near_length(index.big_keys, key[0], len(key), limit):
        entry = index.by_key[candidate]
        if entry.population < CITY_SLIP_POPULATION or len(candidate) < len(key) - 1:
            continue  # a slip rather leaves letters out than adds two: "manasc" is no Le Mans
        distance = DamerauLevenshtein.distance(key, candidate, score_cutoff=limit)
        rank = (distance, not candidate.startswith(key), -entry.population)
        if distance <= limit and (best is None or rank < best):
            best, found = rank, entry
    return found


def _a_word_not_a_town(entry: Entry) -> bool:
    """An article and a word typed in lowercase are not this place: a village ("la réunion",
    "le bois": not La Réunion, Le Bois) or a delegated commune ("la chapelle": not La
    Chapelle-du-Genêt). A town ("les arcs", "la teste") or a place with a station ("la
    souterraine") still is."""
    if not entry.current:
        return True
    return entry.population < ARTICLE_WORD_POPULATION and not shipped_data().stations.serving.get(entry.name)


def fuzzy(key: str, index: NameIndex, keys: Dict[str, List[str]], limit: int) -> Optional[Entry]:
    """The best key of `keys` (grouped by first character) within `limit`
    Damerau-Levenshtein edits of the same first letter, by distance, then entry rank,
    then population."""
    if limit == 0 or not key:
        return None
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein, Levenshtein

    # A typo rarely hits the first letter; demanding it keeps ordinary words out, and
    # leaves a twentieth of the keys to compare; of those, only the ones whose length is
    # within `limit` of the key's can be within `limit` edits.
    candidates = _near_length(keys, key[0], len(key), limit)
    # Levenshtein's bit-parallel distance first: a Damerau-Levenshtein edit is at most two
    # Levenshtein edits, so nothing within `limit` of the first is further than 2 * limit.
    near = process.extract(key, candidates, scorer=Levenshtein.distance, score_cutoff=2 * limit, limit=None)
    survivors = [candidate for candidate, _, _ in near]
    matches = process.extract(key, survivors, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None)
    best: Optional[Tuple[int, int, int, str]] = None
    found: Optional[Entry] = None
    for candidate, distance, _ in matches:
        entry = index.by_key[candidate]
        rank = (distance, entry.rank, -entry.population, entry.name)
        if best is None or rank < best:
            best, found = rank, entry
    return found


# Per keys table (by id, the table kept alive beside it): each initial's keys sorted by length.
_BY_LENGTH: Dict[int, Tuple[Dict[str, List[str]], Dict[str, Tuple[List[int], List[str]]]]] = {}


def _near_length(keys: Dict[str, List[str]], initial: str, length: int, limit: int) -> List[str]:
    """The keys of `keys` under `initial` whose length is within `limit` of `length`."""
    cached = _BY_LENGTH.get(id(keys))
    if cached is None or cached[0] is not keys:
        cached = _BY_LENGTH[id(keys)] = (keys, {})
    table = cached[1].get(initial)
    if table is None:
        words = sorted(keys.get(initial, []), key=len)
        table = cached[1][initial] = ([len(w) for w in words], words)
    lengths, words = table
    return words[bisect_left(lengths, length - limit) : bisect_right(lengths, length + limit)]
