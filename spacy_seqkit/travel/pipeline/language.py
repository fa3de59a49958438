"""Is a request written in French? Travel orders in another language are INVALID.

Counts the function words of French and of the languages travellers most often write to a
French service in (English, Spanish, German, Italian); words two of them share ("a", "de",
"la", "me", "train") count for none.
"""

from typing import Dict, FrozenSet, Iterable

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


def is_foreign(words: Iterable[str]) -> bool:
    """True when the lowercase `words` hold at least two function words of one foreign
    language and more of them than of French."""
    counts = dict.fromkeys(FUNCTION_WORDS, 0)
    for word in words:
        for lang, vocabulary in FUNCTION_WORDS.items():
            if word in vocabulary:
                counts[lang] += 1
    french = counts.pop("fr")
    best = max(counts.values(), default=0)
    return best >= 2 and best > french
