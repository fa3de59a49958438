"""When a journey leaves: `--when`, the day and time a request says, the timetable's week."""

import datetime as dt

import pytest

from spacy_seqkit.travel.orders.when import DEFAULT_DAY, departure, parse_when, read_when

SATURDAY = dt.date(2026, 11, 28)


@pytest.mark.parametrize(
    "text,day,time",
    [
        ("2024-07-02T08:00", dt.date(2024, 7, 2), dt.time(8, 0)),
        ("2024-07-03 17:45", dt.date(2024, 7, 3), dt.time(17, 45)),
        ("2024-07-04", dt.date(2024, 7, 4), dt.time(8, 0)),
        ("8h30", None, dt.time(8, 30)),
        ("14h", None, dt.time(14, 0)),
        ("07:05", None, dt.time(7, 5)),
    ],
)
def test_parse_when_reads_a_day_and_a_time(text, day, time):
    assert parse_when(text) == (day, time)


@pytest.mark.parametrize("text", ["demain", "25h", "2024-13-01", "", "8h61"])
def test_parse_when_refuses_anything_else(text):
    with pytest.raises(ValueError, match="not a departure"):
        parse_when(text)


@pytest.mark.parametrize(
    "text,at",
    [
        ("Je veux aller de Paris à Lyon demain à 8h", dt.datetime(2024, 7, 7, 8, 0)),  # Sunday
        ("samedi matin de Nantes à Rennes", dt.datetime(2024, 7, 6, 8, 0)),
        ("ce soir de Lille à Paris", dt.datetime(2024, 7, 6, 18, 0)),  # today is a Saturday
        ("lundi prochain vers 14h30", dt.datetime(2024, 7, 1, 14, 30)),
        ("après-demain après-midi", dt.datetime(2024, 7, 1, 14, 0)),
        ("un train à 17:45 pour Brest", dt.datetime(2024, 7, 2, 17, 45)),
        ("de Paris à Lyon", dt.datetime(2024, 7, 2, 8, 0)),
        ("Paris 8 habitants", dt.datetime(2024, 7, 2, 8, 0)),  # no time
    ],
)
def test_departure_reads_the_request_onto_the_timetables_week(text, at):
    assert departure(text, today=SATURDAY).at == at


def test_departure_says_how_it_was_chosen():
    assert departure("demain à 8h", today=SATURDAY).said == (
        "read « demain 8h »: dimanche 2024-07-07 from 08:00 (the timetable's week)"
    )
    assert departure("de Paris à Lyon").said == "default: mardi 2024-07-02 from 08:00"
    given = departure("de Paris à Lyon", dt.date(2024, 7, 3), dt.time(9))
    assert given.at == dt.datetime(2024, 7, 3, 9) and given.said.startswith("--when")
    # the request's words win over --when, each for what it says
    assert departure("à 18h", dt.date(2024, 7, 3), dt.time(9)).at == dt.datetime(2024, 7, 3, 18)
    assert read_when("vendredi soir").weekday == 4 and DEFAULT_DAY.weekday() == 1
