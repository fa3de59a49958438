"""How a mention is written: as a proper name, or in a text that shouts (all capitals),
where every word looks like one."""

import re
from typing import List, Optional, Union

from spacy.tokens import Doc, Span, Token

# Lowercase words that may sit inside a written place name: "Port-sur-Saône".
_NAME_PARTICLES = {"de", "du", "des", "d'", "la", "le", "les", "l'", "sur", "sous", "en", "lès", "lez", "et", "-"}
_SENTENCE_ENDS = {".", "!", "?", ":", "\n", ";"}
# `seqkit_trip`'s `unknown_names`: is a name no place holds an end as written ("keep"), or not?
UNKNOWN_NAMES_SETTINGS = ("keep", "drop")
# "mon avion", "ma sœur Nancy": the possessives the place rules read.
POSSESSIVES = frozenset("mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs".split())
_WORD_PARTS = re.compile(r"[-'’]")
_ARTICLES = {"La", "Le", "Les", "L'", "L’"}


def is_word(token: Token) -> bool:
    """Letters only, or letters joined by dashes or apostrophes: "Saint-Lazare", "l'Isle"."""
    return token.is_alpha or all(part.isalpha() for part in _WORD_PARTS.split(token.text))


def check_unknown_names(value: str) -> str:
    """`value` if it is a setting of `unknown_names`, else a ValueError naming them."""
    if value not in UNKNOWN_NAMES_SETTINGS:
        raise ValueError(f"unknown_names must be one of 'keep', 'drop', got {value!r}")
    return value


def word_at(doc: Doc, i: int) -> str:
    """The lowercase text of token `i`, "" outside the doc (the rules read words around a place
    without minding its edges)."""
    return doc[i].lower_ if 0 <= i < len(doc) else ""


def words_of(doc: Doc, start: int = 0, end: Optional[int] = None) -> List[str]:
    """The texts of the doc's tokens `start:end`, from its arrays rather than its tokens
    (as `doc_text`): the place rules read a doc's words several times."""
    strings = doc.vocab.strings
    return [strings[orth] for orth in doc.to_array("ORTH")[start:end].tolist()]


def doc_text(doc: Doc) -> str:
    """`doc.text`, from the doc's arrays rather than its tokens (ten times cheaper)."""
    strings = doc.vocab.strings
    return "".join(strings[orth] + " " * space for orth, space in doc.to_array(["ORTH", "SPACY"]).tolist())


def is_shouting(doc: Doc) -> bool:
    """Most letters of the text are capitals: every word looks like a name there."""
    letters = [c for c in doc_text(doc) if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) > 0.5 * len(letters)


class ShoutingText:
    """Whether a doc's text shouts, read the first time it is asked and kept: the
    mentions of one doc ask once between them, and a doc with no unknown name never."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.value: Optional[bool] = None

    def __bool__(self) -> bool:
        if self.value is None:
            self.value = is_shouting(self.doc)
        return self.value


def looks_like_name(span: Span, shouting: Union[bool, ShoutingText, None] = None) -> bool:
    """Written as a proper name: capitalised, not at the start of a sentence
    (where any word is), not in all-caps text (where every word is, see
    `is_shouting`, computed here when not given), and every other word
    capitalised or a name particle."""
    doc = span.doc
    if span.start == 0 or doc[span.start - 1].text in _SENTENCE_ENDS:
        return False
    if shouting if shouting is not None else is_shouting(doc):
        return False
    words = [w for t in span for w in t.text.split("-") if w]
    if not words or not words[0][:1].isupper():
        return False
    return all(w[:1].isupper() or w.lower() in _NAME_PARTICLES for w in words)


def capital_of_the_sentence(span: Span) -> bool:
    """An article and words in lowercase, at the start of a sentence: "La réunion est à
    Toulouse". The article's capital is the sentence's, so the mention reads as typed in
    lowercase, where an everyday word after an article names no village (`FrenchPlaces`)."""
    doc = span.doc
    if len(span) < 2 or span[0].text not in _ARTICLES:
        return False
    if span.start > 0 and doc[span.start - 1].text not in _SENTENCE_ENDS:
        return False
    return all(t.is_lower or not t.is_alpha for t in span[1:])
