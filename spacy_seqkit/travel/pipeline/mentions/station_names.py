"""A station's name is one place: the recognizer sometimes cuts it ("angers" DEPART + "st laud"
VIA for Angers Saint-Laud), marks only its town ("limoges" of "limoges benedictins"), or cuts it
elsewhere than between two places ("marne" + "la vallee bordeaux" for Marne-la-Vallée, then
Bordeaux). Each mention is widened, over the words right beside it, to the longest run that
names a station of the places; the mentions it covers become one, with the first one's role, and
what is left of a mention it covers in part stays a mention of its own ("bordeaux")."""

from itertools import chain
from typing import List, Optional, Tuple

from spacy.tokens import Span

from ...places.contract import Places
from ...places.names import normalise
from ...places.place import STATION
from ..lexicon import lexicon
from ..words import Words, words_of

# How many words a mention may grow by on each side: "Le Creusot" + "Montceau Montchanin TGV"
# (a compound's dashes count for none: "Moûtiers-Salins-Brides" + "-les-Bains").
MAX_EXTRA_WORDS = 4
# A mention longer than this is no station name cut short (and is not widened).
MAX_MENTION_WORDS = 8
# Word classes (lexicon/words.toml): "after_a_station" (what shows "est" or "nord" ends a
# station's name: "de paris est mercredi", not the verb "est" of "Paris est à 2 h"), "compass",
# "joining" (what joins a compound's words: "Brides-les-Bains"), "station_words" (what may open a
# mention before a station's name: "gare de Lyon Perrache"), "from_any".
LEX = lexicon()


def _joinable(w: Words, start: int, end: int) -> bool:
    """Words `start:end` may belong to a station's name: no punctuation but a dash or an apostrophe."""
    return all((not w.punct[i] or w[i] in LEX["joining"]) and not w.blank[i] for i in range(start, end))


def _name_word(w: Words, i: int) -> bool:
    """A word a station's name may go on with beside a mention: "Lille" + "Flandres", "Paris" +
    "Saint-Lazare" (letters joined by dashes or apostrophes); "est" only where it ends a
    station's name ("Paris Est", "depuis paris est mercredi") or follows "l'" ("paris gare de
    l'est partant de"), "nord" unless "de" follows it. Token `i` of the doc of `w`."""
    word = w[i]
    if word == "nord":  # no verb: "creil paris nord le plus tôt", not "au nord de"
        return not w.is_lower[i] or w[i + 1] not in LEX["from_any"]
    if word in LEX["compass"]:  # "gare de l'est": no verb after an article
        return not w.is_lower[i] or w[i - 1] == "l'" or _ends_a_name(w, i + 1)
    return not w.stop[i] and w.is_word(i)


def _attached_dash(w: Words, i: int) -> bool:
    """A dash inside a compound, with no space either side: "Brides-les-Bains" goes on past it."""
    return w.text[i] == "-" and 0 < i < w.n - 1 and not w.space[i - 1] and not w.space[i]


def _goes_on(w: Words, i: int) -> bool:
    """The name may go on with token `i`, beside a mention: a name's word or a compound's dash."""
    return 0 <= i < w.n and (_name_word(w, i) or _attached_dash(w, i))


def _words_away(w: Words, i: int, words: int, step: int) -> int:
    """The position `words` words from `i` in the direction `step`, the dashes and apostrophes
    of a compound counting for none ("Moûtiers-Salins-Brides-les-Bains" is five words)."""
    while words > 0 and 0 <= i + step < w.n:
        i += step
        if w[i] not in LEX["joining"]:
            words -= 1
    return i


def _name_start(span: Span) -> int:
    """Where the name in a mention starts: after "gare de" ("gare", "station de"...) opening it."""
    doc, i = span.doc, span.start
    words = words_of(doc)
    if i < span.end - 1 and words[i] in LEX["station_words"]:
        i += 1
        if i < span.end - 1 and words[i] in LEX["from_any"]:
            i += 1
    return i


def _ends_a_name(w: Words, i: int) -> bool:
    if i >= w.n:
        return True
    return bool((w.punct[i] and w[i] not in LEX["joining"]) or w.num[i] or w[i] in LEX["after_a_station"])


def ends_a_station_name(span: Span) -> bool:
    """A mention ending in "est" or "nord" where that word ends a station's name ("depuis paris
    est mercredi": Paris Est; "paris gare de l'est partant de"), not where it is a verb ("Paris
    est à 2 h")."""
    w, last = words_of(span.doc), span.end - 1
    return w[last] in LEX["compass"] and _name_word(w, last)


def widest_station(
    span: Span, places: Places, before: Optional[Span] = None, after: Optional[Span] = None, communes: bool = False
) -> Optional[Tuple[int, int]]:
    """(start, end) of the longest run of words (of equals, the one that leaves less of `span`
    out: "Aix en Provence TGV" for "en Provence TGV", not "TGV Aix en Provence") that spells a
    station's name exactly (no typo
    correction: "Massy à Palaiseau" is no Massy - Palaiseau), starts at or before the start of
    `span` (or after the "gare de" opening it: "gare de Lyon" + "Perrache"; or inside a `span`
    that names no one place: "Chantilly Paris" + "Nord"), goes past its start
    and adds a word that is not a function word ("Paris est" is no Paris Est) beside it; it may
    cover the mention `before` it, and cut it only where that mention, right before, names no one
    place ("wimille wimereux boulogne" + "ville": Boulogne Ville, the station). None if no run
    does."""
    w = words_of(span.doc)
    # Most mentions stand between function words ("de Marseille à Paris"): nothing to try.
    # "gare de" + "lyon": the words that open a station's name go on with it too
    left = _goes_on(w, span.start - 1) or _opens_a_station(w, span.start) or _linked(w, span.start - 1, -1)
    right = _goes_on(w, span.end) or _linked(w, span.end, 1)
    if not (left or right):
        return None
    farthest = _words_away(w, span.start, MAX_EXTRA_WORDS, -1)
    lowest = max((before.start if before is not None else 0) if left else span.start, farthest)
    if before is not None and before.start < lowest < before.end:
        lowest = before.end
    highest = _words_away(w, span.end - 1, MAX_EXTRA_WORDS, 1) + 1 if right else span.end
    words = w.text[lowest:highest]
    best: Optional[Tuple[int, int]] = None
    # A mention before that names no one place ("wimille wimereux boulogne") may give up its end;
    # so may one whose end is a station's opening words ("melun gare" + "lyon": Melun, gare de Lyon).
    cuttable = before is not None and before.end == span.start and places.place(before.text) is None
    linked = before is not None and all(w[i] in LEX["from_any"] for i in range(before.end, span.start))
    opening = _gives_up_opening(before, places) if before is not None and linked else 0
    # A mention that names no one place ("Chantilly Paris" + "Nord") may give up its start too.
    names_one = len(span) == 1 or places.place(span.text) is not None
    last_start = span.start if names_one else span.end - 1
    for start in range(lowest, last_start + 1):
        # The longest run of exact names from `start` (one pass over the window's rest); from
        # the mention's start, past its "gare de": "gare de Lyon" + "Perrache".
        name = _name_start(span) if start == span.start else start
        run = _first_run(places, words[name - lowest :], len(words))
        if run is None:
            continue
        end = name + run
        if end <= span.start or (start >= span.start and end <= span.end):
            continue  # does not reach into the mention, or adds nothing after it
        if before is not None and before.start < start < before.end and not cuttable:
            if not (opening and start == opening):
                continue  # it would cut the mention before it, a place as a whole
        extra = chain(range(start, span.start), range(span.end, end))
        if not any(_name_word(w, i) for i in extra) or not _joinable(w, start, end):
            continue
        if best is not None and (end - start, min(end, span.end)) <= (best[1] - best[0], min(best[1], span.end)):
            continue  # the longest, and of equals the one that leaves less of the mention out
        text = w.span(start, end)
        place = places.place(text)
        # With `communes`, a compound commune's whole name instead ("Bourg" + "Saint Maurice",
        # "charleville" + "mezieres"), taking the mentions beside it in whole or not at all, and
        # its own too where it names one place ("hellemmes" + "lille flandres": no Hellemmes-Lille).
        if place is not None and (
            place.kind == STATION
            if not communes
            else all(_joins(m, start, end) for m in (before, span if names_one else None, after))
            and _spells(place, text)
        ):
            best = (start, end)
    return best


def _first_run(places: Places, words: List[str], max_words: int) -> Optional[int]:
    """The end of the first run of exact names in `words` where it starts at their first word:
    the places' `first_run` where they have it (it reads no further than that run), else
    their `name_spans`."""
    first_run = getattr(places, "first_run", None)
    if first_run is not None:
        return first_run(words, max_words)
    runs = places.name_spans(words, max_words)
    return runs[0][1] if runs and runs[0][0] == 0 else None


def _linked(w: Words, i: int, step: int) -> bool:
    """Token `i` is a function word inside a compound's name, a name's word beyond it: "mont de" +
    "marsan", "saint jean" + "de luz"."""
    return 0 <= i < w.n and w.is_lower[i] and w[i] in LEX["name_particles"] and _goes_on(w, i + step)


def _joins(other: Optional[Span], start: int, end: int) -> bool:
    """The run [start, end) leaves the mention `other` out or takes it in whole."""
    return other is None or end <= other.start or start >= other.end or (start <= other.start and end >= other.end)


def _spells(place, text: str) -> bool:
    """`text` is a compound place's official name, hyphens, case and accents aside: "Bourg Saint
    Maurice", "mont de marsan" (not a short form or an alias)."""
    return "-" in place.name and normalise(place.name) == normalise(text)


def _opens_a_station(words: Words, i: int) -> bool:
    """The words right before token `i` are "gare", "gare de", "station de"..."""
    j = i - 1 if i > 0 and words[i - 1] in LEX["from_any"] else i
    return j > 0 and words[j - 1] in LEX["station_words"]


def _gives_up_opening(before: Span, places: Places) -> int:
    """Where the words that open a station's name ("gare", "gare de") start at the end of the
    mention `before`, when what is left of it names the same place ("melun gare": Melun); else 0."""
    doc, start = before.doc, before.end
    words = words_of(doc)
    while start > before.start + 1 and (
        words[start - 1] in LEX["from_any"] or words[start - 1] in LEX["station_words"]
    ):
        start -= 1
    if start == before.end or words[start] not in LEX["station_words"]:
        return 0
    whole, rest = places.place(before.text), places.place(doc[before.start : start].text)
    return start if whole is not None and rest is not None and whole.name == rest.name else 0


def _split_before_station(span: Span, places: Places) -> List[Span]:
    """A mention that names no one place, a place then a station its "gare" opens ("melun gare
    de lyon": Melun, Paris Gare de Lyon), in two, both with its label; else the mention."""
    doc = span.doc
    openings = [i for i in range(span.start + 1, span.end - 1) if words_of(doc)[i] in LEX["station_words"]]
    if not openings or places.place(span.text) is not None:
        return [span]
    for i in openings:
        station = places.place(doc[i : span.end].text)
        if station is not None and station.kind == STATION and places.place(doc[span.start : i].text) is not None:
            return [Span(doc, span.start, i, label=span.label_), Span(doc, i, span.end, label=span.label_)]
    return [span]


def join_station_names(spans: List[Span], places: Places) -> List[Span]:
    """The mentions (sorted by start), each widened to the station name it is part of, the
    mentions a widened one covers merged into it (it keeps the first one's label); the words
    of a mention after a station's name that ends inside it stay a mention. Then each widened
    again to the compound commune's name it is part of ("bourg" + "saint maurice"), once the
    stations are whole ("hellemmes" + "lille flandres" is no Hellemmes-Lille)."""
    return _join(_join(spans, places, communes=False), places, communes=True)


def _join(spans: List[Span], places: Places, communes: bool) -> List[Span]:
    out: List[Span] = []
    pieces = [piece for mention in spans for piece in _split_before_station(mention, places)] if not communes else spans
    for n, span in enumerate(pieces):
        if out and span.end <= out[-1].end:
            continue  # inside a mention already widened
        if out and span.start < out[-1].end:
            span = Span(span.doc, out[-1].end, span.end, label=span.label_)  # the rest of it
        after = pieces[n + 1] if n + 1 < len(pieces) else None
        wide = (
            widest_station(span, places, out[-1] if out else None, after, communes)
            if len(span) <= MAX_MENTION_WORDS
            else None
        )
        if wide is None:
            out.append(span)
            continue
        label = span.label_
        if wide[0] > span.start:  # "Chantilly Paris" + "Nord": Chantilly stays a mention
            out.append(Span(span.doc, span.start, wide[0], label=label))
        elif out and out[-1].start < wide[0] < out[-1].end:  # the end of the mention before it
            cut = out.pop()
            out.append(Span(span.doc, cut.start, wide[0], label=cut.label_))
        while out and out[-1].start >= wide[0]:  # a mention before it, now part of it
            label = out.pop().label_
        out.append(Span(span.doc, wide[0], wide[1], label=label))
        if wide[1] < span.end:  # "la vallee bordeaux" read as "[marne] la vallee" + "bordeaux"
            out.append(Span(span.doc, wide[1], span.end, label=span.label_))
    return out
