"""spacy-seqkit.TransformerRewriter.v1 in the seqkit_rewriter component:
causality, the key/value cache, padding, round trips, overfitting, config
errors; BPE pieces and the GRU cell of the recurrent rewriter; attention maps."""

import random

import numpy
import pytest
import spacy
import torch
from thinc.api import Config, fix_random_seed

from spacy_seqkit.extensions import install_rewrite_extensions
from spacy_seqkit.layers.seq2seq import predict_rewrites, start_search, torch_module
from spacy_seqkit.readers import rewrite_example

from rewriter_helpers import assert_config_fails_naming, nbest  # tests/lib/rewriter_helpers.py
from rewriter_helpers import train as train_examples

install_rewrite_extensions()
pytestmark = pytest.mark.usefixtures("one_torch_thread")

TINY = {
    "@architectures": "spacy-seqkit.TransformerRewriter.v1",
    "width": 32,
    "encoder_depth": 2,
    "decoder_depth": 2,
    "n_heads": 4,
    "ffn_width": 64,
    "dropout": 0.0,
    "label_smoothing": 0.0,
}


def _words(n, seed=0, alphabet="abcdef"):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 5))) for _ in range(n)]


TRAIN_WORDS = _words(20)
REVERSED = [w[::-1] for w in TRAIN_WORDS]


def make_nlp(model=None, **settings):
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "seqkit_rewriter", config={"model": {**TINY, **(model or {})}, "beam_size": 3, "n_best": 2, **settings}
    )
    return nlp


def train(nlp, sources, targets, n_steps, learn_rate=0.003, seed=0):
    examples = [rewrite_example(nlp, s, t) for s, t in zip(sources, targets)]
    return train_examples(nlp, examples, n_steps, learn_rate, seed)


def initialized(model=None, seed=0, words=TRAIN_WORDS, targets=REVERSED, **settings):
    fix_random_seed(seed)
    nlp = make_nlp(model, **settings)
    nlp.initialize(lambda: [rewrite_example(nlp, s, t) for s, t in zip(words, targets)])
    return nlp


@pytest.fixture(scope="module")
def trained():
    """A Transformer with copy that reverses short strings."""
    nlp = make_nlp({"copy": True})
    loss = train(nlp, TRAIN_WORDS, REVERSED, 150)
    return nlp, loss


def test_transformer_rewriter_overfits_20_pairs_and_round_trips(trained, tmp_path):
    nlp, loss = trained
    assert loss < 0.05
    docs = list(nlp.pipe(TRAIN_WORDS))
    assert [d._.rewrite for d in docs] == REVERSED
    expected = nbest(nlp, TRAIN_WORDS[:6] + ["", "fedcba fed"])
    assert expected[6] == [("", 0.0)]

    nlp_bytes = spacy.util.load_model_from_config(nlp.config)
    nlp_bytes.from_bytes(nlp.to_bytes())
    assert nbest(nlp_bytes, TRAIN_WORDS[:6] + ["", "fedcba fed"]) == expected
    nlp.to_disk(tmp_path / "model")
    nlp_disk = spacy.load(tmp_path / "model")
    assert nbest(nlp_disk, TRAIN_WORDS[:6] + ["", "fedcba fed"]) == expected


def _module_and_state(nlp, texts, targets=None):
    model = nlp.get_pipe("seqkit_rewriter").model
    module = torch_module(model)
    module.eval()
    docs = [nlp.make_doc(t) for t in texts]
    start = start_search(model, docs)
    tgt = None
    if targets is not None:
        tgt = torch.as_tensor(module.units.encode(docs, targets, model.attrs["config"].copy).tgt)
    return module, start.state, tgt


@pytest.mark.parametrize("copy,selective_read", [(False, False), (True, False), (True, True)])
def test_transformer_rewriter_decoder_is_causal(copy, selective_read):
    """Changing the target unit at position t changes no output before t, and
    changes the outputs at t and after."""
    nlp = initialized({"copy": copy, "selective_read": selective_read, "decoder_depth": 3})
    module, state, tgt = _module_and_state(nlp, ["abcdef", "fed"], ["fedcba", "def"])
    with torch.no_grad():
        before = module.teacher_forcing(tgt, state, weights="all")
        for t in (1, 3, 5):
            changed = tgt.clone()
            changed[:, t] = 4 if int(tgt[0, t]) != 4 else 5
            after = module.teacher_forcing(changed, state, weights="all")
            # Input position t is read at output position t (it predicts unit t + 1).
            assert torch.equal(after.outputs[:, :t], before.outputs[:, :t])
            assert not torch.allclose(after.outputs[0, t], before.outputs[0, t])
            for w_after, w_before in zip(after.weights, before.weights):
                assert torch.equal(w_after[:, :, :t], w_before[:, :, :t])


@pytest.mark.parametrize(
    "copy,positions,selective_read",
    [
        (False, "sinusoidal", False),
        (True, "learned", False),
        (True, "sinusoidal", False),
        (True, "sinusoidal", True),
    ],
)
def test_transformer_rewriter_cache_gives_the_full_pass_log_probs(copy, positions, selective_read):
    """Step by step with the key/value cache, and recomputing the prefix, give
    the log-probabilities of one parallel pass over the same prefix (1e-5)."""
    nlp = initialized({"copy": copy, "positions": positions, "selective_read": selective_read}, seed=3)
    texts, targets = ["abcdef", "fe", "dcba ab"], ["fedcba", "ef", "ba abcd"]
    module, state, tgt = _module_and_state(nlp, texts, targets)
    with torch.no_grad():
        decoded = module.teacher_forcing(tgt, state)
        steps = module.read_out(decoded, state, slice(None))
        full = [
            module.full_log_probs(*(x if x is None else x[:, t] for x in steps), state) for t in range(tgt.shape[1] - 1)
        ]
        cached, uncached = dict(state), dict(state)
        for t in range(tgt.shape[1] - 1):
            lp_cached, cached = module.decode_step(tgt[:, t], cached)
            lp_uncached, uncached = module.decode_step_uncached(tgt[:, t], uncached)
            finite = torch.isfinite(full[t])
            assert torch.equal(torch.isfinite(lp_cached), finite)
            assert torch.allclose(lp_cached[finite], full[t][finite], atol=1e-5)
            assert torch.allclose(lp_uncached[finite], full[t][finite], atol=1e-5)
        assert cached["cache"][0][0].shape[2] == tgt.shape[1] - 1


@pytest.mark.parametrize(
    "search,selective_read",
    [
        ("beam", False),
        ("naive_beam", False),
        ("greedy", False),
        ("beam", True),
    ],
)
def test_transformer_rewriter_cache_gives_the_same_nbest(search, selective_read):
    """The searches work unchanged on the Transformer: with and without the
    cache, the same n-best lists; batched beam equals the naive reference."""
    nlp = initialized({"copy": True, "selective_read": selective_read}, seed=1)
    model = nlp.get_pipe("seqkit_rewriter").model
    docs = [nlp.make_doc(t) for t in ["abc", "fedc ba", "a", "bbbbbbbbbbbb", "cafe"]]
    kwargs = dict(
        search=search,
        beam_size=1 if search == "greedy" else 4,
        n_best=1 if search == "greedy" else 4,
        length_penalty="gnmt",
        length_alpha=0.6,
        max_length_ratio=1.0,
        max_length_extra=3,
    )
    cached = predict_rewrites(model, docs, **kwargs)
    uncached = predict_rewrites(model, docs, use_cache=False, **kwargs)
    naive = predict_rewrites(model, docs, **{**kwargs, "search": "naive_beam"}) if search == "beam" else cached
    for a, b, c in zip(cached, uncached, naive):
        assert [h for h, _ in a] == [h for h, _ in b] == [h for h, _ in c]
        assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-5)
        assert [s for _, s in a] == pytest.approx([s for _, s in c], abs=1e-5)


def test_transformer_rewriter_selective_read_reads_the_copied_positions():
    """A written unit's decoder input carries the mean encoder state of the
    source positions holding it, nothing for a unit the source lacks; without
    selective_read the input is the unit's embedding alone."""
    nlp = initialized({"copy": True, "selective_read": True}, seed=4)
    module, state, _ = _module_and_state(nlp, ["abca", "fed"])
    ids = module.units.target_ids
    tokens = torch.tensor([[ids["a"], ids["b"]], [ids["a"], ids["f"]]])
    memory = state["memory"]
    with torch.no_grad():
        read = module.selective_read(tokens, state)
        expected = module.selective(
            torch.stack(
                [
                    torch.stack([(memory[0, 0] + memory[0, 3]) / 2, memory[0, 1]]),
                    torch.stack([torch.zeros_like(memory[1, 0]), memory[1, 0]]),
                ]
            )
        )
    assert torch.allclose(read, expected, atol=1e-6)
    plain = initialized({"copy": True}, seed=4)
    plain_module, plain_state, _ = _module_and_state(plain, ["abca"])
    assert plain_module.selective_read(tokens[:1], plain_state) is None


def test_transformer_rewriter_reorder_moves_the_cache_with_the_beams():
    nlp = initialized(seed=2)
    module, state, _ = _module_and_state(nlp, ["abc", "fedcba"])
    with torch.no_grad():
        _, state = module.decode_step(torch.tensor([1, 1]), state)
        _, state = module.decode_step(torch.tensor([4, 5]), state)
        swapped = module.reorder(state, torch.tensor([1, 0]), beams_only=False)
        beams = module.reorder(state, torch.tensor([1, 0]), beams_only=True)
    for (k, v), (k2, v2) in zip(state["cache"], swapped["cache"]):
        assert torch.equal(k2, k[[1, 0]]) and torch.equal(v2, v[[1, 0]])
    assert torch.equal(swapped["memory"], state["memory"][[1, 0]])
    # Beams of one item share the source: it stays where it is.
    assert beams["memory"] is state["memory"] and beams["cross"] is state["cross"]
    assert torch.equal(beams["cache"][0][0], state["cache"][0][0][[1, 0]])


def test_transformer_rewriter_doc_alone_equals_doc_in_a_batch_of_longer_ones(trained):
    nlp, _ = trained
    texts = ["abc", "a much longer text than the others", "fed cab", "dd"]
    batch = nbest(nlp, texts)
    for text, hyps in zip(texts, batch):
        alone = nbest(nlp, [text])[0]
        assert [h for h, _ in alone] == [h for h, _ in hyps]
        assert [s for _, s in alone] == pytest.approx([s for _, s in hyps], abs=1e-4)


def test_transformer_rewriter_shares_the_attention_encoder_block_and_ties_weights():
    from spacy_seqkit.layers.attention import AttentionStack, EncoderBlock
    from spacy_seqkit.layers.seq2seq.transformer_decoder import DecoderBlock

    nlp = initialized({"copy": True})
    module = torch_module(nlp.get_pipe("seqkit_rewriter").model)
    assert isinstance(module.encoder.stack, AttentionStack)
    assert all(type(b) is EncoderBlock for b in module.encoder.stack.blocks)
    assert all(isinstance(b, DecoderBlock) and isinstance(b, EncoderBlock) for b in module.decoder.blocks)
    assert (len(module.encoder.stack.blocks), len(module.decoder.blocks)) == (2, 2)
    assert module.output.proj.weight is module.decoder.embed.weight
    hierarchical = torch_module(initialized({"output_layer": "hierarchical"}).get_pipe("seqkit_rewriter").model)
    assert not hierarchical.output.unit_vectors


@pytest.mark.parametrize("attention", ["local", "linear"])
def test_transformer_rewriter_encoder_attention_modes(attention):
    nlp = make_nlp({"attention": attention, "window": 2})
    loss_first = train(nlp, TRAIN_WORDS[:8], REVERSED[:8], 1)
    loss = train(nlp, TRAIN_WORDS[:8], REVERSED[:8], 30, learn_rate=0.005)
    assert loss < loss_first
    assert all(isinstance(d._.rewrite, str) for d in nlp.pipe(TRAIN_WORDS[:3]))


@pytest.mark.slow
@pytest.mark.parametrize("output_layer", ["negative_sampling", "hierarchical"])
def test_transformer_rewriter_overfits_with_each_output_layer(output_layer):
    nlp = make_nlp({"output_layer": output_layer, "n_samples": 5})
    train(nlp, TRAIN_WORDS, REVERSED, 250)
    docs = list(nlp.pipe(TRAIN_WORDS))
    assert sum(d._.rewrite == r for d, r in zip(docs, REVERSED)) / len(docs) >= 0.9


TOKEN_EMBED = """
[embed]
@architectures = "spacy.Tok2Vec.v2"

[embed.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 16
attrs = ["NORM", "SHAPE"]
rows = [200, 50]
include_static_vectors = false

[embed.encode]
@architectures = "spacy.MaxoutWindowEncoder.v2"
width = 16
depth = 1
window_size = 1
maxout_pieces = 2
"""


def test_transformer_rewriter_tokens_to_words_with_copy():
    """Token vectors from a spaCy Tok2Vec, projected to the width; word
    targets; names never seen in training are copied."""
    names = ["lyon", "paris", "nice", "brest", "metz", "tours", "dijon", "rouen"]
    rng = random.Random(0)
    pairs = [rng.sample(names, 2) for _ in range(24)]
    sources = [f"de {a} a {b}" for a, b in pairs]
    targets = [f"{a} > {b}" for a, b in pairs]
    embed = Config().from_str(TOKEN_EMBED)["embed"]
    fix_random_seed(0)
    nlp = spacy.blank("fr")
    nlp.add_pipe(
        "seqkit_rewriter",
        config={
            "model": {**TINY, "source": "tokens", "target": "words", "copy": True, "embed": embed},
            "beam_size": 2,
            "n_best": 2,
        },
    )
    first = train(nlp, sources, targets, 1)
    last = train(nlp, sources, targets, 60, learn_rate=0.005)
    assert last < first
    expected = nbest(nlp, ["de zanzibar a lyon", ""])
    assert expected[1] == [("", 0.0)]
    nlp2 = spacy.util.load_model_from_config(nlp.config)
    nlp2.from_bytes(nlp.to_bytes())
    assert nbest(nlp2, ["de zanzibar a lyon", ""]) == expected


BAD = [
    ({"width": 30, "n_heads": 4}, "width"),
    ({"encoder_depth": 0}, "encoder_depth"),
    ({"decoder_depth": 0}, "decoder_depth"),
    ({"n_heads": 0}, "n_heads"),
    ({"ffn_width": -1}, "ffn_width"),
    ({"copy": True, "source": "characters", "target": "words"}, "copy"),
    ({"copy": True, "output_layer": "negative_sampling"}, "copy"),
    ({"output_layer": "hierarchical", "label_smoothing": 0.1}, "label_smoothing"),
    ({"attention": "sparse"}, "attention"),
    ({"attention": "local", "window": 0}, "window"),
    ({"positions": "rotary"}, "positions"),
    ({"positions": "learned", "max_length": 0}, "max_length"),
    ({"dropout": 1.0}, "dropout"),
    ({"attention_dropout": -0.1}, "attention_dropout"),
    ({"source": "bytes"}, "source"),
    ({"target": "pieces", "n_pieces": 0}, "n_pieces"),
    ({"source": "tokens"}, "embed"),
    ({"previous_unit": "yes"}, "previous_unit"),
    ({"selective_read": 1}, "selective_read"),
    ({"selective_read": True, "copy": False}, "selective_read"),
]


@pytest.mark.parametrize("model,name", BAD)
def test_transformer_rewriter_bad_config_raises_at_resolution(model, name):
    assert_config_fails_naming({**TINY, **model}, name)


def test_transformer_rewriter_learned_positions_too_long_is_clear():
    nlp = initialized({"positions": "learned", "max_length": 8})
    with pytest.raises(ValueError, match="max_length"):
        nlp("a" * 20)


# ---------------------------------------------------------------- BPE pieces, GRU


@pytest.mark.parametrize("architecture", ["spacy-seqkit.TransformerRewriter.v1", "spacy-seqkit.Seq2SeqRewriter.v2"])
def test_rewriters_learn_bpe_pieces_at_initialize(architecture, tmp_path):
    """sentencepiece BPE learned from the training texts at initialize, for
    both rewriters; pieces copied (in the other case too) and the model
    travels with the pipeline."""
    names = ["marseille", "paris", "lyon", "toulouse", "nantes", "lille"]
    rng = random.Random(0)
    pairs = [rng.sample(names, 2) for _ in range(30)]
    sources = [f"de {a} a {b}" for a, b in pairs]
    targets = [f"{a.capitalize()} > {b.capitalize()}" for a, b in pairs]
    sizes = {"width": 32} if "Transformer" in architecture else {"embed_width": 16, "hidden_width": 32}
    model = {
        "@architectures": architecture,
        "source": "pieces",
        "target": "pieces",
        "copy": True,
        "n_pieces": 60,
        "dropout": 0.0,
        "label_smoothing": 0.0,
        **sizes,
    }
    if "Transformer" in architecture:
        model.update({k: v for k, v in TINY.items() if k not in ("@architectures", "width")})
    fix_random_seed(0)
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_rewriter", config={"model": model, "beam_size": 2, "n_best": 2})
    loss = train(nlp, sources, targets, 60, learn_rate=0.01)
    pipe = nlp.get_pipe("seqkit_rewriter")
    units = torch_module(pipe.model).units
    assert pipe.cfg["pieces_model"] and units.pieces is not None
    assert "▁>" in units.target_vocab and units.target_units("Paris > Lyon")[0].startswith("▁")
    assert all(units.pieces.join(units.target_units(t)) == t for t in targets + ["Saint-Étienne > Évry"])
    assert loss < 1.0
    expected = nbest(nlp, sources[:4] + ["de paris a zanzibar"])
    assert all(isinstance(h, str) for hyps in expected for h, _ in hyps)
    nlp.to_disk(tmp_path / "model")
    assert nbest(spacy.load(tmp_path / "model"), sources[:4] + ["de paris a zanzibar"]) == expected


def test_recurrent_rewriter_gru_cell_trains_and_round_trips():
    from spacy_seqkit.layers.seq2seq import RecurrentModule

    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "seqkit_rewriter",
        config={
            "model": {
                "@architectures": "spacy-seqkit.Seq2SeqRewriter.v2",
                "cell": "gru",
                "copy": True,
                "embed_width": 16,
                "hidden_width": 32,
                "dropout": 0.0,
                "label_smoothing": 0.0,
                "depth": 2,
                "attention": "bahdanau",
            },
            "beam_size": 3,
            "n_best": 2,
        },
    )
    loss = train(nlp, TRAIN_WORDS, REVERSED, 150, learn_rate=0.01)
    module = torch_module(nlp.get_pipe("seqkit_rewriter").model)
    assert isinstance(module, RecurrentModule) and isinstance(module.decoder, torch.nn.GRU)
    assert (
        module.encoder.init_c is None
        and "c" not in start_search(nlp.get_pipe("seqkit_rewriter").model, [nlp.make_doc("abc")]).state
    )
    assert loss < 0.1
    docs = list(nlp.pipe(TRAIN_WORDS))
    assert sum(d._.rewrite == r for d, r in zip(docs, REVERSED)) / len(docs) >= 0.9
    nlp2 = spacy.util.load_model_from_config(nlp.config)
    nlp2.from_bytes(nlp.to_bytes())
    assert nbest(nlp2, TRAIN_WORDS[:5]) == nbest(nlp, TRAIN_WORDS[:5])


@pytest.mark.parametrize("model,name", [({"cell": "rnn"}, "cell"), ({"source": "pieces", "n_pieces": 0}, "n_pieces")])
def test_recurrent_rewriter_v2_bad_config_names_the_argument(model, name):
    from spacy_seqkit.architectures import build_seq2seq_rewriter_v2

    with pytest.raises(ValueError, match=name):
        build_seq2seq_rewriter_v2(**model)


def test_recurrent_rewriter_v1_keeps_its_choices():
    """v1 is what it was: no "pieces" units, always an LSTM."""
    from spacy_seqkit.architectures import build_seq2seq_rewriter_v1

    for units in ({"source": "pieces"}, {"target": "pieces"}):
        with pytest.raises(ValueError, match="source|target"):
            build_seq2seq_rewriter_v1(**units)
    assert build_seq2seq_rewriter_v1().attrs["config"].cell == "lstm"


# ---------------------------------------------------------------- attention maps


def test_attention_maps_of_both_rewriters(trained):
    from spacy_seqkit.layers.seq2seq.alignment import rewrite_attention

    nlp, _ = trained
    model = nlp.get_pipe("seqkit_rewriter").model
    maps = rewrite_attention(model, nlp.make_doc("abcd"), "dcba")
    assert len(maps) == 2 * 4  # decoder layers × heads
    assert maps[0].title == "layer 1, head 1" and maps[-1].title == "layer 2, head 4"
    for amap in maps:
        assert amap.rows == ["d", "c", "b", "a", "</s>"] and amap.columns == ["a", "b", "c", "d", "</s>"]
        assert amap.weights.shape == (5, 5)
        assert numpy.allclose(amap.weights.sum(1), 1.0, atol=1e-5)
    assert rewrite_attention(model, nlp.make_doc(""), "") == []

    fix_random_seed(0)
    lstm = spacy.blank("en")
    lstm.add_pipe("seqkit_rewriter", config={"model": {"embed_width": 8, "hidden_width": 8}})
    lstm.initialize(lambda: [rewrite_example(lstm, w, r) for w, r in zip(TRAIN_WORDS, REVERSED)])
    (alignment,) = rewrite_attention(lstm.get_pipe("seqkit_rewriter").model, lstm.make_doc("ab"), "ba")
    assert alignment.title == "alignment" and alignment.weights.shape == (3, 3)
    assert numpy.allclose(alignment.weights.sum(1), 1.0, atol=1e-5)


def test_attention_map_command_draws_a_png(trained, tmp_path):
    pytest.importorskip("matplotlib")
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    nlp, _ = trained
    nlp.to_disk(tmp_path / "model")
    out = tmp_path / "map.png"
    result = CliRunner().invoke(app, ["attention-map", str(tmp_path / "model"), "abcd", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file() and out.read_bytes()[:4] == b"\x89PNG"


def test_attention_map_command_without_matplotlib_is_clear(tmp_path, monkeypatch):
    import sys

    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = CliRunner().invoke(app, ["attention-map", str(tmp_path), "abc", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "matplotlib" in result.output and "bench" in result.output
