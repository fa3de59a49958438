"""Two towns' teams in a match are no ends of a trip (`mentions/matches.py`); a match one goes
to see stays a trip."""

import pytest
from trip_helpers import ends_of


@pytest.mark.parametrize(
    "text,marked",
    [
        (
            "Béziers a battu Narbonne dimanche, toute l'usine est en fête.",
            [("Béziers", "DEPART"), ("Narbonne", "ARRIVEE")],
        ),
        ("Ce soir c'est Lens contre Lille, on le regarde au bistrot ?", [("Lens", "DEPART"), ("Lille", "ARRIVEE")]),
        ("Les Girondins de Bordeaux reçoivent Angers dimanche.", [("Bordeaux", "DEPART"), ("Angers", "ARRIVEE")]),
        ("score match lens lille", [("lens", "DEPART"), ("lille", "ARRIVEE")]),
        ("Des places pour le match Nantes - Lens samedi ?", [("Nantes", "DEPART"), ("Lens", "ARRIVEE")]),
        # hashtags: the '#' is no word between the teams, nor between the match's name and them
        ("#Lens vs #Lille ce soir, qui gagne ?", [("Lens", "DEPART"), ("Lille", "ARRIVEE")]),
        ("match #Nantes #Lens samedi", [("Nantes", "DEPART"), ("Lens", "ARRIVEE")]),
    ],
)
def test_two_teams_of_a_match_are_no_trip(nlp, text, marked):
    assert ends_of(nlp, text, marked) == (None, None)


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        ("je vais au match à Lens depuis Lille samedi", [("Lens", "ARRIVEE"), ("Lille", "DEPART")], ("Lille", "Lens")),
        ("un billet Arras Lens pour le match de samedi", [("Arras", "DEPART"), ("Lens", "ARRIVEE")], ("Arras", "Lens")),
        ("stp orthez pau samedi jai un match de rugby", [("orthez", "DEPART"), ("pau", "ARRIVEE")], ("Orthez", "Pau")),
    ],
)
def test_a_match_one_goes_to_stays_a_trip(nlp, text, marked, expected):
    assert ends_of(nlp, text, marked) == expected
