"""Generated training corpus of French travel requests (templates × gazetteer × noise).

The train / dev split holds out phrasings (templates) and places: dev sentences use only
held-out templates, and 60% of their place slots are held-out places (the rest are
stations, ambiguous names and the biggest cities, shared by both splits), so the dev score measures how the model
does on structures and names it never saw.
"""
import bisect
import itertools
import random
import re
import string
from pathlib import Path
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from ...util import check_non_negative_int
from ..places.french_places import FrenchPlaces
from ..places.names import ARTICLES, normalise
from ..places.place import STATION
from .noise import Segment, add_noise, to_record
from ..places.registry import make_french_places
from .records import read_records, typed_rewrite
from .phrasings import FILLERS, SLOT, SLOT_LABELS, TEMPLATES, Template
from ..pipeline.trip import Trip

# How often each family is drawn (valid trips about two thirds).
FAMILY_WEIGHTS: Dict[str, float] = {
    "trip": 0.20, "reverse": 0.09, "via": 0.08, "multi": 0.05, "terse": 0.13, "formal": 0.07,
    "spoken": 0.04, "one_end": 0.07, "alternative": 0.04, "abroad": 0.03, "no_travel": 0.11,
    "place_thing": 0.06, "foreign": 0.03, "gibberish": 0.03, "ruled_out": 0.03, "other_mode": 0.03,
    "search": 0.05,
}
# How often a commune's mention is followed by its département: "Saint-Denis (93)",
# "Montigny (Val-d'Oise)".
DEPARTEMENT_RATE = 0.04
# Places that are also first names or words: drawn often, and never held out, so that the
# model sees them both as places in trips and as non-places in negatives.
AMBIGUOUS = ("Albert", "Nice", "Tours", "Vienne", "Orange", "Agen", "Nancy", "Sens", "Gap", "Eu",
             "Lens", "Vire", "Valence", "Condom", "Fontaine", "Laval", "Dole", "Mathieu", "Bayonne")
N_CORE_CITIES = 80  # the most populous places are shared by both splits
_VOWELS = set("aeiouyhâàéèêëîïôöûùüAEIOUYHÂÀÉÈÊËÎÏÔÖÛÙÜ")


class Split(NamedTuple):
    train_templates: Tuple[Template, ...]
    dev_templates: Tuple[Template, ...]
    train_places: Tuple[str, ...]
    dev_places: Tuple[str, ...]  # held out: never in train
    core_places: Tuple[str, ...]  # in both


class _Pool:
    """Places to draw from: uniformly 35% of the time (many small places), else weighted
    by population^0.8 (mostly towns and cities people travel between)."""

    def __init__(self, names: Sequence[str], gazetteer: FrenchPlaces) -> None:
        self.names = list(names)
        weights = [max(gazetteer.population(n) or 0, 500) ** 0.8 for n in self.names]
        self.cum = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random) -> str:
        if rng.random() < 0.35:
            return self.names[rng.randrange(len(self.names))]
        return self.names[bisect.bisect_left(self.cum, rng.random() * self.cum[-1])]


# Share of each family's phrasings held out for dev (at least one): enough to measure
# unseen structures, few enough that training sees most of what was written.
TEMPLATE_DEV_FRACTION = 0.08


def make_split(gazetteer: FrenchPlaces, seed: int, dev_fraction: float = 0.15) -> Split:
    """Hold out `dev_fraction` of the places and TEMPLATE_DEV_FRACTION of the templates of
    each family (at least one)."""
    rng = random.Random(f"split-{seed}")
    train_t, dev_t = [], []
    for family in FAMILY_WEIGHTS:
        group = [t for t in TEMPLATES if t.family == family]
        rng.shuffle(group)
        n_dev = max(1, round(TEMPLATE_DEV_FRACTION * len(group)))
        dev_t += group[:n_dev]
        train_t += group[n_dev:]
    # A place is usable when its own name resolves to it (no station alias or
    # accent-twin takes its key), so the canonical trip agrees with the resolver.
    places = [n for n in gazetteer.place_names() if gazetteer.resolve(n) == n]
    by_pop = sorted(places, key=lambda n: (-(gazetteer.population(n) or 0), n))
    core = set(by_pop[:N_CORE_CITIES]) | {n for n in AMBIGUOUS if n in gazetteer}
    core |= set(gazetteer.station_names())
    others = sorted(n for n in places if n not in core)
    rng.shuffle(others)
    n_dev = round(dev_fraction * len(others))
    return Split(
        tuple(sorted(train_t)), tuple(sorted(dev_t)),
        tuple(sorted(others[n_dev:])), tuple(sorted(others[:n_dev])), tuple(sorted(core)),
    )


def gibberish(rng: random.Random) -> str:
    """A keyboard mash or a made-up word."""
    if rng.random() < 0.5:
        row = rng.choice(("azertyuiop", "qsdfghjklm", "wxcvbn", "poiuytreza", "mlkjhgfdsq"))
        start = rng.randrange(len(row) - 3)
        return row[start: start + rng.randint(3, len(row) - start)]
    syllables = ("bl", "or", "fz", "ka", "pu", "ix", "ro", "gn", "tu", "ek", "za", "vo", "qu", "pl")
    word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
    return word if rng.random() < 0.8 else word + rng.choice(string.digits)


class _Surface(NamedTuple):
    article: str  # "", "le", "la", "les", "l'" (lower case: contraction rules)
    article_text: str  # as written ("Le" for Le Havre, "la" for la gare de Lyon)
    body: str
    article_in_span: bool  # city articles belong to the name; station articles do not


def surface_form(name: str, rng: random.Random, gazetteer: Optional[FrenchPlaces] = None) -> _Surface:
    """How a canonical place is written in a sentence: a station's names ("la gare de Lyon",
    "Part Dieu", "Valence TGV"), "St-" for "Saint-", short forms ("Clermont", "Cherbourg")
    and abbreviations ("bdx")."""
    stations = gazetteer.station_forms(name) if gazetteer is not None else []
    if stations:
        form = rng.choice(stations)
        if form.lower().startswith("gare "):  # "à la gare de Lyon": the article is no part of it
            return _Surface("la", "la", form, False)
        name = form
    forms: List[str] = []
    if gazetteer is not None:
        # Not a short name that is a French word too ("Salon", "Romans"): read as a place only
        # with a capital, it would teach the recognizer to take the word for one.
        forms = [f for f in gazetteer.typed_forms(name) if normalise(f) not in gazetteer.ordinary_words]
    if forms and rng.random() < 0.3:
        name = rng.choice(forms)
    if rng.random() < 0.15:
        name = re.sub(r"^Saint-", rng.choice(("St-", "St ")), name)
        name = re.sub(r"^Sainte-", rng.choice(("Ste-", "Ste ")), name)
    for article in ARTICLES:
        if name.startswith(article):
            return _Surface(article.strip().lower(), article.strip(), name[len(article):], True)
    return _Surface("", "", name, True)


def _with_preposition(prep: str, s: _Surface) -> Tuple[str, str]:
    """(text before the span, span text) for a place after "de", "à", nothing or "=" """
    if prep == "=":
        return "", (s.article_text + " " + s.body if s.article_in_span and s.article else s.body)
    if not s.article:
        if prep == "de:":
            return ("d'" if s.body[0] in _VOWELS else "de "), s.body
        if prep == "à:":
            return "à ", s.body
        return "", s.body
    if prep in ("de:", "à:") and s.article in ("le", "les"):
        contracted = {("de:", "le"): "du ", ("de:", "les"): "des ", ("à:", "le"): "au ",
                      ("à:", "les"): "aux "}[prep, s.article]
        return contracted, s.body
    before = {"de:": "de ", "à:": "à ", "": ""}[prep]
    joiner = "" if s.article == "l'" else " "
    if s.article_in_span:
        return before, s.article_text + joiner + s.body
    return before + s.article_text + joiner, s.body


class Rendered(NamedTuple):
    """A template filled in: its text in labelled segments and its trip (None: INVALID)."""

    template: Template
    segments: List[Segment]
    trip: Optional[Dict]


def render(
    template: Template,
    rng: random.Random,
    draw_place,
    label_single_end: bool = True,
    gazetteer: Optional[FrenchPlaces] = None,
) -> Rendered:
    """Fill a template: places from `draw_place(rng)` (all distinct), fillers at random."""
    chosen: Dict[str, str] = {}
    answered: Dict[str, str] = {}  # a station's slot → the name it is answered by
    used: Set[str] = set()
    segments: List[Segment] = []
    position = 0
    for m in SLOT.finditer(template.pattern):
        segments.append(Segment(template.pattern[position: m.start()]))
        position = m.end()
        prep, name = m.group("prep") or "", m.group("name")
        if name in FILLERS:
            value = gibberish(rng) if name == "GIB" else rng.choice(FILLERS[name])
            segments.append(Segment(value))
            continue
        if name not in chosen:
            place = draw_place(rng)
            while place in used:
                place = draw_place(rng)
            chosen[name] = place
            used.add(place)
        surface = surface_form(chosen[name], rng, gazetteer)
        before, mention = _with_preposition(prep, surface)
        if gazetteer is not None and name not in answered:
            # A station is answered by the name the request used ("Valence TGV", "Cherbourg"), as
            # the trip component answers it (`stations.answer_name`), its article included ("aux
            # Ormes": Les Ormes, not the commune Ormes).
            place = gazetteer.place(_with_preposition("=", surface)[1])
            if gazetteer.is_station(chosen[name]):
                answered[name] = place.name if place is not None else chosen[name]
            elif place is not None and place.kind == STATION and place.commune == chosen[name]:
                answered[name] = place.name
        label = SLOT_LABELS.get(name)
        if label is not None and not label_single_end and not template.is_valid_trip:
            label = None
        segments.append(Segment(before))
        segments.append(Segment(mention, label))
        if gazetteer is not None and rng.random() < DEPARTEMENT_RATE:
            departement = gazetteer.departement_of(chosen[name])
            if departement is not None:
                segments.append(Segment(f" ({rng.choice(departement)})"))
    segments.append(Segment(template.pattern[position:]))
    trip = None
    if template.is_valid_trip:
        answer = {**chosen, **answered}
        steps = [answer[s] for s in ("VIA", "VIA2") if s in answer]
        trip = {"departure": answer["DEP"], "arrival": answer["ARR"], "steps": steps}
    return Rendered(template, _tidy(segments), trip)


def _tidy(segments: Sequence[Segment]) -> List[Segment]:
    """Collapse the spaces left by empty fillers; drop empty plain segments."""
    out: List[Segment] = []
    text_so_far = ""
    for seg in segments:
        text = seg.text
        if seg.label is None:
            text = re.sub(r" {2,}", " ", text)
            if not text_so_far or text_so_far.endswith(" "):
                text = text.lstrip(" ")
            if not text:
                continue
        out.append(Segment(text, seg.label))
        text_so_far += text
    while out and out[-1].label is None and out[-1].text.strip() == "":
        out.pop()
    if out and out[-1].label is None:
        out[-1] = Segment(out[-1].text.rstrip(" "), None)
    return out


def rewrite_of(trip: Optional[Dict]) -> str:
    """The canonical trip as one string: "Paris > Dijon > Lyon", or "INVALID"."""
    return Trip.from_dict(trip).to_rewrite()


def sentence_key(text: str) -> str:
    """What two sentences share when they are "the same" (case and spacing ignored)."""
    return " ".join(text.casefold().split())


def read_sentence_keys(paths: Iterable[Union[str, Path]]) -> Set[str]:
    """Sentence keys of the JSONL files among `paths` that exist."""
    return {sentence_key(r["text"]) for path in paths if Path(path).exists() for r in read_records(path)}


def _misleading(text: str, spans: List[Dict]) -> bool:
    """ "la gare de Lyon" is the Paris station: a Lyon described by its station must not
    be written so."""
    lowered = text.lower()
    at = lowered.find("gare de lyon")
    return at >= 0 and not any(s["start"] <= at + 8 < s["end"] and s["start"] <= at for s in spans)


def _aligned(tokenizer, text: str, spans: List[Dict]) -> bool:
    doc = tokenizer(text)
    return all(doc.char_span(s["start"], s["end"]) is not None for s in spans)


def _examples(
    n: int,
    templates: Sequence[Template],
    draw_place,
    rng: random.Random,
    prefix: str,
    noise_rate: float,
    exclude: Set[str],
    label_single_end: bool,
    tokenizer,
    gazetteer: FrenchPlaces,
) -> List[Dict]:
    families = [f for f in FAMILY_WEIGHTS if any(t.family == f for t in templates)]
    weights = [FAMILY_WEIGHTS[f] for f in families]
    by_family = {f: [t for t in templates if t.family == f] for f in families}
    records: List[Dict] = []
    failures = 0
    while len(records) < n:
        family = rng.choices(families, weights)[0]
        template = rng.choice(by_family[family])
        rendered = render(template, rng, draw_place, label_single_end, gazetteer)
        text, spans = to_record(rendered.segments)
        if not _aligned(tokenizer, text, spans) or sentence_key(text) in exclude or _misleading(text, spans):
            failures += 1
            if failures > max(100, n):
                raise RuntimeError(f"too many unusable sentences; last one from {template.id}: {text!r}")
            continue
        # Noise that breaks a span's token boundaries is retried, then left out.
        for _ in range(3):
            noisy, _applied = add_noise(rendered.segments, rng, noise_rate)
            noisy_text, noisy_spans = to_record(noisy)
            if _aligned(tokenizer, noisy_text, noisy_spans) and sentence_key(noisy_text) not in exclude:
                text, spans = noisy_text, noisy_spans
                break
        record = {"id": f"{prefix}-{len(records):05d}", "text": text, "spans": spans, "trip": rendered.trip,
                  "rewrite": rewrite_of(rendered.trip)}
        record["rewrite_typed"] = typed_rewrite(tokenizer, record)
        record["template"] = template.id
        records.append(record)
    return records


def generate_corpus(
    seed: int = 0,
    n_train: int = 8000,
    n_dev: int = 1500,
    noise_rate: float = 0.5,
    dev_fraction: float = 0.15,
    exclude_texts: Iterable[str] = (),
    label_single_end: bool = True,
    gazetteer: Optional[FrenchPlaces] = None,
) -> Tuple[List[Dict], List[Dict]]:
    """(train, dev) records in the travel JSONL format, plus "rewrite", "rewrite_typed"
    (see `records.typed_rewrite`) and "template".

    `exclude_texts`: sentences (e.g. of the hand-written evaluation sets) that must not be
    generated. `label_single_end`: in INVALID requests with only one end ("je veux aller à
    Lyon") that end still gets its DEPART / ARRIVEE span; the trip is null either way.
    """
    from ...regex_cache import blank

    check_non_negative_int("n_train", n_train)
    check_non_negative_int("n_dev", n_dev)
    if not 0 < dev_fraction < 1:
        raise ValueError(f"'dev_fraction' must be in (0, 1), got {dev_fraction!r}")
    gazetteer = gazetteer or make_french_places()
    split = make_split(gazetteer, seed, dev_fraction)
    exclude = {sentence_key(t) for t in exclude_texts}
    tokenizer = blank("fr").tokenizer  # the tokenizer's largest pattern from the start-up cache
    # A station whose name is also a commune's is answered as the commune (SNCF's "Marsac-sur-
    # L'isle" is Marsac-sur-l'Isle): draw the stations that are answered by their own name.
    stations = [n for n in gazetteer.station_names() if gazetteer.resolve(n) == n]
    ambiguous = [n for n in AMBIGUOUS if n in gazetteer]

    def drawer(main: _Pool, core: _Pool):
        def draw(rng: random.Random) -> str:
            r = rng.random()
            if r < 0.10:
                return rng.choice(stations)
            if r < 0.18:
                return rng.choice(ambiguous)
            # Big cities are what most people travel between; both splits share them.
            return core.draw(rng) if r < 0.40 else main.draw(rng)
        return draw

    core = _Pool([n for n in split.core_places if not gazetteer.is_station(n)], gazetteer)
    train_draw = drawer(_Pool(split.train_places, gazetteer), core)
    dev_draw = drawer(_Pool(split.dev_places, gazetteer), core)
    common: Dict[str, Any] = dict(noise_rate=noise_rate, exclude=exclude, label_single_end=label_single_end,
                                  tokenizer=tokenizer, gazetteer=gazetteer)
    train = _examples(n_train, split.train_templates, train_draw, random.Random(f"train-{seed}"),
                      "train", **common)
    dev = _examples(n_dev, split.dev_templates, dev_draw, random.Random(f"dev-{seed}"), "dev", **common)
    return train, dev
