"""What the reading's pipes share: no state to save (their settings live in the config), a
`pipe` that reads each doc in turn, and the places they read names by."""

from typing import Iterable, Optional

from spacy.tokens import Doc

from ..places.contract import Places
from .trip import LABELS

# The label of a known place the recognizer did not mark (a mention all the same: `seqkit_places`).
PLACE = "PLACE"
__all__ = ["LABELS", "PLACE", "ReadingPipe"]


class ReadingPipe:
    """A pipe of the reading: stateless, its places built on first use (a pipe made for its rules
    alone costs nothing)."""

    name: str
    _places: Optional[Places] = None

    @property
    def places(self) -> Places:
        if self._places is None:
            from ..places.registry import make_french_places

            self._places = make_french_places()
        return self._places

    def __call__(self, doc: Doc) -> Doc:
        raise NotImplementedError

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in docs:
            yield self(doc)

    def to_bytes(self, *, exclude=tuple()) -> bytes:
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()):
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        return None

    def from_disk(self, path, *, exclude=tuple()):
        return self
