"""`seqkit_context`: where a place stands in the request's context, not in its trip: where
someone lives, works or is, grew up, or a place put abroad (the rules: `patterns.toml`)."""

from pathlib import Path
from typing import Iterable, List

from spacy.tokens import Doc, Span

from ....places.names import COUNTRIES, normalise
from ...base import PLACE
from ...words import Words
from ..base import Fired, Qualifier

# How far after "de X" the "à Y" of a pair may come.
MAX_PAIR_GAP = 8


class Context(Qualifier):
    attr = "context"
    folder = Path(__file__).parent

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        starts = {m.start for m in mentions if m.label_ != PLACE}
        for k, m in enumerate(mentions):
            verb = self.verb_before(words, m.start)
            home = (
                verb >= 0
                and words[verb] in self.lex["where_one_is"]
                and not doc[verb].ent_type_
                and not words.title[verb]
            )
            comma = m.end < words.n and words.text[m.end] == ","
            if home and self.pair_after(words, m.end, starts | {m.start}):
                yield k, "home_before_pair", verb
            elif words[m.end + comma] in self.lex["in_country"] and normalise(words[m.end + comma + 1]) in COUNTRIES:
                yield k, "abroad", m.end + comma + 1
            elif verb >= 0 and words[verb] in self.lex["biography"] and "y" not in words.lower[m.end :]:
                yield k, "grew_up", verb
            elif home:
                yield k, "home", verb

    def verb_before(self, w: Words, start: int) -> int:
        """Where the word before `start` is, "à", "en", "encore"... aside ("j'habite encore à
        Rouen"); -1 at the start."""
        i = start - 1
        while i >= 0 and w[i] in self.lex["at_place"]:
            i -= 1
        return i

    def pair_after(self, w: Words, end: int, starts) -> bool:
        """A pair "de X à Y" of mentions (at `starts`) after token `end`."""
        for j in range(end, w.n - 1):
            if w[j] in self.lex["pair_from"] and j + 1 in starts:
                gap = range(j + 2, min(w.n - 1, j + 2 + MAX_PAIR_GAP))
                if any(w[k] in self.lex["pair_to"] and k + 1 in starts for k in gap):
                    return True
        return False
