from ..base import register_qualifier
from .context import Context

make_context = register_qualifier(
    "seqkit_context",
    Context,
    """Sets `span._.context` of each place mention: "home" (where someone lives, works or is:
    never a stop, an end of lower rank), or, ruling it out, "home_before_pair", "abroad" ("Vienne
    en Autriche"), "grew_up" ("j'ai grandi à Nancy").""",
)
