"""A doc's words, read once (`Words`, shared by every pipe that reads the doc), and how a mention
is written: as a proper name, or in a text that shouts (all capitals)."""

import re
import weakref
from typing import List, Optional, Tuple, cast

from spacy.attrs import IDX, IS_ALPHA, IS_LOWER, IS_PUNCT, IS_SPACE, IS_STOP, IS_TITLE, LIKE_NUM, LOWER, ORTH, SPACY
from spacy.tokens import Doc, Span, Token

from .lexicon import fold, lexicon

_FLAGS = [ORTH, LOWER, IDX, IS_PUNCT, IS_ALPHA, LIKE_NUM, IS_LOWER, IS_TITLE, SPACY, IS_STOP, IS_SPACE]
_WORD_PARTS = re.compile(r"[-'’]")
_read: "weakref.WeakKeyDictionary[Doc, Words]" = weakref.WeakKeyDictionary()


class Words:
    """The words of a doc as the rules compare them: `w[i]` is token i's text lowercase with the
    apostrophe folded, "" outside the doc (rules read around a place without minding the doc's
    edges); `text`, and the flags, are the tokens' own. One `to_array` read, not a Token each."""

    __slots__ = (
        "_doc",
        "text",
        "lower",
        "idx",
        "punct",
        "alpha",
        "num",
        "is_lower",
        "title",
        "space",
        "stop",
        "blank",
        "n",
        "_all",
        "_names",
    )

    def __init__(self, doc: Doc) -> None:
        strings = doc.vocab.strings
        columns = doc.to_array(_FLAGS).T.tolist() if len(doc) else [[]] * len(_FLAGS)
        # A weak reference: `_read` keeps a doc's Words only while the doc lives, and a Words
        # holding its doc would keep every doc alive.
        self._doc, self.n = weakref.ref(doc), len(doc)
        self.text: List[str] = cast(List[str], [strings[key] for key in columns[0]])
        lowers = cast(List[str], [strings[key] for key in columns[1]])
        self.lower = [w.replace("’", "'") if "’" in w else w for w in lowers]
        self.idx: List[int] = columns[2]
        # The flags as 0 / 1, read as truth values.
        self.punct, self.alpha, self.num, self.is_lower, self.title, self.space, self.stop, self.blank = columns[3:]
        self._all: Optional[str] = None
        self._names: Optional[tuple] = None

    @property
    def doc(self) -> Doc:
        doc = self._doc()
        assert doc is not None, "the doc of these words is gone"
        return doc

    def __getitem__(self, i: int) -> str:
        return self.lower[i] if 0 <= i < self.n else ""

    def __len__(self) -> int:
        return self.n

    def span(self, start: int, end: int) -> str:
        """The text of tokens `start:end` as typed (`Span.text`, without making a Token each)."""
        if end <= start:
            return ""
        if self._all is None:
            self._all = "".join(t + " " * s for t, s in zip(self.text, self.space))
        return self._all[self.idx[start] - self.idx[0] : self.idx[end - 1] - self.idx[0] + len(self.text[end - 1])]

    def name_spans(self, places) -> List[Tuple[int, int]]:
        """`places.name_spans` of these words, read once per doc and places (the roles'
        suggester and `seqkit_places` both ask)."""
        if self._names is None or self._names[0] is not places:
            self._names = (places, places.name_spans(self.text))
        return self._names[1]

    def is_word(self, i: int) -> bool:
        """`is_word` of token i."""
        return bool(self.alpha[i]) or _letters_joined(self.text[i])

    def arrow_to(self, i: int, step: int) -> Optional[int]:
        """The word across an arrow from word `i` (`step` 1: after it, -1: before it), where one
        or two arrow tokens follow (or precede) it and one is more than a dash ("arle -> miramas",
        "X → Y"); else None."""
        lex, j = lexicon(), i + step
        seen: List[str] = []
        while len(seen) < 2 and self[j] in lex["arrows"]:
            seen.append(self[j])
            j += step
        return j if 0 <= j < self.n and any(a not in lex["dashes"] for a in seen) else None

    def any_in(self, start: int, end: int, words) -> bool:
        """Some word of `start:end` (clipped to the doc) is one of `words`."""
        return any(w in words for w in self.lower[max(0, start) : max(0, end)])

    def deeds_done(self, lex, start: int = 0, end: Optional[int] = None) -> List[int]:
        """The positions in `start:end` of words of a deed done (`lex["past_deeds"]`): "été" after
        "l'", "cet", "en" is the summer ("c'est possible l'été ?"), not "a été"; a participle
        right after a verb of wanting is its infinitive misspelt ("je veux allé à Nantes")."""
        deeds, summer, wanting = lex["past_deeds"], lex["before_summer"], lex["wanting"]
        stop = self.n if end is None else end
        return [
            i
            for i in range(max(0, start), stop)
            if self.lower[i] in deeds
            and not (self.lower[i] == "été" and self[i - 1] in summer)
            and self[i - 1] not in wanting
        ]

    def tells_the_past(self, lex, start: int = 0, end: Optional[int] = None) -> bool:
        """`start:end` tells of a time gone by (`lex["past_times"]`) or a deed done (`deeds_done`)."""
        stop = self.n if end is None else end
        return self.any_in(start, stop, lex["past_times"]) or bool(self.deeds_done(lex, start, stop))


def words_of(doc: Doc) -> Words:
    """The doc's `Words`, read the first time a pipe asks and kept while the doc lives."""
    found = _read.get(doc)
    if found is None or found.n != len(doc):
        found = _read[doc] = Words(doc)
    return found


def cue_before(words: Words, start: int) -> int:
    """Where the word before `start` is, hesitations and articles aside ("au départ de euh
    saintes"), and "celle de", "celui de" standing for the station ("de la gare de Brest à celle
    de Morlaix")."""
    lex = lexicon()
    i, between = start - 1, lex["between_cue_and_place"]
    while words[i] in between:
        i -= 1
    if words[i] in lex["from"] and (words[i - 1] in lex["station_pronouns"] or words[i - 1] in lex["station_words"]):
        return cue_before(words, i - 1)  # "depuis la gare de Tours", "Départ : Gare de Mulhouse"
    return i


def is_word(token: Token) -> bool:
    """Letters only, or letters joined by dashes or apostrophes: "Saint-Lazare", "l'Isle"
    (`Words.is_word` reads it from a doc's words)."""
    return token.is_alpha or _letters_joined(token.text)


def _letters_joined(text: str) -> bool:
    return all(part.isalpha() for part in _WORD_PARTS.split(text))


def is_shouting(doc: Doc) -> bool:
    """Most letters of the text are capitals: every word looks like a name there."""
    letters = [c for c in "".join(words_of(doc).text) if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) > 0.5 * len(letters)


class ShoutingText:
    """Whether a doc's text shouts, read the first time it is asked and kept."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.value: Optional[bool] = None

    def __bool__(self) -> bool:
        if self.value is None:
            self.value = is_shouting(self.doc)
        return self.value


def opens_sentence(span: Span) -> bool:
    doc = span.doc
    return span.start == 0 or doc[span.start - 1].text in lexicon()["sentence_ends"]


def looks_like_name(span: Span, shouting=None) -> bool:
    """Written as a proper name: capitalised, not at the start of a sentence (where any word
    is), not in all-caps text (where every word is), every other word capitalised or a name
    particle ("Port-sur-Saône")."""
    if opens_sentence(span) or (shouting if shouting is not None else is_shouting(span.doc)):
        return False
    words: List[str] = [w for t in span for w in t.text.split("-") if w]
    particles = lexicon()["name_particles"]
    return bool(words) and words[0][:1].isupper() and all(w[:1].isupper() or fold(w) in particles for w in words)


def capital_of_the_sentence(span: Span) -> bool:
    """An article and words in lowercase, opening a sentence: "La réunion est à Toulouse". The
    article's capital is the sentence's: the mention reads as typed in lowercase, where an
    everyday word after an article names no village."""
    first = span[0].text
    if len(span) < 2 or first != first.capitalize() or fold(first) not in lexicon()["articles"]:
        return False
    return opens_sentence(span) and all(t.is_lower or not t.is_alpha for t in span[1:])
