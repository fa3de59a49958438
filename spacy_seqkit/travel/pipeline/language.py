"""Is a request written in French? Travel orders in another language are INVALID.

Counts the function words of French and of the languages travellers most often write to a
French service in (English, Spanish, German, Italian); words two of them share ("a", "de",
"la", "me", "train") count for none.
"""

from typing import Dict, FrozenSet, Iterable, Optional

from spacy.strings import get_string_id
from spacy.tokens import Doc

_WORDS: Dict[str, str] = {
    "fr": "je j' tu il nous vous le les des du au aux un une et est pour vers depuis avec dans sur "
    "ce cette mon ma mes veux voudrais aller partir suis demain quel quels quelle combien "
    "billet merci bonjour comment faut où ou qui que quand rejoindre arriver départ",
    "en": "i the to from is are want need would like go get there how what when tomorrow "
    "morning please thanks ticket tickets book seats my you can could any next from",
    "es": "quiero ir el los las una hay trenes tren desde hasta mañana gracias dónde está por favor necesito para y",
    "de": "ich möchte nach von mit dem der die das und zug morgen fahren bitte gibt es eine einen ist wie wann fährt",
    "it": "vorrei andare da per il treno domani grazie sono che della alle è con dove voglio",
}


def _sets() -> Dict[str, FrozenSet[str]]:
    sets = {lang: frozenset(words.split()) for lang, words in _WORDS.items()}
    counts: Dict[str, int] = {}
    for words in sets.values():
        for w in words:
            counts[w] = counts.get(w, 0) + 1
    return {lang: frozenset(w for w in words if counts[w] == 1) for lang, words in sets.items()}


FUNCTION_WORDS = _sets()
# The language of each function word, by word and by the hash spaCy gives its lowercase
# form (a doc's LOWER attribute), so a doc is read without making its tokens.
_LANGUAGE_OF = {word: lang for lang, words in FUNCTION_WORDS.items() for word in words}
_LANGUAGE_OF_ID = {get_string_id(word): lang for word, lang in _LANGUAGE_OF.items()}


def is_foreign(words: Iterable[str]) -> bool:
    """True when the lowercase `words` hold at least two function words of one foreign
    language and more of them than of French."""
    return _more_foreign(_LANGUAGE_OF.get(word) for word in words)


def is_foreign_doc(doc: Doc) -> bool:
    """`is_foreign` of the doc's lowercase words."""
    return _more_foreign(_LANGUAGE_OF_ID.get(key) for key in doc.to_array("LOWER").tolist())


def _more_foreign(languages: Iterable[Optional[str]]) -> bool:
    counts = dict.fromkeys(FUNCTION_WORDS, 0)
    for lang in languages:
        if lang is not None:
            counts[lang] += 1
    french = counts.pop("fr")
    best = max(counts.values(), default=0)
    return best >= 2 and best > french
