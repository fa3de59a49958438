from ..base import register_qualifier
from .other_means import OtherMeans

make_other_means = register_qualifier(
    "seqkit_other_means",
    OtherMeans,
    """Sets `doc._.other_means` to "other_means" where the request travels by another means than the
    train and asks for no train (INVALID), and `span._.other_means` to "other_leg" for the places of
    a clause by another means in a request that also takes a train (no ends).""",
)
