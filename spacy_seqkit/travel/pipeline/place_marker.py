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

from typing import Iterable, Optional

from spacy.language import Language
from spacy.tokens import Doc

from ..places.contract import Places, check_places
from .written import words_of

MARKER = "<lieu>"


class PlaceMarker:
    def __init__(
        self, name: str = "seqkit_place_marker", *, places: Optional[Places] = None, marker: str = MARKER
    ) -> None:
        self.name = name
        self.marker = marker
        self._places = places

    @property
    def places(self) -> Places:
        if self._places is None:
            from ..places.registry import make_french_places

            self._places = make_french_places()
        return self._places

    def __call__(self, doc: Doc) -> Doc:
        # The French places' `marked_spans`: the runs the trained pipelines learnt from.
        spans = getattr(self.places, "marked_spans", None) or self.places.name_spans
        for start, end in spans(words_of(doc)):
            for token in doc[start:end]:
                token.norm_ = self.marker
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in docs:
            yield self(doc)

    # Stateless apart from its settings, which live in the config: nothing to save.
    def to_bytes(self, *, exclude=tuple()) -> bytes:
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "PlaceMarker":
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        return None

    def from_disk(self, path, *, exclude=tuple()) -> "PlaceMarker":
        return self


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
