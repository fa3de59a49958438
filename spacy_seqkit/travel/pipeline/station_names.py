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


def widest_station(span: Span, places: Places, before: Optional[Span] = None) -> Optional[Span]:
    """The longest run of words around `span` that spells a station's name exactly (no typo
    correction: "Massy à Palaiseau" is no Massy - Palaiseau) and is longer than the span,
    with at least one word of its own that is not a function word ("Paris est" is no Paris
    Est); it may cover the mention `before` it, not cut it."""
    doc, best = span.doc, None
    lowest = before.start if before is not None else 0
    for start in range(span.start, max(lowest, span.start - MAX_EXTRA_WORDS) - 1, -1):
        if before is not None and before.start < start < before.end:
            continue
        for end in range(min(len(doc), span.end + MAX_EXTRA_WORDS), span.end - 1, -1):
            if (start, end) == (span.start, span.end) or (best is not None and end - start <= len(best)):
                continue
            extra = list(doc[start : span.start]) + list(doc[span.end : end])
            if not any(t.is_alpha and not t.is_stop for t in extra) or not _joinable(doc[start:end]):
                continue
            words = [t.text for t in doc[start:end]]
            if places.name_spans(words) != [(0, len(words))]:  # spelled exactly, no typo read in
                continue
            place = places.place(doc[start:end].text)
            if place is not None and place.kind == STATION:
                best = doc[start:end]
    return best


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
