"""Tokenizer settings for travel requests."""

from typing import Callable

from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex

# People join the two ends with arrows: "Paris->Lyon", "Nantes→Rennes", "Brest=>Quimper".
# spaCy's French tokenizer keeps such strings as one token, which no entity can split.
ARROWS = [r"-+>", r"=+>", r"→", r"⇒", r"➔", r"➜", r"<->", r"↔"]


def make_arrow_infixes() -> Callable[[Language], Language]:
    """`[initialize.before_init]` callback: split tokens at arrows between
    words. The tokenizer saves its infix pattern, so a loaded pipeline keeps it."""

    def add_arrow_infixes(nlp: Language) -> Language:
        infixes = list(nlp.Defaults.infixes or [])
        infixes += [rf"(?<=[\w.]){arrow}(?=[\w])" for arrow in ARROWS]
        tokenizer: Tokenizer = nlp.tokenizer
        tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
        return nlp

    return add_arrow_infixes
