"""`scripts/rule_ablation.py`: a step, a pipe or a rule of the reading left out for a while, and put
back as it was."""

from pathlib import Path

import pytest
from script_loader import load_script

from spacy_seqkit.travel.pipeline.trip import Trip

rule_ablation = load_script(Path("scripts") / "rule_ablation.py")
TEXT = "Je ne veux pas aller à Lyon depuis Paris."


def row(text: str, marked) -> dict:
    ents = [[text.index(m), text.index(m) + len(m), label] for m, label in marked]
    return {"id": "r1", "text": text, "ents": ents}


@pytest.fixture(scope="module")
def reading():
    return rule_ablation.reading_pipeline()


def test_a_rule_left_out_answers_without_it_then_is_back(reading):
    request = row(TEXT, [("Lyon", "ARRIVEE"), ("Paris", "DEPART")])
    assert rule_ablation.trips(reading, [request]) == [Trip()]  # called off
    with rule_ablation.left_out(reading, "rule:called_off.called_off"):
        assert rule_ablation.trips(reading, [request]) == [Trip(departure="Paris", arrival="Lyon")]
    assert rule_ablation.trips(reading, [request]) == [Trip()]


def test_steps_and_pipes_left_out_together_are_restored(reading):
    trip = reading.get_pipe("seqkit_trip")
    steps = list(trip.steps)
    with rule_ablation.left_out(reading, "step:chain+pipe:seqkit_context"):
        assert "chain" not in [name for name, _ in trip.steps]
        assert "seqkit_context" in reading.disabled
    assert trip.steps == steps and "seqkit_context" not in reading.disabled


def test_two_rules_of_one_qualifier_left_out_are_both_back(reading):
    pipe = reading.get_pipe("seqkit_ruled_out")
    with rule_ablation.left_out(reading, "rule:ruled_out.negated+rule:ruled_out.brings_correction"):
        assert "process" in vars(pipe)
    assert "process" not in vars(pipe)


def test_every_step_pipe_and_rule_is_a_variant(reading):
    variants = rule_ablation.variants(reading)
    assert "step:cued_ends" in variants and "pipe:seqkit_other_means" in variants
    assert "rule:other_means.other_means" in variants and "rule:ruled_out.negated" in variants


@pytest.mark.parametrize("variant", ["step:no_such_step", "rule:ruled_out.no_such_rule", "pipe", "other:x"])
def test_an_unknown_variant_says_which(reading, variant):
    with pytest.raises(SystemExit, match=variant.split("+")[0]):
        with rule_ablation.left_out(reading, variant):
            pass
    assert "seqkit_context" not in reading.disabled
