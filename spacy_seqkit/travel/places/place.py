"""`Place`: what one end or stop of a trip names, as a value: what was typed, the kind of
place, its reference name (the answer), its codes and the stations that serve it (a commune's
stations; a station is its own), from which routes start."""

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

COMMUNE, STATION, UNKNOWN = "commune", "station", "unknown"


@dataclass(frozen=True)
class Place:
    text: str  # the mention as typed
    kind: str  # COMMUNE, STATION, or UNKNOWN (kept as typed: no reference place)
    # The answer: a station by the name the request used ("Valence TGV", `stations.answer_name`),
    # a commune as named.
    name: str
    insee: Optional[str] = None  # the commune's INSEE code (a station: the one it stands in)
    commune: Optional[str] = None  # the current commune it is, or is part of ("Beaupréau-en-Mauges")
    stations: Tuple[str, ...] = field(default=())  # traveller names of the stations serving it
    uics: Tuple[str, ...] = field(default=())  # their UIC codes

    def to_dict(self) -> Dict[str, Any]:
        return {
            "text": self.text,
            "kind": self.kind,
            "name": self.name,
            "insee": self.insee,
            "commune": self.commune,
            "stations": list(self.stations),
            "uics": list(self.uics),
        }

    @classmethod
    def from_dict(cls, data: Optional[Mapping[str, Any]]) -> Optional["Place"]:
        if not data:
            return None
        return cls(
            data["text"],
            data["kind"],
            data["name"],
            data.get("insee"),
            data.get("commune"),
            tuple(data.get("stations") or ()),
            tuple(data.get("uics") or ()),
        )

    @classmethod
    def unknown(cls, text: str) -> "Place":
        """A name kept as typed, that no reference list holds."""
        return cls(text, UNKNOWN, text)


def _encode(obj, chain=None):
    if isinstance(obj, Place):
        return {"__seqkit_place__": obj.to_dict()}
    return obj if chain is None else chain(obj)


def _decode(obj, chain=None):
    if isinstance(obj, dict) and "__seqkit_place__" in obj:
        return Place.from_dict(obj["__seqkit_place__"])
    return obj if chain is None else chain(obj)


def register_msgpack() -> None:
    """Let srsly's msgpack (which saves a doc's `user_data`, where `span._.place` lives) write and
    read places: docs that hold them save, load and pickle as any other; and read its entry
    points once (`util.msgpack_registries_cached`: ~1 ms a call otherwise)."""
    import srsly

    from ...util import msgpack_registries_cached

    msgpack_registries_cached()

    if "spacy_seqkit.place" not in srsly.msgpack_encoders.get_all():
        srsly.msgpack_encoders.register("spacy_seqkit.place", func=_encode)
        srsly.msgpack_decoders.register("spacy_seqkit.place", func=_decode)
