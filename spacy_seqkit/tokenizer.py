"""A tokenizer that takes any Python string: spaCy's own, for the pipeline's
language, with lone surrogates read as U+FFFD.

A Python `str` can hold surrogate code points ("\\ud83d", half an emoji cut
off, or JSON's "\\ud83d" escape alone); UTF-8 cannot encode them, and spaCy's
string store raises `UnicodeEncodeError` from deep inside `nlp(text)`. Each
one becomes U+FFFD (the replacement character), one character for one, so
every character offset of the text stays right.
"""

import re
from typing import Callable, List, Tuple

from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

SURROGATE = re.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def replace_surrogates(text: str) -> str:
    """`text` with each surrogate code point replaced by U+FFFD (same length)."""
    return SURROGATE.sub(REPLACEMENT, text)


class SurrogateSafeTokenizer(Tokenizer):
    """spaCy's `Tokenizer`, whose texts may hold lone surrogates (read as U+FFFD).

    It saves, loads and pickles as spaCy's does; pickling keeps the class.
    """

    def __call__(self, string: str) -> Doc:
        return super().__call__(replace_surrogates(string))

    def explain(self, text: str) -> List[Tuple[str, str]]:
        return super().explain(replace_surrogates(text))


def make_surrogate_safe_tokenizer() -> Callable[[Language], SurrogateSafeTokenizer]:
    """`[nlp.tokenizer]` `spacy-seqkit.Tokenizer.v1`: the tokenizer of
    `spacy.Tokenizer.v1` (the language's rules and affixes), which reads each
    lone surrogate of a text as U+FFFD instead of raising `UnicodeEncodeError`."""

    def tokenizer_factory(nlp: Language) -> SurrogateSafeTokenizer:
        defaults = nlp.Defaults
        prefixes, suffixes, infixes = defaults.prefixes, defaults.suffixes, defaults.infixes
        return SurrogateSafeTokenizer(
            nlp.vocab,
            rules=defaults.tokenizer_exceptions,
            prefix_search=compile_prefix_regex(prefixes).search if prefixes else None,
            suffix_search=compile_suffix_regex(suffixes).search if suffixes else None,
            infix_finditer=compile_infix_regex(infixes).finditer if infixes else None,
            token_match=defaults.token_match,
            url_match=defaults.url_match,
        )

    return tokenizer_factory
