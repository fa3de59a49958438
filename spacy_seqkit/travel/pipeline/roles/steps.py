"""The steps `seqkit_trip` reads a request's roles through, in the order its config names them
(`steps`): each takes the `Reading` and returns a new one. They are registered by name in
`trip_steps` (entry point group `spacy_seqkit_trip_steps`: another package may add its own) and
documented in `steps.toml`, from which the rules table of docs/travel.md is made."""

from dataclasses import replace
from typing import List

import catalogue

from ...places.names import FOREIGN_PLACES, normalise
from ..lexicon import lexicon
from ..mentions.names import MAX_NAME_TOKENS
from ..words import Words, opens_sentence
from .cued import cued, from_there, lone_end_reversed, roles_reversed
from .cues import cued_role
from .homonyms import settled
from .pairs import after_a_cue, cued_first, linked_first, listed_way, pair_beside, then_chained
from .state import End, Ends, Reading

trip_steps = catalogue.create("spacy_seqkit", "trip_steps", entry_points=True)
LEX = lexicon()


@trip_steps.register("learned_intent")
def learned_intent(r: Reading) -> Reading:
    cats = r.doc.cats
    if cats.get("NO_TRIP", 0.0) > cats.get("TRIP", 1.0):  # a text classifier says no trip is asked for
        return replace(r, read=(), departures=(), arrivals=(), stops=(), invalid="intent.no_trip")
    return r


@trip_steps.register("ruled_out")
def ruled_out(r: Reading) -> Reading:
    if not any(e.ruled_out for e in r.read):
        return r
    kept = tuple(e for e in r.read if not e.ruled_out)
    cues = {(c.get("mention"), c["rule"]): c["cue"] for c in r.doc._.cues or () if c.get("cue")}
    why = []
    for e in r.read:
        if e.ruled_out:
            cue = cues.get((e.span.text, e.ruled_out.split(".", 1)[1]))
            why.append({"rule": e.ruled_out, "mention": e.span.text, **({"cue": cue} if cue else {})})
    return replace(r, read=kept, why=r.why + tuple(why))


@trip_steps.register("other_legs")
def other_legs(r: Reading) -> Reading:
    by_train = tuple(e for e in r.read if not e.other_leg)
    if len({e.name for e in by_train}) >= 2 and len(by_train) < len(r.read):
        return replace(r, read=by_train)  # "en voiture de Lyon à Dijon, puis le train pour Sens"
    return r


@trip_steps.register("ends_by_role")
def ends_by_role(r: Reading) -> Reading:
    ends = r.read
    departures = tuple(e for e in ends if e.role == "DEPART")
    arrivals = tuple(e for e in ends if e.role == "ARRIVEE")
    if not departures and len(arrivals) >= 2:
        departures, arrivals = arrivals[:1], arrivals[1:]
    elif not arrivals and len(departures) >= 2:
        departures, arrivals = departures[:1], departures[1:]
    stops = tuple(e for e in ends if e.role == "VIA" and not e.home)
    halts = tuple(a for a in arrivals if _after_a_stop_cue(r.words, a))
    if halts and len(halts) < len(arrivals):  # "Nancy → Bourg-Saint-Maurice avec un arrêt à Aix-les-Bains"
        arrivals = tuple(a for a in arrivals if a not in halts)
        stops = tuple(sorted(stops + halts, key=lambda e: e.start))
    elif halts and all(any(s.name == h.name for s in stops) for h in arrivals):
        arrivals = ()  # "paris > orleans > blois / arrêt chez mamie a orleans": a stop named again
    if stops and arrivals and all(a.home for a in arrivals):
        arrivals = ()  # "je rentre au Mans, et la semaine je travaille à Paris": Le Mans
    return _roles(r, departures, arrivals, stops)


def _after_a_stop_cue(w: Words, end: End) -> bool:
    """A stop's word in the seven words before `end`, in its clause: "un arrêt chez les grands-parents
    à Aix-les-Bains", "changement à Paris"."""
    return after_a_cue(w, end, LEX["stop_cues"])


def _roles(r: Reading, departures: Ends, arrivals: Ends, stops: Ends) -> Reading:
    """`r` with those ends, itself where they are its own."""
    if (departures, arrivals, stops) == (r.departures, r.arrivals, r.stops):
        return r
    return replace(r, departures=departures, arrivals=arrivals, stops=stops)


@trip_steps.register("arrival_beside_stops")
def arrival_beside_stops(r: Reading) -> Reading:
    if not (r.departures and r.stops) or r.arrivals:
        return r
    others = _other_ends(r, {e.name for e in r.departures + r.stops})
    found = others[0] if len(others) == 1 else cued(r, r.departures[0], None, r.free)[1]
    if found is None or found.ruled_out:
        return r
    return r.adding(found, "ARRIVEE", rule="seqkit_trip.arrival_beside_stops")


@trip_steps.register("stops_as_ends")
def stops_as_ends(r: Reading) -> Reading:
    if not r.departures and r.arrivals and r.stops:  # "à Marmande depuis Toulouse, ça passe par Agen ?"
        found = cued(r, None, r.arrivals[0], r.free)[0]
        if found is not None and not found.ruled_out:
            r = r.adding(found, "DEPART", rule="seqkit_trip.stops_as_ends", cued=found.span.text)
    departures, arrivals, stops = r.departures, r.arrivals, r.stops
    if not arrivals and len(stops) > 1:  # "Départ Rouen vers Lyon, escale à Paris Saint-Lazare"
        said = [e for e in stops if cued_role(r.words, e.start) == "ARRIVEE" and not _after_a_stop_cue(r.words, e)]
        if len(said) == 1:
            arrivals, stops = (said[0],), tuple(e for e in stops if e is not said[0])
    if not arrivals and len(stops) > 1 and any(s.name == stops[-1].name for s in stops[:-1]):
        stops = stops[:-1]  # "paris > orleans > blois / arrêt chez mamie a orleans": a stop named again
    if not arrivals and stops:
        arrivals, stops = stops[-1:], stops[:-1]
    if not departures and stops:
        departures, stops = stops[:1], stops[1:]
    return _roles(r, departures, arrivals, stops)


@trip_steps.register("chain")
def chain(r: Reading) -> Reading:
    if r.departures and len(r.arrivals) >= 2 and not r.stops:
        last = [a for a in r.arrivals if after_a_cue(r.words, a, LEX["finishing"])]
        if len(last) == 1:  # "je termine jeudi a besancon ; entre les deux, mercredi a bourg en bresse"
            return replace(r, stops=tuple(a for a in r.arrivals if a is not last[0]), arrivals=tuple(last))
        if r.departures[0] is r.read[0] or then_chained(r.arrivals):
            return replace(r, stops=r.arrivals[:-1], arrivals=r.arrivals[-1:])
    way = listed_way(r) if r.departures and len(r.arrivals) >= 2 and r.stops else None
    return replace(r, stops=way[:-1], arrivals=way[-1:]) if way else r  # "cahors mardi, brive mercredi, limoges jeudi"


@trip_steps.register("cued_first")
def first_by_cue(r: Reading) -> Reading:
    departures, arrivals = cued_first(r.departures, "DEPART"), cued_first(r.arrivals, "ARRIVEE")
    if departures and len(arrivals) > 1 and arrivals[0].name == departures[0].name:
        arrivals = arrivals[1:] + arrivals[:1]  # "je bosse à Grenoble, ... de Grenoble à Valence"
    elif arrivals and len(departures) > 1 and departures[0].place == arrivals[0].place and not r.stops:
        departures = departures[1:] + departures[:1]  # "... à Noyon le soir. Je dois rentrer de Compiègne à Noyon"
    departures, arrivals = linked_first(r, departures, arrivals)
    return _roles(r, departures, arrivals, r.stops)


# What asks for something beside after-sales words (`_line_talk`).
_ASKING = LEX["request_words"] | LEX["being"]


def _line_talk(r: Reading) -> bool:
    """The request speaks of what came of a trip or of a line's news (lexicon `after_sales`) and asks
    for nothing: no word of a request ('?' aside: "mon abonnement sera-t-il remboursé ?"), of
    another train, or of where one is now ("j'ai raté mon train pour Annecy, je suis toujours à
    Aix-les-Bains"). One end read is then no trip's: no step pairs it."""
    w = r.words
    return w.any_in(0, w.n, LEX["after_sales"]) and not w.any_in(0, w.n, _ASKING)


@trip_steps.register("pair_beside")
def pair_beside_end(r: Reading) -> Reading:
    if r.stops or bool(r.departures) == bool(r.arrivals) or _line_talk(r):
        return r
    end = (r.departures or r.arrivals)[0]
    pair = pair_beside(r, end, MAX_NAME_TOKENS)
    if pair is None:
        return r
    other = pair[1] if pair[0].span is end.span else pair[0]
    if any(i in r.landmarks for i in range(other.start, other.end)):
        return r
    read = tuple(e for e in r.read if e is not end)
    return replace(r, read=tuple(sorted(read + pair, key=lambda e: e.start)), departures=pair[:1], arrivals=pair[1:])


@trip_steps.register("lone_end_reversed")
def lone_end_swapped(r: Reading) -> Reading:
    if r.stops or not lone_end_reversed(r):
        return r
    return replace(r, departures=r.arrivals, arrivals=r.departures)


@trip_steps.register("cued_ends")
def cued_ends(r: Reading) -> Reading:
    if r.stops or (r.departures and r.arrivals) or ((r.departures or r.arrivals) and _line_talk(r)):
        return r
    departure = r.departures[0] if r.departures else None
    arrival = r.arrivals[0] if r.arrivals else None
    if departure is not None and arrival is None and _arrival_abroad(r.words):
        return replace(r, why=r.why + ({"rule": "seqkit_trip.cued_ends", "abroad": True},))
    found = cued(r, departure, arrival, r.free)
    for end, role in zip(found, ("DEPART", "ARRIVEE")):
        if end is not None and not end.ruled_out:
            r = r.adding(end, role)
    return r


def _arrival_abroad(w: Words) -> bool:
    """A place abroad right after an arrival's cue: "un train de Dijon pour Lausanne" goes abroad,
    and no other place of the request is its arrival."""
    return any(w[i] in LEX["arrival_cues"] and normalise(w[i + 1]) in FOREIGN_PLACES for i in range(w.n - 1))


@trip_steps.register("roles_reversed")
def reversed_roles(r: Reading) -> Reading:
    if len(r.departures) == 1 == len(r.arrivals) and roles_reversed(r.words, r.departures[0], r.arrivals[0]):
        return replace(r, departures=r.arrivals, arrivals=r.departures)
    return r


@trip_steps.register("from_there")
def from_there_step(r: Reading) -> Reading:
    return from_there(r)


@trip_steps.register("homonyms")
def homonyms(r: Reading) -> Reading:
    return settled(r)


@trip_steps.register("return_leg")
def return_leg(r: Reading) -> Reading:
    if r.departures and r.arrivals and r.stops and r.arrivals[0].name == r.departures[0].name:
        return replace(r, arrivals=r.stops[-1:], stops=r.stops[:-1])  # "de Brest à Quimper, je rentre à Brest lundi"
    return r


@trip_steps.register("alternative")
def alternative(r: Reading) -> Reading:
    doubt = [e for e in r.departures[:1] + r.arrivals[:1] if e.alternative]
    if doubt:  # "de Nîmes ou d'Arles à Aix": no single trip
        why = tuple({"rule": f"alternative.{e.alternative}", "mention": e.span.text} for e in doubt)
        return replace(r, departures=(), arrivals=(), stops=(), why=r.why + why)
    return r


DEFAULT_STEPS = [
    "ruled_out",
    "other_legs",
    "ends_by_role",
    "arrival_beside_stops",
    "stops_as_ends",
    "chain",
    "cued_first",
    "pair_beside",
    "lone_end_reversed",
    "cued_ends",
    "lone_end_partner",
    "roles_reversed",
    "from_there",
    "homonyms",
    "return_leg",
    "alternative",
]


@trip_steps.register("lone_end_partner")
def lone_end_partner(r: Reading) -> Reading:
    if r.stops or bool(r.departures) == bool(r.arrivals) or _line_talk(r):
        return r
    end = (r.departures or r.arrivals)[0]
    others = [e for e in _other_ends(r, {end.name}) if e.place.commune != end.place.commune]
    if len(others) != 1 or others[0].start > end.start:
        return r
    return r.adding(others[0], "DEPART" if r.arrivals else "ARRIVEE", rule="seqkit_trip.lone_end_partner")


def _other_ends(r: Reading, named: set) -> List[End]:
    """The free places that may be an end besides those `named`: a station serves them (a village
    named like a river or a region, "Durance", "Berry", is none), and `_may_be_an_end`."""
    return [e for e in r.free if e.place.stations and e.name not in named and _may_be_an_end(r, e)]


def _may_be_an_end(r: Reading, e: End) -> bool:
    """A free place no qualifier set aside, no landmark, no ordinary word typed as one, not offered
    as an alternative ("eu ou annecy", "amiens (somme) ou", "soit de Valenciennes, soit")."""
    if e.ruled_out or e.home or e.other_leg or e.alternative or any(i in r.landmarks for i in range(e.start, e.end)):
        return False
    if e.span.text.islower() and e.span.text in getattr(r.places, "common_words", ()):
        return False  # "son château aux treize tours": a word, not Tours
    word, ordinary = e.span.text.lower(), getattr(r.places, "ordinary_words", ())
    if len(e.span) == 1 and opens_sentence(e.span) and word in ordinary:
        if r.places.place(word) is None:
            return False  # "... ensuite Cherbourg. Nuits à l'hôtel": a word opens the sentence, not Nuits
    if e.span.text.islower() and word in ordinary and e.name.split()[0].lower() in LEX["articles"]:
        return False  # "le garage de Vesoul garde ma voiture": a word, not La Garde, whose article is left out
    after = e.end
    if r.words.text[after : after + 1] == ["("]:  # "amiens (somme) ou ..."
        after = next((i + 1 for i in range(after, min(after + 8, len(r.words.text))) if r.words.text[i] == ")"), after)
    near = [*range(max(0, e.start - 3), e.start), after, after + 1]
    return not any(r.words[i] in LEX["alternatives"] for i in near)
