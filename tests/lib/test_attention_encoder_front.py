"""spacy-seqkit.AttentionEncoder.v2: AttentionEncoder.v1 behind a maxout window front."""

import numpy
import pytest
from spacy.util import registry
from thinc.api import Config, fix_random_seed

WIDTH = 16

CONFIG = """
[model]
@architectures = "spacy-seqkit.AttentionEncoder.v2"
width = 16
depth = 1
n_heads = 4
ffn_width = 32
attention = "{attention}"
window = 2
dropout = 0.0
front_depth = {front_depth}
"""


def make(attention="full", front_depth=2, seed=0, **overrides):
    fix_random_seed(seed)
    config = Config().from_str(CONFIG.format(attention=attention, front_depth=front_depth))
    config["model"].update(overrides)
    model = registry.resolve(config)["model"]
    model.initialize()
    return model


def docs(lengths, seed=0):
    rng = numpy.random.default_rng(seed)
    return [rng.standard_normal((n, WIDTH)).astype("float32") for n in lengths]


@pytest.mark.parametrize("attention", ["full", "local", "linear"])
def test_front_then_attention_doc_alone_equals_doc_in_batch(attention):
    model = make(attention)
    assert model.get_dim("nO") == WIDTH
    batch = docs([3, 11, 1])
    alone = model.predict([batch[0]])[0]
    numpy.testing.assert_allclose(model.predict(batch)[0], alone, atol=1e-5, rtol=0)
    assert [Y.shape for Y in model.predict(batch)] == [(3, WIDTH), (11, WIDTH), (1, WIDTH)]


def test_front_is_chained_before_attention():
    model = make("local", front_depth=2)
    assert [layer.name for layer in model.layers] == ["seqkit_maxout_window", "seqkit_attention_encoder"]


def test_front_depth_zero_is_attention_encoder_v1():
    v2 = make("full", front_depth=0, seed=3)
    fix_random_seed(3)
    text = CONFIG.format(attention="full", front_depth=0)
    v1_config = Config().from_str(text.replace(".v2", ".v1").replace("front_depth = 0\n", ""))
    v1 = registry.resolve(v1_config)["model"]
    v1.initialize()
    Xs = docs([5, 2])
    for Y, Z in zip(v2.predict(Xs), v1.predict(Xs)):
        numpy.testing.assert_array_equal(Y, Z)


def test_front_round_trip_bytes():
    model = make("linear")
    Xs = docs([4, 9])
    other = make("linear", seed=1)
    other.from_bytes(model.to_bytes())
    for Y, Z in zip(other.predict(Xs), model.predict(Xs)):
        numpy.testing.assert_array_equal(Y, Z)


@pytest.mark.parametrize(
    "overrides,name",
    [
        ({"front_depth": -1}, "front_depth"),
        ({"front_pieces": 0}, "front_pieces"),
        ({"front_window": -1}, "front_window"),
        ({"n_heads": 3}, "width"),
    ],
)
def test_bad_front_argument_names_it(overrides, name):
    config = Config().from_str(CONFIG.format(attention="full", front_depth=2))
    config["model"].update(overrides)
    with pytest.raises(ValueError, match=name):
        registry.resolve(config)
