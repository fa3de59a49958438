"""The railway network: loading, names, drawing, and the data file's errors."""

import zipfile
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from spacy_seqkit.travel.routes import NetworkFileError, RailNetwork
from spacy_seqkit.travel.routes.network import DATA_FILE

PARIS_GARE_DE_LYON = 87686006
# Passenger stations that reach no Paris station, and why: they are on no line of "Liste
# des gares" and more than 5 km from any station or stop of the network (the build attaches
# a station on no line to the nearest node within 5 km, or to the nearest station already
# attached within 8 km: so the Arcachon, Thionville - Apach and Cannes - Grasse branches,
# missing from the file, are joined stop by stop).
UNREACHABLE = {87345306}  # Montigny-en-Ostrevent: on no line of the file, 5.1 km from its nearest point


@pytest.fixture(scope="module")
def network() -> RailNetwork:
    return RailNetwork.load()


def test_rail_network_load_is_cached(network):
    assert RailNetwork.load() is network
    assert RailNetwork.load(DATA_FILE) is network
    assert "SNCF Open Data" in network.attribution


def test_rail_network_station_names(network):
    assert network.station_name(87543017) == "Les Aubrais"  # traveller name, not "Les Aubrais-Orléans"
    assert network.station_name("87686006") == "Paris Gare de Lyon"
    freight = next(int(u) for u, p in zip(network.uic, network.passenger) if u and not p)
    assert network.station_name(freight)  # the network's label
    assert network.station_name(12345678) is None and network.station_name("gare") is None


def test_rail_network_every_passenger_station_reaches_paris_but_the_listed_ones(network):
    paris = network.node_of[PARIS_GARE_DE_LYON]
    stations = network.uics()
    assert len(stations) > 2900
    far = network.graph.distances([paris], [network.node_of[u] for u in stations])[0]
    assert {u for u, d in zip(stations, far) if not np.isfinite(d)} == UNREACHABLE


def test_rail_network_stations_stand_where_sncf_places_them(network):
    """Grasse's only row in "Liste des gares" stands at Marseille (kilometre 0 of the Marseille -
    Vintimille line): the build drops a row far from the station's own position."""
    grasse = network.node_of[87757724]
    assert abs(network.lon[grasse] - 6.9255) < 0.01 and abs(network.lat[grasse] - 43.6533) < 0.01


def test_rail_network_contracted_graph_matches_plain_dijkstra(network):
    a = network._arrays
    n = len(network.uic)
    km = a["edge_km"]
    full = csr_matrix(
        (np.r_[km, km], (np.r_[a["edge_src"], a["edge_dst"]], np.r_[a["edge_dst"], a["edge_src"]])), shape=(n, n)
    )
    rng = np.random.default_rng(0)
    sources = rng.integers(0, n, 20).tolist()
    # random targets, and neighbours on the same chain (the path that never reaches the core)
    targets = rng.integers(0, n, 30).tolist() + [int(a["edge_dst"][i]) for i in rng.integers(0, len(km), 10)]
    sources += [int(a["edge_src"][i]) for i in rng.integers(0, len(km), 10)]
    expected = dijkstra(full, indices=sources)[:, targets]
    np.testing.assert_allclose(network.graph.distances(sources, targets), expected)
    weight = {(int(s), int(d)): w for s, d, w in zip(a["edge_src"], a["edge_dst"], km)}
    for i, s in enumerate(sources):
        for j, t in enumerate(targets):
            if np.isfinite(expected[i, j]):
                path = network.graph.path(s, t)
                length = sum(weight.get((u, v), weight.get((v, u), np.inf)) for u, v in zip(path, path[1:]))
                assert path[0] == s and path[-1] == t and length == pytest.approx(expected[i, j])


def test_rail_network_polylines_are_lines_in_france(network):
    polylines = network.polylines()
    sections = [p for code, p in polylines if code]
    assert len(sections) == len(network._arrays["section_line"]) and len(polylines) > len(sections)
    points = np.array([pt for _, p in polylines for pt in p])
    assert ((points[:, 0] > -5.5) & (points[:, 0] < 10) & (points[:, 1] > 41) & (points[:, 1] < 51.5)).all()


def test_rail_network_missing_file_names_it(tmp_path):
    path = tmp_path / "nowhere.npz"
    with pytest.raises(NetworkFileError, match="nowhere.npz"):
        RailNetwork.load(path)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "no_edges"])
def test_rail_network_damaged_file_names_it(tmp_path, damage):
    path = tmp_path / "damaged.npz"
    data = DATA_FILE.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        with zipfile.ZipFile(DATA_FILE) as src, zipfile.ZipFile(path, "w") as dst:
            for name in src.namelist():
                if name != "edge_km.npy":
                    dst.writestr(name, src.read(name))
    with pytest.raises(NetworkFileError, match="damaged.npz"):
        RailNetwork.load(path)


def test_rail_network_build_script_reproduces_the_shipped_file(tmp_path):
    root = Path(__file__).resolve().parents[3]
    sncf = root.parent / "shared" / "data" / "sncf"
    if not (sncf / "liste-des-gares.csv").is_file():
        pytest.skip(f"raw SNCF data not found in {sncf}")
    import subprocess
    import sys

    out = tmp_path / "network.npz"
    subprocess.run(
        [sys.executable, str(root / "scripts" / "build_rail_network.py"), "--sncf", str(sncf), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_bytes() == DATA_FILE.read_bytes()
