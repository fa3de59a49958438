"""`seqkit_places`: every place a request names, in `doc.spans["places"]`, each with its `Place`
(`span._.place`) and, as its label, the role the recognizer gave it (DEPART, ARRIVEE, VIA) or
PLACE where it gave none.

The recognizer's mentions first: a station's name it cut is joined ("angers" + "st laud":
Angers Saint-Laud, `station_names.py`), a landmark's words are no place ("la Tour Eiffel",
`landmarks.py`), and each mention is read as the known places it names (`read_mention`): "avignon
comment" → Avignon, "Metz - Paris" → Metz, Paris; "samedi" → none. Then every other run of words
that spells a known place exactly, and a word typed with a slip right after a place's cue
("depuis amien"): the places the recognizer did not mark, but for everyday words after an
article, in lowercase, that name a village no station serves ("à la montagne"). A person named
like a town ("Mme Laval", "ma sœur Nancy") is no mention at all, nor are two towns' teams in a
match ("Lens contre Lille", `matches.py`)."""

from typing import Dict, List, Optional, Set, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...places.contract import Places, check_places
from ...places.names import FOREIGN_PLACES, normalise
from ...places.place import Place
from ..base import LABELS, PLACE, ReadingPipe
from ..extensions import install_extensions
from ..lexicon import lexicon
from ..words import ShoutingText, Words, capital_of_the_sentence, cue_before, looks_like_name, words_of
from .landmarks import without_landmarks
from .matches import match_sides
from .names import MAX_NAME_TOKENS, named_person, run_together, silent_s, with_contracted_article
from .station_names import ends_a_station_name, join_station_names

KEY = "places"
UNKNOWN_NAMES_SETTINGS = ("keep", "drop")
# Whose roles the mentions take: the recognizer's only; the span categorizer's for the places the
# recognizer did not mark too; or the categorizer's for every candidate it read.
ROLES_SETTINGS = ("recognizer", "union", "learned")
# A name right after one of these is a station abroad ("Londres St Pancras"); not "Europe",
# which ends French stations' names ("Lille Europe").
_FOREIGN_CITIES = FOREIGN_PLACES - {"europe"}
# A place typed with a slip is read after these cues only, and when it is this long: shorter
# words are too often other words one letter away ("lile").
MIN_TYPO_LETTERS = 5
# A name typed without its silent final "s" (no slip: the name with it is exact), this long or
# longer: "rejoindre arle".
MIN_SILENT_S_LETTERS = 4

Found = Tuple[Span, Place]


class PlaceMentions(ReadingPipe):
    def __init__(
        self,
        name: str = "seqkit_places",
        *,
        places: Optional[Places] = None,
        resolve_names: bool = True,
        known_places_only: bool = True,
        unknown_names: str = "drop",
        landmarks: bool = True,
        roles: str = "learned",
        roles_key: str = "roles",
    ) -> None:
        if unknown_names not in UNKNOWN_NAMES_SETTINGS:
            raise ValueError(f"unknown_names must be one of 'keep', 'drop', got {unknown_names!r}")
        if roles not in ROLES_SETTINGS:
            raise ValueError(
                f"seqkit_places: roles must be one of {', '.join(map(repr, ROLES_SETTINGS))}, got {roles!r}"
            )
        self.name, self._places = name, places
        self.resolve_names, self.known_places_only, self.unknown_names = resolve_names, known_places_only, unknown_names
        self.landmarks, self.roles, self.roles_key = landmarks, roles, roles_key
        install_extensions()

    def __call__(self, doc: Doc) -> Doc:
        mentions, landmark = self.mentions(doc)
        doc.spans[KEY] = [span for span, _ in mentions]
        for span, place in mentions:
            span._.place = place
        if landmark:
            doc.spans["landmarks"] = [doc[i : i + 1] for i in sorted(landmark)]
        return doc

    def mentions(self, doc: Doc) -> Tuple[List[Found], Set[int]]:
        """The recognizer's mentions, then the known places it did not mark, in reading order; and
        the tokens of landmarks (no place a cue may name either)."""
        spans = sorted((e for e in doc.ents if e.label_ in LABELS), key=lambda s: s.start)
        if not self.resolve_names:
            return [(s, Place.unknown(s.text)) for s in spans], set()
        words = words_of(doc)
        landmark: Set[int] = set()
        if spans:
            spans = join_station_names(spans, self.places)
            if self.landmarks:
                spans, landmark = without_landmarks(doc, spans, self.places)
        shouting = ShoutingText(doc)
        marked = [
            (Span(doc, part.start, part.end, label=span.label_), place)  # a part of a span keeps its role
            for span in spans
            for part, place in self.read_mention(span, shouting)
        ]
        has_roles = self.roles != "recognizer" and self.roles_key in doc.spans
        group = doc.spans[self.roles_key] if has_roles else ()
        learned = {(s.start, s.end): s.label_ for s in group if s.label_ in LABELS}  # the candidates' roles
        marked = self.widened_to_candidates(doc, marked, learned)
        taken = {i for span, _ in marked for i in range(span.start, span.end)} | landmark
        free = [(Span(doc, s, e, label=PLACE), p) for s, e, p in self.free_places(words, taken)]
        found = marked + free
        if has_roles:
            taken |= {i for span, _ in free for i in range(span.start, span.end)}
            found = self.with_learned_roles(doc, found, learned) + self.learned_ends(doc, learned, taken)
        found = sorted(((s, p) for s, p in found if not named_person(words, s.start)), key=lambda f: f[0].start)
        teams = match_sides(words, [(s.start, s.end) for s, _ in found])
        return [(s, p) for s, p in found if (s.start, s.end) not in teams], landmark

    def widened_to_candidates(self, doc: Doc, marked: List[Found], learned: Dict[Tuple[int, int], str]) -> List[Found]:
        """Each mention as the longer place a candidate given a role (`learned`) that holds all its words
        names: "bourg" + "st maurice", "paris" + "est" (not the verb of "Paris est-il", "Paris est à")."""
        named, words = getattr(self.places, "named_place", self.places.place), words_of(doc)
        locative = lexicon()["locative"]
        for (start, end), label in learned.items():
            over = [m for m in marked if m[0].start < end and start < m[0].end]
            held = all(start <= i < end or words.punct[i] for m, _ in over for i in range(m.start, m.end))
            verb = words[end][:1] == "-" != words[end] or words[end] in locative
            if over and held and not verb and all((m.start, m.end) != (start, end) for m, _ in over):
                place = named(words.span(start, end))
                if place is not None:
                    widened = [m for m in marked if m not in over] + [(Span(doc, start, end, label=label), place)]
                    marked = sorted(widened, key=lambda m: m[0].start)
        return marked

    def learned_ends(self, doc: Doc, learned: Dict[Tuple[int, int], str], taken: Set[int]) -> List[Found]:
        """The candidates given a role (`learned`) that no mention holds yet, with that role: a place's
        exact name that the place index leaves to the words when typed in lowercase ("corte",
        "salon", "chalons"), read as that place (`named_place`) since its context makes it an end."""
        named = getattr(self.places, "named_place", self.places.place)
        words, found = words_of(doc), []
        for (start, end), label in learned.items():
            if not any(i in taken for i in range(start, end)):
                place = named(words.span(start, end))
                if place is not None and not self.words_of_an_article(words, start, end, place):
                    found.append((Span(doc, start, end, label=label), place))
        return found

    def with_learned_roles(self, doc: Doc, found: List[Found], learned: Dict[Tuple[int, int], str]) -> List[Found]:
        """The mentions with the roles the span categorizer gave the candidates (`learned`, by (start,
        end)): a known place the recognizer did not mark takes its learned role ("union" and
        "learned"); with "learned", a mention the recognizer marked that was a candidate takes its
        learned role, or none."""
        candidates = set(words_of(doc).name_spans(self.places)) if self.roles == "learned" else set()
        out = []
        for span, place in found:
            key = (span.start, span.end)
            label = span.label_
            if key in learned and (label == PLACE or self.roles == "learned"):
                label = learned[key]
            elif label != PLACE and key in candidates:
                label = PLACE  # a candidate the categorizer gave no role
            out.append((span if label == span.label_ else Span(doc, span.start, span.end, label=label), place))
        return out

    def read_mention(self, span: Span, shouting=None) -> List[Found]:
        """The (mention, place) pairs a recognized span names, in reading order, each mention
        the span or a part of it: the span's place as a whole, else (with `known_places_only`)
        its longest known runs of tokens left to right ("Metz - Paris"); function words that
        are village names ("vers", "par") only when nothing else in it is a place. A span with
        no known place in it is kept as typed when written as a name ("Port-Boulet") with
        `unknown_names = "keep"` and `places` does not exclude it, else dropped ("samedi")."""
        places, doc, words = self.places, span.doc, words_of(span.doc)
        before = doc[max(0, span.start - 1) : span.start + (len(span) > 1)]
        if any(normalise(t.text) in _FOREIGN_CITIES for t in before):
            return []  # "Londres St Pancras", "Genève Cornavin": a station abroad
        if len(span) > 1 and span[-1].is_stop and span[-1].is_lower and not ends_a_station_name(span):
            head = places.place(
                words.span(span.start, span.end - 1)
            )  # "Paris est à quelle heure": "est" is no part of it
            if head is not None:
                return [(span[:-1], head)]
        text = words.span(span.start, span.end)
        place = with_contracted_article(span, places) or places.place(text)
        if place is not None and capital_of_the_sentence(span) and places.place(text.lower()) is None:
            return []  # "La réunion est à Toulouse": a word, not La Réunion (Lot-et-Garonne)
        if place is not None and not (self.known_places_only and run_together(span, places)):
            return [(span, place)]
        if not self.known_places_only:
            return [(span, Place.unknown(span.text))]
        found: List[Found] = []
        function_words: List[Found] = []
        start, n = 0, len(span)
        while start < n:
            for end in range(min(n, start + MAX_NAME_TOKENS), start, -1):
                part = span[start:end]
                if len(part) == n or part[0].is_punct or part[-1].is_punct or not any(t.is_alpha for t in part):
                    continue
                if len(part) > 1 and part[-1].is_stop and part[-1].is_lower and not ends_a_station_name(part):
                    continue  # "Lens mais finalement": no name ends in a function word
                place = places.place(words.span(part.start, part.end))
                if place is not None:
                    is_function_word = len(part) == 1 and part[0].is_stop
                    (function_words if is_function_word else found).append((part, place))
                    start = end
                    break
            else:
                start += 1
        if found or function_words:
            return found or function_words[:1]
        if self.unknown_names == "drop" or not looks_like_name(span, shouting) or places.is_excluded(span.text):
            return []
        return [(span, Place.unknown(span.text))]

    def words_of_an_article(self, words: Words, start: int, end: int, place: Place) -> bool:
        """Lowercase words after an article, each an everyday word, that name a village no station
        serves: "à la montagne" (La Montagne), "les deux villes" (Les Deux-Villes) are words."""
        ordinary = getattr(self.places, "ordinary_words", ())
        return (
            not place.stations
            and words.is_lower[start]
            and words[start] in lexicon()["articles"]
            and all(words.is_lower[i] and words[i] in ordinary for i in range(start + 1, end))
        )

    def free_places(self, words: Words, taken) -> List[Tuple[int, int, Place]]:
        """The runs of words that name places exactly outside the tokens `taken`, and a word typed
        with a slip after a place's cue ("depuis amien", "de bordeau a toulous"; after a verb of
        reaching, only without its silent "s": "rejoindre arle", not "rejoins lucie"; across an arrow
        from a place: "brive -> limoge"), where the gazetteer corrects it: an exact name the runs
        left out ("pour le Grand Prix") stays out."""
        places, lex = self.places, lexicon()
        runs = words.name_spans(places)
        found = []
        for s, e in runs:
            if not any(i in taken for i in range(s, e)):
                place = places.place(words.span(s, e))
                if place is not None and not self.words_of_an_article(words, s, e, place):
                    found.append((s, e, place))
        named = taken | {i for s, e in runs for i in range(s, e)}
        cues, leaving = lex["typo_cues"], lex["leaving"]
        arrows = {i for i, w in enumerate(words.lower) if w in lex["arrows"]}
        for i, text in enumerate(words.text):
            if i in named or len(text) < MIN_SILENT_S_LETTERS or not text.replace("-", "").isalpha():
                continue
            cue = cue_before(words, i)
            near = (words.arrow_to(i, 1), words.arrow_to(i, -1)) if arrows & {i - 1, i + 1} else ()
            arrow = any(j in named for j in near)
            leaves = words[cue] in lex["from"] and (words[cue - 1] in leaving or words[i + 1] in lex["locative"])
            if arrow or leaves or words[cue] in cues:
                slip = len(text) >= MIN_TYPO_LETTERS and (arrow or words[cue] not in lex["reaching"])
                place = (places.place(text) if slip else None) or silent_s(places, words, i)
                if place is not None and normalise(place.name) != normalise(text):
                    found.append((i, i + 1, place))
        return sorted(found)


@Language.factory(
    "seqkit_places",
    assigns=["doc.spans"],
    requires=["doc.ents"],
    default_config={
        "places": {"@misc": "spacy-seqkit.french_places.v1"},
        "resolve_names": True,
        "known_places_only": True,
        "unknown_names": "drop",
        "landmarks": True,
        "roles": "learned",
        "roles_key": "roles",
    },
)
def make_place_mentions(
    nlp: Language,
    name: str,
    places: Places,
    resolve_names: bool,
    known_places_only: bool,
    unknown_names: str,
    landmarks: bool,
    roles: str,
    roles_key: str,
) -> PlaceMentions:
    """Writes every place the request names to `doc.spans["places"]` (`span._.place`: its
    `Place`; label: the recognizer's role, or PLACE). `resolve_names`: read mentions as places
    of `places` (else each is kept as typed); `known_places_only`: a mention naming no known
    place as a whole is read as the known places inside it; `unknown_names`: "drop" (only known
    places are mentions) or "keep" (a name written as one is kept as typed); `landmarks`: a
    landmark's words are no place ("la Tour Eiffel"); `roles`: the roles the mentions take where a
    span categorizer wrote them in `doc.spans[roles_key]` ("recognizer": the recognizer's alone;
    "union": learned ones for the places it did not mark; "learned": learned ones for every
    candidate)."""
    check_places(name, places)
    return PlaceMentions(
        name,
        places=places,
        resolve_names=resolve_names,
        known_places_only=known_places_only,
        unknown_names=unknown_names,
        landmarks=landmarks,
        roles=roles,
        roles_key=roles_key,
    )
