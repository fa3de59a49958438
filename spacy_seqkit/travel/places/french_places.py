"""`FrenchPlaces`: the communes of metropolitan France (INSEE) and the railway stations,
as the travel pipeline asks for them (`contract.Places`): what a mention names, which runs of
words spell a place, what is known to be no place; and, for the corpus, populations,
stations, départements and the forms people type."""

import functools
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

from .communes import Commune, read_communes, read_departements
from .departements import by_departement
from .index import CITY_ALIASES, MIN_WORD_PLACE_POPULATION, Entry, NameIndex, load_index, shipped_data, short_form
from .lookup import candidate_keys, resolve_cached
from .names import ARTICLE, FOREIGN_PLACES, TYPE_WORDS, normalise
from .place import COMMUNE, STATION, Place
from .stations import COLLOQUIAL_NAMES, answer_name, spelled_forms

# The key of one typed word: requests repeat their words ("de", "à", "Paris").
_word_key = functools.lru_cache(maxsize=1 << 16)(normalise)


# The least inhabitants of a place `named_place` reads in a word that is also an ordinary one
# (Corte, Langres, Moûtiers), where no station serves it.
NAMED_PLACE_POPULATION = 1000


# What may stand between the words of one name: dashes, apostrophes, dots ("Saint - Malo", "St. Malo").
_NAME_JOINERS = frozenset("-‐‑–—'’.")


class _WordRuns(NamedTuple):
    """`_word_run` of each word of a text, as four lists (`FrenchPlaces._word_keys`)."""

    keys: List[str]
    sizes: List[int]
    longest: List[int]
    breaks: List[bool]


@functools.lru_cache(maxsize=1 << 16)
def _word_run(min_population: int, word: str) -> Tuple[str, int, int, bool]:
    """What `_spans` reads of one typed word: its key, how many words the key holds (a word may
    normalise to several: "Saint-Malo"), how many words the longest key of the index starting
    with its first word holds (0: no key starts there), and whether it ends a whole name: a
    word with no key that is no dash, apostrophe or dot ("Albi, ville rouge" is no Albi Ville)."""
    key = _word_key(word)
    longest = load_index(min_population).head_words.get(key.split(" ", 1)[0], 0) if key else 0
    return key, len(key.split()), longest, not key and not set(word) <= _NAME_JOINERS


@functools.lru_cache(maxsize=1)
def _communes_by_name() -> Dict[str, List[Commune]]:
    """Official name → the communes of that name (arrondissements aside), in the list's order."""
    by_name: Dict[str, List[Commune]] = {}
    for commune in read_communes():
        if commune.kind != "R":
            by_name.setdefault(commune.name, []).append(commune)
    return by_name


def _names_a_commune(key: str) -> bool:
    """`key` is a commune's name, normalised (read from the shipped index: no list to build)."""
    index = load_index(0)
    entry = index.by_key.get(key)
    return entry is not None and entry.name in index.populations and normalise(entry.name) == key


@functools.lru_cache(maxsize=4096)
def _spelled(station: str) -> Dict[str, str]:
    """The written forms of a station by key, from which it is answered (`answer_name`)."""
    return spelled_forms(shipped_data().stations, station, _names_a_commune)


class FrenchPlaces:
    """The communes of metropolitan France with at least `min_population` inhabitants (0:
    all of them; delegated and associated communes count with the commune they belong to),
    and SNCF's passenger stations.

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
    def _index(self) -> NameIndex:
        return load_index(self.min_population)

    def canonical_names(self) -> List[str]:
        """Every canonical name: places (one per distinct name) and stations, sorted."""
        return sorted(set(self._index.populations) | set(_named_stations(self.min_population)))

    def place_names(self) -> List[str]:
        """Distinct commune names (no stations), sorted."""
        return sorted(self._index.populations)

    def station_names(self) -> List[str]:
        """The stations with a name of their own by SNCF's names, sorted (not a station named
        as its commune that only usage names apart from it: Valence, "Valence Ville")."""
        return sorted(_named_stations(self.min_population))

    def is_station(self, name: str) -> bool:
        """`name` is one of `station_names()`."""
        return name in _named_stations(self.min_population)

    def stations_of(self, name: str) -> List[str]:
        """The stations serving the commune `name` ("Lyon" → Lyon Part Dieu, Lyon Perrache...)."""
        return sorted(shipped_data().stations.serving.get(name, ()))

    def station_forms(self, name: str) -> List[str]:
        """The ways people write the station `name` that resolve back to it ("Part Dieu",
        "Lyon-Part-Dieu"), its traveller name first; [] for no station of its own name."""
        if not self.is_station(name):
            return []
        return [f for f in shipped_data().stations.forms.get(name, ()) if self.resolve(f) == name]

    def departement_of(self, name: str) -> Optional[Tuple[str, str]]:
        """(code, name) of the département of the largest commune called `name`, else None."""
        communes = _communes_by_name().get(name)
        if not communes:
            return None
        code = max(communes, key=lambda c: (c.kind == "C", c.population)).departement
        return code, read_departements()[code]

    def in_departement(self, text: str, code: str) -> Optional[Place]:
        """The commune `text` names in the département `code`: "saint-sulpice", "81" →
        Saint-Sulpice-la-Pointe (its name, short form or compound head); None where none does."""
        name = by_departement().get((normalise(text), code))
        return None if name is None else self.place(name)

    def typed_forms(self, name: str) -> List[str]:
        """Other ways people write `name` that resolve back to it: short forms ("Clermont"
        for Clermont-Ferrand, "Cherbourg" for Cherbourg-en-Cotentin) and abbreviations ("bdx")."""
        forms = [alias for alias, target in CITY_ALIASES.items() if target == name]
        head = short_form(name)
        if head:
            forms.append(head)
        return [f for f in dict.fromkeys(forms) if self.resolve(f) == name]

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
        cerbere" → [(1, 3), (4, 5)]; punctuation counts for none of a run's `max_words`
        words ("Charcé-Saint-Ellier-sur-Aubance" is one run), and a run yields to a longer
        one starting inside it and ending after it ("gare de Lyon-Part-Dieu" is Lyon
        Part-Dieu, not Paris's gare de Lyon and Part-Dieu). No typo correction, so it stays
        cheap. A run that is a common word counts only for a town of
        MIN_WORD_PLACE_POPULATION ("tours", "orange", not "mer" or "vers"); type words never."""
        return self._spans(words, max_words, whole=True)

    def marked_spans(self, words: List[str], max_words: int = 8) -> List[Tuple[int, int]]:
        """The runs the place marker (`seqkit_place_marker`) marks: `name_spans` as the
        trained pipelines learnt from it, each run at most `max_words` tokens, punctuation
        included, and no run yielding to a longer one inside it. The marker's marks are
        features of the recognizer: reading whole names there too would change what it was
        trained on (retrained with them, the main job's pipeline moved by up to 2 points on
        the hand-written sets, as far as float rounding alone moves it: one seed cannot tell
        such a change, so it waits for a comparison over several)."""
        return self._spans(words, max_words, whole=False)

    def first_run(self, words: List[str], max_words: int = 8) -> Optional[int]:
        """The end of the run `name_spans(words, max_words)` reads first where it starts at the
        first word, else None: the longest name from there ("gare de Lyon Perrache ..."), read
        without the rest of `words`. Kept by words: a mention's window is read twice (stations,
        then compound communes), and requests repeat theirs ("de Marseille à Paris")."""
        return _first_run_cached(self, tuple(words), max_words)

    def _first_run(self, words: Tuple[str, ...], max_words: int) -> Optional[int]:
        if not words:
            return None
        runs = self._word_keys(words)
        end = self._run_end(runs, 0, max_words, True)
        if end is None or self._longer_inside(runs, 0, end, max_words) is not None:
            return None
        return end

    def _word_keys(self, words: Sequence[str]) -> _WordRuns:
        """`_word_run` of each word, as four lists: keys, their sizes, the longest keys' sizes,
        the words that end a whole name."""
        population = self.min_population
        runs = [_word_run(population, w) for w in words]
        return _WordRuns([r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs], [r[3] for r in runs])

    def _spans(self, words: List[str], max_words: int, whole: bool) -> List[Tuple[int, int]]:
        runs = self._word_keys(words)
        spans, start, n = [], 0, len(words)
        while start < n:
            end = self._run_end(runs, start, max_words, whole)
            if end is None:
                start += 1
                continue
            if whole:  # a longer run starting inside this one and ending after it
                inner = self._longer_inside(runs, start, end, max_words)
                if inner is not None:
                    start, end = inner
            spans.append((start, end))
            start = end
        return spans

    def _longer_inside(self, runs: _WordRuns, start: int, end: int, max_words: int) -> Optional[Tuple[int, int]]:
        """The first run starting inside [start, end) that ends after it and is longer."""
        for inner in range(start + 1, end):
            inner_end = self._run_end(runs, inner, max_words, True)
            if inner_end is not None and inner_end > end and inner_end - inner > end - start:
                return inner, inner_end
        return None

    def _run_end(self, runs: _WordRuns, start: int, max_words: int, whole: bool) -> Optional[int]:
        """The end of the longest run from `start` that spells a place name (`_spans`)."""
        keys, sizes, longest, breaks = runs
        most = longest[start]
        if not most:
            return None
        # (With `whole`, a dash or an apostrophe has no key and counts for no word: "La
        # Bastide-Saint-Laurent-les-Bains"; other punctuation ends the name: "Albi, ville".)
        last, count, taken, n = start, 0, 0, len(keys)
        while last < n and taken < max_words and count + sizes[last] <= most and not (whole and breaks[last]):
            count += sizes[last]
            if keys[last] or not whole:
                taken += 1
            last += 1
        by_key = self._index.by_key
        # The key of each run from `start`, word by word (a key-less word adds nothing).
        run_keys, key = [], ""
        for k in keys[start:last]:
            if k:
                key = f"{key} {k}" if key else k
            run_keys.append(key)
        for end in range(last, start, -1):
            if not keys[end - 1]:
                continue
            key = run_keys[end - 1 - start]
            entry = by_key.get(key)
            if entry is None or ARTICLE.sub("", key) in TYPE_WORDS:
                continue
            if key in self.common_words and entry.rank > 0 and entry.population < MIN_WORD_PLACE_POPULATION:
                continue
            return end
        return None

    def is_excluded(self, text: str) -> bool:
        """Known not to be a place of this gazetteer: a type word ("gare"), a foreign place
        ("Londres"), an ordinary word. The trip component never keeps such a mention."""
        key = normalise(text)
        return (
            not key
            or ARTICLE.sub("", key) in TYPE_WORDS
            or key in FOREIGN_PLACES
            or (key in self.ordinary_words and self.resolve(text) is None)
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
        entry = resolve_cached(self.min_population, self.ordinary_words, text.strip())
        return entry.name if entry is not None else None

    def place(self, text: str) -> Optional[Place]:
        """The place a mention names, as a value (`Place`): its kind, reference name, codes
        and the stations serving it; None when it names no known place (see `resolve`)."""
        if not isinstance(text, str):
            raise TypeError(f"place() expects a str, got {type(text).__name__}")
        return _place_cached(self.min_population, self.ordinary_words, text)

    def homonyms(self, text: str) -> List[Place]:
        """The other communes of 5,000 inhabitants or more (`index.HOMONYM_POPULATION`) a
        name typed exactly may stand for besides `place(text)`, biggest first: "boulogne" →
        [Boulogne-sur-Mer] (Boulogne-Billancourt is `place("boulogne")`). No typo reading."""
        return list(_homonyms_cached(self.min_population, text))

    def named_place(self, text: str) -> Optional[Place]:
        """`place(text)`, else the place whose name `text` spells exactly as `name_spans` reads
        names, an ordinary word too ("corte", "langres", "salon" typed in lowercase, which
        `place` leaves to the words); None where it spells none. For a run a model read as an end
        of the trip from its context."""
        found = self.place(text)
        if found is not None:
            return found
        key = normalise(text)
        entry = self._index.by_key.get(key)
        if entry is None or entry.rank >= 4 or key in FOREIGN_PLACES:
            return None  # a short form ("la maison": La Maison-Dieu), a country ("suisse")
        served = bool(shipped_data().stations.serving.get(entry.name))
        # A word that names a hamlet ("château", "le chemin") or an article and a word ("la tour")
        # is the word, unless a station serves the place.
        if not served and (entry.population < NAMED_PLACE_POPULATION or ARTICLE.match(key)):
            return None
        return self.place_of(text, entry)

    def place_of(self, text: str, entry: Entry) -> Place:
        """The `Place` of an index entry, `text` being what was typed."""
        return _place_of(self._index, text, entry)


@functools.lru_cache(maxsize=None)
def _named_stations(min_population: int) -> FrozenSet[str]:
    """The index's stations less those that only usage's names (`COLLOQUIAL_NAMES`: "Valence
    Ville", "Cherbourg") name apart from their commune: what the corpus draws as stations."""
    usage = {normalise(form) for forms in COLLOQUIAL_NAMES.values() for form in forms}
    own = {s.name for key, s in shipped_data().stations.by_key.items() if key.removeprefix("gare ") not in usage}
    return frozenset(name for name in load_index(min_population).stations if name in own)


@functools.lru_cache(maxsize=1 << 16)
def _first_run_cached(places: "FrenchPlaces", words: Tuple[str, ...], max_words: int) -> Optional[int]:
    return places._first_run(words, max_words)


# A mention's place and homonyms, by what was typed: the trip component asks for the same
# words several times a request ("Lyon" as a mention, in a pair, beside a homonym...), and
# requests repeat their places. Module-level, as `resolve_cached`, which they read.
@functools.lru_cache(maxsize=1 << 16)
def _place_cached(min_population: int, ordinary_words: FrozenSet[str], text: str) -> Optional[Place]:
    entry = resolve_cached(min_population, ordinary_words, text.strip())
    return None if entry is None else _place_of(load_index(min_population), text, entry)


@functools.lru_cache(maxsize=1 << 16)
def _homonyms_cached(min_population: int, text: str) -> Tuple[Place, ...]:
    index = load_index(min_population)
    key = next((k for k in candidate_keys(normalise(text.strip())) if k in index.by_key), None)
    return tuple(_place_of(index, text, e) for e in index.homonyms.get(key, ())) if key else ()


def _place_of(index: NameIndex, text: str, entry: Entry) -> Place:
    """The `Place` of an index entry of `index`, `text` being what was typed."""
    shipped = shipped_data()
    data = shipped.stations
    station = data.by_name.get(entry.name) if entry.name in index.stations else None
    if station is not None:
        home = data.commune.get(station.name)
        return Place(
            text,
            STATION,
            answer_name(station.name, _spelled(station.name), candidate_keys(normalise(text.strip())), text),
            home.code if home else station.insee,
            home.name if home else None,
            (station.name,),
            station.uics,
        )
    code = entry.code or shipped.codes.get(entry.name, "")
    current = shipped.current.get(code) if code else None
    serving = list(data.serving.get(entry.name, ()))
    if current is not None:
        serving += [s for s in data.serving.get(current.name, ()) if s not in serving]
    uics = tuple(u for s in serving for u in data.by_name[s].uics)
    return Place(text, COMMUNE, entry.name, code or None, current.name if current else None, tuple(serving), uics)
