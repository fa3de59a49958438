"""Routes on the French railway network: SNCF lines and kilometre points (stations by UIC
code), shortest routes by rail distance through requested stops, and TGV / Intercités train
numbers and times where a timetable exists. Works on UIC codes; of the travel application it
may import only `travel.places` (it imports nothing of it yet).

    network = RailNetwork.load()
    route = network.route({87751008}, {87686006}, via=[{87723197}])  # Marseille -> Paris via Lyon

The data file (data/network.npz) is built by scripts/build_rail_network.py; see data/README.md.
"""

from .datafile import NetworkFileError
from .network import RailNetwork
from .result import NoRoute, Route, RouteResult, Stop, TrainLeg

__all__ = ["NetworkFileError", "NoRoute", "RailNetwork", "Route", "RouteResult", "Stop", "TrainLeg"]
