from ..base import register_qualifier
from .alternative import Alternative

make_alternative = register_qualifier(
    "seqkit_alternative",
    Alternative,
    """Sets `span._.alternative` of each place mention: "alternative" ("de Nîmes ou d'Arles") or
    "compared" ("je préfère Dunkerque à Albertville"); an end so offered makes the trip INVALID.""",
)
