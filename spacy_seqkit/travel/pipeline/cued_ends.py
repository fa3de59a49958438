"""An end the recognizer missed, read from the words before a place the request names: a trip
with one end, or none, takes a known place that no mention covers as its other end where the
word before it says which end it is:

- "entre X et Y" said of a train: X departs, Y arrives ("le TER de 7 h 12 entre Ax-les-Thermes
  et Foix"), unless the request is choosing ("j'hésite entre Lyon et Grenoble");
- two places joined by a dash in one token ("Paris-Saint-Malo", which the tokenizer keeps
  whole), or a request that is only two places ("bordeau toulouse", `bare_pairs.py`), when the
  recognizer read neither: the first departs;
- a bare pair of places, when the recognizer read neither, right after a word of a train or a
  ticket ("un direct Paris Toulouse ?", "2 adultes Lyon Nice") or right before the travellers
  or "aller-retour" ("Rennes-Saint-Malo, 2 adultes"): the first departs;
- the arrival that opens the request right before the departure's "depuis" ("Hendaye depuis
  Bordeaux Saint-Jean");
- the arrival after "pour", "pr", "vers", "jusqu'à", "à destination de", a verb of reaching ("atteindre
  Gap", "rallier Dijon"), or after "à" once the departure has been
  named ("partir de Moûtiers ... à Albertville"), after a verb of going ("aller à Tours ...
  depuis Vendôme"), or anywhere once the departure's own words say it is left ("voir ma
  grand-mère à Guingamp, je pars de Paimpol"), as is the town of a place one goes to then
  ("un concert au Zénith de Lille, je pars d'Amiens");
- the arrival where someone else lives, once the departure is named ("mes parents habitent
  Tarbes, je voudrais les rejoindre depuis Toulouse");
- either end said of a place after it: "Pontarlier est ma gare de départ", "Dole sera ma
  destination", "Nantes comme destination", "Chambéry mon départ";
- the departure after "depuis", "départ", a leaving verb's object ("nous quittons Metz"), after
  "de" that follows a word of leaving ("je pars de prades"), after "de" right before the
  arrival's "à" ("de langres a chaumont"), or where one lives ("j'habite Abbeville", "ma tante
  vit à Sellières", "j'habite encore à Laval"), or is now ("je suis toujours à Aix-les-Bains").

When the recognizer read neither end and the words name one place that is left ("depuis",
"départ", "je pars de"), that place departs and the arrival is found as above ("mon ami habite
à Lille et je veux aller le voir depuis Arras"); with no arrival so found, nothing.

And two ends the recognizer read the other way round, by the same words: the arrival after a
departure's cue ("le lioran depuis aurillac", "chenonceaux au départ de tours") or the departure
after an arrival's, or said after it ("Grenoble sera mon arrivée, Chambéry mon départ"), while
the other end has no cue of its own role (`roles_reversed`).

Only exact names of the places count (`Places.name_spans`: no typo reading, a common word
only for a town), so "de la gare" or "à pied" give nothing.
"""

from typing import List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span

from ..places.contract import Places
from ..places.names import normalise
from ..places.place import Place
from .bare_pairs import bare_pair, joined_pair
from .ruled_out import is_ruled_out, reversed_after
from .subject_roles import role_after
from .written import word_at, words_of

ARRIVAL_CUES = frozenset(
    {"pour", "pr", "vers", "jusqu'à", "jusqu'a", "jusqu’à", "jusqu", "jusque", "direction", "destination", "go"}
)
LOCATIVE = frozenset({"à", "a"})
AT = LOCATIVE | {"au", "aux"}
DEPARTURE_CUES = frozenset({"depuis"})
FROM = frozenset({"de", "d'", "d’", "du"})
LEAVING = frozenset(
    "pars part partir partant partons partez partent parti partie partis parties partirai partiras partira "
    "partirons partirez partiront partirais partirait partirions partiriez partiraient partais partait partions "
    "partiez partaient départ depart quitter quitte quittant provenance venant viens vient venons venez "
    "viennent jpars jpart chpars".split()
)

# Where one lives is where one leaves from once the other end is named: "j'habite Abbeville".
LIVING = frozenset("habite habitons habitent vis vit vivons vivent réside résidons résident loge logeons".split())
# So is where one is now, with its "à": "je suis toujours à Aix-les-Bains", "je me trouve à Vire".
BEING = frozenset("suis jsuis chuis sommes trouve trouvons".split())
STAYING = LIVING | BEING
# Who lives there: "j'habite Abbeville" is a departure, "mes parents habitent Tarbes", once the
# departure is named, the arrival.
FIRST_PERSON = frozenset({"j'", "j’", "je", "nous", "on"})
# "j'habite encore à Laval": words between living and its "à".
STILL = frozenset("encore toujours actuellement maintenant désormais".split())
# Leaving a place named right after the verb: "nous quittons Metz pour Bar-le-Duc".
QUITTING = frozenset("quitte quitter quittons quittez quittent quittant quitterai quitterons quittera".split())
# Reaching a place named right after the verb: "je compte bien atteindre Gap", "rallier Dijon".
REACHING = frozenset(
    "rejoindre rejoins rejoint rejoignons atteindre atteins atteint atteignons rallier rallie gagner regagner "
    "rejoindrai rejoindra rejoindrons atteindrai atteindra atteindrons rallierai ralliera gagnerai gagnera "
    "gagnerons regagnerai regagnera".split()
)
# "départ Moûtiers vers 6 h": the departure right after the word.
DEPARTURE_WORDS = frozenset({"départ", "depart", "origine"})
# "entre X et Y" after these offers a choice, not a trip: "j'hésite entre Lyon et Grenoble".
CHOOSING = frozenset("hésite hesite hésitons hésitais hésiter choisir choix balance tranché trancher".split())
# "entre X et Y" is a trip when said of a train: "le TER de 7 h 12 entre Ax et Foix", "une
# liaison entre Saint-Brieuc et Lannion", not "le contrôleur entre Dax et Bayonne" or "les
# travaux entre Bourges et Montluçon".
TRAIN_WORDS = frozenset(
    "train trains ter tgv intercités intercites ouigo rer billet billets trajet trajets correspondance "
    "horaires aller-retour liaison liaisons ferroviaire ferroviaires changement changements direct directs".split()
)
# Right before a bare pair of places, what shows it is a trip when the recognizer read nothing:
# "un direct Paris Toulouse ?", "2 adultes 1 enfant Lyon Nice le 12/08", "mon TGV Paris-Bordeaux".
PAIR_CUES = TRAIN_WORDS | frozenset("aller allers retour a/r adulte adultes enfant enfants passager passagers".split())
# ... or right after it: "Rennes-Saint-Malo, 2 adultes, samedi", "Lille Arras A/R".
PAIR_AFTER = frozenset("aller retour a/r aller-retour adulte adultes enfant enfants passager passagers pers".split())
# Going "à" a place names the arrival wherever it stands: "aller à Tours ... depuis Vendôme".
# "en vacances", "en week-end": between a verb of leaving or going and its "à".
ON_A_TRIP = frozenset("vacances week-end weekend we voyage congé congés déplacement mission séjour".split())
GOING = frozenset("aller vais va allons rendre rends arriver rentrer rejoindre retourner monter descendre".split())

# What may stand between a cue and its place: hesitations, articles ("depuis la gare de l'Est").
BETWEEN = frozenset({"euh", "heu", "hum", "bah", "ben", "la", "le", "les", "l'", "l’"})
# "de X à la gare de Y": what may stand between "à" and the arrival.
TO_STATION = BETWEEN | FROM | {"gare", "station"}
# "à destination de X", "en direction de X": an arrival after "de".
TOWARDS = frozenset({"destination", "direction"})

# "X > Y", "X -> Y": the way the trip goes, whatever the words before X say.
ARROWS = frozenset({">", "->", "→", "=>", ">>", "-", "–", "—", "-->"})

# What may join the two ends of a terse request: "albi carmaux", "Arras et Douai", "X / Y".
PAIR_JOINERS = {"-", "–", "—", "/", "->", ">", "→", "=>", "⇒", "➔", "➡", "➡️", ",", "et", "+", "<>", "<->"}

Found = Tuple[Span, Place]

# A place typed with a slip is read after these cues only ("depuis amien", "pour marseile"), and
# when it is this long: shorter words are too often other words one letter away ("lile").
TYPO_CUES = ARRIVAL_CUES | DEPARTURE_CUES | LOCATIVE
MIN_TYPO_LETTERS = 5


def _free_runs(doc: Doc, places: Places, taken: Sequence[Span], runs: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """The runs of words that name places exactly (`runs`, the doc's) outside the mentions
    `taken`; and a word typed with a slip right after a place's cue ("depuis amien", "de bordeau
    a toulous": "de" before "à"), read with the gazetteer's typo correction (which leaves
    ordinary words alone), MIN_TYPO_LETTERS letters or more, and only where it corrects: an
    exact name the runs left out ("pour le Grand Prix") stays out."""
    covered = {i for span in taken for i in range(span.start, span.end)}
    free = [(s, e) for s, e in runs if not any(i in covered for i in range(s, e))]
    named = covered | {i for s, e in runs for i in range(s, e)}
    for token in doc:
        if token.i in named or not token.text.replace("-", "").isalpha() or len(token) < MIN_TYPO_LETTERS:
            continue
        i = _cue_at(doc, token.i)
        cue = word_at(doc, i)
        # "depuis amien", "je pars de prades", "de bordeau a toulous"
        if cue in TYPO_CUES or (
            cue in FROM and (word_at(doc, i - 1) in LEAVING or word_at(doc, token.i + 1) in LOCATIVE)
        ):
            place = places.place(token.text)
            # a slip only: a name typed right that the runs left out stays out ("pour le Grand Prix")
            if place is not None and normalise(place.name) != normalise(token.text):
                free.append((token.i, token.i + 1))
    return sorted(free)


def _cue_at(doc: Doc, start: int) -> int:
    """Where the word before `start` is, hesitations and articles aside ("au départ de euh
    saintes")."""
    i = start - 1
    while word_at(doc, i) in BETWEEN:
        i -= 1
    return i


def _others_home(doc: Doc, i: int) -> bool:
    """The place after the cue at `i` is where someone else lives ("mes parents habitent Tarbes",
    "ma sœur qui vit à Brest"): not "j'habite", "je vis"."""
    if word_at(doc, i) in LOCATIVE:
        i -= 1
        if word_at(doc, i) in STILL:
            i -= 1
    return word_at(doc, i) in LIVING and word_at(doc, i - 1) not in FIRST_PERSON


def _left_from(doc: Doc, start: int) -> bool:
    """The words before `start` say the place is left: "depuis", "départ", "quitter", a leaving
    word's "de" ("je pars de", "en partant de", "au départ de"); not where one is or lives."""
    i = _cue_at(doc, start)
    cue = word_at(doc, i)
    if cue in FROM:
        return word_at(doc, i - 1) not in TOWARDS and (word_at(doc, i - 1) in LEAVING or word_at(doc, i - 2) in LEAVING)
    return cue in DEPARTURE_CUES or cue in DEPARTURE_WORDS or cue in QUITTING


def _place(doc: Doc, places: Places, run: Tuple[int, int]) -> Optional[Found]:
    span = doc[run[0] : run[1]]
    place = places.place(span.text)
    return (span, place) if place is not None else None


def cued_ends(
    doc: Doc,
    places: Places,
    departures: List[Tuple[str, Span, Place]],
    arrivals: List[Tuple[str, Span, Place]],
    taken: Sequence[Span],
    starts: Set[int],
) -> List[Tuple[str, Span, Place]]:
    """The ends a trip lacks, found after their cues, as (label, mention, place): none when it
    has both, or when the words say nothing; never a place the request rules out. `taken`:
    the mentions already read; `starts`: where they start."""
    if departures and arrivals:
        return []
    departure = departures[0][1] if departures else None
    arrival = arrivals[0][1] if arrivals else None
    found = zip(("DEPART", "ARRIVEE"), _cued(doc, places, departure, arrival, taken))
    return [
        (label, *end) for label, end in found if end is not None and not is_ruled_out(end[0], starts | {end[0].start})
    ]


def _cued(
    doc: Doc, places: Places, departure: Optional[Span], arrival: Optional[Span], taken: Sequence[Span]
) -> Tuple[Optional[Found], Optional[Found]]:
    every_run = places.name_spans(words_of(doc))
    if departure is None and arrival is None:
        joined = joined_pair(doc, places, taken, every_run) or bare_pair(doc, places, PAIR_JOINERS)
        if joined is not None:
            return joined
    runs = _free_runs(doc, places, taken, every_run)
    if not runs:
        return None, None
    new_departure: Optional[Found] = None
    new_arrival: Optional[Found] = None
    # "entre X et Y", where X or Y may be a mention already.
    starts = {s: (s, e) for s, e in runs}
    for span in [m for m in (departure, arrival) if m is not None] + [doc[s:e] for s, e in runs]:
        if word_at(doc, span.start - 1) != "entre" or word_at(doc, span.end) != "et":
            continue
        if any(word_at(doc, i) in CHOOSING for i in range(span.start - 4, span.start - 1)):
            return None, None
        if not any(word_at(doc, i) in TRAIN_WORDS for i in range(span.start - 7, span.start - 1)):
            continue
        second = starts.get(span.end + 1)
        if departure is None and starts.get(span.start) == (span.start, span.end):
            new_departure = _place(doc, places, (span.start, span.end))
        if arrival is None and second is not None:
            new_arrival = _place(doc, places, second)
        if new_departure or new_arrival:
            return new_departure, new_arrival
    if departure is None and arrival is None and len(runs) == 2:
        (s1, e1), (s2, e2) = runs
        beside = s2 - e1 <= 2 and all(doc[i].lower_ in PAIR_JOINERS - {"et"} for i in range(e1, s2))
        before = any(word_at(doc, i) in PAIR_CUES for i in range(s1 - 3, s1))
        if beside and (before or any(word_at(doc, i) in PAIR_AFTER for i in range(e2, e2 + 4))):
            return _place(doc, places, runs[0]), _place(doc, places, runs[1])
    if departure is None and arrival is None:
        # "Metz comme point de départ et Nancy comme destination": each place said to be one end.
        said = [[run for run in runs if role_after(doc, run[1], run[0]) == role] for role in ("DEPART", "ARRIVEE")]
        if len(said[0]) == 1 == len(said[1]):
            return _place(doc, places, said[0][0]), _place(doc, places, said[1][0])
        # "mon ami habite à Lille et je veux aller le voir depuis Arras", the recognizer reading
        # neither end: one place its words say is left (or is said to be the departure), then the
        # arrival as for a departure read.
        left = [run for run in runs if _left_from(doc, run[0]) or role_after(doc, run[1], run[0]) == "DEPART"]
        found = _place(doc, places, left[0]) if len(left) == 1 else None
        if found is None:
            return None, None
        _, new_arrival = _cued(doc, places, found[0], None, [*taken, found[0]])
        return (found, new_arrival) if new_arrival is not None else (None, None)
    if departure is not None and arrival is None:
        # "je vais voir ma grand-mère à Guingamp, je pars de Paimpol": the departure's own cue
        # says it leaves from there, so a place "à" elsewhere (not where one is) is where one goes.
        left_from = cued_role(doc, departure) == "DEPART"
        for s, e in runs:
            i = _cue_at(doc, s)
            cue = word_at(doc, i)
            towards = cue in FROM and word_at(doc, i - 1) in TOWARDS
            staying = word_at(doc, i - 1) in STAYING or word_at(doc, i - 1) in STILL
            # "un concert au Zénith de Lille", "au festival d'Avignon": a place of a venue one goes to
            venue = cue in FROM and any(word_at(doc, j) in AT for j in range(i - 3, i))
            # "Hendaye depuis Bordeaux Saint-Jean": a request's first place, right before the
            # departure's "depuis", or a comma and it
            opens = s == 0 or doc[s - 1].is_punct
            comma = word_at(doc, e) == ","  # "Dijon, depuis Vernon, samedi"
            before_departure = opens and word_at(doc, e + comma) in DEPARTURE_CUES and departure.start == e + comma + 1
            if (
                before_departure
                or cue in ARRIVAL_CUES
                or cue in REACHING
                or role_after(doc, e, s) == "ARRIVEE"
                or towards
                or (cue in LOCATIVE and (s > departure.start or word_at(doc, i - 1) in GOING))
                or (left_from and ((cue in LOCATIVE and not staying) or venue))
                or _others_home(doc, i)
            ):
                return None, _place(doc, places, (s, e))
    if arrival is not None and departure is None:
        for s, e in runs:
            i = _cue_at(doc, s)
            cue = word_at(doc, i)
            before_arrival = cue in FROM and _leads_to(doc, e, arrival)
            lives = word_at(doc, i - 1) in STAYING or (word_at(doc, i - 1) in STILL and word_at(doc, i - 2) in STAYING)
            living = cue in LIVING or (cue in LOCATIVE and lives)
            if _left_from(doc, s) or role_after(doc, e, s) == "DEPART" or before_arrival or living:
                return _place(doc, places, (s, e)), None
    return None, None


def _leads_to(doc: Doc, end: int, arrival: Span) -> bool:
    """The words from `end` are "à" and then the arrival, maybe after the words of a station
    ("de langres a chaumont", "de la gare de Lyon-Part-Dieu à la gare de Grenoble")."""
    return (
        word_at(doc, end) in LOCATIVE
        and end < arrival.start <= end + 4
        and all(word_at(doc, i) in TO_STATION for i in range(end + 1, arrival.start))
    )


def cued_role(doc: Doc, mention: Span) -> Optional[str]:
    """The end the words right before `mention` say it is: "DEPART" after "depuis", "départ" or
    a leaving word's "de" ("en partant de", "au départ de", "en provenance de"), "ARRIVEE" after
    "pour", "vers", "jusqu'à", "à destination de", a leaving or going word's "à" ("je pars à
    Auray", "aller à Rennes"); "DEPART" after the "à" of where one is or lives ("je suis à
    Brest", "je vis à Angers");
    None where they say neither."""
    i = _cue_at(doc, mention.start)
    cue = word_at(doc, i)
    if cue in FROM and word_at(doc, i - 1) in TOWARDS:
        return "ARRIVEE"
    if _left_from(doc, mention.start):
        return "DEPART"
    on_a_trip = word_at(doc, i - 2) == "en" and word_at(doc, i - 1) in ON_A_TRIP  # "je pars en vacances à Barsac"
    verb = word_at(doc, i - 3 if on_a_trip else i - 1)
    if cue in LOCATIVE and verb in LEAVING and verb not in DEPARTURE_WORDS:
        return "ARRIVEE"  # "je pars à Auray": where one leaves for
    if cue in LOCATIVE and verb in GOING:
        return "ARRIVEE"  # "pr aller a rennes"
    if cue in LOCATIVE and word_at(doc, i - 1) in LIVING and word_at(doc, i - 2) in FIRST_PERSON:
        # "je vis à Angers": where one lives is left, or reached going home ("j'habite à
        # Compiègne. Demain je pars de Saint-Quentin pour rentrer chez moi")
        return "ARRIVEE" if _going_home(doc) else "DEPART"
    if cue in LOCATIVE and word_at(doc, i - 1) in BEING:
        return "DEPART"  # "jsuis a brest": where one is
    return "ARRIVEE" if cue in ARRIVAL_CUES or cue in REACHING else None


HOMEWARD = frozenset("rentrer rentre rentrerai rentrons retourner retourne retournerai revenir reviens".split())


def _going_home(doc: Doc) -> bool:
    """The request goes home: "rentrer chez moi", "je retourne chez nous"."""
    return any(
        word_at(doc, i) == "chez" and word_at(doc, i + 1) in {"moi", "nous"} and word_at(doc, i - 1) in HOMEWARD
        for i in range(len(doc))
    )


def said_role(doc: Doc, mention: Span) -> Optional[str]:
    """The end the words say `mention` is: before it (`cued_role`), else after it, the place
    as the subject ("Grenoble sera mon arrivée, Chambéry mon départ")."""
    return cued_role(doc, mention) or role_after(doc, mention.end, mention.start)


def lone_end_reversed(
    departures: Sequence[Tuple[str, Span, Place]],
    arrivals: Sequence[Tuple[str, Span, Place]],
    places: Optional[Places] = None,
    taken: Sequence[Span] = (),
) -> bool:
    """The one end the recognizer read is the other end by the words right before it: "Y a-t-il
    une gare à Rocamadour ? Je viens de Brive" with Brive read as the arrival; or, no word saying
    its role, where a place of `places` no mention of `taken` covers is said to be that end:
    "saint malo. jpars de rennes" with Saint-Malo read as the departure."""
    if len(departures) + len(arrivals) != 1:
        return False
    mention = (departures or arrivals)[0][1]
    doc = mention.doc
    role = said_role(doc, mention)
    if role is not None or places is None:
        return role is not None and role != ("DEPART" if departures else "ARRIVEE")
    runs = _free_runs(doc, places, taken, places.name_spans(words_of(doc)))
    if departures:
        return any(_left_from(doc, s) for s, _ in runs)
    return any(cued_role(doc, doc[s:e]) == "ARRIVEE" for s, e in runs)


def roles_reversed(departure: Span, arrival: Span) -> bool:
    """The recognizer's departure and arrival are the other way round by what the words say of
    them (`said_role`: before them, or after them as a subject): the
    arrival after a departure's cue and the departure after no such cue, or the departure
    after an arrival's cue and the arrival after no such cue. An arrow from the departure to the
    arrival, or the arrival right after the departure, keeps them: the cue is the pair's
    ("billet pr evreux > st lazare", "combien pour Banvillars (Territoire de Belfort) Lannion")."""
    if reversed_after(departure.doc, max(departure.end, arrival.end)):  # "..., euh non, l'inverse"
        return True
    between = [t.text for t in departure.doc[departure.end : arrival.start]]
    if departure.end <= arrival.start and (
        all(t in ARROWS for t in between) or (between[0] == "(" and between[-1] == ")")
    ):
        return False
    cue_of_departure, cue_of_arrival = said_role(departure.doc, departure), said_role(arrival.doc, arrival)
    return (cue_of_arrival == "DEPART" and cue_of_departure != "DEPART") or (
        cue_of_departure == "ARRIVEE" and cue_of_arrival != "ARRIVEE"
    )
