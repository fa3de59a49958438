"""Routes as a stage after the pipeline: `resolve --route`, `RouteAnswers`, the service's
`/route`, `/network` and `"route": true`. The pipeline (`nlp`, `model_dir`): conftest.py."""

import datetime as dt
import json
import subprocess
import sys

import pytest
import spacy

from spacy_seqkit.travel.orders.answer import prepare_pipeline
from spacy_seqkit.travel.orders.routing import (
    JourneyAnswers,
    RouteAnswers,
    route_json,
    route_row,
    route_stations,
    trip_stations,
)
from spacy_seqkit.travel.pipeline.trip import Trip
from spacy_seqkit.travel.routes import NoRoute, RailNetwork, Route

from order_helpers import answer_csv, refused
from service_helpers import live_server, request

ORDERS = (
    "1,de Marseille à Paris\n2,de Toulouse à Lyon en passant par Dijon\n3,Il fait beau\n4,de Sauxillanges à Lyon\n"
    "5,de Bonifacio à Lyon\n"
)


@pytest.fixture(scope="module")
def village_nlp():
    """The rule-based pipeline, with Sauxillanges (a commune of the Puy-de-Dôme, no station,
    some near) and Bonifacio (in Corsica: no station of SNCF's network within 35 km)."""
    nlp = spacy.blank("fr")
    nlp.add_pipe("entity_ruler").add_patterns(
        [
            {"label": "DEPART", "pattern": [{"LOWER": {"IN": ["marseille", "toulouse", "sauxillanges", "bonifacio"]}}]},
            {"label": "ARRIVEE", "pattern": [{"LOWER": {"IN": ["paris", "lyon"]}}]},
            {"label": "VIA", "pattern": [{"LOWER": "dijon"}]},
        ]
    )
    nlp.add_pipe("seqkit_trip")
    return prepare_pipeline(nlp)


def test_resolve_route_writes_the_stations_of_each_route(village_nlp):
    out, err, counts = answer_csv(village_nlp, ORDERS.encode("utf8"), route=RouteAnswers())
    rows = [line.split(",") for line in out.splitlines()]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"]
    # Marseille to Paris: from Marseille's main-line station to one of Paris's, through changes.
    assert rows[0][1] == "Marseille Saint-Charles" and rows[0][-1].startswith("Paris ")
    assert len(rows[0]) > 3
    # Toulouse to Lyon through Dijon: the requested stop is a station of the route.
    assert rows[1][1] == "Toulouse Matabiau" and "Dijon" in rows[1] and rows[1][-1].startswith("Lyon")
    assert rows[2] == ["3", "INVALID"]
    # A commune without a station starts from a station near it; one far from any has no
    # route: INVALID, and why, by line number.
    assert len(rows[3]) > 2 and rows[3][-1].startswith("Lyon") and "INVALID" not in rows[3]
    assert rows[4] == ["5", "INVALID"]
    assert "line 5: no route (no station serves Bonifacio, nor any within 35 km of it); answered INVALID" in err
    assert counts == {"orders": 5, "valid": 4, "invalid": 1, "malformed": 0, "no_route": 1}


def test_route_of_a_commune_without_station_starts_at_the_nearest_and_says_so():
    network = RailNetwork.load()
    stations, names = ((), ("87723197",)), ("Concarneau", "Lyon")
    # without its INSEE code, a commune without station has no route
    assert route_stations(network, stations, names).reason == "no station serves Concarneau"
    route = route_stations(network, stations, names, ("29039", None))
    assert isinstance(route, Route)
    first = route.stops[0]
    assert first.serves == "Concarneau" and 0 < first.access_km <= 35 and first.name != "Concarneau"
    assert route_row("1", route)[1] == first.name
    stop = route_json(route)["stops"][0]
    assert stop["serves"] == "Concarneau" and stop["access_km"] == first.access_km
    assert "serves" not in route_json(route)["stops"][-1]
    # the stations near a commune exclude those of the other end (Pierrelatte is
    # Bourg-Saint-Andéol's nearest): the route starts at another one
    nearest = network.near_commune("07042")[0][0]  # Bourg-Saint-Andéol
    trip = route_stations(network, ((), (str(nearest),)), ("Bourg-Saint-Andéol", "Pierrelatte"), ("07042", None))
    assert isinstance(trip, Route) and trip.stops[0].uic != nearest and trip.stops[-1].uic == nearest
    far = route_stations(network, ((), ("87723197",)), ("Bonifacio", "Lyon"), ("2A041", None))
    assert isinstance(far, NoRoute) and far.reason == "no station serves Bonifacio, nor any within 35 km of it"


def test_a_village_geonames_lacks_is_routed_from_its_postal_code_point():
    """La Réunion (Lot-et-Garonne, 524 inhabitants) is no place of GeoNames' cities500: it stands
    at the mean point of the communes sharing its postal code (47700), within a few km."""
    from spacy_seqkit.travel.routes.communes import DATA_FILE, CommunePoints

    points = CommunePoints(DATA_FILE)
    lon, lat = points.point("47222")
    casteljaloux = points.point("47052")  # a town of the same postal code, from GeoNames
    assert abs(lon - casteljaloux[0]) < 0.3 and abs(lat - casteljaloux[1]) < 0.2
    network = RailNetwork.load()
    route = route_stations(network, ((), ("87581009",)), ("La Réunion", "Bordeaux"), ("47222", None))
    assert isinstance(route, Route) and route.stops[0].serves == "La Réunion" and route.stops[0].access_km <= 35


def test_route_of_two_places_sharing_a_station_keeps_their_own():
    network = RailNetwork.load()
    # Le Creusot and Montceau-les-Mines share the TGV station: each keeps its own station
    route = route_stations(
        network, (("87694000", "87694109"), ("87694109", "87694620")), ("Le Creusot", "Montceau-les-Mines")
    )
    assert isinstance(route, Route) and route.stops[0].uic == 87694000 and route.stops[-1].uic == 87694620


def test_route_of_a_trip_starts_from_its_place_values(nlp):
    trip = Trip.from_dict(nlp("de Marseille à Paris")._.trip)
    stations = trip_stations(trip)
    assert len(stations) == 2 and all(stations)
    # A rewriter's trip has names only: the stations come from the French places.
    assert trip_stations(Trip(departure="Marseille", arrival="Paris")) == stations
    network = RailNetwork.load()
    route = route_stations(network, stations, trip.places())
    assert isinstance(route, Route) and route.km > 600
    back = route_stations(network, stations[::-1], trip.places()[::-1])
    assert abs(back.km - route.km) < 1e-6
    assert trip_stations(Trip()) == ()
    assert isinstance(route_stations(network, (), []), NoRoute)


def test_resolve_route_writes_the_stations_of_each_journey(village_nlp):
    """The default of --route: the stations of the trains taken (one TGV from Marseille to
    Paris: no step), from the nearest station with trains for a village without one; the
    network's route where no train answers, and why."""
    out, err, counts = answer_csv(village_nlp, ORDERS.encode("utf8"), route=JourneyAnswers())
    rows = [line.split(",") for line in out.splitlines()]
    assert rows[0] == ["1", "Marseille Saint-Charles", "Paris Gare de Lyon"]
    assert rows[1][1] == "Toulouse Matabiau" and "Dijon" in rows[1] and rows[1][-1].startswith("Lyon")
    assert rows[2] == ["3", "INVALID"] and rows[4] == ["5", "INVALID"]
    assert len(rows[3]) >= 3 and rows[3][-1].startswith("Lyon")
    assert "line 5: no route (no station serves Bonifacio, nor any within 35 km of it); answered INVALID" in err
    assert counts["no_route"] == 1 and "no_train" not in counts
    # a day outside the timetable: the network's route, and why
    out, err, counts = answer_csv(
        village_nlp, b"1,de Marseille \xc3\xa0 Paris\n", route=JourneyAnswers(day=dt.date(2024, 8, 2))
    )
    network_line = answer_csv(village_nlp, b"1,de Marseille \xc3\xa0 Paris\n", route=RouteAnswers())[0]
    assert out == network_line and len(out.split(",")) > 3
    assert (
        "line 1: no train (2024-08-02 is outside the timetable (2024-06-26 to 2024-07-26)); the network's route" in err
    )
    assert counts["no_train"] == 1


def test_resolve_cli_route(model_dir, tmp_path):
    orders = tmp_path / "orders.csv"
    orders.write_text("1,de Marseille à Paris\n2,bonjour\n", encoding="utf8")
    run = [sys.executable, "-m", "spacy_seqkit", "resolve", str(model_dir), str(orders)]
    done = subprocess.run(run + ["--route", "-q"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["1,Marseille Saint-Charles,Paris Gare de Lyon", "2,INVALID"]
    network = subprocess.run(run + ["--route", "--route-by", "network", "-q"], capture_output=True, text=True)
    lines = network.stdout.splitlines()
    assert network.returncode == 0 and len(lines[0].split(",")) > 3 and lines[1] == "2,INVALID"
    evening = subprocess.run(run + ["--route", "--when", "2024-07-05T18:00"], capture_output=True, text=True)
    assert evening.returncode == 0 and evening.stdout.startswith("1,Marseille Saint-Charles,Paris Gare de Lyon\n")
    for bad, hint in (
        (["--route", "--steps"], "--route"),
        (["--route", "--when", "demain"], "--when"),
        (["--when", "8h"], "--when"),
        (["--route", "--route-by", "avion"], "--route-by"),
    ):
        code, stderr, stdout, crashed = refused(run[3:] + bad)
        assert code == 2 and hint in stderr and not crashed, stderr
        assert not stdout  # refused before any work


def test_service_routes_a_text_and_refuses_one_without_a_trip(service_url):
    status, answer = request(service_url, "POST", "/route", json.dumps({"text": "de Marseille à Paris"}).encode())
    assert status == 200 and answer["valid"] and answer["route"]["found"]
    stops = answer["route"]["stops"]
    assert stops[0]["name"] == "Marseille Saint-Charles" and stops[0]["uic"].isdigit()
    assert 5.3 < stops[0]["lon"] < 5.4 and 43.2 < stops[0]["lat"] < 43.4
    assert answer["route"]["km"] > 600 and len(answer["route"]["coords"]) >= len(stops)
    status, error = request(service_url, "POST", "/route", json.dumps({"text": "Il fait beau"}).encode())
    assert status == 422 and "no trip to route" in error["error"]
    status, error = request(service_url, "POST", "/route", json.dumps({"orders": []}).encode())
    assert status == 422 and "error" in error
    status, answer = request(
        service_url, "POST", "/resolve", json.dumps({"text": "Il fait beau", "route": True}).encode()
    )
    assert status == 200 and answer["route"] is None


def test_service_answers_the_journey_with_its_legs(service_url):
    body = {"text": "de Marseille à Paris demain soir", "when": "2024-07-03T06:00"}
    status, answer = request(service_url, "POST", "/route", json.dumps(body).encode())
    assert status == 200 and answer["route"]["found"]
    journey = answer["journey"]
    assert journey["found"] and journey["when"].startswith("read « demain soir »")
    assert journey["departure"][11:] >= "18:00"  # the evening the request asks for
    leg = journey["legs"][0]
    assert leg["from"]["name"] == "Marseille Saint-Charles" and leg["to"]["name"] == "Paris Gare de Lyon"
    assert leg["train"] == f"{leg['kind']} {leg['number']}" and leg["minutes"] == journey["minutes"]
    assert len(leg["coords"]) == len(leg["calls"]) >= 2 and journey["changes"] == 0
    status, answer = request(
        service_url,
        "POST",
        "/resolve",
        json.dumps({"text": "de Marseille à Paris", "route": True, "when": "2024-08-02"}).encode(),
    )
    assert status == 200 and answer["route"]["found"]
    assert answer["journey"] == {
        "found": False,
        "reason": "2024-08-02 is outside the timetable (2024-06-26 to 2024-07-26)",
        "when": "--when: vendredi 2024-08-02 from 08:00",
    }
    status, error = request(
        service_url, "POST", "/route", json.dumps({"text": "de Marseille à Paris", "when": "demain"}).encode()
    )
    assert status == 422 and error["error"].startswith('"when":')


def test_service_network_lines(service_url):
    status, network = request(service_url, "GET", "/network")
    assert status == 200 and len(network["lines"]) > 1000
    west, south, east, north = network["bounds"]
    assert -5.5 < west < -4 and 8 < east < 10 and 41 < south < 43 and 50 < north < 52
    assert "SNCF" in network["attribution"]


def test_service_orders_with_route_answer_like_resolve_route(village_nlp):
    from spacy_seqkit.travel.orders.service import create_app

    orders = [{"id": i, "sentence": s} for i, s in (line.split(",", 1) for line in ORDERS.splitlines())]
    with live_server(create_app(village_nlp, route=True)) as url:
        status, answer = request(url, "POST", "/resolve", json.dumps({"orders": orders}).encode())
    assert status == 200
    expected = answer_csv(village_nlp, ORDERS.encode("utf8"), route=JourneyAnswers())[0].splitlines()
    assert [a["line"] for a in answer["answers"]] == expected
    journey = answer["answers"][0]["journey"]
    assert journey["found"] and journey["legs"][0]["from"]["name"] == "Marseille Saint-Charles"
    assert answer["answers"][2]["journey"] is None
    assert answer["answers"][0]["route"]["found"] and answer["answers"][2]["route"] is None
    assert answer["answers"][3]["route"]["stops"][0]["serves"] == "Sauxillanges"
    assert answer["answers"][4]["route"] == {
        "found": False,
        "reason": "no station serves Bonifacio, nor any within 35 km of it",
    }
