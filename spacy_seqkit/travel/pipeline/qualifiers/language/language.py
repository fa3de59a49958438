"""`seqkit_language`: is a request written in French? An order in another language is INVALID
(the words: `patterns.toml`)."""

from pathlib import Path
from typing import Dict, Iterable, List

from spacy.strings import get_string_id
from spacy.tokens import Doc, Span

from ...words import Words
from ..base import Fired, Qualifier


class LanguageQualifier(Qualifier):
    attr = "language"
    folder = Path(__file__).parent

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.languages = ("fr", *self.rules)  # French, and one rule per foreign language
        sets = {lang: self.lex[lang] for lang in self.languages}
        shared = {w for lang in sets for w in sets[lang] if sum(w in other for other in sets.values()) > 1}
        # The language of each function word, by the hash spaCy gives its lowercase form (a doc's
        # LOWER attribute): a doc is read without making its tokens.
        self.language_of: Dict[int, str] = {
            get_string_id(w): lang for lang, words in sets.items() for w in words if w not in shared
        }

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        counts = dict.fromkeys(self.languages, 0)
        for key in doc.to_array("LOWER").tolist():
            lang = self.language_of.get(key)
            if lang is not None:
                counts[lang] += 1
        french = counts.pop("fr")
        best = max(counts, key=lambda lang: counts[lang])
        if counts[best] >= 2 and counts[best] > french:
            yield None, best, None
