"""Main French railway stations: canonical names (facts) and the ways people write them.

Each station has its commune (an official commune name), the aliases that resolve to it
and, for generation, how an alias takes an article ("à la gare de Lyon", "de la Part-Dieu").
"La gare de Tours" is no alias: it names the town's station, and a trip to it is a trip to
Tours; a station is answered where its own name is written ("Tours Gare", "Part-Dieu").
"""
from typing import Dict, NamedTuple, Optional, Tuple


class Station(NamedTuple):
    name: str
    city: str
    # (surface form, article used before it in running text or None)
    aliases: Tuple[Tuple[str, Optional[str]], ...]


def _s(name: str, city: str, *aliases: Tuple[str, Optional[str]]) -> Station:
    return Station(name, city, ((name, None),) + tuple(aliases))


STATIONS: Tuple[Station, ...] = (
    _s("Paris Gare de Lyon", "Paris", ("gare de Lyon", "la"), ("Paris-Gare-de-Lyon", None)),
    _s("Paris Gare du Nord", "Paris", ("gare du Nord", "la"), ("Paris-Nord", None)),
    _s("Paris Gare de l'Est", "Paris", ("gare de l'Est", "la"), ("Paris-Est", None)),
    _s("Paris Montparnasse", "Paris", ("Montparnasse", None), ("gare Montparnasse", "la"),
       ("Paris-Montparnasse", None)),
    _s("Paris Saint-Lazare", "Paris", ("Saint-Lazare", None), ("gare Saint-Lazare", "la"),
       ("St Lazare", None)),
    _s("Paris Austerlitz", "Paris", ("Austerlitz", None), ("gare d'Austerlitz", "la"),
       ("Paris-Austerlitz", None)),
    _s("Paris Bercy", "Paris", ("gare de Bercy", "la"), ("Bercy", None), ("Paris Bercy Bourgogne", None)),
    _s("Lyon Part-Dieu", "Lyon", ("Part-Dieu", "la"), ("Lyon Part Dieu", None),
       ("gare de la Part-Dieu", "la"), ("Lyon-Part-Dieu", None)),
    _s("Lyon Perrache", "Lyon", ("Perrache", None), ("gare de Perrache", "la"),
       ("Lyon-Perrache", None)),
    _s("Marseille Saint-Charles", "Marseille", ("Saint-Charles", None), ("St Charles", None),
       ("gare Saint-Charles", "la"), ("Marseille St-Charles", None)),
    _s("Lille Flandres", "Lille", ("Lille-Flandres", None), ("gare Lille-Flandres", "la")),
    _s("Lille Europe", "Lille", ("Lille-Europe", None), ("gare Lille-Europe", "la")),
    _s("Bordeaux Saint-Jean", "Bordeaux", ("gare Saint-Jean", "la"), ("Bordeaux St Jean", None),
       ("Bordeaux-Saint-Jean", None)),
    _s("Toulouse Matabiau", "Toulouse", ("Matabiau", None), ("gare Matabiau", "la"),
       ("Toulouse-Matabiau", None)),
    _s("Nice Ville", "Nice", ("Nice-Ville", None), ("gare de Nice-Ville", "la")),
    _s("Montpellier Saint-Roch", "Montpellier", ("gare Saint-Roch", "la"),
       ("Montpellier St-Roch", None), ("Montpellier-Saint-Roch", None)),
    _s("Strasbourg Gare Centrale", "Strasbourg", ("Strasbourg gare centrale", None)),
    _s("Nantes Gare", "Nantes"),
    _s("Rennes Gare", "Rennes"),
    _s("Aix-en-Provence TGV", "Aix-en-Provence", ("Aix TGV", None), ("gare d'Aix TGV", "la")),
    _s("Avignon TGV", "Avignon", ("gare d'Avignon TGV", "la")),
    _s("Avignon Centre", "Avignon", ("Avignon-Centre", None), ("gare d'Avignon Centre", "la")),
    _s("Marne-la-Vallée Chessy", "Chessy", ("Marne-la-Vallée", None), ("gare de Chessy", "la"),
       ("Marne la Vallée Chessy", None)),
    _s("Aéroport Charles de Gaulle 2 TGV", "Roissy-en-France", ("Roissy CDG", None),
       ("aéroport Charles-de-Gaulle", "l'"), ("CDG", None), ("Charles de Gaulle", None),
       ("aéroport CDG", "l'")),
    _s("Massy TGV", "Massy", ("gare de Massy TGV", "la")),
    _s("Lyon Saint-Exupéry TGV", "Lyon", ("Saint-Exupéry", None), ("aéroport Saint-Exupéry", "l'"),
       ("Lyon St Exupéry", None)),
    _s("Grenoble Gare", "Grenoble"),
    _s("Dijon Ville", "Dijon", ("Dijon-Ville", None)),
    _s("Metz Ville", "Metz", ("Metz-Ville", None)),
    _s("Nancy Ville", "Nancy", ("Nancy-Ville", None)),
    _s("Tours Gare", "Tours"),
    _s("Saint-Pierre-des-Corps", "Saint-Pierre-des-Corps", ("St Pierre des Corps", None)),
)

STATION_BY_NAME: Dict[str, Station] = {s.name: s for s in STATIONS}

