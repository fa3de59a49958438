"""`seqkit_trip`: turns DEPART / ARRIVEE / VIA entities into `doc._.trip`."""

from typing import Any, Dict, Iterable, List, Optional, Set, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..places.contract import Places, check_places
from ..places.names import FOREIGN_PLACES, normalise
from ..places.place import Place
from .alternatives import has_alternative
from .called_off import asks_for_no_trip
from .cued_ends import cued_ends, lone_end_reversed, roles_reversed
from .extensions import install_extensions
from .homonyms import settle_homonyms, with_contracted_article
from .landmarks import without_landmarks
from .language import is_foreign_doc
from .modes import check_other_modes, other_mode_legs
from .pairs import cued_first, pair_beside, run_together, then_chained
from .ruled_out import is_ruled_out, where_one_is
from .station_names import ends_a_station_name, join_station_names
from .trip import LABELS, Trip, trip_accuracy
from .written import ShoutingText, capital_of_the_sentence, check_unknown_names, looks_like_name

# The longest run of tokens read as one place name inside a longer mention
# ("Saint Jean Pied de Port", "Aéroport Charles de Gaulle 2 TGV").
MAX_NAME_TOKENS = 8
# A name right after one of these, or starting with one, is a place abroad ("Londres St Pancras");
# not "Europe", which ends French stations' names ("Lille Europe").
_FOREIGN_CITIES = FOREIGN_PLACES - {"europe"}


class TripResolver:
    """Reads the trip off a doc's entities.

    A request that travels by another means than the train ("en voiture", "un vol") and
    asks for no train is INVALID with `other_modes = "invalid"`; one that also asks for a
    train is read off its train's leg (`modes.py`). A place the request rules out ("pas
    Hendaye", "à Sedan, non pardon, à Reims") is dropped (`ruled_out.py`).

    Each DEPART / ARRIVEE / VIA mention is resolved to a place of `places` (case-
    and accent-insensitive, then fuzzy for typos). With `known_places_only`, a
    mention that names no known place is read as the known places inside it
    ("avignon comment" → avignon; "Metz - Paris" → Metz, Paris); with none inside,
    it is kept as typed when written as a name ("Port-Boulet"), else dropped:
    "samedi" or "tarif senior" are not places, whatever the recognizer thought.
    Without it, an unknown mention is kept as typed.

    Then the roles are repaired where the recognizer is known to slip:
    - two places with one role: the first in reading order departs, the next arrives;
    - an end missing while stops exist: the first stop departs, the last arrives;
    - one departure then several arrivals and no stop ("Paris → Dijon → Lyon"): the
      last arrival is the arrival, the ones between are stops;
    - one end only, a known place right beside it ("albi carmaux") or after a word that
      says which end it is ("pr perpignan"): that place is the other end (`pair_ends`,
      `cued_ends.py`); two ends the words before them say are reversed swap.
    Otherwise the departure is the first DEPART and the arrival the first ARRIVEE; a name
    several communes share is the one beside the other end (`homonyms.py`). A trip is
    valid with two different ends, neither offered with an alternative ("de Nîmes ou
    d'Arles"), in a request written in French (`french_only`).

    With `fix_ents` (the default), `doc.ents` become the mentions the trip was read from, with
    the roles they ended up with ("paris lyon" tagged as one DEPART becomes DEPART "paris" +
    ARRIVEE "lyon"; "samedi" tagged DEPART is no entity any more).
    """

    def __init__(
        self,
        name: str = "seqkit_trip",
        *,
        places: Optional[Places] = None,
        resolve_names: bool = True,
        known_places_only: bool = True,
        fix_ents: bool = True,
        french_only: bool = True,
        pair_ends: bool = True,
        other_modes: str = "invalid",
        unknown_names: str = "drop",
    ) -> None:
        self.name = name
        self.other_modes = check_other_modes(other_modes)
        self.unknown_names = check_unknown_names(unknown_names)
        self.pair_ends = pair_ends
        self.fix_ents = fix_ents
        self.french_only = french_only
        self.resolve_names = resolve_names
        self.known_places_only = known_places_only
        self._places = places
        install_extensions()

    @property
    def places(self) -> Places:
        # Built on first use: a resolver made for its rules alone (gold trips) costs nothing.
        if self._places is None:
            from ..places.registry import make_french_places

            self._places = make_french_places()
        return self._places

    def mentions(self, span: Span, shouting: Union[bool, ShoutingText, None] = None) -> List[Tuple[Span, Place]]:
        """The (mention, place) pairs a span names, in reading order; each mention
        is the span itself or a part of it.

        A span that names a known place as a whole is that place. Otherwise, with
        `known_places_only`, it is read left to right as its longest known runs of
        tokens: "avignon comment" → [avignon]; "Metz - Paris" or "grenoble marseille",
        two ends the recognizer ran together, → [Metz, Paris]. Function words that
        happen to be village names ("vers", "par") count only when nothing else in
        the span is a place. A span with no known place in it is kept as typed
        when it is written as a name ("Port-Boulet") and `places` does not
        exclude it (a foreign city, a type word), else dropped ("samedi").
        Without `known_places_only`, an unknown mention is kept as typed.
        """
        if not self.resolve_names:
            return [(span, Place.unknown(span.text))]
        before = span.doc[max(0, span.start - 1) : span.start + (len(span) > 1)]
        if any(normalise(t.text) in _FOREIGN_CITIES for t in before):
            return []  # "Londres St Pancras", "Genève Cornavin": a station abroad, no French place
        if len(span) > 1 and span[-1].is_stop and span[-1].is_lower and not ends_a_station_name(span):
            # "Paris est à quelle heure": a function word the recognizer took in is no part of a name
            # (but "depuis paris est mercredi" names Paris Est).
            head = self.places.place(span[:-1].text)
            if head is not None:
                return [(span[:-1], head)]
        place = with_contracted_article(span, self.places) or self.places.place(span.text)
        if place is not None and capital_of_the_sentence(span) and self.places.place(span.text.lower()) is None:
            return []  # "La réunion est à Toulouse": as "la réunion", a word, not La Réunion (Lot-et-Garonne)
        if place is not None and not (self.known_places_only and run_together(span, self.places)):
            return [(span, place)]
        if not self.known_places_only:
            return [(span, Place.unknown(span.text))]
        found: List[Tuple[Span, Place]] = []
        function_words: List[Tuple[Span, Place]] = []
        start, n = 0, len(span)
        while start < n:
            for end in range(min(n, start + MAX_NAME_TOKENS), start, -1):
                part = span[start:end]
                if len(part) == len(span) or part[0].is_punct or part[-1].is_punct or not any(t.is_alpha for t in part):
                    continue
                if len(part) > 1 and part[-1].is_stop and part[-1].is_lower and not ends_a_station_name(part):
                    continue  # "Lens mais finalement": no name ends in a function word ("Les Mais" is no read)
                place = self.places.place(part.text)
                if place is not None:
                    is_function_word = len(part) == 1 and part[0].is_stop
                    (function_words if is_function_word else found).append((part, place))
                    start = end
                    break
            else:
                start += 1
        if found or function_words:
            return found or function_words[:1]
        # A place `places` lacks (hamlets, stations such as "Port-Boulet") is
        # kept as typed when it is written as a name; lowercase words the
        # recognizer took for places ("samedi") still drop out, and so do foreign
        # cities ("Londres") and type words ("Gare").
        if self.unknown_names == "drop" or not looks_like_name(span, shouting) or self.places.is_excluded(span.text):
            return []
        return [(span, Place.unknown(span.text))]

    def trip_from_spans(self, spans: Iterable[Span]) -> Trip:
        return self.read(spans)[0]

    def read(self, spans: Iterable[Span], doc: Optional[Doc] = None) -> Tuple[Trip, List[Span]]:
        """The trip of some DEPART / ARRIVEE / VIA spans (of `doc`, where given: its words
        may name an end no span holds), and the place mentions it was read from, labelled
        with the roles they ended up with."""
        places = []  # (label, mention, place) in reading order
        spans = sorted((s for s in spans if s.label_ in LABELS), key=lambda s: s.start)
        doc = spans[0].doc if spans else doc
        if self.resolve_names and spans:
            spans = join_station_names(spans, self.places)
        if self.french_only and doc is not None and is_foreign_doc(doc):
            # "I need a train from Paris to Lyon": a request in another language is no order.
            return Trip(), []
        other_legs = other_mode_legs(doc, spans) if self.other_modes == "invalid" and doc is not None else set()
        if other_legs is None or (doc is not None and asks_for_no_trip(doc)):
            # another means; a trip called off, or told and not asked for
            return Trip(), []
        landmark: Set[int] = set()
        if self.resolve_names and doc is not None and spans:
            # "vers la Porte Dorée", "la Tour Eiffel": a landmark's words are no ends
            spans, landmark = without_landmarks(doc, spans, self.places)
        shouting = ShoutingText(doc) if doc is not None else None
        for span in spans:
            for mention, place in self.mentions(span, shouting):
                places.append((span.label_, mention, place))
        starts = {p[1].start for p in places}
        mentioned = [p[1] for p in places]
        if doc is not None:  # a landmark's words are no place a cue may name either
            mentioned += [doc[i : i + 1] for i in sorted(landmark)]
        places = [p for p in places if not is_ruled_out(p[1], starts)]
        by_train = [p for p in places if p[1].start not in other_legs]
        if len({p[2].name for p in by_train}) >= 2:  # "en voiture de Lyon à Dijon, puis le train pour Sens"
            places = by_train
        departures = [p for p in places if p[0] == "DEPART"]
        arrivals = [p for p in places if p[0] == "ARRIVEE"]
        if not departures and len(arrivals) >= 2:
            departures, arrivals = arrivals[:1], arrivals[1:]
        elif not arrivals and len(departures) >= 2:
            departures, arrivals = departures[:1], departures[1:]
        steps = [p for p in places if p[0] == "VIA" and not where_one_is(p[1])]  # not "je bosse à Sens"
        # An end the recognizer was unsure of often comes out as a stop ("je monte
        # à Niort et je descends à Poitiers" read as two stops): a trip missing an
        # end takes it from the stops, the first for the departure, the last for
        # the arrival.
        if steps and arrivals and all(where_one_is(a[1]) for a in arrivals):
            arrivals = []  # "je rentre au Mans, et la semaine je travaille à Paris": Le Mans
        if not arrivals and steps:
            arrivals, steps = steps[-1:], steps[:-1]
        if not departures and steps:
            departures, steps = steps[:1], steps[1:]
        if (
            departures
            and len(arrivals) >= 2
            and not steps
            and (departures[0] == places[0] or then_chained([p[1] for p in arrivals]))
        ):
            # "Paris → Dijon → Lyon", "aller à Lisieux puis Rouen en partant de Caen": a chain read
            # as one departure and several arrivals ends at its last place; the ones between are stops.
            steps, arrivals = arrivals[:-1], arrivals[-1:]
        departures, arrivals = cued_first(departures, "DEPART"), cued_first(arrivals, "ARRIVEE")
        if departures and len(arrivals) > 1 and arrivals[0][2].name == departures[0][2].name:
            arrivals = arrivals[1:] + arrivals[:1]  # "je bosse à Grenoble, ... de Grenoble à Valence"
        if self.pair_ends and not steps and bool(departures) != bool(arrivals):
            # "albi carmaux" with only "carmaux" found: a known place right beside the one
            # end, joined by nothing or by "-", "/", "->", "et", is the other end ("Saint-Étienne
            # Lille Europe" with Lille Europe read as the departure: the first departs).
            end = (departures or arrivals)[0]
            pair = pair_beside(end, places, self.places, MAX_NAME_TOKENS)
            if pair is not None:
                other = next(p[1] for p in pair if p[1] is not end[1])
                if not any(i in landmark for i in range(other.start, other.end)):
                    places = sorted([p for p in places if p is not end] + list(pair), key=lambda p: p[1].start)
                    departures, arrivals = [pair[0]], [pair[1]]
        if self.pair_ends and self.resolve_names and not steps and doc is not None:
            # An end the recognizer missed, after the word that says which ("entre X et Y"); two
            # ends the words before them say are the other way round ("le lioran depuis aurillac").
            if lone_end_reversed(departures, arrivals, self.places, mentioned):  # "je viens de Brive" as an arrival
                departures, arrivals = arrivals, departures
            for new in cued_ends(doc, self.places, departures, arrivals, mentioned, starts):
                (departures if new[0] == "DEPART" else arrivals).append(new)
                places = sorted(places + [new], key=lambda p: p[1].start)
        if self.pair_ends and self.resolve_names and doc is not None:
            # "me rendre à Gap de Briançon en passant par Die": the words before the ends say
            # they are the other way round, stops or not
            if len(departures) == 1 == len(arrivals) and roles_reversed(departures[0][1], arrivals[0][1]):
                departures, arrivals = arrivals, departures
        if self.resolve_names:  # "depuis etaples jusqu'a boulogne": Boulogne-sur-Mer, beside Étaples
            settle_homonyms(departures, arrivals, places, self.places, steps)
        if departures and arrivals and steps and arrivals[0][2].name == departures[0][2].name:
            arrivals, steps = steps[-1:], steps[:-1]  # "de Brest à Quimper, je rentre à Brest lundi"
        if any(has_alternative(p[1], places, self.places) for p in departures[:1] + arrivals[:1]):
            # "de Nîmes ou d'Arles à Aix": an end in doubt makes no single trip.
            departures, arrivals, steps = [], [], []
        trip = Trip(
            departure=departures[0][2].name if departures else None,
            arrival=arrivals[0][2].name if arrivals else None,
            steps=tuple(p[2].name for p in steps),
            departure_text=departures[0][1].text if departures else None,
            arrival_text=arrivals[0][1].text if arrivals else None,
            steps_text=tuple(p[1].text for p in steps),
            departure_place=departures[0][2] if departures else None,
            arrival_place=arrivals[0][2] if arrivals else None,
            step_places=tuple(p[2] for p in steps),
        )
        roles = {id(p): "DEPART" for p in departures[:1]}
        roles.update({id(p): "ARRIVEE" for p in arrivals[:1]})
        roles.update({id(p): "VIA" for p in steps})
        mentions: List[Span] = []
        for found in places:
            label, mention = found[0], found[1]
            if not any(m.start == mention.start for m in mentions):  # "Paris-Saint-Malo": one token, two places
                mentions.append(Span(mention.doc, mention.start, mention.end, label=roles.get(id(found), label)))
        return trip, mentions

    def __call__(self, doc: Doc) -> Doc:
        trip, mentions = self.read(doc.ents, doc)
        doc._.trip = trip.to_dict()
        if self.fix_ents:
            others = [e for e in doc.ents if e.label_ not in LABELS]
            doc.ents = sorted(others + mentions, key=lambda e: e.start)
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in docs:
            yield self(doc)

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, Any]:
        """Trip accuracy: the predicted trip equals the gold entities' trip (both ends, validity)."""
        return score_trips(examples, self)

    # Stateless apart from its settings, which live in the config: nothing to save.
    def to_bytes(self, *, exclude=tuple()) -> bytes:
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "TripResolver":
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        return None

    def from_disk(self, path, *, exclude=tuple()) -> "TripResolver":
        return self


def score_trips(examples: Iterable[Example], resolver: Optional[TripResolver] = None) -> Dict[str, Any]:
    """Trip and validity accuracy of the predicted docs (their `doc._.trip`, else the
    trip of their entities) against the trips of the reference entities."""
    resolver = resolver or TripResolver()

    def pairs():
        for eg in examples:
            predicted = eg.predicted._.trip
            yield (
                Trip.from_dict(predicted) if predicted else resolver.trip_from_spans(eg.predicted.ents),
                resolver.trip_from_spans(eg.reference.ents),
            )

    return trip_accuracy(pairs())


@Language.factory(
    "seqkit_trip",
    assigns=["doc._.trip", "doc.ents"],
    requires=["doc.ents"],
    default_config={
        "places": {"@misc": "spacy-seqkit.french_places.v1"},
        "resolve_names": True,
        "known_places_only": True,
        "fix_ents": True,
        "french_only": True,
        "pair_ends": True,
        "other_modes": "invalid",
        "unknown_names": "drop",
    },
    default_score_weights={"trip_acc": 1.0, "trip_exact_acc": 0.0, "trip_validity_acc": 0.0},
)
def make_trip_resolver(
    nlp: Language,
    name: str,
    places: Places,
    resolve_names: bool,
    known_places_only: bool,
    fix_ents: bool,
    french_only: bool,
    pair_ends: bool,
    other_modes: str,
    unknown_names: str,
) -> TripResolver:
    """Sets `doc._.trip` = {departure, arrival, steps, is_valid, *_text} from the
    DEPART / ARRIVEE / VIA entities, each end a place value (`Place`) of `places` (any
    registered function returning an object of the place contract, `places.contract.Places`).
    With `fix_ents`, `doc.ents` are rewritten to the place mentions the trip was
    read from, with their repaired roles. With `french_only`, a request written in
    another language (English, Spanish, German, Italian) is INVALID. With `pair_ends`,
    a request with one end found (or none) takes as its other end a known place right beside
    it ("albi carmaux") or after a word that says which end ("le TER entre Mâcon et Tournus",
    "je pars de prades pr perpignan"). `other_modes`: "invalid" (a request by
    car, plane, coach, boat, bike, on foot... that asks for no train is INVALID) or "keep"
    (read its places all the same). A place the request rules out ("pas Hendaye", "à
    Sedan, non pardon, à Reims") is never an end. `unknown_names`: "drop" (only known places
    are ends: measured better on every hand-written set once SNCF's stations are places) or
    "keep" (a name no place of `places` holds, nor a typo of one, is an end as typed when it
    is written as a name)."""
    check_places("seqkit_trip", places)
    return TripResolver(
        name,
        places=places,
        resolve_names=resolve_names,
        known_places_only=known_places_only,
        fix_ents=fix_ents,
        french_only=french_only,
        pair_ends=pair_ends,
        other_modes=check_other_modes(other_modes),
        unknown_names=check_unknown_names(unknown_names),
    )
