"""`seqkit_trip`: the trip a request asks for, from its place mentions (`seqkit_places`) and what
the qualifiers said of them, read through the ordered steps its config names (`steps.py`), into
`doc._.trip`: the ends as place values, and `why`, the rules that decided."""

from dataclasses import replace
from typing import Any, Dict, Iterable, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from ...places.contract import Places, check_places
from ...places.place import Place
from ..base import LABELS, PLACE, ReadingPipe
from ..extensions import install_extensions
from ..mentions.component import KEY, PlaceMentions
from ..trip import Trip, trip_accuracy
from ..words import words_of
from .state import End, Reading
from .steps import DEFAULT_STEPS, trip_steps


def qualifier_classes() -> Dict[str, Any]:
    from ..qualifiers.alternative.alternative import Alternative
    from ..qualifiers.called_off.called_off import CalledOff
    from ..qualifiers.context.context import Context
    from ..qualifiers.language.language import LanguageQualifier
    from ..qualifiers.other_means.other_means import OtherMeans
    from ..qualifiers.ruled_out.ruled_out import RuledOut

    return {
        "seqkit_language": LanguageQualifier,
        "seqkit_called_off": CalledOff,
        "seqkit_other_means": OtherMeans,
        "seqkit_ruled_out": RuledOut,
        "seqkit_context": Context,
        "seqkit_alternative": Alternative,
    }


# The settings of `seqkit_trip` before its mentions and qualifiers were pipes of their own, and
# the steps `pair_ends = false` left out.
LEGACY = ("resolve_names", "known_places_only", "unknown_names", "french_only", "other_modes", "pair_ends")
PAIR_STEPS = ("pair_beside", "lone_end_reversed", "cued_ends", "lone_end_partner", "roles_reversed")
# The doc-level qualifiers whose rule makes a request no order, in the order they are read.
NO_ORDER = ("language", "other_means", "called_off")
RULING_OUT = {"ruled_out": ("negated", "corrected"), "context": ("home_before_pair", "abroad", "grew_up")}


def check_steps(steps: Sequence[str]) -> List[str]:
    known = trip_steps.get_all()
    unknown = [s for s in steps if s not in known]
    if unknown or not isinstance(steps, (list, tuple)):
        raise ValueError(
            f"seqkit_trip: steps must name registered steps ({', '.join(known)}), got {unknown or steps!r}"
        )
    return list(steps)


class TripResolver(ReadingPipe):
    """Reads the trip off a doc's place mentions: `doc._.trip` = {departure, arrival, steps,
    is_valid, *_text, *_place, why}. With `fix_ents`, `doc.ents` become the mentions the trip was
    read from, with the roles they ended up with. A doc without `doc.spans["places"]` (a pipeline
    saved before `seqkit_places` and the qualifiers were pipes of their own) is first read by them,
    with `legacy`: the settings such a pipeline gave `seqkit_trip`."""

    def __init__(
        self,
        name: str = "seqkit_trip",
        *,
        places: Optional[Places] = None,
        steps: Sequence[str] = tuple(DEFAULT_STEPS),
        fix_ents: bool = True,
        legacy: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.name, self._places, self.fix_ents = name, places, fix_ents
        self.legacy = {k: v for k, v in (legacy or {}).items() if v is not None}
        if self.legacy.get("pair_ends") is False:
            steps = [s for s in steps if s not in PAIR_STEPS]
        self.steps = [(step, trip_steps.get(step)) for step in check_steps(steps)]
        self._before: Optional[List[Any]] = None
        install_extensions()

    @property
    def mention_reader(self) -> PlaceMentions:
        return self.before[0]

    @property
    def before(self) -> List[Any]:
        """The pipes that read a doc before this one, for a doc none of them read."""
        if self._before is None:
            keys = ("resolve_names", "known_places_only", "unknown_names")
            settings = {k: self.legacy[k] for k in keys if k in self.legacy}
            self._before = [PlaceMentions(places=self.places, **settings)]
            for factory, cls in qualifier_classes().items():
                off = (factory == "seqkit_language" and self.legacy.get("french_only") is False) or (
                    factory == "seqkit_other_means" and self.legacy.get("other_modes") == "keep"
                )
                if not off:
                    self._before.append(cls(factory, places=self.places))
        return self._before

    def __call__(self, doc: Doc) -> Doc:
        if KEY not in doc.spans:
            for pipe in self.before:
                doc = pipe(doc)
        reading = self.read(doc)
        doc._.trip = {**trip_of(reading).to_dict(), "why": list(reading.why)}
        if self.fix_ents:
            others = [e for e in doc.ents if e.label_ not in LABELS]
            doc.ents = sorted(others + self.mentions_with_roles(reading), key=lambda e: e.start)
        return doc

    def read(self, doc: Doc, gold: bool = False) -> Reading:
        """The reading of `doc`, its steps run; with `gold`, of its entities alone (no qualifier,
        nothing written on the doc): what a reference doc's entities say."""
        if gold or KEY not in doc.spans:
            found, landmark = self.mention_reader.mentions(doc)
        else:
            found = [(span, span._.place) for span in doc.spans[KEY]]
            landmark = {s.start for s in doc.spans["landmarks"]} if "landmarks" in doc.spans else set()
        ends = tuple(end_of(span, place) for span, place in found if place is not None)
        read = tuple(e for e in ends if e.role != PLACE)
        reading = Reading(doc, words_of(doc), self.places, read=read, mentions=ends, landmarks=frozenset(landmark))
        said = doc._
        for attr in () if gold else NO_ORDER:
            rule = getattr(said, attr, None) if Doc.has_extension(attr) else None
            if rule:
                return replace(reading, read=(), invalid=f"{attr}.{rule}", why=(_why(doc, attr, rule),))
        for name, step in self.steps:
            before = reading
            reading = step(reading)
            if reading is before:  # most steps find nothing to do
                continue
            if reading.invalid:
                return replace(reading, why=reading.why + ({"rule": reading.invalid},))
            told = len(reading.why) > len(before.why)  # the step said why itself ("stops_as_ends" and its cue)
            if _decided(reading) != _decided(before) and name != "ruled_out" and not told:
                reading = replace(reading, why=reading.why + ({"rule": f"seqkit_trip.{name}"},))
        return reading

    def mentions_with_roles(self, reading: Reading) -> List[Span]:
        out: List[Span] = []
        for end, role in reading.roles():
            if not any(m.start == end.start for m in out):  # "Paris-Saint-Malo": one token, two places
                out.append(Span(reading.doc, end.start, end.end, label=role))
        return out

    def trip_from_spans(self, spans: Iterable[Span]) -> Trip:
        """The trip some DEPART / ARRIVEE / VIA entities say, read from their doc's words."""
        spans = [s for s in spans if s.label_ in LABELS]
        if not spans:
            return Trip()
        doc = spans[0].doc
        copy = Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
        copy.ents = [Span(copy, s.start, s.end, label=s.label_) for s in spans]
        return trip_of(self.read(copy, gold=True))

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, Any]:
        """Trip accuracy: the predicted trip equals the gold entities' trip (both ends, validity)."""
        return score_trips(examples, self)


def end_of(span: Span, place: Place) -> End:
    """A mention as an end, with what the qualifiers said of it."""
    said = span._
    ruled_out, context, other_means, alternative = (
        getattr(said, name) if Span.has_extension(name) else None
        for name in ("ruled_out", "context", "other_means", "alternative")
    )
    ruling = (("ruled_out", ruled_out), ("context", context))
    return End(
        span,
        place,
        span.label_,
        ruled_out=next((f"{attr}.{rule}" for attr, rule in ruling if rule in RULING_OUT[attr]), None),
        home=context in ("home", "home_before_pair"),
        brings_correction=ruled_out == "brings_correction",
        reversal_after=ruled_out == "reversal_after",
        other_leg=other_means == "other_leg",
        alternative=alternative,
    )


def _decided(reading: Reading) -> tuple:
    """What a step may change that says why: the ends read, the first departure and arrival, the stops."""
    return (reading.read, reading.departures[:1], reading.arrivals[:1], reading.stops)


def _why(doc: Doc, attr: str, rule: str) -> Dict[str, Any]:
    cue = next((c.get("cue") for c in doc._.cues or () if c.get("rule") == rule), None)
    return {"rule": f"{attr}.{rule}", **({"cue": cue} if cue else {})}


def trip_of(reading: Reading) -> Trip:
    if reading.invalid:
        return Trip()
    departure, arrival = reading.departures[:1], reading.arrivals[:1]
    return Trip(
        departure=departure[0].name if departure else None,
        arrival=arrival[0].name if arrival else None,
        steps=tuple(e.name for e in reading.stops),
        departure_text=reading.words.span(departure[0].start, departure[0].end) if departure else None,
        arrival_text=reading.words.span(arrival[0].start, arrival[0].end) if arrival else None,
        steps_text=tuple(reading.words.span(e.start, e.end) for e in reading.stops),
        departure_place=departure[0].place if departure else None,
        arrival_place=arrival[0].place if arrival else None,
        step_places=tuple(e.place for e in reading.stops),
    )


def score_trips(examples: Iterable[Example], resolver: Optional[TripResolver] = None) -> Dict[str, Any]:
    """Trip and validity accuracy of the predicted docs (their `doc._.trip`, else the trip of
    their entities) against the trips of the reference entities."""
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
    requires=["doc.spans"],
    default_config={
        "places": {"@misc": "spacy-seqkit.french_places.v1"},
        "steps": DEFAULT_STEPS,
        "fix_ents": True,
        **dict.fromkeys(LEGACY),
    },
    default_score_weights={"trip_acc": 1.0, "trip_exact_acc": 0.0, "trip_validity_acc": 0.0},
)
def make_trip_resolver(
    nlp: Language,
    name: str,
    places: Places,
    steps: List[str],
    fix_ents: bool,
    resolve_names: Optional[bool],
    known_places_only: Optional[bool],
    unknown_names: Optional[str],
    french_only: Optional[bool],
    other_modes: Optional[str],
    pair_ends: Optional[bool],
) -> TripResolver:
    """Sets `doc._.trip` = {departure, arrival, steps, is_valid, *_text, *_place, why} from the place
    mentions of `doc.spans["places"]` and their qualifiers, through `steps` in order (registered in
    `trip_steps`; leave one out to read without it). With `fix_ents`, `doc.ents` become the mentions
    the trip was read from, with their roles. A request that a qualifier finds asks for no trip
    (`doc._.language`, `doc._.other_means`, `doc._.called_off`) is INVALID.

    The other settings, null by default, are those of the pipelines saved before `seqkit_places`
    and the qualifiers were pipes of their own: such a pipeline loads and answers as it did (its
    mentions and qualifiers read here, docs/changes.md)."""
    check_places(name, places)
    legacy = dict(zip(LEGACY, (resolve_names, known_places_only, unknown_names, french_only, other_modes, pair_ends)))
    if legacy["other_modes"] not in (None, "invalid", "keep"):
        raise ValueError(f"seqkit_trip: other_modes must be one of 'invalid', 'keep', got {other_modes!r}")
    return TripResolver(name, places=places, steps=steps, fix_ents=fix_ents, legacy=legacy)
