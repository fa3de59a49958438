"""`seqkit_place_marker`: shows the recognizer which words spell a known place name.

Before `tok2vec`, every token of a run that spells a place of the gazetteer exactly (case,
accents and hyphens aside: "langres", "PORT VENDRES", "Saint-Germain-en-Laye") gets the token
norm `MARKER`. The embedding's `NORM` feature then tells the recognizer "a place name", the
same whether the name is common or rare, capitalised or not, while the other features
(prefix, suffix, shape, static vectors) still tell which word it is; the recognizer learns
from the context whether the place is an end of the trip, a stop, or no place at all ("les
rillettes de Tours"). Lowercase rare names were what the recognizer missed most on requests
written by other people ("de langres a chaumont").

In training, name it in `[training] annotating_components`, so that the docs the recognizer
learns from are marked as the docs it will read.
"""

from typing import Optional

from spacy.language import Language
from spacy.tokens import Doc

from ..places.contract import Places, check_places
from .base import ReadingPipe
from .words import words_of

MARKER = "<lieu>"


class PlaceMarker(ReadingPipe):
    def __init__(
        self, name: str = "seqkit_place_marker", *, places: Optional[Places] = None, marker: str = MARKER
    ) -> None:
        self.name, self.marker, self._places = name, marker, places

    def __call__(self, doc: Doc) -> Doc:
        # The French places' `marked_spans`: the runs the trained pipelines learnt from.
        spans = getattr(self.places, "marked_spans", None) or self.places.name_spans
        for start, end in spans(words_of(doc).text):
            for token in doc[start:end]:
                token.norm_ = self.marker
        return doc


@Language.factory(
    "seqkit_place_marker",
    assigns=["token.norm"],
    default_config={"places": {"@misc": "spacy-seqkit.french_places.v1"}, "marker": MARKER},
)
def make_place_marker(nlp: Language, name: str, places: Places, marker: str) -> PlaceMarker:
    """Sets the norm of every token of a known place name to `marker`, for `tok2vec`'s NORM
    feature; `places` is the gazetteer (any object with `name_spans(words)`)."""
    if not isinstance(marker, str) or not marker:
        raise ValueError(f"'marker' of seqkit_place_marker must be a non-empty string, got {marker!r}")
    check_places("seqkit_place_marker", places, needs=("name_spans",))
    return PlaceMarker(name, places=places, marker=marker)
