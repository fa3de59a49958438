from ..base import register_qualifier
from .ruled_out import RuledOut

make_ruled_out = register_qualifier(
    "seqkit_ruled_out",
    RuledOut,
    """Sets `span._.ruled_out` of each place mention: "negated" ("pas Hendaye") or "corrected" ("à
    Sedan, non pardon, à Reims"), no end; "brings_correction" ("en fait de Lille": first of its
    role) or "reversal_after" ("..., euh non, l'inverse": the ends swap).""",
)
