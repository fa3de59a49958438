"""Seeded noise as people type: case, accents, typos, SMS spellings, apostrophes, punctuation.

A sentence is a list of `Segment`s; a segment with a label is a span (a place mention).
Every transformation maps segments to segments, so span offsets are recomputed from the
result (`to_record`) and stay exact whatever the edits did to the lengths.
"""
import random
import re
import unicodedata
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple


class Segment(NamedTuple):
    text: str
    label: Optional[str] = None


Segments = List[Segment]


def to_record(segments: Sequence[Segment]) -> Tuple[str, List[Dict]]:
    """Join segments into (text, spans), spans as {"start", "end", "label"} in order."""
    parts, spans, offset = [], [], 0
    for seg in segments:
        if seg.label is not None:
            spans.append({"start": offset, "end": offset + len(seg.text), "label": seg.label})
        parts.append(seg.text)
        offset += len(seg.text)
    return "".join(parts), spans


def strip_accents(text: str) -> str:
    """"à Orléans" → "a Orleans"; one character out for one character in."""
    out = []
    for c in text:
        base = unicodedata.normalize("NFD", c)[0]
        out.append(base if base.isascii() and base.isalpha() else c)
    return "".join(out)


def _map_all(segments: Segments, fn: Callable[[str], str]) -> Segments:
    return [Segment(fn(s.text), s.label) for s in segments]


def lowercase(segments: Segments, rng: random.Random) -> Segments:
    return _map_all(segments, str.lower)


def uppercase(segments: Segments, rng: random.Random) -> Segments:
    return _map_all(segments, str.upper)


def no_accents(segments: Segments, rng: random.Random) -> Segments:
    return _map_all(segments, strip_accents)


_WORD = re.compile(r"[^\W\d_]{4,}")


def typo(word: str, rng: random.Random) -> str:
    """One typing error inside `word` (letters only, first letter kept): deletion,
    doubled letter, swap of neighbours or a lost accent."""
    kinds = ["delete", "double", "swap"]
    if strip_accents(word) != word:
        kinds.append("accent")
    kind = rng.choice(kinds)
    if kind == "accent":
        positions = [i for i, c in enumerate(word) if strip_accents(c) != c]
        i = rng.choice(positions)
        return word[:i] + strip_accents(word[i]) + word[i + 1:]
    if kind == "swap":
        # Swapping two equal letters ("ll") would change nothing.
        positions = [i for i in range(1, len(word) - 1) if word[i] != word[i + 1]]
        if positions:
            i = rng.choice(positions)
            return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    i = rng.randrange(1, len(word) - 1)
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    return word[:i] + word[i + 1:]


def _typo_in(segments: Segments, rng: random.Random, labelled: bool) -> Segments:
    choices = [
        (k, m) for k, s in enumerate(segments) if (s.label is not None) == labelled
        for m in _WORD.finditer(s.text)
    ]
    if not choices:
        return segments
    k, m = rng.choice(choices)
    text = segments[k].text
    new = text[: m.start()] + typo(m.group(), rng) + text[m.end():]
    return segments[:k] + [Segment(new, segments[k].label)] + segments[k + 1:]


def place_typo(segments: Segments, rng: random.Random) -> Segments:
    return _typo_in(segments, rng, labelled=True)


def word_typo(segments: Segments, rng: random.Random) -> Segments:
    return _typo_in(segments, rng, labelled=False)


# An elided word, its apostrophe then a word (or the end of the segment, where a place follows).
_ELISION = re.compile(r"\b([dDjJlLnNsScCmMtT]|[qQ]u|[jJ]usqu)['’](?=\w|$)")


def no_apostrophes(segments: Segments, rng: random.Random) -> Segments:
    """ "d'Avignon" → "d Avignon", "j'aimerais" → "j aimerais" (outside place names)."""
    return [s if s.label else Segment(_ELISION.sub(r"\1 ", s.text), None) for s in segments]


# SMS spellings, applied to words outside place names (case-insensitive, whole words).
SMS: Tuple[Tuple[str, str], ...] = (
    (r"je veux", "jveux"),
    (r"je voudrais", "jvoudrais"),
    (r"je suis", "jsuis"),
    (r"je dois", "jdois"),
    (r"je cherche", "jcherche"),
    (r"demain", "dmain"),
    (r"s'il vous plaît", "svp"),
    (r"s'il te plaît", "stp"),
    (r"bonjour", "bjr"),
    (r"merci", "mci"),
    (r"pour", "pr"),
    (r"aujourd'hui", "auj"),
    (r"beaucoup", "bcp"),
    (r"c'est", "c"),
    (r"est-ce que", "esk"),
    (r"quand", "qd"),
    (r"quelque", "qqe"),
    (r"rendez-vous", "rdv"),
    (r"vous", "vs"),
    (r"prochain", "proch"),
    (r"qu'est-ce que", "kesk"),
    (r"salut", "slt"),
    (r"week-end", "we"),
    (r"quoi", "koi"),
    (r"billet", "bllt"),
)
_SMS = [(re.compile(rf"(?<!\w){p}(?!\w)", re.IGNORECASE), r) for p, r in SMS]


def sms(segments: Segments, rng: random.Random) -> Segments:
    out = []
    for s in segments:
        text = s.text
        if s.label is None:
            for pattern, repl in _SMS:
                if rng.random() < 0.7:
                    text = pattern.sub(repl, text)
        out.append(Segment(text, s.label))
    return out


_STRAY = ("!!", " !!", "??", " ???", "...", " ..", "!", " ?!", ".")


def stray_punctuation(segments: Segments, rng: random.Random) -> Segments:
    """Drop the final punctuation, add some, or a comma after a word."""
    out = list(segments)
    last = out[-1]
    action = rng.random()
    if action < 0.3 and last.label is None and last.text.rstrip()[-1:] in ".?!":
        out[-1] = Segment(last.text.rstrip().rstrip(".?! "), None)
    elif action < 0.7:
        out.append(Segment(rng.choice(_STRAY), None))
    else:
        plain = [k for k, s in enumerate(out) if s.label is None and " " in s.text.strip()]
        if not plain:
            out.append(Segment(rng.choice(_STRAY), None))
        else:
            k = rng.choice(plain)
            text = out[k].text
            spaces = [m.start() for m in re.finditer(r"(?<=\w) (?=\w)", text)]
            if spaces:
                i = rng.choice(spaces)
                out[k] = Segment(text[:i] + rng.choice((",", " ,", "..")) + text[i:], None)
    return out


def no_hyphens(segments: Segments, rng: random.Random) -> Segments:
    """ "Aix-les-Bains" → "Aix les Bains": place names typed without their hyphens (one space
    where a dash stood between spaces: "Bois-d'Oingt - Légny" → "Bois d'Oingt Légny")."""
    return [Segment(" ".join(s.text.replace("-", " ").split()), s.label) if s.label else s for s in segments]


EMOJI = ("🙏", "😅", "😊", "🚄", "🚆", "👍", "🙂", "😭", "😂", "❤️", "🤞", "😉")


def emoji(segments: Segments, rng: random.Random) -> Segments:
    """An emoji at the end, at the start, or after a word."""
    face = rng.choice(EMOJI)
    where = rng.random()
    if where < 0.6:
        return list(segments) + [Segment(" " + face)]
    if where < 0.8:
        return [Segment(face + " ")] + list(segments)
    plain = [k for k, s in enumerate(segments) if s.label is None and s.text.endswith(" ")]
    if not plain:
        return list(segments) + [Segment(" " + face)]
    k = rng.choice(plain)
    return segments[:k] + [Segment(segments[k].text + face + " ", None)] + segments[k + 1:]


_PUNCTUATION = re.compile(r"\s*[,.;:!?…]+(?=\s|$)")


def voice(segments: Segments, rng: random.Random) -> Segments:
    """A voice transcription: lowercase, no punctuation between words."""
    out = []
    for s in segments:
        text = s.text.lower()
        if s.label is None:
            text = _PUNCTUATION.sub("", text)
        out.append(Segment(text, s.label))
    return out


# (name, function, probability when an example is noised). Case changes come first so
# that typos and SMS spellings are made in the case the user types in.
TRANSFORMS: Tuple[Tuple[str, Callable[[Segments, random.Random], Segments], float], ...] = (
    ("lowercase", lowercase, 0.4),
    ("uppercase", uppercase, 0.1),
    ("voice", voice, 0.06),
    ("no_accents", no_accents, 0.4),
    ("no_apostrophes", no_apostrophes, 0.25),
    ("no_hyphens", no_hyphens, 0.35),
    ("sms", sms, 0.2),
    ("place_typo", place_typo, 0.3),
    ("word_typo", word_typo, 0.2),
    ("stray_punctuation", stray_punctuation, 0.3),
    ("emoji", emoji, 0.1),
)


def add_noise(segments: Segments, rng: random.Random, rate: float = 0.5) -> Tuple[Segments, List[str]]:
    """With probability `rate`, apply a random subset of TRANSFORMS (at least one).

    Returns the new segments and the names of the transformations applied.
    """
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise ValueError(f"'rate' must be a number in [0, 1], got {rate!r}")
    if rng.random() >= rate:
        return list(segments), []
    applied = [name for name, _, p in TRANSFORMS if rng.random() < p]
    if not applied:
        applied = [rng.choice(TRANSFORMS)[0]]
    if "uppercase" in applied and ("lowercase" in applied or "voice" in applied):
        applied.remove("uppercase")
    out = list(segments)
    for name, fn, _ in TRANSFORMS:
        if name in applied:
            out = fn(out, rng)
    return out, applied
