"""Routes on the French railway network: SNCF lines and kilometre points (stations by UIC
code), shortest routes by rail distance through requested stops (`RailNetwork`); and journeys
on SNCF's TER, TGV and Intercités timetables, the trains a traveller takes with their times
(`Timetable`, `JourneyPlanner`). Works on UIC codes; of the travel application it may import
only `travel.places`.

    network = RailNetwork.load()
    route = network.route({87751008}, {87686006}, via=[{87723197}])  # Marseille -> Paris via Lyon
    planner = JourneyPlanner(Timetable.load())
    journey = planner.journey({87751008}, {87686006}, datetime(2024, 7, 2, 8, 0))

The data files (data/network.npz, data/timetable.npz) are built by scripts/build_rail_network.py
and scripts/build_timetable.py; see data/README.md.
"""

from .datafile import NetworkFileError
from .journeys import Journey, JourneyPlanner, Leg, NoJourney
from .network import RailNetwork
from .result import NoRoute, Route, RouteResult, Stop, TrainLeg
from .timetable import Timetable, TimetableFileError

__all__ = [
    "Journey",
    "JourneyPlanner",
    "Leg",
    "NetworkFileError",
    "NoJourney",
    "NoRoute",
    "RailNetwork",
    "Route",
    "RouteResult",
    "Stop",
    "Timetable",
    "TimetableFileError",
    "TrainLeg",
]
