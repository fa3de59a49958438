"""`seqkit_language`: is a request written in French? An order in another language is INVALID
(the words: `patterns.toml`)."""

from pathlib import Path
from typing import Dict, Iterable, List

from spacy.strings import get_string_id
from spacy.tokens import Doc, Span

from ...base import PLACE
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
        keys = doc.to_array("LOWER").tolist()
        # A form's labels are no prose: "From : Lourdes To : Toulouse date : demain".
        keys = [0 if after == ":" else key for key, after in zip(keys, [*words.text[1:], ""])]
        # The sentences that name the ends the recognizer read, where they are written in French:
        # a request asked in French among words of another language ("Hello, I need help. Je
        # cherche un train de Lille à Strasbourg. Sorry my French...") is French.
        ends = {m.start for m in mentions if m.label_ != PLACE}
        read = [i for sentence in self.sentences(words) if any(e in sentence for e in ends) for i in sentence]
        counts = self.counts(keys, read)
        if counts["fr"] < 2 or max(counts.values()) > counts["fr"]:
            counts = self.counts(keys, range(len(keys)))
        french = counts.pop("fr")
        best = max(counts, key=lambda lang: counts[lang])
        if counts[best] >= 2 and counts[best] > french:
            yield None, best, None

    def counts(self, keys: List[int], positions: Iterable[int]) -> Dict[str, int]:
        """The function words of each language at `positions` of a doc's LOWER `keys`."""
        counts = dict.fromkeys(self.languages, 0)
        for i in positions:
            lang = self.language_of.get(keys[i])
            if lang is not None:
                counts[lang] += 1
        return counts
