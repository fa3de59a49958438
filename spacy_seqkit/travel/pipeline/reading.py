"""The pipes that read a request after its recognizer, in order: its place mentions, the
qualifiers, then the trip. A pipeline may leave any qualifier out (it answers without that
qualifier's rules) or set each one's config."""

from typing import Any, Dict, Optional

from spacy.language import Language

QUALIFIERS = (
    "seqkit_language",
    "seqkit_called_off",
    "seqkit_other_means",
    "seqkit_ruled_out",
    "seqkit_context",
    "seqkit_alternative",
)
READING_PIPES = ("seqkit_places", *QUALIFIERS, "seqkit_trip")


def add_reading(nlp: Language, configs: Optional[Dict[str, Dict[str, Any]]] = None) -> Language:
    """`nlp` with the reading pipes it lacks added at its end (each factory's defaults, or the
    config `configs` gives it by factory name)."""
    have = set(nlp.pipe_factories.values())
    for factory in READING_PIPES:
        if factory not in have:
            nlp.add_pipe(factory, name=factory, last=True, config=(configs or {}).get(factory, {}))
    return nlp
