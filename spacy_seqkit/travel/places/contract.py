"""The place contract: all the travel pipeline asks of a country's places.

`seqkit_place_marker` and `seqkit_trip` hold an object of this protocol, made by a registered
function named in their config (`[components.seqkit_trip.places]`);
`spacy-seqkit.french_places.v1` (`FrenchPlaces`) is France's. Another country's places plug in
the same way: a registered `@misc` function returning an object with these four methods.
"""

from typing import List, Optional, Protocol, Tuple, runtime_checkable

from .place import Place


@runtime_checkable
class Places(Protocol):
    def resolve(self, text: str) -> Optional[str]:
        """The reference name of the place a mention names (typos tolerated as the country
        sees fit), or None when it names no known place."""
        ...

    def place(self, text: str) -> Optional[Place]:
        """The place a mention names as a value (kind, reference name, codes, the stations
        serving it), or None when it names no known place; its `name` is `resolve(text)`."""
        ...

    def name_spans(self, words: List[str], max_words: int = 8) -> List[Tuple[int, int]]:
        """(start, end) of the runs of `words` that spell a place name exactly, longest
        first, left to right, not overlapping: what `seqkit_place_marker` marks."""
        ...

    def is_excluded(self, text: str) -> bool:
        """Known to be no place (a word that says what kind of place follows, a foreign
        place, an ordinary word): the trip component never keeps such a mention as an end,
        even written as a name."""
        ...


def check_places(component: str, places: object, needs=("resolve", "place", "name_spans", "is_excluded")) -> None:
    """ValueError naming the setting when `places` lacks what `component` asks of it."""
    missing = [name for name in needs if not callable(getattr(places, name, None))]
    if missing:
        raise ValueError(
            f"'places' of {component} must follow the place contract (spacy_seqkit.travel.places.Places): "
            f"{type(places).__name__} lacks {', '.join(missing)}"
        )
