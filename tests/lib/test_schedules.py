"""spacy-seqkit.warmup_rsqrt.v1: the Transformer paper's learning rate, as a
thinc schedule that spaCy's optimizer config can name."""

import itertools
import math

import numpy
import pytest
from spacy.util import registry
from thinc.api import Config

from spacy_seqkit.schedules import warmup_rsqrt

OPTIMIZER_CONFIG = """
[optimizer]
@optimizers = "Adam.v1"
beta1 = 0.9
beta2 = 0.98

[optimizer.learn_rate]
@schedules = "spacy-seqkit.warmup_rsqrt.v1"
peak_rate = {peak_rate}
warmup_steps = {warmup_steps}
"""


def first(schedule, n):
    return list(itertools.islice(schedule, n))


def test_warmup_rsqrt_rises_linearly_then_decays_as_rsqrt():
    peak, warmup = 0.002, 10
    rates = first(warmup_rsqrt(peak, warmup), 40)
    # Step n (from 1) during warm-up: n / warmup of the peak.
    for n in range(1, warmup + 1):
        assert rates[n - 1] == pytest.approx(peak * n / warmup)
    assert max(rates) == pytest.approx(peak)
    assert rates.index(max(rates)) == warmup - 1
    # After warm-up: rate · sqrt(step) is constant (= peak · sqrt(warmup)).
    for n in range(warmup, 41):
        assert rates[n - 1] * math.sqrt(n) == pytest.approx(peak * math.sqrt(warmup))
    assert all(a > b for a, b in zip(rates[warmup - 1 :], rates[warmup:]))


def test_warmup_rsqrt_matches_the_papers_formula():
    # Vaswani et al.: d_model^-0.5 · min(step^-0.5, step · warmup^-1.5); its
    # peak, at step = warmup, is d_model^-0.5 · warmup^-0.5.
    d_model, warmup = 512, 4000
    peak = d_model**-0.5 * warmup**-0.5
    rates = warmup_rsqrt(peak, warmup)
    for step, rate in zip(range(1, 20001), rates):
        if step in (1, 100, 3999, 4000, 4001, 10000, 20000):
            paper = d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)
            assert rate == pytest.approx(paper, rel=1e-12)


@pytest.mark.parametrize(
    "peak_rate,warmup_steps,name",
    [
        (0.0, 10, "peak_rate"),
        (-1e-3, 10, "peak_rate"),
        (1e-3, 0, "warmup_steps"),
        (1e-3, -5, "warmup_steps"),
        (float("nan"), 10, "peak_rate"),
    ],
)
def test_warmup_rsqrt_bad_argument_names_it_at_resolution(peak_rate, warmup_steps, name):
    config = Config().from_str(OPTIMIZER_CONFIG.format(peak_rate=peak_rate, warmup_steps=warmup_steps))
    with pytest.raises(ValueError, match=f"'{name}'"):
        registry.resolve(config)


def test_warmup_rsqrt_drives_a_resolved_adam_optimizer():
    config = Config().from_str(OPTIMIZER_CONFIG.format(peak_rate=0.001, warmup_steps=4))
    optimizer = registry.resolve(config)["optimizer"]
    expected = first(warmup_rsqrt(0.001, 4), 8)
    seen = [optimizer.learn_rate]
    weights = numpy.ones((3,), dtype="float32")
    for _ in range(7):
        before = weights.copy()
        weights, _ = optimizer((0, "W"), weights, numpy.ones((3,), dtype="float32"))
        assert (weights < before).all()  # the update used a positive rate
        optimizer.step_schedules()
        seen.append(optimizer.learn_rate)
    assert seen == pytest.approx(expected)


def test_warmup_rsqrt_in_a_spacy_training_config():
    """The [training.optimizer] block of a spaCy config resolves with it."""
    from spacy.util import load_model_from_config

    text = """
    [nlp]
    lang = "fr"
    pipeline = []

    [components]

    [training]

    [training.optimizer]
    @optimizers = "Adam.v1"

    [training.optimizer.learn_rate]
    @schedules = "spacy-seqkit.warmup_rsqrt.v1"
    peak_rate = 0.0005
    warmup_steps = 250
    """
    config = Config().from_str("\n".join(line.strip() for line in text.splitlines()))
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    training = registry.resolve(nlp.config.interpolate()["training"], schema=None)
    assert training["optimizer"].learn_rate == pytest.approx(0.0005 / 250)
