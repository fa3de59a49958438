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


# A run of characters without a space longer than this is cut into pieces of this length before
# spaCy's tokenizer reads it: its prefix and suffix search is quadratic in a word's length (a
# 20,000-character run of emoji takes 20 s), and no word people type is this long.
MAX_RUN = 100
_LONG_RUN = re.compile(r"\S{%d,}" % (MAX_RUN + 1))


class LongRunSafeTokenizer(SurrogateSafeTokenizer):
    """`SurrogateSafeTokenizer` that cuts each run of more than `max_run` characters without a
    space into tokens of `max_run` characters, unread by the affix rules: every text is
    tokenized in time linear in its length, and the tokens' offsets stay the text's."""

    max_run = MAX_RUN

    def __call__(self, string: str) -> Doc:
        text = replace_surrogates(string)
        runs = list(_LONG_RUN.finditer(text)) if self.max_run == MAX_RUN else list(self._runs(text))
        if not runs:
            return super().__call__(text)
        words: List[str] = []
        spaces: List[bool] = []
        start = 0
        for run in runs:
            self._add(text[start : run.start()], words, spaces)
            pieces = [text[i : min(i + self.max_run, run.end())] for i in range(run.start(), run.end(), self.max_run)]
            words += pieces
            spaces += [False] * len(pieces)
            start = run.end()
            if text[start : start + 1] == " ":  # the space after the run is its last piece's
                spaces[-1], start = True, start + 1
        self._add(text[start:], words, spaces)
        return Doc(self.vocab, words=words, spaces=spaces)

    def _runs(self, text: str):
        return re.finditer(r"\S{%d,}" % (self.max_run + 1), text)

    def _add(self, text: str, words: List[str], spaces: List[bool]) -> None:
        if text:
            doc = super().__call__(text)
            words += [t.text for t in doc]
            spaces += [bool(t.whitespace_) for t in doc]

    def __reduce__(self):
        cls, args, *rest = super().__reduce__()
        return _with_max_run, (cls, args, self.max_run), *rest


def _with_max_run(cls, args, max_run: int) -> "LongRunSafeTokenizer":
    tokenizer = cls(*args)
    tokenizer.max_run = max_run
    return tokenizer


def make_long_run_safe_tokenizer(max_run: int = MAX_RUN) -> Callable[[Language], LongRunSafeTokenizer]:
    """`[nlp.tokenizer]` `spacy-seqkit.Tokenizer.v2`: `spacy-seqkit.Tokenizer.v1` (spaCy's tokenizer
    for the language, lone surrogates read as U+FFFD) that cuts every run of more than `max_run`
    characters without a space into tokens of `max_run` characters: a text of any word length is
    tokenized in time linear in its length.

    max_run (int): The longest run read by the language's affix rules. Recommended value: 100.
    """
    if not isinstance(max_run, int) or max_run < 1:
        raise ValueError(f"spacy-seqkit.Tokenizer.v2: max_run must be a positive integer, got {max_run!r}")
    surrogate_safe = make_surrogate_safe_tokenizer()

    def tokenizer_factory(nlp: Language) -> LongRunSafeTokenizer:
        base = surrogate_safe(nlp)
        tokenizer = LongRunSafeTokenizer(*base.__reduce__()[1])
        tokenizer.max_run = max_run
        return tokenizer

    return tokenizer_factory
