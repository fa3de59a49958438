"""The seqkit_rewriter component: training, round trips, edge cases, config errors."""

import pickle
import random

import pytest
import spacy
import srsly
import torch
from spacy.training import Example
from thinc.api import Config, fix_random_seed

from spacy_seqkit.extensions import install_rewrite_extensions
from spacy_seqkit.readers import rewrite_example

from rewriter_helpers import assert_config_fails_naming, nbest, train  # tests/lib/rewriter_helpers.py

install_rewrite_extensions()

TINY = {"embed_width": 16, "hidden_width": 32, "dropout": 0.0, "label_smoothing": 0.0}


def _words(n, seed=0, alphabet="abcdef"):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 5))) for _ in range(n)]


TRAIN_WORDS = _words(30)


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def make_examples(nlp, sources, targets):
    return [rewrite_example(nlp, text, rewrite) for text, rewrite in zip(sources, targets)]


def make_nlp(model=None, **settings):
    nlp = spacy.blank("en")
    nlp.add_pipe("seqkit_rewriter", config={"model": {**TINY, **(model or {})}, **settings})
    return nlp


def reversal_accuracy(nlp, words):
    docs = list(nlp.pipe(words))
    return sum(doc._.rewrite == w[::-1] for doc, w in zip(docs, words)) / len(words)


def test_rewriter_overfitting_IO(tmp_path):
    """Learns to reverse short strings; bytes, disk and pickle give identical rewrites."""
    nlp = make_nlp(beam_size=3, n_best=2)
    loss = train(nlp, make_examples(nlp, TRAIN_WORDS, [w[::-1] for w in TRAIN_WORDS]), 150)
    assert loss < 0.05
    assert reversal_accuracy(nlp, TRAIN_WORDS) >= 0.9
    expected = nbest(nlp, TRAIN_WORDS[:5])
    assert all(len(hyps) == 2 and hyps[0][1] >= hyps[1][1] for hyps in expected)

    nlp_bytes = spacy.util.load_model_from_config(nlp.config)
    nlp_bytes.from_bytes(nlp.to_bytes())
    assert nbest(nlp_bytes, TRAIN_WORDS[:5]) == expected

    nlp.to_disk(tmp_path / "model")
    nlp_disk = spacy.load(tmp_path / "model")
    assert nbest(nlp_disk, TRAIN_WORDS[:5]) == expected
    # The vocabulary came back with the weights.
    assert (
        nlp_disk.get_pipe("seqkit_rewriter").cfg["target_vocab"] == nlp.get_pipe("seqkit_rewriter").cfg["target_vocab"]
    )

    nlp_pickle = pickle.loads(pickle.dumps(nlp))
    assert nbest(nlp_pickle, TRAIN_WORDS[:5]) == expected


@pytest.mark.slow
@pytest.mark.parametrize("attention", ["dot", "general", "concat", "bahdanau"])
def test_rewriter_overfitting_each_attention(attention):
    nlp = make_nlp({"attention": attention}, beam_size=2, n_best=1)
    train(nlp, make_examples(nlp, TRAIN_WORDS, [w[::-1] for w in TRAIN_WORDS]), 200)
    assert reversal_accuracy(nlp, TRAIN_WORDS) >= 0.9


def test_rewriter_overfitting_concat_attention_fast():
    """The attention with the most parts (concat, input feeding), in the default run."""
    words = TRAIN_WORDS[:12]
    nlp = make_nlp({"attention": "concat"}, beam_size=1, n_best=1)
    train(nlp, make_examples(nlp, words, [w[::-1] for w in words]), 120, learn_rate=0.02)
    assert reversal_accuracy(nlp, words) >= 0.9


@pytest.mark.slow
@pytest.mark.parametrize("output_layer", ["negative_sampling", "hierarchical"])
def test_rewriter_overfitting_each_output_layer(output_layer):
    nlp = make_nlp({"output_layer": output_layer, "n_samples": 5}, beam_size=2, n_best=1)
    train(nlp, make_examples(nlp, TRAIN_WORDS, [w[::-1] for w in TRAIN_WORDS]), 250)
    assert reversal_accuracy(nlp, TRAIN_WORDS) >= 0.9


TOKEN_MODEL = """
[model]
@architectures = "spacy-seqkit.Seq2SeqRewriter.v1"
source = "tokens"
target = "words"
copy = true
embed_width = 16
hidden_width = 32
dropout = 0.0
output_layer = "softmax"
label_smoothing = 0.0

[model.embed]
@architectures = "spacy.Tok2Vec.v2"

[model.embed.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 32
attrs = ["NORM", "SHAPE"]
rows = [500, 100]
include_static_vectors = false

[model.embed.encode]
@architectures = "spacy.MaxoutWindowEncoder.v2"
width = 32
depth = 1
window_size = 1
maxout_pieces = 2
"""

NAMES = [
    "lyon",
    "paris",
    "nice",
    "brest",
    "metz",
    "tours",
    "dijon",
    "rouen",
    "caen",
    "pau",
    "nancy",
    "reims",
    "laval",
    "vichy",
    "arles",
    "sete",
    "agen",
    "albi",
    "auch",
    "gap",
]


def trip_data(names, seed):
    rng = random.Random(seed)
    sources, targets = [], []
    for _ in range(len(names) * 2):
        a, b = rng.sample(names, 2)
        sources.append(f"de {a} a {b}" if rng.random() < 0.5 else f"vers {b} depuis {a}")
        targets.append(f"{a} > {b}")
    return sources, targets


def make_token_nlp():
    nlp = spacy.blank("fr")
    model = Config().from_str(TOKEN_MODEL)["model"]
    nlp.add_pipe("seqkit_rewriter", config={"model": model, "beam_size": 2, "n_best": 2})
    return nlp


def test_rewriter_tokens_words_copy_round_trip():
    """Token source through a spaCy Tok2Vec, word targets, copy: trains, and
    unseen names in the source can be output (extended vocabulary)."""
    nlp = make_token_nlp()
    sources, targets = trip_data(NAMES[:10], 0)
    examples = make_examples(nlp, sources, targets)
    first = train(nlp, examples, 1)
    last = train(nlp, examples, 15, learn_rate=0.02)
    assert last < first
    texts = ["de zanzibar a lyon", ""]
    expected = nbest(nlp, texts)
    assert expected[1] == [("", 0.0)]
    nlp2 = make_token_nlp()
    nlp2.from_bytes(nlp.to_bytes())
    assert nbest(nlp2, texts) == expected


@pytest.mark.slow
def test_rewriter_copy_rewrites_unseen_names():
    nlp = make_token_nlp()
    sources, targets = trip_data(NAMES[:14], 0)
    train(nlp, make_examples(nlp, sources, targets), 150, learn_rate=0.01)
    test_sources, test_targets = trip_data(NAMES[14:], 1)
    docs = list(nlp.pipe(test_sources))
    correct = sum(d._.rewrite == t for d, t in zip(docs, test_targets))
    assert correct / len(docs) >= 0.7


@pytest.fixture(scope="module")
def untrained():
    fix_random_seed(1)
    nlp = make_nlp(beam_size=2, n_best=2, max_length_ratio=1.0)
    words = _words(20, seed=3, alphabet="abcdefghij ")
    nlp.initialize(lambda: make_examples(nlp, words, [w.upper() for w in words]))
    return nlp


def test_rewriter_empty_doc(untrained):
    doc = untrained("")
    assert doc._.rewrite == ""
    assert doc._.rewrite_nbest == [("", 0.0)]


def test_rewriter_long_doc(untrained):
    text = ("abc def ghij " * 200)[:2000]
    doc = untrained(text)
    assert isinstance(doc._.rewrite, str)
    assert len(doc._.rewrite) <= 1.0 * 2000 + 10


def test_rewriter_doc_alone_equals_batch(untrained):
    texts = ["abc", "a much longer text than the others", "ghij"]
    batch = [d._.rewrite_nbest for d in untrained.pipe(texts)]
    for text, hyps in zip(texts, batch):
        alone = untrained(text)._.rewrite_nbest
        assert [h for h, _ in alone] == [h for h, _ in hyps]
        assert [s for _, s in alone] == pytest.approx([s for _, s in hyps], abs=1e-4)


def test_rewriter_batched_beam_equals_naive_on_random_model(untrained):
    from spacy_seqkit.layers.seq2seq import predict_rewrites

    model = untrained.get_pipe("seqkit_rewriter").model
    docs = [untrained.make_doc(t) for t in ["abc", "hij ab", "j", "ab cd ef gh"]]
    kwargs = dict(beam_size=3, n_best=3, length_penalty=0.6, max_length_ratio=1.0, max_length_extra=2)
    batched = predict_rewrites(model, docs, search="beam", **kwargs)
    naive = predict_rewrites(model, docs, search="naive_beam", **kwargs)
    for b, n in zip(batched, naive):
        assert [h for h, _ in b] == [h for h, _ in n]
        assert [s for _, s in b] == pytest.approx([s for _, s in n], abs=1e-4)


def test_rewriter_seeded_initialization_is_deterministic():
    words = _words(10)

    def predictions():
        fix_random_seed(7)
        nlp = make_nlp(beam_size=2, n_best=2)
        nlp.initialize(lambda: make_examples(nlp, words, [w[::-1] for w in words]))
        return nbest(nlp, words)

    assert predictions() == predictions()


def test_rewriter_initialize_needs_gold():
    nlp = make_nlp()
    examples = [Example(nlp.make_doc("abc"), nlp.make_doc("abc"))]
    with pytest.raises(ValueError, match="doc._.rewrite"):
        nlp.initialize(lambda: examples)
    with pytest.raises(TypeError):
        nlp.get_pipe("seqkit_rewriter").initialize(examples)


def test_rewriter_predict_before_initialize_is_clear():
    nlp = make_nlp()
    with pytest.raises(ValueError, match="not initialized"):
        nlp("abc")


@pytest.mark.parametrize(
    "model,settings,name",
    [
        ({"attention": "luong"}, {}, "attention"),
        ({"output_layer": "nce"}, {}, "output_layer"),
        ({"hidden_width": 0}, {}, "hidden_width"),
        ({"dropout": 1.5}, {}, "dropout"),
        ({"output_layer": "negative_sampling", "label_smoothing": 0.1}, {}, "label_smoothing"),
        ({"copy": True, "output_layer": "negative_sampling"}, {}, "copy"),
        ({"copy": True, "output_layer": "sampled"}, {}, "copy"),
        ({"source": "tokens"}, {}, "embed"),
        ({}, {"beam_size": 0}, "beam_size"),
        ({}, {"max_length_ratio": 0}, "max_length_ratio"),
        ({}, {"search": "sampling"}, "search"),
        ({}, {"length_penalty": "wu"}, "length_penalty"),
        ({}, {"length_penalty": -0.5}, "length_penalty"),
        ({}, {"length_alpha": -1.0}, "length_alpha"),
    ],
)
def test_rewriter_bad_config_raises_at_resolution(model, settings, name):
    assert_config_fails_naming({"@architectures": "spacy-seqkit.Seq2SeqRewriter.v1", **model}, name, settings)


TRAIN_CONFIG = """
[paths]
train = null
dev = null

[system]
seed = 0
gpu_allocator = null

[nlp]
lang = "en"
pipeline = ["seqkit_rewriter"]
batch_size = 16

[components]

[components.seqkit_rewriter]
factory = "seqkit_rewriter"
beam_size = 1
n_best = 1

[components.seqkit_rewriter.model]
@architectures = "spacy-seqkit.Seq2SeqRewriter.v1"
embed_width = 16
hidden_width = 16
dropout = 0.0

[components.seqkit_rewriter.model.scheduled_sampling]
@schedules = "compounding.v1"
start = 0.01
stop = 0.2
compound = 1.01

[corpora]

[corpora.train]
@readers = "spacy-seqkit.RewriteCorpus.v1"
path = ${paths.train}

[corpora.dev]
@readers = "spacy-seqkit.RewriteCorpus.v1"
path = ${paths.dev}

[training]
seed = ${system.seed}
max_steps = 12
eval_frequency = 6
dropout = 0.0
patience = 0

[training.batcher]
@batchers = "spacy.batch_by_sequence.v1"
size = 8

[training.optimizer]
@optimizers = "Adam.v1"
learn_rate = 0.01

[initialize]
"""


def test_rewriter_trains_with_spacy_train_from_jsonl(tmp_path):
    """`spacy train` with the reader: no conversion step, a loadable model-best."""
    from spacy.cli.train import train as spacy_train

    words = _words(24)
    records = [{"text": w, "rewrite": w[::-1], "other": 1} for w in words]
    srsly.write_jsonl(tmp_path / "train.jsonl", records)
    srsly.write_jsonl(tmp_path / "dev.jsonl", records[:6] + [{"text": "no gold"}])
    config = Config().from_str(TRAIN_CONFIG, interpolate=False)
    spacy.util.load_model_from_config(config, auto_fill=True).config.to_disk(tmp_path / "config.cfg")
    spacy_train(
        tmp_path / "config.cfg",
        tmp_path / "out",
        overrides={"paths.train": str(tmp_path / "train.jsonl"), "paths.dev": str(tmp_path / "dev.jsonl")},
    )
    meta = srsly.read_json(tmp_path / "out" / "model-best" / "meta.json")
    assert "rewrite_exact" in meta["performance"]
    nlp = spacy.load(tmp_path / "out" / "model-last")
    assert isinstance(nlp("abc")._.rewrite, str)


def test_rewriter_reader_reads_jsonl(tmp_path):
    from spacy_seqkit.readers import create_rewrite_reader

    path = tmp_path / "data.jsonl"
    srsly.write_jsonl(
        path, [{"text": "de Lyon a Paris", "rewrite": "Lyon > Paris"}, {"text": "bonjour", "rewrite": None}]
    )
    nlp = spacy.blank("fr")
    examples = list(create_rewrite_reader(path)(nlp))
    assert [eg.reference._.rewrite for eg in examples] == ["Lyon > Paris", None]
    assert examples[0].predicted._.rewrite is None
    assert examples[0].predicted.text == "de Lyon a Paris"
    assert len(list(create_rewrite_reader(path, limit=1)(nlp))) == 1
    srsly.write_jsonl(path, [{"rewrite": "x"}])
    with pytest.raises(ValueError, match="text"):
        list(create_rewrite_reader(path)(nlp))
    with pytest.raises(ValueError, match="path"):
        create_rewrite_reader(None)


def test_rewriter_gold_from_docbin_user_data(tmp_path):
    """A DocBin saved with user data carries the gold rewrite to training."""
    from spacy.tokens import DocBin

    nlp = make_nlp()
    db = DocBin(store_user_data=True)
    for word in TRAIN_WORDS[:6]:
        doc = nlp.make_doc(word)
        doc._.rewrite = word[::-1]
        db.add(doc)
    db.to_disk(tmp_path / "train.spacy")
    corpus = spacy.training.Corpus(tmp_path / "train.spacy")
    examples = list(corpus(nlp))
    assert [eg.reference._.rewrite for eg in examples] == [w[::-1] for w in TRAIN_WORDS[:6]]
    nlp.initialize(lambda: examples)
    losses = nlp.update(examples)
    assert losses["seqkit_rewriter"] > 0


def test_rewriter_copy_in_other_case():
    """A copied unit may take the other case ("paris" -> "Paris"), and the
    mixed generate / copy / copy-in-other-case distribution sums to 1."""
    from spacy_seqkit.architectures import build_seq2seq_rewriter_v1
    from spacy_seqkit.layers.seq2seq import other_case, torch_module

    assert [other_case(u) for u in ("m", "M", "é", "-", "paris", "PARIS", "Paris")] == [
        "M",
        "m",
        "É",
        "-",
        "Paris",
        "paris",
        "paris",
    ]
    fix_random_seed(0)
    nlp = spacy.blank("fr")
    docs = [nlp.make_doc(t) for t in ("de paris a lyon", "vers lyon depuis paris")]
    model = build_seq2seq_rewriter_v1(copy=True, embed_width=8, hidden_width=16)
    model.initialize(X=docs, Y=["Paris > Lyon", "Paris > Lyon"])
    inputs = torch_module(model).units.encode(docs, None, copy=True)
    target_ids = {u: i for i, u in enumerate(model.attrs["target_vocab"])}
    p_position = docs[0].text.index("p")
    assert inputs.src_alt[0, p_position] == target_ids["P"]
    assert inputs.src_ext[0, p_position] != target_ids["P"]
    module = torch_module(model)
    module.eval()
    with torch.no_grad():
        # Gates forced: every unit copied, always in the other case.
        for gate, bias in ((module.copy.gen_gate, -40.0), (module.copy.case_gate, 40.0)):
            gate.weight.zero_()
            gate.bias.fill_(bias)
        state = module.encode(
            torch.as_tensor(inputs.src),
            None,
            inputs.lengths,
            torch.as_tensor(inputs.src_ext),
            inputs.n_ext,
            torch.as_tensor(inputs.src_alt),
        )
        o, attn, ctx, emb, state = module.step_hidden(torch.ones(2, dtype=torch.long), state)
        probs = module.full_log_probs(o, attn, ctx, emb, state).exp()
    assert torch.allclose(probs.sum(-1), torch.ones(2), atol=1e-5)
    # P(P) is the attention on the source's "p"s; nothing goes to the lowercase "p".
    on_p = torch.tensor([[ch == "p" for ch in doc.text] + [False] * (attn.shape[1] - len(doc.text)) for doc in docs])
    assert torch.allclose(probs[:, target_ids["P"]], (attn * on_p).sum(-1), atol=1e-5)
    if "p" in target_ids:
        assert float(probs[:, target_ids["p"]].max()) < 1e-6


def test_rewriter_length_penalty_number_is_gnmt_alpha(untrained):
    """`length_penalty = 0.6` (configs written before the choice) is GNMT with
    alpha 0.6, the default; "average", "none" and the searches all run."""
    texts = ["abc", "hij ab", "j"]
    pipe = untrained.get_pipe("seqkit_rewriter")
    assert (pipe.search, pipe.length_penalty, pipe.length_alpha) == ("beam", "gnmt", 0.6)
    expected = nbest(untrained, texts)
    model = pipe.model
    nlp = spacy.blank("en")
    for settings in ({"length_penalty": 0.6}, {"length_penalty": "gnmt", "length_alpha": 0.6}):
        nlp.add_pipe(
            "seqkit_rewriter",
            name="other",
            config={"model": {**TINY}, "beam_size": 2, "n_best": 2, "max_length_ratio": 1.0, **settings},
        )
        other = nlp.get_pipe("other")
        other.model = model
        assert [hyps for hyps in other.predict([nlp.make_doc(t) for t in texts])] == expected
        nlp.remove_pipe("other")
    from spacy_seqkit.layers.seq2seq import predict_rewrites

    docs = [untrained.make_doc(t) for t in texts]
    greedy = predict_rewrites(model, docs, search="greedy", length_penalty="average")
    assert greedy == predict_rewrites(model, docs, search="beam", beam_size=1, length_penalty="average")
    assert all(
        len(h) == 1 for h in predict_rewrites(model, docs, search="naive_beam", beam_size=2, length_penalty="none")
    )


def test_rewriter_default_model_settings():
    """The component's model: the architecture's defaults, but label_smoothing 0.1."""
    nlp = spacy.blank("en")
    nlp.add_pipe("seqkit_rewriter")
    model = dict(nlp.config["components"]["seqkit_rewriter"]["model"])
    assert model == {
        "@architectures": "spacy-seqkit.Seq2SeqRewriter.v1",
        "source": "characters",
        "target": "characters",
        "embed": None,
        "copy": False,
        "embed_width": 64,
        "hidden_width": 128,
        "depth": 1,
        "dropout": 0.1,
        "attention": "general",
        "output_layer": "softmax",
        "n_samples": 64,
        "label_smoothing": 0.1,
        "scheduled_sampling": 0.0,
        "min_count": 1,
        "max_vocab": 0,
    }


def test_rewriter_sampled_is_negative_sampling():
    from spacy_seqkit.architectures import build_seq2seq_rewriter_v1
    from spacy_seqkit.layers.output_layers import NegativeSampling
    from spacy_seqkit.layers.seq2seq import torch_module

    words = _words(6)
    for name in ("sampled", "negative_sampling"):
        model = build_seq2seq_rewriter_v1(output_layer=name, embed_width=8, hidden_width=8)
        nlp = spacy.blank("en")
        model.initialize(X=[nlp.make_doc(w) for w in words], Y=words)
        assert isinstance(torch_module(model).output, NegativeSampling)


def test_rewriter_loads_weights_saved_under_the_old_flat_keys():
    """Modules saved before the split by role had flat keys (attn_key, gen_gate,
    encoder.0.0, ...): they load into today's parts."""
    from spacy_seqkit.architectures import build_seq2seq_rewriter_v1
    from spacy_seqkit.layers.seq2seq import torch_module
    from spacy_seqkit.layers.seq2seq.recurrent import upgrade_state_dict_keys

    nlp = spacy.blank("en")
    words = _words(6)

    def module(seed):
        fix_random_seed(seed)
        model = build_seq2seq_rewriter_v1(copy=True, attention="concat", embed_width=8, hidden_width=8)
        model.initialize(X=[nlp.make_doc(w) for w in words], Y=words)
        return torch_module(model)

    trained, fresh = module(0), module(1)
    renamed = {
        "encoder.layers.": "encoder.",
        "encoder.src_embed.": "src_embed.",
        "encoder.memory_proj.": "memory_proj.",
        "attention.key.": "attn_key.",
        "attention.query.": "attn_query.",
        "attention.v.": "attn_v.",
        "copy.gen_gate.": "gen_gate.",
        "copy.case_gate.": "case_gate.",
    }
    old = {}
    for key, value in trained.state_dict().items():
        for new_prefix, old_prefix in renamed.items():
            if key.startswith(new_prefix):
                key = old_prefix + key[len(new_prefix) :]
                break
        old[key] = value
    assert "attn_v.weight" in old and "encoder.0.0.weight_ih_l0" in old
    assert list(upgrade_state_dict_keys(old)) == list(trained.state_dict())
    fresh.load_state_dict(old)
    for (key, a), b in zip(trained.state_dict().items(), fresh.state_dict().values()):
        assert torch.equal(a, b), key
