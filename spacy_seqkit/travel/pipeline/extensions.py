"""The Doc extensions of the travel pipeline, installed idempotently: every component and
command may ask for them."""

from spacy.tokens import Doc


def install_extensions() -> None:
    """`doc._.trip`: the trip the request asks for (`Trip.to_dict()`), set by `seqkit_trip`."""
    if not Doc.has_extension("trip"):
        Doc.set_extension("trip", default=None)
