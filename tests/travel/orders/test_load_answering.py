"""`load_answering`, how `resolve`, `serve` and `evaluate-trips` load a pipeline: its thinc
layers multiply with numpy's matmul instead of BLIS, and it answers as `spacy.load` does."""

import pytest
import spacy
from spacy.training import Example
from thinc.api import NumpyOps, get_current_ops, set_current_ops

from spacy_seqkit.travel.orders.answer import load_answering, prepare_pipeline

TRAIN = [
    ("Je vais de Marseille à Paris", [(11, 20, "DEPART"), (23, 28, "ARRIVEE")]),
    ("Un billet de Lyon à Nantes", [(13, 17, "DEPART"), (20, 26, "ARRIVEE")]),
    ("Depuis Lille vers Rennes demain", [(7, 12, "DEPART"), (18, 24, "ARRIVEE")]),
]
TEXTS = [text for text, _ in TRAIN] + ["Bordeaux Toulouse", "", "Aller de Brest à Quimper puis Vannes"]

# The embedding, its encoder and the recognizer's hidden layer. (spaCy builds the
# recognizer's output layer under thinc's default CPU ops itself, and its parser multiplies
# with it in its own code.)
MATMUL_LAYERS = {"hashembed", "maxout", "precomputable_affine"}


def trained_ner(nlp, folder, **config):
    """`nlp` with a recognizer (`config`: its settings) trained 10 steps on TRAIN, saved in
    `folder`: its path."""
    nlp.add_pipe("ner", config=config)
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": ents}) for t, ents in TRAIN]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    nlp.to_disk(folder / "pipeline")
    return folder / "pipeline"


@pytest.fixture(scope="module")
def ner_dir(tmp_path_factory):
    """A small recognizer (spaCy's default tok2vec and ner: thinc layers), seeded, on disk."""
    spacy.util.fix_random_seed(0)
    return trained_ner(spacy.blank("fr"), tmp_path_factory.mktemp("ner"))


def answers(nlp):
    return [(d._.trip, [(e.start, e.end, e.label_) for e in d.ents]) for d in nlp.pipe(TEXTS)]


def test_layers_use_numpy_matmul_and_answer_as_spacy_load(ner_dir):
    nlp = load_answering(str(ner_dir))
    assert nlp.pipe_names[0] == "ner" and nlp.pipe_names[-1] == "seqkit_trip"
    nodes = list(nlp.get_pipe("ner").model.walk())
    assert all(type(n.ops) is NumpyOps for n in nodes)
    assert {n.name for n in nodes if not n.ops.use_blis} >= MATMUL_LAYERS
    assert get_current_ops().use_blis  # the caller's ops are left as they were
    assert answers(nlp) == answers(prepare_pipeline(spacy.load(ner_dir)))


def test_other_ops_set_by_the_caller_are_kept(ner_dir):
    class CallersOps(NumpyOps):
        name = "callers"

    before = get_current_ops()
    set_current_ops(CallersOps())
    try:
        nlp = load_answering(str(ner_dir))
    finally:
        set_current_ops(before)
    assert {n.name for n in nlp.get_pipe("ner").model.walk() if type(n.ops) is CallersOps} >= MATMUL_LAYERS


@pytest.fixture(scope="module")
def vectors_dir(tmp_path_factory):
    """A small recognizer reading static vectors (as the main job's reads fr_core_news_md's),
    seeded, on disk: its vocab holds the strings of the vectors' words."""
    import numpy

    spacy.util.fix_random_seed(0)
    nlp = spacy.blank("fr")
    words = [t.text for text, _ in TRAIN for t in nlp.make_doc(text)] + [f"mot{i}" for i in range(200)]
    rows = numpy.random.default_rng(0).normal(size=(len(words), 8)).astype("float32")
    for word, row in zip(words, rows):
        nlp.vocab.set_vector(word, row)
    return trained_ner(nlp, tmp_path_factory.mktemp("vectors"), model={"tok2vec": {"pretrained_vectors": True}})


def test_the_vectors_words_are_not_read_and_the_answers_are_the_same(vectors_dir):
    # The vectors are found by the hash of a token's text: their words' strings (730,000 for
    # fr_core_news_md's) are left on disk, a fifth of the pipeline's start.
    nlp = load_answering(str(vectors_dir))
    assert "mot7" not in nlp.vocab.strings
    assert nlp.vocab.vectors.shape[0] >= 200
    full = prepare_pipeline(spacy.load(vectors_dir))
    assert "mot7" in full.vocab.strings
    texts = TEXTS + ["mot7 mot8 de Lyon à Nantes"]
    assert answers(nlp) == answers(full)
    assert [nlp(t).vector.tolist() for t in texts] == [full(t).vector.tolist() for t in texts]


def test_answering_collects_young_objects_less_often_and_gives_the_thresholds_back(ner_dir, monkeypatch):
    import gc

    from spacy_seqkit.travel.orders import answer
    from spacy_seqkit.travel.orders.format import Order

    nlp = load_answering(str(ner_dir))
    orders = [Order(i + 2, str(i), text, None) for i, text in enumerate(TEXTS)]
    before = gc.get_threshold()
    seen = []
    real = answer.answer_orders

    def watched(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(answer, "answer_orders", watched)
    fewer = answer.answer_batch(nlp, orders)
    assert seen and seen[0][0] == max(answer.YOUNG_OBJECTS, before[0]) and seen[0][1:] == before[1:]
    assert gc.get_threshold() == before
    monkeypatch.setattr(answer, "answer_orders", real)
    gc.set_threshold(700, *before[1:])
    try:
        with answer.fewer_collections(young=10**9):  # a caller's setting inside it is kept after it
            gc.set_threshold(800)
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*before)
    assert [a.places for a in fewer] == [a.places for a in answer.answer_batch(nlp, orders)]
