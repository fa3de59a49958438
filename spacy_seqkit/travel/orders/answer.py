"""Answering orders with a pipeline: a batch of orders in, their answers out (`Answer`),
the trip a pipeline answered (`trip_of`: the trip component's, or the rewriter's), the UIC
codes of the stations serving its places (`trip_stations`, what a route starts from, and
`trip_communes`, their communes' INSEE codes, for a place without station: routes
themselves, and their graph library, are loaded only by `routing.py`), and the pipeline made
ready to answer (`prepare_pipeline`; loaded so by `load_answering`)."""

import gc
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple, Union

from spacy.tokens import Doc

from ...regex_cache import load
from ..pipeline.extensions import install_extensions
from ..pipeline.reading import add_reading
from ..pipeline.trip import INVALID, Trip, rewrite_places
from ..places.place import Place
from ..places.registry import make_french_places
from .format import Answer, Order, clean_text, limit_error

Codes = Tuple[str, ...]

# Orders whose words a pipeline keeps: its first ones (`answer_batch`).
WARM_ORDERS = 10_000
# New objects after which the collector's youngest generation is collected while answering (`fewer_collections`).
YOUNG_OBJECTS = 10_000
_warmed: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # pipeline → orders kept


def answer_orders(nlp, orders: Iterable[Order], batch_size: int = 64) -> Iterator[Answer]:
    """The answers to the orders, in order, through `nlp.pipe`. A malformed
    order, or one over the limits, is answered INVALID with its reason."""

    def texts() -> Iterator[Tuple[str, Tuple[Order, Optional[str]]]]:
        for order in orders:
            sentence = clean_text(order.sentence)
            error = order.error or limit_error(sentence, nlp.max_length)
            yield ("" if error else sentence), (order, error)

    for doc, (order, error) in nlp.pipe(texts(), as_tuples=True, batch_size=batch_size):
        trip = Trip() if error else trip_of(doc)
        values = trip_values(trip)
        yield Answer(
            order.line,
            clean_text(order.id),
            tuple(trip.places()),
            error,
            tuple(tuple(v.uics) if v is not None else () for v in values),
            tuple(v.insee if v is not None else None for v in values),
            order.sentence if values else "",
            tuple(v.kind if v is not None else "" for v in values),
            tuple(doc._.trip.get("why") or ()) if not error and doc.has_extension("trip") and doc._.trip else (),
        )


def trip_values(trip: Trip, places=None) -> List[Optional[Place]]:
    """The place value of each place of the trip (departure, stops, arrival), or looked up
    in `places` (default: the French places) where a trip has none (a rewriter's answer);
    [] for an INVALID trip."""
    if not trip.is_valid:
        return []
    values: List[Optional[Place]] = [trip.departure_place, *trip.step_places, trip.arrival_place]
    names = trip.places()
    if len(values) != len(names) or any(v is None for v in values):
        places = places or make_french_places()
        values = [places.place(name) for name in names]
    return values


def trip_stations(trip: Trip, places=None) -> Tuple[Codes, ...]:
    """The UIC codes serving each place of the trip (departure, stops, arrival); () for an
    INVALID trip."""
    return tuple(tuple(v.uics) if v is not None else () for v in trip_values(trip, places))


def trip_communes(trip: Trip, places=None) -> Tuple[Optional[str], ...]:
    """The INSEE code of the commune of each place of the trip (None where it has none), from
    which a place without a station is served by the nearest ones; () for an INVALID trip."""
    return tuple(v.insee if v is not None else None for v in trip_values(trip, places))


def answer_batch(nlp, orders: Iterable[Order], batch_size: int = 64) -> List[Answer]:
    """`answer_orders` for a run of orders (a partition, a request), in one spaCy memory
    zone: the strings and lexemes the pipeline adds for their words are freed afterwards,
    so that a process answering millions of orders, each with its own names and typos,
    or a service that runs for days, keeps a vocabulary of flat size. (The answers are
    plain strings: nothing of the docs is kept.)

    Inside a memory zone spaCy's tokenizer caches nothing (`Tokenizer._save_cached`): every
    word of every order would be split by the prefix, suffix and exception rules again.
    So the words of the first WARM_ORDERS orders a pipeline answers (over its first runs)
    are tokenized outside it, once, and kept with their tokenizations: the words requests
    share ("je", "veux", "billet", "Paris"...) are read from the cache afterwards (a bounded,
    one-time addition, some 15,000 words for 10,000 generated orders; the answers are the
    same). Keeping the words of 10,000 orders rather than 1,000 made tokenizing 100,000
    generated orders in memory zones 7.7 s → 5.0 s."""
    orders = list(orders)
    warmed = _warmed.get(nlp, 0)
    if warmed < WARM_ORDERS:
        _warmed[nlp] = warmed + min(len(orders), WARM_ORDERS - warmed)
        for order in orders[: WARM_ORDERS - warmed]:
            text = clean_text(order.sentence)
            if not (order.error or limit_error(text, nlp.max_length)):
                nlp.make_doc(text)
    with fewer_collections(), nlp.memory_zone():
        return list(answer_orders(nlp, orders, batch_size))


@contextmanager
def fewer_collections(young: int = YOUNG_OBJECTS):
    """Within the block, the garbage collector collects its youngest generation after `young`
    new objects instead of Python's 700 (and the older ones as many times less often). A
    pipeline makes and drops objects by the million (tokens, spans, places, dicts), almost all
    freed by their reference counts, and each collection also walked the generation they had
    been promoted to: on 49,000 generated orders, 3,153 young and 296 older collections took
    2.8 s of the 33 s (8 %); with 10,000, 334 collections took 0.6 s and answering was 10 %
    faster, the answers the same. The previous thresholds come back after the block (a caller
    that collects less often already is left alone)."""
    old = gc.get_threshold()
    if old[0] >= young:
        yield
        return
    gc.set_threshold(young, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def rewrite_trip(rewrite: Optional[str], nbest: Optional[List] = None, gazetteer=None) -> Trip:
    """The trip of a rewriter's answer, names resolved: the best rewrite of the
    n-best list (text, score) that names only places the gazetteer knows, else
    INVALID if the list holds it, else the best rewrite as it is. (The rewriter
    answers INVALID when unsure, often with the right trip close behind: on the
    hand-written and generated dev sets, preferring a known trip to INVALID
    gains 4 and 1 points of trip accuracy over a plain best-first choice.)"""
    gazetteer = gazetteer or make_french_places()
    texts = [text for text, _ in nbest or []]
    known = [t for t in texts if _known_places(t, gazetteer)]
    if known:
        chosen = known[0]
    elif any(t.strip() == INVALID for t in texts):
        chosen = INVALID
    else:
        chosen = rewrite

    def answered(text: str) -> Optional[str]:  # a station by the name it was written with
        place = gazetteer.place(text)
        return place.name if place is not None else None

    return Trip.from_rewrite(chosen, answered)


def _known_places(text: str, gazetteer) -> bool:
    """A trip whose places all name places the gazetteer knows."""
    parts = rewrite_places(text)
    return parts is not None and all(gazetteer.resolve(p) is not None for p in parts)


def trip_of(doc: Doc) -> Trip:
    """The trip a pipeline answered: `doc._.trip` from the trip component, else
    the rewriter's `doc._.rewrite` (n-best list and gazetteer: `rewrite_trip`)."""
    if Doc.has_extension("trip") and doc._.trip is not None:
        return Trip.from_dict(doc._.trip)
    if Doc.has_extension("rewrite") and doc._.rewrite is not None:
        nbest = doc._.rewrite_nbest if Doc.has_extension("rewrite_nbest") else None
        return rewrite_trip(doc._.rewrite, nbest)
    return Trip()


@contextmanager
def numpy_matmul():
    """Within the block, the thinc layers a pipeline builds on the CPU (the embedding's
    Maxout and static-vector projection, the recognizer's hidden layer) multiply matrices
    with numpy's matmul (its BLAS, OpenBLAS in numpy's wheels) instead of BLIS: thinc's own
    switch, `NumpyOps(use_blis=False)`. On the 2-core AMD EPYC machines this project runs on,
    BLIS's matrix product was 2.5-3x slower than numpy's, and the tok2vec a quarter slower
    with it; the answers to the hand-written sets and to 20,000 generated orders were the same
    either way. GPU ops, or any other CPU ops set by the caller, are left alone."""
    from thinc.api import NumpyOps, get_current_ops, use_ops

    if type(get_current_ops()) is not NumpyOps:
        yield
        return
    with use_ops("numpy", use_blis=False):
        yield


def load_answering(model: Union[str, Path]):
    """The pipeline `model` (a folder or a package) loaded to answer orders: with the
    start-up cache of large patterns (`regex_cache.load`), numpy's matrix product
    (`numpy_matmul`), without its vocab's strings, and made ready (`prepare_pipeline`).

    The strings a pipeline saves are mostly its static vectors' words (730,000 of
    fr_core_news_md's: 0.45 s and 130 MB of a start that takes 3.5 s), which nothing that
    answers reads: a vector is found by the hash of a token's text, and every string an
    answer prints (a token's text, a label, a place's name) is added when it is made. So
    they stay on disk (`exclude=["strings"]`, a field of spaCy's vocab serialization); a
    pipeline loaded so answers as `spacy.load` loads it, and is not saved again."""
    with numpy_matmul():
        return prepare_pipeline(load(model, exclude=["strings"]))


def explaining(nlp, explain: bool = True):
    """`nlp` with its qualifiers recording the cues that fired (`explain`), or not: the answers'
    `why` then holds the cue of each rule a qualifier fired."""
    for _, pipe in nlp.pipeline:
        if hasattr(pipe, "explain"):
            pipe.explain = explain
    return nlp


def prepare_pipeline(nlp):
    """Make sure a loaded pipeline answers trips: add the reading pipes (`add_reading`: its place
    mentions, the qualifiers, `seqkit_trip`) after an entity recognizer that lacks them; a
    pipeline with `seqkit_trip` keeps its own; a rewriter answers by itself."""
    install_extensions()
    factories = set(nlp.pipe_factories.values())
    if factories & {"seqkit_trip", "seqkit_rewriter"}:
        return nlp
    if "ner" in nlp.pipe_names or factories & {"ner", "entity_ruler"}:
        return add_reading(nlp)
    raise ValueError(
        f"The pipeline (components: {nlp.pipe_names}) has neither an entity recognizer "
        "nor a 'seqkit_rewriter': it cannot answer travel orders"
    )
