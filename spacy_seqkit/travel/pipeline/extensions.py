"""The extensions of the travel pipeline, installed idempotently (every component and command
may ask for them): `doc._.trip` (`seqkit_trip`), `span._.place` of each mention of
`doc.spans["places"]` (`seqkit_places`), `doc._.cues` (what the qualifiers explain), and each
qualifier's own attribute (`qualifiers.base`)."""

from spacy.tokens import Doc, Span

from ..places.place import register_msgpack


def install_extensions() -> None:
    """`doc._.trip`: the trip the request asks for (`Trip.to_dict()` with its `why`);
    `span._.place`: a mention's `Place`; `doc._.cues`: the cues the qualifiers set with
    `explain` found, one dict each (qualifier, rule, cue, mention)."""
    register_msgpack()  # a doc holding places still saves and pickles (`nlp.pipe(n_process=2)`)
    for name in ("trip", "cues"):
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
    if not Span.has_extension("place"):
        Span.set_extension("place", default=None)
