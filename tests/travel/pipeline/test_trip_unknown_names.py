"""`seqkit_trip`'s `unknown_names`: may a name that is no known place (nor a typo of one) be
an end? "drop" (the default) or "keep" (as typed, when written as a name)."""

import pytest
import spacy


def pipeline(**config):
    nlp = spacy.blank("fr")
    nlp.add_pipe("entity_ruler").add_patterns(
        [
            {"label": "DEPART", "pattern": [{"LOWER": {"IN": ["poudlard", "marseille"]}}]},
            {"label": "ARRIVEE", "pattern": [{"LOWER": {"IN": ["narnia", "paris"]}}]},
        ]
    )
    nlp.add_pipe("seqkit_trip", config=config)
    return nlp


def test_unknown_names_kept_as_typed_or_dropped():
    text = "je veux aller de Poudlard à Narnia"
    kept = pipeline(unknown_names="keep")(text)._.trip
    assert kept["is_valid"] and (kept["departure"], kept["arrival"]) == ("Poudlard", "Narnia")
    assert kept["departure_place"]["kind"] == "unknown"
    dropped = pipeline()(text)
    assert dropped._.trip["is_valid"] is False and dropped.ents == ()
    # Known places are ends under both rules.
    for nlp in (pipeline(), pipeline(unknown_names="drop")):
        trip = nlp("je veux aller de Marseille à Paris")._.trip
        assert (trip["departure"], trip["arrival"]) == ("Marseille", "Paris")


def test_unknown_names_bad_setting_fails_when_the_config_is_resolved():
    with pytest.raises(ValueError, match="unknown_names must be one of 'keep', 'drop'"):
        pipeline(unknown_names="maybe")
