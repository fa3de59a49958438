"""A station's name is one place: the recognizer sometimes cuts it ("angers" DEPART + "st laud"
VIA for Angers Saint-Laud) or marks only its town ("limoges" of "limoges benedictins"). Each
mention is widened, over the words right beside it, to the longest run that names a station
of the places; the mentions it covers become one, with the first one's role."""

from typing import List, Optional

from spacy.tokens import Span

from ..places.contract import Places
from ..places.place import STATION

# How many words a mention may grow by on each side: "Le Creusot" + "Montceau Montchanin TGV".
MAX_EXTRA_WORDS = 4
# A mention longer than this is no station name cut short (and is not widened).
MAX_MENTION_WORDS = 8


def _joinable(span: Span) -> bool:
    """Words that may belong to a station's name: no punctuation but a dash or an apostrophe."""
    return all(not t.is_punct or t.text in {"-", "'", "’"} for t in span) and not any(t.is_space for t in span)


def _name_word(token) -> bool:
    """A word a station's name may go on with beside a mention: "Lille" + "Flandres"."""
    return token.is_alpha and not token.is_stop


def widest_station(span: Span, places: Places, before: Optional[Span] = None) -> Optional[Span]:
    """The longest run of words around `span` that spells a station's name exactly (no typo
    correction: "Massy à Palaiseau" is no Massy - Palaiseau) and is longer than the span,
    with at least one word of its own that is not a function word ("Paris est" is no Paris
    Est); it may cover the mention `before` it, not cut it."""
    doc = span.doc
    # Most mentions stand between function words ("de Marseille à Paris"): nothing to try.
    left = span.start > 0 and _name_word(doc[span.start - 1])
    right = span.end < len(doc) and _name_word(doc[span.end])
    if not (left or right):
        return None
    lowest = max((before.start if before is not None else 0) if left else span.start, span.start - MAX_EXTRA_WORDS)
    if before is not None and before.start < lowest < before.end:
        lowest = before.end
    highest = min(len(doc), span.end + MAX_EXTRA_WORDS) if right else span.end
    # One pass over the window: the runs of words that spell a place exactly, longest first.
    for start, end in places.name_spans([t.text for t in doc[lowest:highest]], MAX_EXTRA_WORDS * 2 + len(span)):
        start, end = start + lowest, end + lowest
        if start > span.start or end < span.end or end - start == len(span):
            continue
        if before is not None and before.start < start < before.end:
            return None  # it would cut the mention before it
        extra = list(doc[start : span.start]) + list(doc[span.end : end])
        if not any(_name_word(t) for t in extra) or not _joinable(doc[start:end]):
            return None
        place = places.place(doc[start:end].text)
        return doc[start:end] if place is not None and place.kind == STATION else None
    return None


def join_station_names(spans: List[Span], places: Places) -> List[Span]:
    """The mentions (sorted by start), each widened to the station name it is part of, the
    mentions a widened one covers merged into it (it keeps the first one's label)."""
    out: List[Span] = []
    for span in spans:
        if out and span.start < out[-1].end:
            continue  # inside a mention already widened
        wide = widest_station(span, places, out[-1] if out else None) if len(span) <= MAX_MENTION_WORDS else None
        if wide is None:
            out.append(span)
            continue
        label = span.label_
        while out and out[-1].start >= wide.start:  # a mention before it, now part of it
            label = out.pop().label_
        out.append(Span(span.doc, wide.start, wide.end, label=label))
    return out
