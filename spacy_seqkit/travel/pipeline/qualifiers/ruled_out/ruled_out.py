"""`seqkit_ruled_out`: places a request rules out ("pas Hendaye finalement : de Dax à Libourne", "à
Sedan, non pardon, à Reims"), and the corrections that rule nothing out but say which end comes
first or that the ends are the other way round (the rules: `patterns.toml`)."""

from pathlib import Path
from typing import Iterable, List, Optional

from spacy.tokens import Doc, Span

from ...words import Words
from ..base import Fired, Qualifier

MAX_CORRECTION_TOKENS = 8


class RuledOut(Qualifier):
    attr = "ruled_out"
    folder = Path(__file__).parent

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        starts = {m.start for m in mentions}
        for k, m in enumerate(mentions):
            cue = self.negated(words, m.start, m.end)
            if cue is not None:
                yield k, "negated", cue
            elif self.corrected(words, m.end, starts | {m.start}):
                yield k, "corrected", None
            elif self.brings_correction(words, m.start):
                yield k, "brings_correction", None
            elif self.reversal_after(words, m.end):
                yield k, "reversal_after", None

    def _skip_links_back(self, w: Words, i: int) -> int:
        while i >= 0 and w[i] in self.lex["links"]:
            i -= 1
        return i

    def _preference_ends_at(self, w: Words, i: int) -> bool:
        """ "plutôt que", "au lieu (de)" or "sans" ends at token i."""
        if i < 0:
            return False
        if w[i] in self.lex["that"]:
            return i > 0 and w[i - 1] in self.lex["rather"]
        return (w[i] == "lieu" and i > 0 and w[i - 1] == "au") or w[i] == "sans"

    def negated(self, w: Words, start: int, end: int) -> Optional[int]:
        """Where the cue that rules out the place of tokens `start:end` is, or None."""
        lex = self.lex
        i = self._skip_links_back(w, start - 1)
        if i < 0:
            return None
        word = w[i]
        if word == "plus" and any(w[k] in lex["not"] for k in range(max(0, i - 3), i)):
            word = "pas"  # "je ne pars plus de Lyon, ..."
        contrast_after = end < w.n and w[end] in lex["after_denied_place"]
        if word == "pas" and not (i == 0 or w.punct[i - 1] or w[i - 1] in lex["clause_openers"]):
            return i if contrast_after else None  # a "pas" after a verb: "je ne vais pas à Lyon, ..."
        if word in lex["cues_before"] or self._preference_ends_at(w, i) or (word == "non" and w[i - 1] == "et"):
            return i
        if word in lex["denied_legs"]:  # "pas de départ de Massy", "pas d'arrêt à Dijon"
            return i if w[max(0, self._skip_links_back(w, i - 1))] == "pas" else None
        if (
            word in lex["trains"] and w[i - 2] in lex["taking"] and contrast_after
        ):  # "ne pas prendre le train pour Lyon mais"
            return i - 3 if w[i - 3] == "pas" else None
        if word in lex["travel_verbs"]:
            before = self._skip_links_back(w, i - 1)
            if self._preference_ends_at(w, before):
                return before
            if before >= 0 and w[before] == "pas" and (word == "passer" or contrast_after):
                return before  # "sans / pas passer par Tours"; "je ne veux pas aller à Lille, ..."
        return None

    def corrected(self, w: Words, end: int, starts) -> bool:
        """A correction right after token `end`, then another place mention (at `starts`)."""
        lex, corrected = self.lex, False
        for i in range(end, min(w.n, end + MAX_CORRECTION_TOKENS)):
            word, before = w[i], w[i - 1]
            if i in starts:
                return corrected
            if (
                word in lex["corrections"]
                or (word in lex["rather"] and (before in lex["correction_openers"] or w.punct[i - 1]))
                or (word == "enfin" and w.punct[i - 1])  # "de Nancy, enfin de Metz,"
                or (word == "finalement" and before == "mais")  # "à Lens mais finalement ce sera Béthune"
            ):
                corrected = True
            elif word == "pas" or not (
                w.punct[i] or word in lex["correction_fillers"] or (corrected and word in lex["links"])
            ):
                return False
        return False

    def brings_correction(self, w: Words, start: int) -> bool:
        """The words right before token `start` bring its place as a correction of what was said
        before: "..., finalement plutôt au départ d'Angers", "en fait de Lille"."""
        lex = self.lex
        for i in range(start - 1, max(-1, start - 1 - MAX_CORRECTION_TOKENS), -1):
            word = w[i]
            if word in lex["corrections"] or word == "finalement" or (word == "fait" and i > 0 and w[i - 1] == "en"):
                return True
            if (
                word in lex["rather"]
                and i > 0
                and (w.punct[i - 1] or w[i - 1] in lex["correction_openers"] or w[i - 1] == "finalement")
            ):
                return True
            if not (
                w.punct[i]
                or word in lex["links"]
                or word in lex["denied_legs"]
                or word in lex["correction_fillers"]
                or word == "en"
            ):
                return False
        return False

    def reversal_after(self, w: Words, end: int) -> bool:
        """After token `end`, only a correction's words then "l'inverse" or "le contraire"."""
        lex = self.lex
        for i in range(end, min(w.n, end + MAX_CORRECTION_TOKENS)):
            if w[i] in lex["reversal"]:
                return i > end and w[i - 1] in lex["reversal_articles"]
            if not (
                w.punct[i]
                or w[i] in lex["corrections"]
                or w[i] in lex["correction_fillers"]
                or w[i] in lex["reversal_articles"]
            ):
                return False
        return False
