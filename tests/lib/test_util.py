"""The setting checks every architecture, component, reader and schedule uses:
a bad value raises a ValueError naming the parameter and what it allows."""

import math

import pytest

from spacy_seqkit.util import (
    check_bool,
    check_choice,
    check_divisible,
    check_int,
    check_non_negative_int,
    check_number,
    check_positive_int,
    check_positive_number,
    check_probability,
)


@pytest.mark.parametrize(
    "check, value, message",
    [
        (lambda v: check_positive_int("depth", v), 0, "'depth' must be a positive integer, got 0"),
        (lambda v: check_positive_int("depth", v), True, "'depth' must be a positive integer, got True"),
        (lambda v: check_non_negative_int("limit", v), -1, "'limit' must be an integer >= 0, got -1"),
        (
            lambda v: check_int("max_position_embeddings", v, 3),
            2.0,
            "'max_position_embeddings' must be an integer >= 3",
        ),
        (lambda v: check_int("n_best", v, 1, 4, "beam_size"), 5, "'n_best' must be an integer from 1 to beam_size=4"),
        (lambda v: check_number("length_alpha", v, 0.0), -0.5, "'length_alpha' must be a number >= 0, got -0.5"),
        (lambda v: check_number("lr", v, 0.0, 10.0, include_low=False), 10, r"'lr' must be a number in \(0, 10\)"),
        (lambda v: check_number("cap", v, 0.0), "8", "'cap' must be a number >= 0, got '8'"),
        (lambda v: check_positive_number("peak_rate", v), 0.0, "'peak_rate' must be a number > 0"),
        (lambda v: check_positive_number("peak_rate", v), math.inf, "'peak_rate' must be a number > 0, got inf"),
        (lambda v: check_positive_number("max_length_ratio", v), math.nan, "'max_length_ratio' must be a number > 0"),
        (lambda v: check_probability("dropout", v), 1.0, r"'dropout' must be a number in \[0, 1\), got 1.0"),
        (lambda v: check_bool("copy", v), 1, "'copy' must be true or false, got 1"),
        (lambda v: check_choice("cell", v, ("lstm", "gru")), "rnn", "'cell' must be one of 'lstm', 'gru', got 'rnn'"),
        (
            lambda v: check_divisible("width", v, "n_heads", 5),
            12,
            r"'width' \(12\) must be divisible by 'n_heads' \(5\); allowed n_heads for this width: \[1, 2, 3, 4, 6, 12\]",
        ),
    ],
)
def test_util_bad_value_names_the_parameter_and_what_it_allows(check, value, message):
    with pytest.raises(ValueError, match=message):
        check(value)


def test_util_good_values_pass_through():
    assert check_int("n_best", 4, 1, 4) == 4
    assert check_positive_int("depth", 3) == 3
    assert check_number("lr", 9.5, 0.0, 10.0, include_low=False) == 9.5
    assert check_number("x", 1, 0.0, 1.0, include_high=True) == 1.0
    assert isinstance(check_probability("dropout", 0), float)
    assert check_bool("copy", False) is False
    assert check_divisible("width", 12, "n_heads", 4) == 12


@pytest.mark.parametrize("enabled", [True, False])
def test_collector_paused_turns_the_collector_off_and_restores_it(enabled):
    import gc

    from spacy_seqkit.util import collector_paused

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(KeyError), collector_paused():  # also when the block raises
            raise KeyError("x")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_msgpack_registries_cached_keep_every_encoder_and_see_new_ones():
    """After `msgpack_registries_cached`, srsly still writes and reads what its encoders know
    (numpy arrays), docs with span groups, and sees an encoder registered later."""
    import numpy
    import spacy
    import srsly
    from spacy.tokens import Doc, Span

    from spacy_seqkit.util import msgpack_registries_cached

    msgpack_registries_cached()
    msgpack_registries_cached()  # twice is once
    assert not srsly.msgpack_encoders.entry_points and not srsly.msgpack_decoders.entry_points
    assert "numpy" in srsly.msgpack_encoders.get_all() and "numpy" in srsly.msgpack_decoders.get_all()
    array = numpy.arange(6, dtype="float32").reshape(2, 3)
    assert numpy.array_equal(srsly.msgpack_loads(srsly.msgpack_dumps({"a": array}))["a"], array)
    nlp = spacy.blank("fr")
    doc = nlp.make_doc("de Lille à Arras")
    doc.spans["roles"] = [Span(doc, 1, 2, label="DEPART"), Span(doc, 3, 4, label="ARRIVEE")]
    copy = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [(s.text, s.label_) for s in copy.spans["roles"]] == [("Lille", "DEPART"), ("Arras", "ARRIVEE")]

    class Point:
        def __init__(self, x):
            self.x = x

    def encode(obj, chain=None):
        return {"__point__": obj.x} if isinstance(obj, Point) else obj if chain is None else chain(obj)

    def decode(obj, chain=None):
        if isinstance(obj, dict) and "__point__" in obj:
            return Point(obj["__point__"])
        return obj if chain is None else chain(obj)

    srsly.msgpack_encoders.register("test_point", func=encode)
    srsly.msgpack_decoders.register("test_point", func=decode)
    assert srsly.msgpack_loads(srsly.msgpack_dumps({"p": Point(3)}))["p"].x == 3
