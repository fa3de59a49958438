"""spacy-seqkit.AttentionEncoder.v1: config resolution, argument checks, padding
invariance, the three attention modes against reference forms, positions,
gradients, serialization, training with `ner`, empty and very long docs."""

import math
import pickle

import numpy
import pytest
import spacy
import torch
from spacy.training import Example
from spacy.util import load_model_from_config, registry
from thinc.api import Config, fix_random_seed

from spacy_seqkit.layers.attention import (
    ATTENTION_MODES,
    linear_attention,
    local_attention,
    sinusoidal_positions,
)
from spacy_seqkit.layers.convert import bucketed_index

WIDTH = 32

ENCODER_CONFIG = """
[model]
@architectures = "spacy-seqkit.AttentionEncoder.v1"
width = {width}
depth = 2
n_heads = 4
ffn_width = 64
attention = "{attention}"
window = 3
positions = "{positions}"
max_length = 64
dropout = 0.0
"""

TRAIN_DATA = [
    ("Je veux aller de Marseille à Paris", [(17, 26, "DEPART"), (29, 34, "ARRIVEE")]),
    ("Un billet de Lyon à Nantes demain", [(13, 17, "DEPART"), (20, 26, "ARRIVEE")]),
    ("Je pars de Brest pour Rennes", [(11, 16, "DEPART"), (22, 28, "ARRIVEE")]),
    ("Aller à Toulouse depuis Bordeaux", [(8, 16, "ARRIVEE"), (24, 32, "DEPART")]),
    ("Il fait beau aujourd'hui", []),
]

NLP_CONFIG = """
[nlp]
lang = "fr"
pipeline = ["ner"]

[components]

[components.ner]
factory = "ner"

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
extra_state_tokens = false
hidden_width = 32
maxout_pieces = 2
use_upper = true

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2Vec.v2"

[components.ner.model.tok2vec.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 32
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [500, 200, 200, 100]
include_static_vectors = false

[components.ner.model.tok2vec.encode]
@architectures = "spacy-seqkit.AttentionEncoder.v1"
width = 32
depth = 2
n_heads = 4
ffn_width = 64
attention = "{attention}"
window = 2
dropout = 0.0
"""


def make_encoder(attention="full", positions="sinusoidal", width=WIDTH, seed=0):
    fix_random_seed(seed)
    text = ENCODER_CONFIG.format(attention=attention, positions=positions, width=width)
    model = registry.resolve(Config().from_str(text))["model"]
    model.initialize()
    return model


def random_docs(lengths, width=WIDTH, seed=0):
    rng = numpy.random.default_rng(seed)
    return [rng.standard_normal((n, width)).astype("float32") for n in lengths]


def assert_lists_close(Ys, Zs, atol=1e-5):
    assert len(Ys) == len(Zs)
    for Y, Z in zip(Ys, Zs):
        assert Y.shape == Z.shape
        numpy.testing.assert_allclose(Y, Z, atol=atol, rtol=0)


@pytest.mark.parametrize("attention", ATTENTION_MODES)
@pytest.mark.parametrize("positions", ["sinusoidal", "learned", "none"])
def test_attention_encoder_resolves_from_config(attention, positions):
    model = make_encoder(attention, positions)
    assert model.name == "seqkit_attention_encoder"
    assert model.get_dim("nO") == WIDTH
    Ys = model.predict(random_docs([4, 7]))
    assert [Y.shape for Y in Ys] == [(4, WIDTH), (7, WIDTH)]


@pytest.mark.parametrize(
    "overrides,name",
    [
        ({"width": 30, "n_heads": 4}, "width"),
        ({"n_heads": 0}, "n_heads"),
        ({"depth": 0}, "depth"),
        ({"ffn_width": -1}, "ffn_width"),
        ({"width": 0}, "width"),
        ({"attention": "sparse"}, "attention"),
        ({"positions": "rotary"}, "positions"),
        ({"attention": "local", "window": 0}, "window"),
        ({"positions": "learned", "max_length": 0}, "max_length"),
        ({"dropout": 1.5}, "dropout"),
        ({"attention_dropout": -0.1}, "attention_dropout"),
    ],
)
def test_attention_encoder_bad_argument_names_it(overrides, name):
    config = Config().from_str(ENCODER_CONFIG.format(attention="full", positions="sinusoidal", width=WIDTH))
    config["model"].update(overrides)
    with pytest.raises(ValueError, match=f"'{name}'"):
        registry.resolve(config)


def test_attention_encoder_bad_choice_lists_allowed_values():
    config = Config().from_str(ENCODER_CONFIG.format(attention="full", positions="sinusoidal", width=WIDTH))
    config["model"]["attention"] = "sparse"
    with pytest.raises(ValueError, match="'full', 'local', 'linear'"):
        registry.resolve(config)


def test_attention_encoder_width_mismatch_is_clear():
    model = make_encoder()
    with pytest.raises(ValueError, match="width"):
        model.predict(random_docs([3], width=WIDTH + 1))


def test_attention_encoder_learned_positions_too_long_doc():
    model = make_encoder("full", "learned")
    with pytest.raises(ValueError, match="max_length=64"):
        model.predict(random_docs([10, 65]))


@pytest.mark.parametrize("attention", ATTENTION_MODES)
@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_attention_encoder_doc_alone_equals_doc_in_padded_batch(attention, positions):
    model = make_encoder(attention, positions)
    # Same-bucket docs of different lengths (real padding), an empty doc, a
    # longer doc in another bucket, and a one-token doc.
    Xs = random_docs([20, 0, 17, 32, 25, 60, 1, 18])
    batched = model.predict(Xs)
    alone = [model.predict([X])[0] for X in Xs]
    assert_lists_close(batched, alone)
    # Docs laid out in another order give the same per-doc output too.
    reordered = model.predict(Xs[::-1])[::-1]
    assert_lists_close(batched, reordered)


def reference_masked_attention(q, k, v, allowed):
    """Softmax attention written out, with an explicit (.., Lq, Lk) mask."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


@pytest.mark.parametrize("window", [1, 3, 16, 40])
@pytest.mark.parametrize("length", [1, 37, 70, 200])
def test_local_attention_equals_full_attention_with_band_mask(window, length):
    torch.manual_seed(0)
    B, H, D = 3, 2, 8
    q, k, v = (torch.randn(B, H, length, D, dtype=torch.float64) for _ in range(3))
    lengths = torch.tensor([length, max(length // 2, 1), max(length - 5, 1)])
    valid = torch.arange(length)[None, :] < lengths[:, None]
    got = local_attention(q, k, v, valid, window, 0.0)
    pos = torch.arange(length)
    band = (pos[:, None] - pos[None, :]).abs() <= window
    allowed = band[None, None] & valid[:, None, None, :]
    expected = reference_masked_attention(q, k, v, allowed)
    for b in range(B):  # only real tokens are compared; padding rows are discarded
        n = int(lengths[b])
        torch.testing.assert_close(got[b, :, :n], expected[b, :, :n], atol=1e-10, rtol=1e-10)


def test_linear_attention_equals_its_quadratic_form():
    torch.manual_seed(0)
    B, H, L, D = 2, 3, 11, 4
    q, k, v = (torch.randn(B, H, L, D, dtype=torch.float64) for _ in range(3))
    valid = torch.arange(L)[None, :] < torch.tensor([L, 6])[:, None]
    got = linear_attention(q, k, v, valid)
    phi_q = torch.nn.functional.elu(q) + 1
    phi_k = torch.nn.functional.elu(k) + 1
    weights = (phi_q @ phi_k.transpose(-1, -2)) * valid[:, None, None, :]
    expected = (weights / weights.sum(-1, keepdim=True)) @ v
    torch.testing.assert_close(got, expected, atol=1e-12, rtol=1e-10)


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_weights_are_what_each_mode_attends_with(attention):
    """A mode's explicit weights (for pictures), applied to the values, give
    its attention's output on every real token; rows sum to 1."""
    torch.manual_seed(0)
    B, H, L, D = 2, 3, 40, 4
    q, k, v = (torch.randn(B, H, L, D, dtype=torch.float64) for _ in range(3))
    valid = torch.arange(L)[None, :] < torch.tensor([L, 23])[:, None]
    mode = ATTENTION_MODES[attention]
    weights = mode.weights(q, k, valid, 3)
    got = mode.attend(q, k, v, valid, 3, 0.0, mode.shared_mask(valid, L, 3))
    for b, n in enumerate((L, 23)):
        torch.testing.assert_close((weights @ v)[b, :, :n], got[b, :, :n], atol=1e-8, rtol=1e-8)
        torch.testing.assert_close(weights[b, :, :n].sum(-1), torch.ones(H, n, dtype=torch.float64))
        assert float(weights[b, :, :n, n:].abs().sum()) == 0.0


def test_attention_encoder_records_its_attention_for_pictures():
    from spacy_seqkit.layers.attention import recorded_attention

    model = make_encoder("full", "sinusoidal")
    Xs = random_docs([7])
    stack = model.layers[0].shims[0]._model
    expected = model.predict(Xs)
    with recorded_attention(stack) as records:
        assert numpy.array_equal(model.predict(Xs)[0], expected[0])
    assert [tuple(w.shape) for w in records] == [(1, 4, 7, 7)] * 2
    assert torch.allclose(records[0].sum(-1), torch.ones(1, 4, 7))
    model.predict(Xs)
    assert len(records) == 2  # the hooks are gone


def test_positions_with_an_offset_continue_the_sequence():
    """Positions of a step at `offset` (incremental decoding) are those of the
    same position in the whole sequence."""
    from spacy_seqkit.layers.attention import POSITIONS

    torch.manual_seed(0)
    X = torch.randn(2, 9, 8)
    for name in POSITIONS:
        positions = POSITIONS[name](8, 16)
        whole = positions(X)
        steps = torch.cat([positions(X[:, t : t + 1], t) for t in range(9)], 1)
        torch.testing.assert_close(steps, whole)


def test_sinusoidal_positions_match_the_paper():
    width = 10
    pe = sinusoidal_positions(50, width, dtype=torch.float64)
    for pos in (0, 1, 7, 49):
        for i in range(width // 2):
            angle = pos / 10000 ** (2 * i / width)
            assert pe[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-12)
            assert pe[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-12)


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_encoder_gradients_reach_every_parameter(attention):
    model = make_encoder(attention, "learned")
    Xs = random_docs([12, 5, 0, 9])
    Ys, backprop = model.begin_update(Xs)
    rng = numpy.random.default_rng(1)
    dXs = backprop([rng.standard_normal(Y.shape).astype("float32") for Y in Ys])
    for X, dX in zip(Xs, dXs):
        assert dX.shape == X.shape
        assert numpy.isfinite(dX).all()
    assert all(numpy.abs(dX).sum() > 0 for dX in dXs if dX.size)
    module = model.layers[0].shims[0]._model
    for name, param in module.named_parameters():
        assert param.grad is not None, name
        assert torch.isfinite(param.grad).all(), name
        assert param.grad.abs().sum() > 0, name


def test_attention_encoder_keeps_the_weight_names_saved_pipelines_hold():
    """Saved pipelines load their weights by these names: moving the blocks
    between modules must not rename them."""
    model = make_encoder("local", "learned", seed=0)
    block = ["ffn_in", "ffn_out", "norm_attn", "norm_ffn", "out", "qkv"]
    expected = {f"blocks.{i}.{name}.{p}" for i in range(2) for name in block for p in ("weight", "bias")}
    expected |= {"final_norm.weight", "final_norm.bias", "positions.weight"}
    assert set(model.layers[0].shims[0]._model.state_dict()) == expected
    assert [node.name for node in model.walk()][:2] == ["seqkit_attention_encoder", "pytorch"]


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_encoder_bytes_and_disk_round_trip(attention, tmp_path):
    model = make_encoder(attention, "learned", seed=0)
    Xs = random_docs([6, 13])
    expected = model.predict(Xs)
    other = make_encoder(attention, "learned", seed=1)
    assert not numpy.allclose(other.predict(Xs)[0], expected[0])
    other.from_bytes(model.to_bytes())
    assert_lists_close(other.predict(Xs), expected, atol=0)
    model.to_disk(tmp_path / "encoder")
    third = make_encoder(attention, "learned", seed=2)
    third.from_disk(tmp_path / "encoder")
    assert_lists_close(third.predict(Xs), expected, atol=0)


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_encoder_dropout_only_in_training(attention):
    config = Config().from_str(ENCODER_CONFIG.format(attention=attention, positions="sinusoidal", width=WIDTH))
    config["model"].update({"dropout": 0.2, "attention_dropout": 0.2})
    model = registry.resolve(config)["model"]
    Xs = random_docs([70, 5, 60])
    model.initialize(X=Xs)
    first, backprop = model.begin_update(Xs)
    dXs = backprop([numpy.ones_like(Y) for Y in first])
    assert all(numpy.isfinite(dX).all() for dX in dXs)
    second, _ = model.begin_update(Xs)
    assert not numpy.allclose(first[0], second[0])
    assert_lists_close(model.predict(Xs), model.predict(Xs), atol=0)


def test_attention_encoder_seeded_determinism():
    Xs = random_docs([8, 3])
    assert_lists_close(make_encoder("local", seed=7).predict(Xs), make_encoder("local", seed=7).predict(Xs), atol=0)


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_encoder_empty_docs(attention):
    model = make_encoder(attention)
    Ys = model.predict(random_docs([0, 0]))
    assert [Y.shape for Y in Ys] == [(0, WIDTH), (0, WIDTH)]
    assert model.predict([]) == []
    Ys, backprop = model.begin_update(random_docs([0, 3]))
    dXs = backprop([numpy.ones_like(Y) for Y in Ys])
    assert [dX.shape for dX in dXs] == [(0, WIDTH), (3, WIDTH)]


@pytest.mark.parametrize("attention", ATTENTION_MODES)
def test_attention_encoder_10k_token_doc(attention):
    model = make_encoder(attention)
    Xs = random_docs([10_000, 7])
    Ys = model.predict(Xs)
    assert [Y.shape for Y in Ys] == [(10_000, WIDTH), (7, WIDTH)]
    assert all(numpy.isfinite(Y).all() for Y in Ys)
    # The short doc is unaffected by sharing the batch with the long one.
    assert_lists_close([Ys[1]], [model.predict([Xs[1]])[0]])


def check_10k_token_doc_backprop(attention):
    model = make_encoder(attention)
    Xs = random_docs([10_000, 7])
    Ys, backprop = model.begin_update(Xs)
    dXs = backprop([numpy.ones_like(Y) for Y in Ys])
    assert [dX.shape for dX in dXs] == [(10_000, WIDTH), (7, WIDTH)]
    assert all(numpy.isfinite(dX).all() and numpy.abs(dX).sum() > 0 for dX in dXs)


@pytest.mark.parametrize("attention", ["local", "linear"])
def test_attention_encoder_10k_token_doc_backprop(attention):
    check_10k_token_doc_backprop(attention)


@pytest.mark.slow
def test_attention_encoder_10k_token_doc_backprop_full():
    check_10k_token_doc_backprop("full")


def test_bucketed_index_places_every_token_once():
    lengths = [3, 0, 1, 10, 4, 2, 9]
    index, buckets = bucketed_index(lengths)
    n_rows = sum(n * size for n, size in buckets)
    assert len(index) == sum(lengths)
    assert len(set(index.tolist())) == len(index) and index.max() < n_rows
    assert buckets == ((2, 10), (2, 4), (1, 2), (1, 1))
    # Padding per bucket stays below 2x the tokens of the bucket.
    assert n_rows < 2 * sum(lengths)
    index, buckets = bucketed_index([0, 0])
    assert len(index) == 0 and buckets == ()


def make_nlp(attention):
    fix_random_seed(0)
    config = Config().from_str(NLP_CONFIG.format(attention=attention))
    return load_model_from_config(config, auto_fill=True, validate=True)


def train_examples(nlp):
    return [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in TRAIN_DATA]


def check_overfitting(attention, tmp_path):
    nlp = make_nlp(attention)
    examples = train_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(60):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["ner"] < 1.0, losses
    texts = [text for text, _ in TRAIN_DATA]
    docs = list(nlp.pipe(texts))
    expected = [[(e.text, e.label_) for e in doc.ents] for doc in docs]
    for (text, ents), got in zip(TRAIN_DATA, expected):
        assert got == [(text[s:e], label) for s, e, label in ents]
    # An empty doc, alone or in a batch, gives no entities and changes nothing.
    assert len(nlp("")) == 0 and not nlp("").ents
    with_empty = list(nlp.pipe(["", texts[0], ""]))
    assert [(e.text, e.label_) for e in with_empty[1].ents] == expected[0]
    # A doc alone gives what the batch gave.
    assert [(e.text, e.label_) for e in nlp(texts[0]).ents] == expected[0]
    # Bytes, disk and pickle round trips give identical predictions.
    nlp2 = make_nlp(attention)
    nlp2.initialize(lambda: examples)
    nlp2.from_bytes(nlp.to_bytes())
    nlp.to_disk(tmp_path / "nlp")
    nlp3 = spacy.load(tmp_path / "nlp")
    nlp4 = pickle.loads(pickle.dumps(nlp))
    for other in (nlp2, nlp3, nlp4):
        assert [[(e.text, e.label_) for e in doc.ents] for doc in other.pipe(texts)] == expected


def test_attention_encoder_overfits_ner_local(tmp_path):
    check_overfitting("local", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("attention", ["full", "linear"])
def test_attention_encoder_overfits_ner_other_modes(attention, tmp_path):
    check_overfitting(attention, tmp_path)


def test_ner_attention_config_builds_the_pipeline():
    from pathlib import Path

    from spacy_seqkit.travel.pipeline.reading import READING_PIPES

    path = Path(__file__).resolve().parents[2] / "configs" / "ner_attention.cfg"
    config = Config().from_disk(path)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    # The main job's pipeline (its learned roles included), the encoder aside.
    assert nlp.pipe_names == ["seqkit_place_marker", "tok2vec", "ner", "roles", *READING_PIPES]
    main = Config().from_disk(path.parent / "ner_maxout.cfg")
    assert main["nlp"]["pipeline"] == config["nlp"]["pipeline"]
    assert main["components"]["roles"] == config["components"]["roles"]
    encode = config["components"]["tok2vec"]["model"]["encode"]
    assert encode["@architectures"] == "spacy-seqkit.AttentionEncoder.v2"
    learn_rate = config["training"]["optimizer"]["learn_rate"]
    assert learn_rate["@schedules"] == "spacy-seqkit.warmup_rsqrt.v1"
