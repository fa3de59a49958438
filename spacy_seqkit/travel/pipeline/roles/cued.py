"""An end the recognizer missed, read from the words before a known place it did not mark (the
free mentions of `seqkit_places`): a trip with one end, or none, takes such a place as its other
end where the words say which end it is ("le TER entre Mâcon et Tournus", "je pars de prades pr
perpignan", "mes parents habitent Tarbes, je voudrais les rejoindre depuis Toulouse"). The rules
are listed with the steps `lone_end_reversed`, `cued_ends` and `from_there` (`steps.toml`)."""

from dataclasses import replace
from typing import Optional, Tuple

from ..base import PLACE
from ..lexicon import lexicon
from ..words import Words, cue_before
from .cues import chez_after, cued_role, left_from, role_after, said_role
from .pairs import bare_pair, ends_of, joined_pair
from .state import ARRIVEE, DEPART, End, Ends, Reading

LEX = lexicon()
Pair = Tuple[Optional[End], Optional[End]]


def _others_home(w: Words, i: int) -> bool:
    """The place after the cue at `i` is where someone else lives ("mes parents habitent Tarbes",
    "ma sœur qui vit à Brest"): not "j'habite", "je vis"."""
    if w[i] in LEX["locative"]:
        i -= 1
        if w[i] in LEX["still"]:
            i -= 1
    return w[i] in LEX["living"] and w[i - 1] not in LEX["first_person"]


def _leads_to(w: Words, end: int, arrival: End) -> bool:
    """The words from `end` are "à" then the arrival, maybe after a station's words ("de langres a
    chaumont", "de la gare de Lyon-Part-Dieu à la gare de Grenoble")."""
    between = LEX["between_cue_and_place"] | LEX["from"] | LEX["station_words"]
    return (
        w[end] in LEX["locative"]
        and end < arrival.start <= end + 4
        and all(w[i] in between for i in range(end + 1, arrival.start))
    )


def _from_to(w: Words, first: End, second: End) -> bool:
    """ "de" `first` "à" `second`: "de langres a chaumont", "aller de Pau à Lourdes"."""
    return w[cue_before(w, first.start)] in LEX["from"] and _leads_to(w, first.end, second)


def _going_from_to(w: Words, free: Ends) -> Optional[Pair]:
    """Two free places "de" X "à" Y right after a verb of going, or after a train's word, in a
    request that tells of no time gone by; neither set aside by a qualifier (another means' leg,
    someone's home)."""
    kept = [e for e in free if not (e.ruled_out or e.home or e.other_leg or e.alternative)]
    for first, second in zip(kept, kept[1:]):
        if not _from_to(w, first, second):
            continue
        cue = cue_before(w, first.start)
        before = range(max(0, cue - 4), cue)
        if any(w[i] in LEX["clause_ends"] for i in before):
            before = range(max(i for i in before if w[i] in LEX["clause_ends"]) + 1, cue)
        verb = cue - 1
        while verb > cue - 4 and w[verb] in LEX["on_the_way"]:
            verb -= 1  # "aller demain de", "partir en train de"
        going = w[verb] in LEX["going_or_leaving"] or w[verb] in LEX["to_go"]
        if going or any(w[i] in LEX["trains"] for i in before):
            return None if w.tells_the_past(LEX) else (first, second)  # the past: no pair of this request
    return None


def cued(reading: Reading, departure: Optional[End], arrival: Optional[End], free: Ends) -> Pair:
    """The (departure, arrival) a trip lacks, from the free places `free`, where the words say so."""
    w = reading.words
    if departure is None and arrival is None:
        if w.any_in(0, w.n, LEX["after_sales"]):
            return None, None  # "j'ai oublié mon sac dans le TER Nancy – Épinal": a line, no trip
        if w.any_in(0, w.n, LEX["told"]) or (w.tells_the_past(LEX) and not w.any_in(0, w.n, LEX["request_words"])):
            return None, None  # "mon rêve : de Strasbourg à Hendaye", "j'ai pris le TER Caen Cherbourg"
        covered = {i for e in reading.read for i in range(e.start, e.end)} | reading.landmarks
        covered |= {i for s, e in w.name_spans(reading.places) for i in range(s, e)}
        pair = joined_pair(w, reading.places, covered) or bare_pair(w, reading.places)
        if pair is not None:
            return ends_of(reading, pair)
    if not free:
        return None, None
    by_start = {e.start: e for e in free}
    # "entre X et Y", where X may be an end read already
    for end in [m for m in (departure, arrival) if m is not None] + list(free):
        if w[end.start - 1] != "entre" or w[end.end] != "et":
            continue
        if w.any_in(end.start - 4, end.start - 1, LEX["choosing"]):
            return None, None  # "j'hésite entre Lyon et Grenoble"
        if not w.any_in(end.start - 7, end.start - 1, LEX["train_talk"]):
            continue
        second = by_start.get(end.end + 1)
        new_departure = end if departure is None and by_start.get(end.start) is end else None
        new_arrival = second if arrival is None else None
        if new_departure or new_arrival:
            return new_departure, new_arrival
    if departure is None and arrival is None:
        return _neither(reading, free)
    if arrival is None:
        return None, _arrival(w, departure, free)  # type: ignore[arg-type]
    return _departure(w, arrival, free), None


def _neither(reading: Reading, free: Ends) -> Pair:
    w = reading.words
    if len(free) == 2:  # "un direct Paris Toulouse ?", "Rennes-Saint-Malo, 2 adultes"
        first, second = free
        beside = second.start - first.end <= 2 and all(
            w[i] in LEX["pair_joiners"] - {"et"} for i in range(first.end, second.start)
        )
        before = w.any_in(first.start - 3, first.start, LEX["train_talk"] | LEX["travellers"])
        timed = w[second.end] in LEX["from"] and w[second.end + 1][:1].isdigit()  # "le Caen - Bayeux de 7h32"
        if beside and (before or timed or w.any_in(second.end, second.end + 4, LEX["travellers"] | LEX["train_talk"])):
            return first, second
    # "de bordeau a toulouze": two places typed with a slip, which the roles' categorizer never
    # saw (it reads exact names only), "de" one and "à" the next
    exact = set(w.name_spans(reading.places))
    slipped = [e for e in free if len(e.span) == 1 and (e.start, e.end) not in exact]
    for first, second in zip(slipped, slipped[1:]):
        if _from_to(w, first, second):
            return first, second
    # "je voudrais aller de Pau à Lourdes", "le train de 19h12 de Toulouse à Montauban est-il plein ?":
    # two places, none read, "de" one and "à" the next, right after a verb of going or a train
    pair = _going_from_to(w, free)
    if pair is not None:
        return pair
    # "la ligne qui relie le village de Génolhac à Alès": two places, none read, "à" or "et" between,
    # after a verb of linking, in a request
    linking = w.any_in(0, w.n, LEX["linking"])  # rare: read first
    if linking and (w.any_in(0, w.n, LEX["request_words"]) or w.any_in(0, w.n, LEX["train_talk"])):
        for first, second in zip(free, free[1:]):
            joined = second.start - first.end == 1 and (w[first.end] in LEX["locative"] or w[first.end] == "et")
            if joined and w.any_in(first.start - 8, first.start, LEX["linking"]):
                return first, second
    # "Metz comme point de départ et Nancy comme destination": each place said to be one end
    said = [[e for e in free if role_after(w, e.end, e.start) == role] for role in ("DEPART", "ARRIVEE")]
    if len(said[0]) == 1 == len(said[1]):
        return said[0][0], said[1][0]
    # "mon ami habite à Lille et je veux aller le voir depuis Arras": one place left, then its arrival
    left = [e for e in free if left_from(w, e.start) or role_after(w, e.end, e.start) == "DEPART"]
    if len(left) != 1:
        return None, None
    arrival = cued(reading, left[0], None, tuple(e for e in free if e is not left[0]))[1]
    return (left[0], arrival) if arrival is not None else (None, None)


def _arrival(w: Words, departure: End, free: Ends) -> Optional[End]:
    """The arrival of a trip whose departure is read: after an arrival's cue; a place "à" once the
    departure has been named, or after a verb of going; anywhere once the departure's own words
    say it is left ("voir ma grand-mère à Guingamp, je pars de Paimpol"), as is the town of a venue
    ("un concert au Zénith de Lille, je pars d'Amiens"); where someone else lives; a place
    brought after the departure as a correction ("Metz → Luxembourg ... non, Thionville")."""
    left = cued_role(w, departure.start) == "DEPART"
    for e in free:
        i = cue_before(w, e.start)
        cue = w[i]
        # "à" itself, or "au", "aux" holding the name's article: "de Laval au Mans"
        at = cue in LEX["locative"] or (cue in LEX["contracted_locative"] and e.name.startswith(("Le ", "Les ")))
        towards = cue in LEX["from"] and w[i - 1] in LEX["towards"]
        staying = w[i - 1] in LEX["being"] or w[i - 1] in LEX["living"] or w[i - 1] in LEX["still"]
        venue = cue in LEX["from"] and w.any_in(i - 3, i, LEX["at"])
        # "Hendaye depuis Bordeaux Saint-Jean": the request's first place, right before the departure's "depuis"
        opens = e.start == 0 or w.punct[e.start - 1]
        comma = w[e.end] == ","
        before_departure = opens and w[e.end + comma] in LEX["departure_cues"] and departure.start == e.end + comma + 1
        if (
            before_departure
            or _said_instead(w, e, departure, free)
            or cue in LEX["arrival_cues"]
            or cue in LEX["reaching"]
            or role_after(w, e.end, e.start) == "ARRIVEE"
            or towards
            or (at and (e.start > departure.start or w[i - 1] in LEX["going_to"]))
            or (left and ((at and not staying) or venue))
            or _others_home(w, i)
        ):
            return e
    return None


def _said_instead(w: Words, e: End, departure: End, free: Ends) -> bool:
    """`e` is the last place, brought by a "non" after the departure: the arrival said instead of
    one the reading dropped ("Metz → Luxembourg ... non, Thionville pardon")."""
    return (
        e.brings_correction and e is free[-1] and e.start > departure.end and w.any_in(e.start - 3, e.start, ("non",))
    )


def _departure(w: Words, arrival: End, free: Ends) -> Optional[End]:
    """The departure of a trip whose arrival is read: after a departure's cue, said to be one,
    right before the arrival's "à" ("de langres a chaumont"), or where one lives, is, stays with
    someone or sleeps ("je suis encore au Havre", "je suis chez ma mère à Romans", "je dormirai à
    Brest la veille")."""
    staying = LEX["being"] | LEX["living"] | LEX["sleeping"]
    for e in free:
        i = cue_before(w, e.start)
        cue = w[i]
        before_arrival = _from_to(w, e, arrival)
        lives = w[i - 1] in staying or (w[i - 1] in LEX["still"] and w[i - 2] in staying) or chez_after(w, i, staying)
        at = cue in LEX["locative"] or (cue in LEX["contracted_locative"] and e.name.startswith(("Le ", "Les ")))
        either = w[e.end] in LEX["alternatives"] or w.any_in(e.start - 6, e.start, LEX["alternatives"])
        living = cue in LEX["living"] or (at and lives and not either)  # "je dors à Lunéville ou à Nancy"
        if left_from(w, e.start) or role_after(w, e.end, e.start) == "DEPART" or before_arrival or living:
            return e
    return None


def lone_end_reversed(reading: Reading) -> bool:
    """The one end read is the other end by the words right before it ("Y a-t-il une gare à
    Rocamadour ? Je viens de Brive" with Brive read as the arrival); or, no word saying its role,
    where a free place is said to be that end ("saint malo. jpars de rennes")."""
    if len(reading.departures) + len(reading.arrivals) != 1:
        return False
    end, w = (reading.departures or reading.arrivals)[0], reading.words
    role = said_role(w, end.start, end.end)
    if role is not None:
        return role != ("DEPART" if reading.departures else "ARRIVEE")
    if reading.departures:
        return any(left_from(w, e.start) for e in reading.free)
    return any(cued_role(w, e.start) == "ARRIVEE" for e in reading.free)


def roles_reversed(w: Words, departure: End, arrival: End) -> bool:
    """The departure and arrival read are the other way round by what the words say of them: "...,
    euh non, l'inverse" after them; the arrival after a departure's cue and the departure after
    none, or the reverse. An arrow from the departure to the arrival, or the arrival right after
    the departure, keeps them ("billet pr evreux > st lazare")."""
    later = departure if departure.end > arrival.end else arrival
    if later.reversal_after:
        return True
    between = w.lower[departure.end : arrival.start]
    if departure.end <= arrival.start and (
        all(t in LEX["arrows"] for t in between) or (between[:1] == ["("] and between[-1:] == [")"])
    ):
        return False
    of_departure, of_arrival = said_role(w, departure.start, departure.end), said_role(w, arrival.start, arrival.end)
    return (of_arrival == "DEPART" and of_departure != "DEPART") or (
        of_departure == "ARRIVEE" and of_arrival != "ARRIVEE"
    )


def from_there(r: Reading) -> Reading:
    """The place named right before "de là" departs, the arrival named after it: "je vis à Chalon,
    et c'est de là que je pars pour Autun", "je serai à Dijon ; il me faut un train de là pour
    Paris" (read the other way round, the two ends change places); not "loin de là", "puis de là"
    (a further leg), "de là-bas"."""
    w = r.words
    if LEX["that_place"].isdisjoint(w.lower):
        return r
    k = next((i for i in range(1, w.n) if w[i - 1] == "de" and w[i] in LEX["that_place"]), None)
    if k is None or w[k - 2] in LEX["not_from_there"] or w[k + 1] == "-" or not r.arrivals:
        return r
    there = next((e for e in reversed(r.mentions) if e.end < k and not e.ruled_out and not _a_region(w, e)), None)
    departure, arrival = (r.departures or (None,))[0], r.arrivals[0]
    if there is None or (departure is not None and there.name == departure.name):
        return r
    if there.start == arrival.start and departure is not None and departure.start > k:
        # "à Castelnaudary, et c'est de là que je monte à Toulouse", read the other way round
        leaving, reaching = arrival.as_(DEPART), departure.as_(ARRIVEE)
        swapped = r.substituted(departure, reaching).substituted(arrival, leaving)
        return replace(swapped, departures=(leaving, *r.departures[1:]), arrivals=(reaching, *r.arrivals[1:]))
    if there.name == arrival.name or arrival.start < k:
        return r
    new = there.as_(DEPART)
    read = r.with_read(new) if there.role == PLACE else tuple(new if e is there else e for e in r.read)
    stops = tuple(e for e in r.stops if e.name != there.name)
    return replace(r, read=read, departures=(new,), stops=stops)


def _a_region(w: Words, e: End) -> bool:
    """An article before a name that has none: a river or a region ("la Vienne", "la Bretagne")."""
    article = w[e.start - 1]
    own = article if article.endswith("'") else f"{article} "  # "La Rochelle", "L'Isle-Adam"
    return article in LEX["articles"] and not e.name.lower().startswith(own)
