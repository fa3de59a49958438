"""Word2vec with approximate training (spacy_seqkit.vectors) and its CLI."""

import gzip

import numpy
import pytest
from scipy.stats import chisquare
from typer.testing import CliRunner

from spacy_seqkit.cli import app
from spacy_seqkit.layers.approx_softmax import alias_table, noise_distribution
from spacy_seqkit.vectors import (
    Vocabulary,
    Word2VecConfig,
    Word2VecModel,
    Word2VecTrainer,
    read_sentences,
    read_word2vec_text,
    train_vectors,
    write_word2vec_text,
)
from spacy_seqkit.vectors.model import window_step
from spacy_seqkit.vectors.pretrain import pretrain_vectors
from spacy_seqkit.vectors.trainer import context_range, padded_groups, word_blocks

CONFIGS = [("skipgram", "ns"), ("skipgram", "hs"), ("cbow", "ns"), ("cbow", "hs")]
ANIMALS = ["chat", "chien", "cheval", "lapin", "souris", "vache", "mouton", "cochon"]
FRUITS = ["pomme", "poire", "fraise", "cerise", "prune", "pêche", "abricot", "figue"]


def two_group_corpus(n_sentences=1500, seed=0):
    """Each sentence draws its words from one group only, so a word's contexts
    are its own group's words."""
    rng = numpy.random.default_rng(seed)
    sentences = []
    for i in range(n_sentences):
        group = ANIMALS if i % 2 == 0 else FRUITS
        sentences.append([group[j] for j in rng.integers(0, len(group), size=8)])
    return sentences


def toy_config(model, loss, **kwargs):
    defaults = dict(dim=16, window=3, negative=5, min_count=1, sample=0.0, epochs=5, threads=1, seed=0)
    defaults.update(kwargs)
    return Word2VecConfig(model=model, loss=loss, **defaults)


def test_vectors_hs_probabilities_sum_to_one():
    counts = numpy.array([50, 30, 20, 9, 7, 5, 3, 2, 1])
    model = Word2VecModel(counts, dim=6, loss="hs", seed=0)
    gen = numpy.random.default_rng(0)
    import torch

    model.output.copy_(torch.as_tensor(gen.normal(size=model.output.shape), dtype=torch.float32))
    model.input.copy_(torch.as_tensor(gen.normal(size=model.input.shape), dtype=torch.float32))
    for center in range(len(counts)):
        probs = model.log_prob_hs(center).exp()
        assert probs.sum().item() == pytest.approx(1.0, abs=1e-5)
        assert (probs > 0).all()


def test_vectors_huffman_codes_prefix_free_and_frequent_short():
    counts = numpy.array([1000, 400, 300, 120, 80, 40, 20, 10, 5, 3, 2, 1])
    model = Word2VecModel(counts, dim=4, loss="hs")
    lengths = model.rows.lengths.tolist()
    codes = ["".join(str(int(b)) for b in model.rows.codes[i, : lengths[i]].tolist()) for i in range(len(counts))]
    for i, a in enumerate(codes):
        for j, b in enumerate(codes):
            if i != j:
                assert not b.startswith(a), (a, b)
    # counts are decreasing, so lengths never decrease
    assert lengths == sorted(lengths)
    assert lengths[0] < lengths[-1]
    # inner nodes of a V-leaf tree: V - 1 output rows
    assert model.output.shape[0] == len(counts) - 1
    assert model.rows.points.max().item() == len(counts) - 2


def test_vectors_noise_follows_unigram_075():
    import torch

    counts = numpy.array([5000, 2000, 800, 300, 100, 40, 10])
    model = Word2VecModel(counts, dim=4, loss="ns", seed=0)
    gen = torch.Generator().manual_seed(1234)
    draws = model.sample_noise((200_000,), gen).numpy()
    observed = numpy.bincount(draws, minlength=len(counts))
    expected_probs = counts**0.75 / (counts**0.75).sum()
    assert numpy.allclose(model.rows.noise_probs, expected_probs)
    assert chisquare(observed, expected_probs * draws.size).pvalue > 0.001
    # and it is distinguishable from the raw unigram distribution
    unigram = counts / counts.sum()
    assert chisquare(observed, unigram * draws.size).pvalue < 1e-10


def test_vectors_alias_table_is_exact():
    probs = noise_distribution(numpy.array([7, 1, 1, 30, 2, 0, 5]))
    accept, alias = alias_table(probs)
    n = probs.size
    rebuilt = accept.copy()
    for i in range(n):
        rebuilt[alias[i]] += 1.0 - accept[i]
    assert numpy.allclose(rebuilt / n, probs)


@pytest.mark.parametrize("model,loss", CONFIGS)
def test_vectors_loss_decreases_and_groups_are_learned(model, loss):
    sentences = two_group_corpus()
    vocab, vectors, result = train_vectors(sentences, toy_config(model, loss, epochs=6))
    losses = result.epoch_losses
    assert len(losses) == 6
    assert losses[-1] < losses[0]
    unit = vectors / numpy.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit.T
    group = {w: 0 for w in ANIMALS} | {w: 1 for w in FRUITS}
    for word in ANIMALS + FRUITS:
        i = vocab.index[word]
        order = [vocab.words[j] for j in numpy.argsort(-sims[i]) if j != i]
        assert all(group[w] == group[word] for w in order[:5]), (word, order[:5])


def test_vectors_seeded_determinism():
    sentences = two_group_corpus(300)
    _, a, _ = train_vectors(sentences, toy_config("skipgram", "ns", epochs=2))
    _, b, _ = train_vectors(sentences, toy_config("skipgram", "ns", epochs=2))
    _, c, _ = train_vectors(sentences, toy_config("skipgram", "ns", epochs=2, seed=1))
    assert numpy.array_equal(a, b)
    assert not numpy.allclose(a, c)


def test_vectors_vocabulary_order_min_count_and_subsampling():
    sentences = [["a", "b", "a", "c"], ["a", "b", "d"]]
    vocab = Vocabulary.from_sentences(sentences, min_count=2)
    assert vocab.words == ["a", "b"]
    assert vocab.counts.tolist() == [3, 2]
    corpus = vocab.encode(sentences)
    assert corpus.ids.tolist() == [0, 1, 0, 0, 1]
    assert corpus.sentence.tolist() == [0, 0, 0, 1, 1]
    assert numpy.array_equal(vocab.keep_probabilities(0.0), [1.0, 1.0])
    big = Vocabulary(["x", "y"], [1_000_000, 10])
    keep = big.keep_probabilities(1e-3)
    assert keep[0] < 0.1 and keep[1] == 1.0


def gathered_context(ids, sentence, centers, window):
    """The reference for context_range: one gather of every (center, offset)."""
    offsets = numpy.concatenate([numpy.arange(-window, 0), numpy.arange(1, window + 1)])
    pos = centers[:, None] + offsets[None, :]
    inside = (pos >= 0) & (pos < ids.size)
    pos = numpy.where(inside, pos, centers[:, None])
    valid = inside & (sentence[pos] == sentence[centers][:, None])
    return ids[pos], valid


def test_vectors_context_windows_stay_in_sentence():
    ids = numpy.arange(6)
    sentence = numpy.array([0, 0, 0, 1, 1, 1])
    ctx, valid = context_range(ids, sentence, 2, 4, 2)
    # offsets -2, -1, +1, +2
    assert [c for c, v in zip(ctx[0], valid[0]) if v] == [0, 1]
    assert [c for c, v in zip(ctx[1], valid[1]) if v] == [4, 5]


def test_vectors_context_range_equals_a_plain_gather():
    rng = numpy.random.default_rng(0)
    ids = rng.integers(0, 30, size=200)
    sentence = numpy.sort(rng.integers(0, 40, size=200))
    for begin, end, window in ((0, 200, 3), (0, 7, 5), (190, 200, 4), (50, 120, 1), (3, 4, 6)):
        expected = gathered_context(ids, sentence, numpy.arange(begin, end), window)
        got = context_range(ids, sentence, begin, end, window)
        assert numpy.array_equal(got[0], expected[0]) and numpy.array_equal(got[1], expected[1])


def test_vectors_word_blocks_pack_each_word_apart():
    words = numpy.array([3, 1, 3, 3, 0, 1, 3, 3, 3])
    unit_words, members, fill = word_blocks(words, 2)
    assert unit_words.tolist() == [0, 1, 3, 3, 3]
    assert fill.tolist() == [1, 2, 2, 2, 2]
    assert sorted(members[members >= 0].tolist()) == list(range(words.size))
    for word, row, n in zip(unit_words, members, fill):
        assert (row[:n] >= 0).all() and (row[n:] == -1).all()
        assert (words[row[:n]] == word).all()


def test_vectors_padded_groups_are_optimal_contiguous_ranges():
    rng = numpy.random.default_rng(0)
    key = rng.integers(1, 7, size=60)
    weight = rng.integers(1, 4, size=60)

    def cost(groups, overhead):
        return sum(overhead + key[g].max() * weight[g].sum() for g in groups)

    for overhead in (0.0, 10.0, 1e9):
        groups = padded_groups(numpy.arange(60), key, weight, overhead)
        assert sorted(numpy.concatenate(groups).tolist()) == list(range(60))
        # consecutive key ranges, in increasing order
        bounds = [(key[g].min(), key[g].max()) for g in groups]
        assert all(hi < lo for (_, hi), (lo, _) in zip(bounds, bounds[1:]))
        # no split of the distinct keys into consecutive ranges is cheaper
        values = sorted(set(key.tolist()))
        best = float("inf")
        for mask in range(2 ** (len(values) - 1)):
            cuts = [values[i + 1] for i in range(len(values) - 1) if mask >> i & 1]
            edges = [values[0]] + cuts + [values[-1] + 1]
            split = [numpy.flatnonzero((key >= lo) & (key < hi)) for lo, hi in zip(edges, edges[1:])]
            best = min(best, cost(split, overhead))
        assert cost(groups, overhead) == pytest.approx(best)
    assert len(padded_groups(numpy.arange(60), key, weight, 0.0)) == 6
    assert len(padded_groups(numpy.arange(60), key, weight, 1e9)) == 1


@pytest.mark.parametrize("loss", ["ns", "hs"])
def test_vectors_window_step_parts_are_one_step(loss):
    """Splitting a step into parts of different shapes (as the trainer does to
    avoid padding) gives the same update as one padded part."""
    import torch

    counts = numpy.array([90, 60, 40, 30, 20, 12, 8, 5, 3, 2])
    rng = numpy.random.default_rng(0)

    def fresh():
        model = Word2VecModel(counts, dim=8, loss=loss, seed=0)
        model.output.copy_(torch.as_tensor(rng.normal(scale=0.3, size=model.output.shape), dtype=torch.float32))
        return model

    one, split = fresh(), fresh()
    split.output.copy_(one.output)
    targets = torch.as_tensor(rng.integers(0, len(counts), size=12))
    input_ids = torch.as_tensor(rng.integers(0, len(counts), size=(12, 3)))
    n_inputs = numpy.array([3, 1, 2, 3, 3, 1, 2, 2, 1, 1, 2, 2])
    in_mask = torch.as_tensor(numpy.arange(3)[None, :] < n_inputs[:, None], dtype=torch.float32)
    rows, labels, out_mask = one.output_rows(targets, torch.Generator().manual_seed(0), 2)
    inputs = torch.nn.functional.embedding(input_ids, one.input)
    before = one.output.clone()
    grads, loss_one = window_step(one, [(inputs, in_mask, rows, labels, out_mask, input_ids)], 0.5, cap=4)
    parts = []
    for lo, hi, width in ((0, 5, 3), (5, 12, 2)):
        mask = None if (in_mask[lo:hi, :width] == 1).all() else in_mask[lo:hi, :width]
        labels_part = labels if labels.shape[0] == 1 else labels[lo:hi]
        parts.append((inputs[lo:hi, :width], mask, rows[lo:hi], labels_part, out_mask[lo:hi], input_ids[lo:hi, :width]))
    split_grads, loss_split = window_step(split, parts, 0.5, cap=4)
    assert torch.allclose(split.output, one.output, atol=1e-6)
    assert torch.allclose(split_grads[0], grads[0][:5], atol=1e-6)
    assert torch.allclose(split_grads[1], grads[0][5:, :2], atol=1e-6)
    assert float(loss_split) == pytest.approx(float(loss_one), rel=1e-5)
    assert not torch.allclose(one.output, before)


@pytest.mark.parametrize("engine", ["compiled", "torch"])
def test_vectors_window_shrinking_changes_pair_count(engine):
    """Random window shrinking: on average (window + 1) contexts per center in
    a long sentence, as in word2vec, rather than 2 * window."""
    sentences = [["w%d" % (i % 50) for i in range(2000)]]
    config = toy_config("skipgram", "ns", window=4, epochs=1, engine=engine)
    vocab = Vocabulary.from_sentences(sentences, min_count=1)
    result = Word2VecTrainer(vocab, config).train(vocab.encode(sentences))
    assert result.engine == engine
    per_center = result.examples / 2000
    assert 4.7 < per_center < 5.3


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"model": "glove"}, "model"),
        ({"loss": "softmax"}, "loss"),
        ({"dim": 0}, "dim"),
        ({"window": 0}, "window"),
        ({"negative": 0}, "negative"),
        ({"min_count": 0}, "min_count"),
        ({"sample": 1.5}, "sample"),
        ({"epochs": 0}, "epochs"),
        ({"lr": -0.1}, "lr"),
        ({"threads": 0}, "threads"),
        ({"batch_size": 0}, "batch_size"),
        ({"cap": -1}, "cap"),
        ({"engine": "cuda"}, "engine"),
        ({"engine": "compiled", "device": "cuda"}, "engine"),
    ],
)
def test_vectors_bad_config_names_parameter(kwargs, name):
    with pytest.raises(ValueError, match=f"'{name}'"):
        Word2VecConfig(**kwargs)


def test_vectors_text_format_round_trip(tmp_path):
    words = ["Paris", "l'", "à", "Saint-Étienne"]
    vectors = numpy.random.default_rng(0).normal(size=(4, 5)).astype("float32")
    for name in ("v.txt", "v.txt.gz"):
        write_word2vec_text(tmp_path / name, words, vectors)
        words2, vectors2 = read_word2vec_text(tmp_path / name)
        assert words2 == words
        assert numpy.allclose(vectors2, vectors, rtol=1e-5, atol=1e-6)
    with gzip.open(tmp_path / "v.txt.gz", "rt", encoding="utf8") as f:
        assert f.readline() == "4 5\n"
    with pytest.raises(ValueError, match="shape"):
        write_word2vec_text(tmp_path / "bad.txt", words, vectors[:3])


def write_toy_text(path):
    lines = [" ".join(s) + " ." for s in two_group_corpus(400)]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_vectors_cli_writes_vectors_spacy_init_loads(tmp_path):
    import spacy

    text = write_toy_text(tmp_path / "text.txt")
    out = tmp_path / "vectors.txt"
    result = CliRunner().invoke(
        app,
        [
            "pretrain-vectors",
            str(text),
            str(out),
            "--model",
            "cbow",
            "--loss",
            "hs",
            "--dim",
            "12",
            "--window",
            "3",
            "--min-count",
            "2",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--seed",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    words, vectors = read_word2vec_text(out)
    assert vectors.shape == (len(ANIMALS) + len(FRUITS) + 1, 12)
    assert "." in words and "chat" in words
    model_dir = tmp_path / "vectors_model"
    # `spacy init vectors fr OUTPUT DIR`, through spaCy's own typer app
    from spacy.cli import app as spacy_app

    init = CliRunner().invoke(spacy_app, ["init", "vectors", "fr", str(out), str(model_dir)])
    assert init.exit_code == 0, init.output
    nlp = spacy.load(model_dir)
    assert nlp.vocab.vectors.shape == vectors.shape
    for word, row in zip(words, vectors):
        assert numpy.allclose(nlp.vocab[word].vector, row, atol=1e-5)


def test_vectors_read_sentences_tokenises_french(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("\ufeffJe veux aller de Marseille à Paris.\n\n  \nL'hôtel est loin\n", encoding="utf8")
    sentences = read_sentences(path)
    assert sentences[0] == ["Je", "veux", "aller", "de", "Marseille", "à", "Paris", "."]
    assert sentences[1][0] == "L'"
    assert len(sentences) == 2


def test_vectors_empty_file_is_a_clear_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="contains no words"):
        pretrain_vectors(path, tmp_path / "out.txt", Word2VecConfig(min_count=1), progress=False)
    result = CliRunner().invoke(app, ["pretrain-vectors", str(path), str(tmp_path / "out.txt")])
    assert result.exit_code == 2
    assert "contains no words" in " ".join(result.output.split())
    assert not (tmp_path / "out.txt").exists()


def test_vectors_one_word_file_is_a_clear_error(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("bonjour\n", encoding="utf8")
    with pytest.raises(ValueError, match="at least 2"):
        pretrain_vectors(path, tmp_path / "out.txt", Word2VecConfig(min_count=1), progress=False)


def test_vectors_no_context_is_a_clear_error():
    sentences = [["un"], ["deux"], ["un"], ["deux"]]
    vocab = Vocabulary.from_sentences(sentences, min_count=1)
    trainer = Word2VecTrainer(vocab, toy_config("skipgram", "ns"))
    with pytest.raises(ValueError, match="no sentence has two"):
        trainer.train(vocab.encode(sentences))


def test_vectors_non_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("première ligne\nJe vais à Orléans\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"not valid UTF-8: byte 0xe8 at line 1"):
        read_sentences(path)
    result = CliRunner().invoke(app, ["pretrain-vectors", str(path), str(tmp_path / "out.txt")])
    assert result.exit_code == 2
    assert "not valid UTF-8" in " ".join(result.output.split())


def test_vectors_pretrain_reads_jsonl_text_field(tmp_path):
    import json

    path = tmp_path / "train.jsonl"
    rows = [{"text": " ".join(s), "spans": []} for s in two_group_corpus(200)]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf8")
    config = toy_config("cbow", "ns", epochs=1, min_count=1)
    pretrain_vectors(path, tmp_path / "v.txt", config, progress=False)
    words, _ = read_word2vec_text(tmp_path / "v.txt")
    assert sorted(words) == sorted(ANIMALS + FRUITS)
    path.write_text('{"txt": "oops"}\n', encoding="utf8")
    with pytest.raises(ValueError, match='record 1 is not a JSON object with a "text" field'):
        pretrain_vectors(path, tmp_path / "v.txt", config, progress=False)


def test_vectors_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="is not a file"):
        read_sentences(tmp_path / "nope.txt")


@pytest.mark.parametrize("model,loss", CONFIGS)
@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_vectors_compiled_kernel_equals_its_python_code(model, loss):
    """The numba kernel computes what its own Python code computes (the
    xorshift overflow is intended), so the compiled path is the code we read."""
    from spacy_seqkit.vectors.kernel import CompiledJobs, job_bounds, train_job

    sentences = two_group_corpus(40)
    vocab = Vocabulary.from_sentences(sentences, min_count=1)
    corpus = vocab.encode(sentences)
    runs = []
    for python in (False, True):
        trainer = Word2VecTrainer(vocab, toy_config(model, loss, sample=1e-2))
        jobs = CompiledJobs(vocab, trainer.config, trainer.model)
        if python:
            jobs.kernel = train_job
        bounds, _ = job_bounds(corpus.sentence, 10_000)
        loss_sum, examples = jobs._run(corpus.ids, bounds, 0, len(corpus), 12345)
        runs.append((trainer.model.vectors(), trainer.model.output.numpy().copy(), float(loss_sum), int(examples)))
    (in_c, out_c, loss_c, n_c), (in_p, out_p, loss_p, n_p) = runs
    assert n_c == n_p > 0
    assert loss_c == pytest.approx(loss_p, rel=1e-4)
    assert numpy.allclose(in_c, in_p, atol=1e-5) and numpy.allclose(out_c, out_p, atol=1e-5)
    assert not numpy.allclose(out_c, 0)


@pytest.mark.parametrize("model,loss", [("skipgram", "hs"), ("cbow", "ns")])
def test_vectors_compiled_and_torch_engines_agree(model, loss):
    """Both engines learn the same groups, with final losses close to each
    other; the compiled one also with two threads."""
    sentences = two_group_corpus()
    group = {w: 0 for w in ANIMALS} | {w: 1 for w in FRUITS}
    losses = {}
    for engine, threads in (("compiled", 1), ("compiled", 2), ("torch", 1)):
        vocab, vectors, result = train_vectors(sentences, toy_config(model, loss, engine=engine, threads=threads))
        assert result.engine == engine
        unit = vectors / numpy.linalg.norm(vectors, axis=1, keepdims=True)
        for word in ANIMALS + FRUITS:
            i = vocab.index[word]
            order = [vocab.words[j] for j in numpy.argsort(-(unit @ unit[i])) if j != i]
            assert all(group[w] == group[word] for w in order[:5]), (engine, word, order[:5])
        losses[engine, threads] = result.epoch_losses[-1]
    assert losses["compiled", 2] == pytest.approx(losses["compiled", 1], rel=0.05)
    assert losses["torch", 1] == pytest.approx(losses["compiled", 1], rel=0.15)


def test_vectors_jobs_hold_whole_sentences():
    from spacy_seqkit.vectors.kernel import job_bounds

    sentence = numpy.repeat(numpy.arange(50), numpy.random.default_rng(0).integers(1, 40, size=50))
    bounds, cuts = job_bounds(sentence, 100)
    assert bounds[0] == 0 and bounds[-1] == sentence.size and cuts[0] == 0 and cuts[-1] == 50
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        assert hi > lo
        words = bounds[hi] - bounds[lo]
        assert words < 100 + 40  # a job stops at the first sentence end past 100 words
    assert numpy.array_equal(numpy.unique(sentence[bounds[:-1]]), numpy.arange(50))


def test_vectors_threads_change_who_runs_a_job_not_the_job(monkeypatch):
    """With N threads each job gets the same words, learning-rate position
    (words of all jobs before it, as gensim's job producer and word2vec.c's
    shared word count decay it, not a thread's own progress) and random seed
    as with one thread: only the Hogwild interleaving of updates differs."""
    from spacy_seqkit.vectors.kernel import CompiledJobs

    sentences = two_group_corpus(6000)
    vocab = Vocabulary.from_sentences(sentences, min_count=1)
    corpus = vocab.encode(sentences)
    run = CompiledJobs._run
    calls = {}

    def recording(self, ids, bounds, done, total, seed):
        if ids.size:  # not the warm-up call
            calls[self.config.threads].append((done, total, seed, ids.tobytes(), bounds.tobytes()))
        return run(self, ids, bounds, done, total, seed)

    monkeypatch.setattr(CompiledJobs, "_run", recording)
    for threads in (1, 2):
        calls[threads] = []
        Word2VecTrainer(vocab, toy_config("skipgram", "ns", epochs=2, threads=threads)).train(corpus)
    one, two = sorted(calls[1]), sorted(calls[2])
    assert one == two and len(one) > 4  # 48,000 words an epoch: several jobs
    n = len(corpus)
    assert [c[0] for c in one][:2] == [0, 10_000] and one[-1][0] < 2 * n == one[0][1]
    assert len({c[2] for c in one}) == len(one)  # a seed per (epoch, job)


FRENCH_TEXT = (
    "\ufeffJe veux aller de Marseille à Paris.\n"
    "\n"
    "   \n"
    "L'hôtel est loin,  très loin\t(vraiment) !\n"
    "Aujourd'hui, c'est-à-dire le 12/03, départ de Saint-Étienne\u00a0vers l'aéroport.\n"
    "un billet pour Lyon-Part-Dieu https://www.sncf.com/fr?x=1 svp :-) 🚄\n"
    "M. Dupont va à St-Malo etc. puis à Aix-en-Provence.\n"
) * 7


def old_reading(lines, min_count, nlp=None):
    """The reading of pretrain-vectors before read_corpus: token strings, then a Counter."""
    from spacy_seqkit.vectors import tokenize_lines

    sentences = list(tokenize_lines(lines, nlp=nlp))
    vocab = Vocabulary.from_sentences(sentences, min_count=min_count)
    return vocab, vocab.encode(sentences), sum(len(s) for s in sentences)


@pytest.mark.parametrize("min_count", [1, 3, 8])
def test_vectors_read_corpus_equals_tokenising_then_counting(tmp_path, min_count):
    from spacy_seqkit.vectors import read_corpus, read_texts

    path = tmp_path / "t.txt"
    path.write_text(FRENCH_TEXT, encoding="utf8")
    expected_vocab, expected_corpus, expected_words = old_reading(read_texts(path), min_count)
    vocab, corpus, n_words = read_corpus(read_texts(path), min_count=min_count)
    assert vocab.words == expected_vocab.words and len(vocab) >= 5
    assert vocab.counts.tolist() == expected_vocab.counts.tolist()
    assert corpus.ids.tolist() == expected_corpus.ids.tolist()
    assert corpus.sentence.tolist() == expected_corpus.sentence.tolist()
    assert n_words == expected_words


def test_vectors_read_corpus_leaves_a_given_pipeline_as_it_was():
    import spacy

    from spacy_seqkit.vectors import read_corpus

    nlp = spacy.blank("fr")
    cache_size = nlp.tokenizer.max_cache_size
    texts = [line for line in FRENCH_TEXT.splitlines() if line.strip()] + ["Texte\ntout\n\nneuf  ici"]
    vocab, corpus, _ = read_corpus(texts, min_count=1, nlp=nlp)
    expected_vocab, expected_corpus, _ = old_reading(texts, 1, nlp=spacy.blank("fr"))
    assert vocab.words == expected_vocab.words
    assert corpus.sentence.tolist() == expected_corpus.sentence.tolist()
    assert nlp.tokenizer.max_cache_size == cache_size
    # Words new to its vocabulary got their lexical attributes as spaCy gives them.
    assert nlp.vocab["neuf"].norm_ == "neuf" and nlp.vocab["Texte"].is_title


def test_vectors_read_lines_in_blocks_equals_line_by_line(tmp_path, monkeypatch):
    from spacy_seqkit.vectors import vocab as vocab_module

    path = tmp_path / "t.txt"
    path.write_text(FRENCH_TEXT + "dernière ligne sans fin", encoding="utf8")
    expected = [line.strip() for line in FRENCH_TEXT.lstrip("\ufeff").split("\n") if line.strip()]
    expected.append("dernière ligne sans fin")
    for block in (5, 64, 1 << 22):
        monkeypatch.setattr(vocab_module, "READ_BLOCK", block)
        assert list(vocab_module.read_lines(path)) == expected
    # An error in a later block still names its line and byte.
    path.write_bytes(FRENCH_TEXT.encode("utf8") + "à Orléans\n".encode("latin-1"))
    monkeypatch.setattr(vocab_module, "READ_BLOCK", 64)
    n_lines = FRENCH_TEXT.count("\n") + 1
    with pytest.raises(ValueError, match=rf"byte 0xe0 at line {n_lines}, column 1"):
        list(vocab_module.read_lines(path))


def test_vectors_text_format_is_six_significant_digits(tmp_path):
    vectors = numpy.array([[0.0, -0.0, 1e-8], [123456789.0, -0.1234567, 2.5]], dtype="float32")
    path = write_word2vec_text(tmp_path / "v.txt", ["a", "b"], vectors)
    expected = "2 3\n" + "".join(
        word + " " + " ".join(f"{x:.6g}" for x in row) + "\n" for word, row in zip("ab", vectors.tolist())
    )
    assert path.read_text(encoding="utf8") == expected
    assert expected.splitlines()[1] == "a 0 -0 1e-08"


def test_vectors_cli_writes_the_spacy_format(tmp_path):
    import spacy
    from spacy.cli import app as spacy_app

    text = write_toy_text(tmp_path / "text.txt")
    args = ["--dim", "12", "--min-count", "2", "--epochs", "2", "--threads", "1", "--seed", "3"]
    as_spacy = CliRunner().invoke(
        app, ["pretrain-vectors", str(text), str(tmp_path / "pipe"), "--format", "spacy"] + args
    )
    assert as_spacy.exit_code == 0, as_spacy.output
    as_text = CliRunner().invoke(app, ["pretrain-vectors", str(text), str(tmp_path / "v.txt")] + args)
    assert as_text.exit_code == 0, as_text.output
    init = CliRunner().invoke(spacy_app, ["init", "vectors", "fr", str(tmp_path / "v.txt"), str(tmp_path / "init")])
    assert init.exit_code == 0, init.output
    ours, theirs = spacy.load(tmp_path / "pipe"), spacy.load(tmp_path / "init")
    words, vectors = read_word2vec_text(tmp_path / "v.txt")
    assert ours.vocab.vectors.shape == theirs.vocab.vectors.shape == vectors.shape
    assert ours.vocab.vectors.name == theirs.vocab.vectors.name == "fr_pipeline.vectors"
    for word, row in zip(words, vectors):
        # The same vectors as `spacy init vectors` makes of the text (which keeps 6 digits).
        numpy.testing.assert_allclose(ours.vocab[word].vector, row, rtol=1e-5, atol=1e-7)
        numpy.testing.assert_array_equal(theirs.vocab[word].vector, row)
    bad = CliRunner().invoke(app, ["pretrain-vectors", str(text), str(tmp_path / "x"), "--format", "bin"])
    assert bad.exit_code == 2 and "--format" in bad.output
    into_file = CliRunner().invoke(app, ["pretrain-vectors", str(text), str(text), "--format", "spacy"] + args)
    assert into_file.exit_code == 2 and "is a file" in " ".join(into_file.output.split())


NUMBA_CACHE_CHECK = """
import sys, numpy
from spacy_seqkit.vectors import Vocabulary, Word2VecConfig, Word2VecTrainer
from spacy_seqkit.vectors.kernel import compiled
from spacy_seqkit.layers.maxout import compiled_backward, maxout_backward
import torch

vocab = Vocabulary(["a", "b", "c"], [5, 4, 3])
corpus = vocab.encode([["a", "b", "c", "a", "b"]] * 4)
Word2VecTrainer(vocab, Word2VecConfig(dim=4, min_count=1, epochs=1, engine="compiled")).train(corpus)
Z = torch.randn(4, 6)
M = Z.view(4, 2, 3).amax(-1)
maxout_backward(Z, M, torch.ones(4, 2), 3)
for kernel in (compiled(), compiled_backward()):
    print(sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values()))
"""


def test_vectors_compiled_kernels_load_from_the_disk_cache_in_a_second_process(tmp_path):
    """numba's on-disk cache: the first process compiles the word2vec kernel and the maxout
    backward pass, a second one loads both (NUMBA_CACHE_DIR, as for an install whose
    package folder is read-only; numba uses the package's __pycache__ where it can write)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", NUMBA_CACHE_CHECK], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        runs.append([tuple(int(x) for x in line.split()) for line in done.stdout.split("\n") if line])
    assert runs[0] == [(0, 1), (0, 1)]  # compiled, then written to the cache
    assert runs[1] == [(1, 0), (1, 0)]  # loaded, nothing compiled
    assert list((tmp_path / "numba").rglob("*.nbi"))
