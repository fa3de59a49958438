"""`spacy-seqkit.place_suggester.v1`: the candidate ends a span categorizer gives a role to
(`spancat_singlelabel`, DEPART / ARRIVEE / VIA or none): every run of words that names a known
place exactly, whether the recognizer marked it or not, and the recognizer's own mentions (the
places the index does not know, typos). `seqkit_places` reads the roles it gives."""

from typing import Callable, Iterable, List, Optional, cast

import numpy
from spacy.tokens import Doc
from thinc.api import Ops, Ragged, get_current_ops
from thinc.types import Ints1d, Ints2d

from ...places.contract import Places, check_places
from ..base import LABELS
from ..words import words_of

Suggester = Callable[..., Ragged]


def place_candidates(doc: Doc, places: Places, with_entities: bool = True) -> List[tuple]:
    """(start, end) of the candidate ends of `doc`, in order."""
    found = set(words_of(doc).name_spans(places))
    if with_entities:
        found.update((e.start, e.end) for e in doc.ents if e.label_ in LABELS)
    return sorted(found)


def make_place_suggester(places: Places, with_entities: bool = True) -> Suggester:
    """Suggests the known places of each doc (`Places.name_spans`: exact names, no typo reading)
    and, with `with_entities`, its DEPART / ARRIVEE / VIA entities (in training, the recognizer's
    predictions when it is an annotating component).

    places (Places): The places (`spacy-seqkit.french_places.v1`).
    with_entities (bool): Also suggest the recognizer's mentions. Recommended value: true.
    """
    check_places("spacy-seqkit.place_suggester.v1", places, needs=("name_spans",))

    def suggest(docs: Iterable[Doc], *, ops: Optional[Ops] = None) -> Ragged:
        ops = ops or get_current_ops()
        spans, lengths = [], []
        for doc in docs:
            found = place_candidates(doc, places, with_entities)
            spans.extend(found)
            lengths.append(len(found))
        data = cast(Ints2d, numpy.asarray(spans, dtype="int32").reshape((-1, 2)))
        return Ragged(ops.asarray2i(data), ops.asarray1i(cast(Ints1d, numpy.asarray(lengths, dtype="int32"))))

    return suggest
