"""spacy-seqkit.MaxoutWindowEncoder.v1 as spaCy users meet it: from a config,
inside spacy.Tok2Vec.v2, trained with ner, saved and loaded."""

import pickle

import numpy
import pytest
import spacy
import torch
from spacy.training import Example
from spacy.util import registry
from thinc.api import Adam, Config, fix_random_seed

from spacy_seqkit.layers.window import resolve_dilations

WIDTH = 16

ENCODER_CONFIG = """
[model]
@architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
width = {width}
depth = {depth}
window_size = {window_size}
maxout_pieces = {maxout_pieces}
dilation = {dilation}
inference_dtype = {inference_dtype}
"""

DILATIONS = ["1", '"exponential"', "[1, 3]"]

TRAIN_DATA = [
    ("Je veux aller de Marseille à Paris", [(17, 26, "DEPART"), (29, 34, "ARRIVEE")]),
    ("Un billet pour Lyon depuis Nantes demain", [(15, 19, "ARRIVEE"), (27, 33, "DEPART")]),
    ("Il fait beau à Nice", []),
    ("de Brest à Rennes svp", [(3, 8, "DEPART"), (11, 17, "ARRIVEE")]),
]

NLP_CONFIG = """
[nlp]
lang = "fr"
pipeline = ["tok2vec", "ner"]

[components]

[components.tok2vec]
factory = "tok2vec"

[components.tok2vec.model]
@architectures = "spacy.Tok2Vec.v2"

[components.tok2vec.model.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 32
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [500, 200, 200, 200]
include_static_vectors = false

[components.tok2vec.model.encode]
@architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
width = 32
depth = 2
window_size = 1
maxout_pieces = 2
dilation = "exponential"

[components.ner]
factory = "ner"

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
hidden_width = 32
maxout_pieces = 2
use_upper = true

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2VecListener.v1"
width = 32
"""


def make_encoder(depth=2, window_size=1, maxout_pieces=2, dilation="1", width=WIDTH, inference_dtype="float32"):
    text = ENCODER_CONFIG.format(
        width=width,
        depth=depth,
        window_size=window_size,
        maxout_pieces=maxout_pieces,
        dilation=dilation,
        inference_dtype=f'"{inference_dtype}"',
    )
    model = registry.resolve(Config().from_str(text))["model"]
    model.initialize(X=[numpy.zeros((3, width), dtype="f")])
    return model


def random_docs(lengths, seed=0, width=WIDTH):
    rng = numpy.random.default_rng(seed)
    return [rng.standard_normal((n, width)).astype("f") for n in lengths]


@pytest.mark.parametrize("dilation", DILATIONS)
def test_maxout_window_shapes_and_gradients(dilation):
    model = make_encoder(dilation=dilation)
    Xs = random_docs([5, 1, 12])
    Ys, backprop = model.begin_update(Xs)
    assert [Y.shape for Y in Ys] == [X.shape for X in Xs]
    dXs = backprop([numpy.ones_like(Y) for Y in Ys])
    assert [dX.shape for dX in dXs] == [X.shape for X in Xs]
    assert all(numpy.isfinite(dX).all() and numpy.abs(dX).sum() > 0 for dX in dXs)


@pytest.mark.parametrize("lengths", [[], [0], [0, 0], [1], [0, 1, 0]])
def test_maxout_window_empty_and_one_token_docs(lengths):
    model = make_encoder(dilation='"exponential"')
    Xs = random_docs(lengths)
    Ys, backprop = model.begin_update(Xs)
    assert [Y.shape for Y in Ys] == [(n, WIDTH) for n in lengths]
    assert [dX.shape for dX in backprop(Ys)] == [(n, WIDTH) for n in lengths]
    assert all(numpy.isfinite(Y).all() for Y in Ys)


@pytest.mark.parametrize("dilation", DILATIONS)
def test_maxout_window_doc_alone_equals_doc_in_batch(dilation):
    model = make_encoder(dilation=dilation)
    Xs = random_docs([7, 1, 30, 2, 0, 15])
    batched = model.predict(Xs)
    for X, Y in zip(Xs, batched):
        numpy.testing.assert_allclose(model.predict([X])[0], Y, atol=1e-5)
    # Gradients too: a doc's input gradient does not depend on its neighbours.
    _, backprop = model.begin_update(Xs)
    dXs = backprop([numpy.ones_like(Y) for Y in batched])
    _, backprop_alone = model.begin_update([Xs[2]])
    numpy.testing.assert_allclose(backprop_alone([numpy.ones_like(batched[2])])[0], dXs[2], atol=1e-5)


@pytest.mark.parametrize(
    "depth,window_size,dilation",
    [(4, 1, "1"), (4, 1, '"exponential"'), (2, 2, "[1, 3]"), (3, 1, "2")],
)
def test_maxout_window_receptive_field(depth, window_size, dilation):
    model = make_encoder(depth=depth, window_size=window_size, dilation=dilation)
    dilations = resolve_dilations(Config().from_str(f"[x]\nd = {dilation}")["x"]["d"], depth)
    field = window_size * sum(dilations)
    assert model.attrs["receptive_field"] == field
    n, i = 2 * field + 21, field + 10
    X = random_docs([n])[0]
    before = model.predict([X])[0]
    X2 = X.copy()
    X2[i] += 3.0
    after = model.predict([X2])[0]
    changed = {j for j in range(n) if not numpy.allclose(before[j], after[j], atol=1e-6)}
    assert changed <= set(range(i - field, i + field + 1)), "output changed outside the window"
    assert {i - field, i, i + field} <= changed, "the documented field is not reached"
    if dilation == "1":
        assert changed == set(range(i - field, i + field + 1))


def test_maxout_window_matches_reference_math():
    """One layer, dilation 2: concat ±window neighbours (zeros past the doc's
    edges) → linear → max over pieces → layer norm → residual."""
    model = make_encoder(depth=1, window_size=1, maxout_pieces=3, dilation="2")
    module = model.layers[0].shims[0]._model
    W = module.projections[0].weight.detach().numpy()
    b = module.projections[0].bias.detach().numpy()
    g, beta = (p.detach().numpy() for p in (module.norms[0].weight, module.norms[0].bias))
    X = random_docs([9])[0]
    padded = numpy.pad(X, ((2, 2), (0, 0)))
    cols = numpy.hstack([padded[0:9], padded[2:11], padded[4:13]])
    Z = (cols @ W.T + b).reshape(9, WIDTH, 3).max(-1)
    Z = (Z - Z.mean(-1, keepdims=True)) / numpy.sqrt(Z.var(-1, keepdims=True) + 1e-5) * g + beta
    numpy.testing.assert_allclose(model.predict([X])[0], X + Z, atol=1e-4)


def test_maxout_window_huge_doc():
    model = make_encoder(dilation='"exponential"')
    Y = model.predict(random_docs([20000, 3]))
    assert Y[0].shape == (20000, WIDTH) and numpy.isfinite(Y[0]).all()


def test_maxout_window_bytes_and_disk_round_trip(tmp_path):
    model = make_encoder(dilation='"exponential"')
    Xs = random_docs([6, 11])
    # Make the weights differ from a fresh init so the round trip is meaningful.
    optimizer = Adam(0.01)
    for _ in range(3):
        Ys, backprop = model.begin_update(Xs)
        backprop([numpy.ones_like(Y) for Y in Ys])
        model.finish_update(optimizer)
    expected = model.predict(Xs)
    fresh = make_encoder(dilation='"exponential"').from_bytes(model.to_bytes())
    for a, b in zip(fresh.predict(Xs), expected):
        numpy.testing.assert_array_equal(a, b)
    model.to_disk(tmp_path / "encoder")
    loaded = make_encoder(dilation='"exponential"').from_disk(tmp_path / "encoder")
    for a, b in zip(loaded.predict(Xs), expected):
        numpy.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "argument,value",
    [
        ("width", "0"),
        ("maxout_pieces", "0"),
        ("depth", "0"),
        ("window_size", "-1"),
        ("dilation", "[1, 2, 4]"),
        ("dilation", '"quadratic"'),
        ("dilation", "0"),
        ("inference_dtype", '"float16"'),
    ],
)
def test_maxout_window_bad_config_names_the_argument(argument, value):
    values = {"width": 16, "depth": 2, "window_size": 1, "maxout_pieces": 2, "dilation": "1"}
    values["inference_dtype"] = '"float32"'
    values[argument] = value
    with pytest.raises(ValueError, match=argument):
        registry.resolve(Config().from_str(ENCODER_CONFIG.format(**values)))


def test_maxout_window_wrong_input_width_is_a_clear_error():
    model = make_encoder(width=16)
    with pytest.raises(ValueError, match="width"):
        model.predict(random_docs([4], width=8))


def train_ner(seed=0, n_iter=60):
    fix_random_seed(seed)
    nlp = spacy.util.load_model_from_config(Config().from_str(NLP_CONFIG), auto_fill=True)
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN_DATA]
    optimizer = nlp.initialize(get_examples=lambda: examples)
    for _ in range(n_iter):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    return nlp, losses


def ents(nlp, texts):
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in nlp.pipe(texts)]


def test_maxout_window_ner_overfits_and_round_trips(tmp_path):
    nlp, losses = train_ner()
    assert losses["ner"] < 0.5
    texts = [t for t, _ in TRAIN_DATA]
    assert ents(nlp, texts) == [sorted(e) for _, e in TRAIN_DATA]
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert ents(loaded, texts) == ents(nlp, texts)
    tok2vec = [d.tensor for d in nlp.pipe(texts)]
    for a, b in zip([d.tensor for d in loaded.pipe(texts)], tok2vec):
        numpy.testing.assert_array_equal(a, b)
    # Pickle the loaded pipeline: right after nlp.update, spaCy's own tok2vec
    # listeners hold backprop closures that no pipeline can pickle.
    unpickled = pickle.loads(pickle.dumps(loaded))
    assert ents(unpickled, texts) == ents(nlp, texts)
    from_bytes = spacy.blank("fr").from_config(nlp.config).from_bytes(nlp.to_bytes())
    assert ents(from_bytes, texts) == ents(nlp, texts)


def test_maxout_window_seeded_training_is_deterministic():
    texts = [t for t, _ in TRAIN_DATA]
    a, _ = train_ner(seed=3, n_iter=5)
    b, _ = train_ner(seed=3, n_iter=5)
    for x, y in zip(a.pipe(texts), b.pipe(texts)):
        numpy.testing.assert_array_equal(x.tensor, y.tensor)


@pytest.mark.parametrize("dilation", DILATIONS)
def test_maxout_window_predicts_as_it_trains(dilation):
    """Predicting multiplies tokens only (each layer gathers its neighbours, a zero row for
    outside the doc); training keeps the docs apart with zero rows between them: the same
    function."""
    from spacy_seqkit.layers.convert import token_positions

    positions, n_tokens = token_positions([3, 0, 2, 1])
    assert n_tokens == 6 and positions.tolist() == [[0, 1, 2, 0, 1, 0], [2, 1, 0, 1, 0, 0]]
    model = make_encoder(dilation=dilation)
    Xs = random_docs([7, 1, 0, 30, 2, 15])
    trained, _ = model.begin_update(Xs)
    for Y, Y_train in zip(model.predict(Xs), trained):
        numpy.testing.assert_allclose(Y, Y_train, atol=1e-5)


def v1_training_arithmetic(module, tokens, index, n_rows):
    """The training pass as v1 was released: docs apart in the gapped layout, each layer
    padded, its window's rows side by side, one linear, `amax` over the pieces, layer
    norm, residual on the token rows."""
    import torch.nn.functional as F

    H = tokens.new_zeros(n_rows, module.width).index_copy(0, index, tokens)
    mask = tokens.new_zeros(n_rows, 1).index_fill_(0, index, 1.0) if n_rows != tokens.shape[0] else None
    w = module.window_size
    for proj, norm, d in zip(module.projections, module.norms, module.dilations):
        padded = F.pad(H, (0, 0, d * w, d * w))
        cols = torch.cat([padded[k * d : k * d + n_rows] for k in range(2 * w + 1)], dim=1)
        Z = proj(cols).view(n_rows, module.width, module.pieces).amax(dim=-1)
        Z = module.dropout(norm(Z))
        H = H + (Z * mask if mask is not None else Z)
    return H.index_select(0, index)


@pytest.mark.parametrize("dilation", DILATIONS)
@pytest.mark.parametrize("pieces", [2, 3])
def test_maxout_window_trains_as_v1_bit_for_bit(dilation, pieces):
    """The same outputs and gradients, to the bit, as v1's released arithmetic: the same
    config and seed train the same pipeline."""
    from spacy_seqkit.layers.window import window_layout

    model = make_encoder(depth=2, maxout_pieces=pieces, dilation=dilation)
    module = model.layers[0].shims[0]._model
    lengths = [7, 1, 0, 30, 2, 15]
    tokens = torch.as_tensor(numpy.concatenate(random_docs(lengths)))
    layout, (_, n_rows) = window_layout(lengths, module.window_size * max(module.dilations))
    index = torch.as_tensor(layout[2])
    dY = torch.as_tensor(random_docs([tokens.shape[0]], seed=1)[0])
    results = []
    for forward in (module.forward_gapped, lambda *args: v1_training_arithmetic(module, *args)):
        module.zero_grad()
        X = tokens.clone().requires_grad_()
        Y = forward(X, index, n_rows)
        Y.backward(dY)
        results.append([Y.detach(), X.grad] + [p.grad.clone() for p in module.parameters()])
    for ours, released in zip(*results):
        assert torch.equal(ours, released)


def same_weights(model, source):
    """`model` with `source`'s weights (the two encoders built alike but for their dtype)."""
    return model.from_bytes(source.to_bytes())


def test_maxout_window_bfloat16_predicts_within_its_rounding_and_trains_in_float32():
    exact = make_encoder(dilation='"exponential"', maxout_pieces=3)
    fast = same_weights(make_encoder(dilation='"exponential"', maxout_pieces=3, inference_dtype="bfloat16"), exact)
    Xs = random_docs([7, 1, 0, 30, 2])
    for Y, Y_exact in zip(fast.predict(Xs), exact.predict(Xs)):
        assert Y.dtype == numpy.float32
        numpy.testing.assert_allclose(Y, Y_exact, atol=0.1)
    assert not all(numpy.array_equal(a, b) for a, b in zip(fast.predict(Xs), exact.predict(Xs)))
    # Training multiplies in float32: outputs and input gradients bit for bit.
    (Ys, backprop), (Ys_exact, backprop_exact) = fast.begin_update(Xs), exact.begin_update(Xs)
    for a, b in zip(Ys, Ys_exact):
        numpy.testing.assert_array_equal(a, b)
    for a, b in zip(backprop([numpy.ones_like(Y) for Y in Ys]), backprop_exact([numpy.ones_like(Y) for Y in Ys])):
        numpy.testing.assert_array_equal(a, b)


def test_maxout_window_bfloat16_doc_alone_equals_doc_in_batch():
    model = make_encoder(dilation='"exponential"', inference_dtype="bfloat16")
    Xs = random_docs([7, 1, 30, 2, 0, 15, 300])
    for X, Y in zip(Xs, model.predict(Xs)):
        numpy.testing.assert_array_equal(model.predict([X])[0], Y)


def test_maxout_window_auto_dtype_is_bfloat16_only_where_the_cpu_has_it():
    from spacy_seqkit.layers.window import native_bfloat16

    exact = make_encoder(dilation='"exponential"')
    built = {
        dtype: same_weights(make_encoder(dilation='"exponential"', inference_dtype=dtype), exact)
        for dtype in ("auto", "bfloat16")
    }
    Xs = random_docs([9, 4])
    expected = built["bfloat16"] if native_bfloat16() else exact
    for a, b in zip(built["auto"].predict(Xs), expected.predict(Xs)):
        numpy.testing.assert_array_equal(a, b)


def test_maxout_window_inference_dtype_travels_with_a_saved_pipeline(tmp_path):
    config = Config().from_str(
        NLP_CONFIG.replace('dilation = "exponential"', 'dilation = "exponential"\ninference_dtype = "bfloat16"')
    )
    fix_random_seed(0)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN_DATA]
    nlp.initialize(get_examples=lambda: examples)
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.config["components"]["tok2vec"]["model"]["encode"]["inference_dtype"] == "bfloat16"
    texts = [t for t, _ in TRAIN_DATA]
    for a, b in zip(loaded.pipe(texts), nlp.pipe(texts)):
        numpy.testing.assert_array_equal(a.tensor, b.tensor)


def test_maxout_window_bfloat16_predicts_with_the_weights_it_has_now():
    """The weights cast to bfloat16 are kept between predictions, never past a change of them: a
    training step, weights loaded from bytes, a write to them."""
    model = make_encoder(dilation='"exponential"', inference_dtype="bfloat16")
    Xs = random_docs([6, 11])

    def same_as_fresh(model):
        fresh = same_weights(make_encoder(dilation='"exponential"', inference_dtype="bfloat16"), model)
        for a, b in zip(model.predict(Xs), fresh.predict(Xs)):
            numpy.testing.assert_array_equal(a, b)

    before = model.predict(Xs)
    Ys, backprop = model.begin_update(Xs)
    backprop([numpy.ones_like(Y) for Y in Ys])
    model.finish_update(Adam(0.01))
    assert not numpy.array_equal(model.predict(Xs)[0], before[0])
    same_as_fresh(model)
    other = make_encoder(dilation='"exponential"', inference_dtype="bfloat16")
    model.from_bytes(other.to_bytes())
    same_as_fresh(model)
    module = model.layers[0].shims[0]._model
    with torch.no_grad():
        module.projections[0].weight.mul_(2.0)
    same_as_fresh(model)
