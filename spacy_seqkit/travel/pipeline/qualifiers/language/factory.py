from ..base import register_qualifier
from .language import LanguageQualifier

make_language = register_qualifier(
    "seqkit_language",
    LanguageQualifier,
    """Sets `doc._.language` to the language a request is written in ("en", "es", "de", "it")
    where it is not French: such an order is INVALID.""",
)
