"""Routes: lengths against straight distances, symmetry, stops, reasons, timetables."""

import itertools
import random

import pytest

from spacy_seqkit.travel.routes import NoRoute, RailNetwork, Route
from spacy_seqkit.travel.routes.geo import haversine_km

MARSEILLE, PARIS_LYON, LYON_PART_DIEU, PARIS_NORD = 87751008, 87686006, 87723197, 87271007
MONTIGNY_EN_OSTREVENT = 87345306  # on no line of the file, 5.1 km from any of its points


@pytest.fixture(scope="module")
def network() -> RailNetwork:
    return RailNetwork.load()


def straight(network: RailNetwork, a: int, b: int) -> float:
    i, j = network.node_of[a], network.node_of[b]
    return haversine_km((network.lon[i], network.lat[i]), (network.lon[j], network.lat[j]))


def test_rail_routes_big_towns_length_between_straight_and_1_6_times(network):
    big = network.uics("A")
    assert len(big) > 90
    ratios = []
    for a, b in itertools.combinations(big, 2):
        route, line = network.route([a], [b]), straight(network, a, b)
        if isinstance(route, Route) and line > 1.0:  # closer: one station under several codes
            # no track is shorter than the straight line between its ends: nor is a route
            assert route.km >= line - 1e-6, (a, b, route.km, line)
            ratios.append(route.km / line)
    share = sum(r <= 1.6 for r in ratios) / len(ratios)
    print(f"A-station pairs within 1.6x the straight distance: {share:.1%} of {len(ratios)}")
    # The target is 95%; the station list has no junctions between lines, and the
    # inferred ones leave detours (91.6% today): this guards the figure from getting worse.
    assert share >= 0.91


def test_rail_routes_lengths_are_symmetric(network):
    rng = random.Random(0)
    stations = network.uics()
    for _ in range(200):
        a, b = rng.sample(stations, 2)
        there, back = network.route([a], [b]), network.route([b], [a])
        assert there.found == back.found
        if isinstance(there, Route) and isinstance(back, Route):
            assert there.km == pytest.approx(back.km, abs=1e-6)


def test_rail_routes_through_a_stop_passes_through_it(network):
    direct = network.route([MARSEILLE], [PARIS_LYON])
    route = network.route([MARSEILLE], [PARIS_LYON], via=[[LYON_PART_DIEU]])
    assert isinstance(route, Route) and isinstance(direct, Route)
    assert LYON_PART_DIEU in route.path and route.km >= direct.km
    requested = [s for s in route.stops if s.requested]
    assert [s.uic for s in requested] == [LYON_PART_DIEU] and requested[0].name == "Lyon Part Dieu"
    assert route.stops[0].end and route.stops[0].uic == MARSEILLE and route.stops[-1].uic == PARIS_LYON
    assert route.path[0] == MARSEILLE and route.path[-1] == PARIS_LYON and route.lines


def test_rail_routes_take_the_best_pair_of_stations(network):
    paris = [PARIS_NORD, PARIS_LYON, 87391003, 87547000]  # Nord, Lyon, Montparnasse, Austerlitz
    route = network.route(paris, [MARSEILLE])
    assert isinstance(route, Route)
    best = min(network.route([p], [MARSEILLE]).km for p in paris)
    assert route.km == pytest.approx(best)


def test_rail_routes_say_why_there_is_none(network):
    unconnected = network.route([MONTIGNY_EN_OSTREVENT], [PARIS_NORD])
    assert isinstance(unconnected, NoRoute) and "no rail connection" in unconnected.reason
    same = network.route([PARIS_NORD], [PARIS_NORD, PARIS_LYON])
    assert isinstance(same, NoRoute) and "same station" in same.reason
    nowhere = network.route([12345678], [PARIS_NORD])
    assert isinstance(nowhere, NoRoute) and "departure_uics" in nowhere.reason


@pytest.mark.parametrize("bad", ["87686006", 87686006, ["gare de Lyon"], [True]])
def test_rail_routes_bad_codes_are_a_clear_error(network, bad):
    with pytest.raises(ValueError, match="departure_uics"):
        network.route(bad, [PARIS_NORD])


def test_rail_routes_carry_a_train_where_one_runs(network):
    route = network.route([MARSEILLE], [PARIS_LYON])
    assert isinstance(route, Route) and route.trains and route.minutes is not None
    assert route.trains[0].train.isdigit() and 150 <= route.minutes <= 300
    served = set(network._arrays["train_from"].tolist()) | set(network._arrays["train_to"].tolist())
    halt = next(u for u in network.uics("C") if network.node_of[u] not in served)
    local = network.route([87543017], [halt])  # Les Aubrais -> a halt no TGV / Intercités serves
    assert isinstance(local, Route) and local.minutes is None and "no timetable" in local.timetable


def test_rail_routes_answer_cache_gives_the_same_route(network):
    first = network.route([MARSEILLE], [PARIS_LYON])
    assert network.route({MARSEILLE}, (PARIS_LYON,)) is first  # same codes, any collection
    size = network.cache_size
    network.cache_size = 0
    try:
        fresh = network.route([MARSEILLE], [PARIS_LYON])
        assert fresh == first and fresh is not first
    finally:
        network.cache_size = size


def test_rail_routes_never_shorter_than_the_straight_line(network):
    rng = random.Random(1)
    stations = network.uics()
    for _ in range(500):
        a, b = rng.sample(stations, 2)
        route = network.route([a], [b])
        if isinstance(route, Route):
            assert route.km >= straight(network, a, b) - 1e-6, (a, b)


def test_rail_routes_principal_stations_of_a_town(network):
    """A town's principal stations: national ones, and regional ones named after it."""
    avignon = [87765008, 87318964, 87765412]  # Avignon Centre (B), Avignon TGV (A), Montfavet (C)
    names = {network.station_name(u) for u in network.principal(avignon, town="Avignon")}
    assert "Avignon Centre" in names and "Montfavet" not in names
    assert {network.station_name(u) for u in network.principal([87765412])} == {"Montfavet"}


@pytest.mark.parametrize(
    "a, b",
    [
        (87582668, 87581009),  # Arcachon - Bordeaux: a branch the station list lacks, joined stop by stop
        (87594499, 87594002),  # Tulle - Brive: Brive is on the Tulle line, not listed there
        (87571000, 87571240),  # Tours - Saint-Pierre-des-Corps: the nearest stop whose PK fits
        (87486019, 87486449),  # La Roche-sur-Yon - Les Sables: La Roche is on the line, 2 km off its chord
        (87571000, 87571687),  # Tours - Chinon: Joué-lès-Tours, where two lines end, joined to Tours
        (87471003, 87471300),  # Rennes - Redon: a stretch the file lacks, run by an Intercités
        (87734251, 87734871),  # Arvant - Massiac: likewise
        (87775288, 87775007),  # Alès - Nîmes: a line end whose kilometre points fit far away, joined near too
        (87641001, 87734004),  # Montluçon - Clermont-Ferrand: likewise
        (87184002, 87184523),  # Belfort - Montbéliard: Héricourt's line end joins no high-speed line
        (87478164, 87478073),  # Dinan - Dol: Dol is on the Lison - Lamballe line, which the Saint-Malo line crosses
        (87615005, 87611004),  # Albi - Toulouse: Marssac, alone on the Tessonnières - Albi line, joined on past it
        (87757625, 87757724),  # Cannes - Grasse: Grasse's row at Marseille dropped, the branch joined stop by stop
        (87144014, 87144410),  # Saint-Dié - Arches: the line's end (Saulcy) joined to no point of its own line
    ],
)
def test_rail_routes_through_the_inferred_links_are_near_straight(network, a, b):
    route = network.route([a], [b])
    first, last = route.stops[0], route.stops[-1]
    straight = haversine_km((first.lon, first.lat), (last.lon, last.lat))
    assert straight <= route.km <= 1.6 * straight


def test_rail_routes_a_high_speed_line_passes_only_its_own_stations(network):
    """The LGV Est lists Champagne-Ardenne, Meuse and Lorraine TGV: the stations of the classic
    lines beside it (Prunay, Sept-Saulx, Vandières) are not put on it, so no route takes it
    from them."""
    arrays = network._arrays
    ptr, lines = arrays["edge_line_ptr"].tolist(), arrays["edge_line"].tolist()
    lgv = network.line_codes.index("005000")
    on_it = set()
    for e, (a, b) in enumerate(zip(arrays["edge_src"].tolist(), arrays["edge_dst"].tolist())):
        if lgv in lines[ptr[e] : ptr[e + 1]]:
            on_it |= {a, b}
    stations = {network.names[n] for n in on_it if network.passenger[n]}
    assert stations == {"Champagne-Ardenne TGV", "Meuse TGV", "Lorraine TGV"}
