"""`spacy-seqkit.WeightedCorpus.v1`: spaCy's binary corpus with some files read more than once
per pass, made once per training."""

import pytest
import spacy
from spacy.cli.train import train as spacy_train
from spacy.tokens import DocBin, Span
from test_maxout_window import NLP_CONFIG  # tests/lib/test_maxout_window.py: a small tok2vec + ner
from thinc.api import Config

from spacy_seqkit.readers import create_weighted_corpus

GENERATED = ["de Lyon à Paris", "un train pour Nantes", "Brest Quimper demain", "de Metz à Nancy"]
WRITTEN = ["je pars de Dijon vers Beaune", "Tours Blois svp"]


def _write(path, texts):
    nlp = spacy.blank("fr")
    bin = DocBin()
    for text in texts:
        doc = nlp(text)
        place = next(i for i, token in enumerate(doc) if token.text[0].isupper())
        doc.ents = [Span(doc, place, place + 1, label="DEPART")]
        bin.add(doc)
    bin.to_disk(path)


@pytest.fixture
def corpus(tmp_path):
    (tmp_path / "corpus").mkdir()
    _write(tmp_path / "corpus" / "generated.spacy", GENERATED)
    _write(tmp_path / "corpus" / "written.spacy", WRITTEN)
    return tmp_path / "corpus"


def test_a_weighted_file_is_read_so_many_times_per_pass(corpus):
    nlp = spacy.blank("fr")
    examples = create_weighted_corpus(corpus, weights={"written": 3})(nlp)
    texts = [eg.reference.text for eg in examples]
    assert sorted(texts) == sorted(GENERATED + WRITTEN * 3)
    copies = [eg for eg in examples if eg.reference.text == WRITTEN[0]]
    assert len({id(eg) for eg in copies}) == 3
    assert {tuple((e.text, e.label_) for e in eg.reference.ents) for eg in copies} == {(("Dijon", "DEPART"),)}
    assert [eg.reference.text for eg in create_weighted_corpus(corpus)(nlp)] == GENERATED + WRITTEN


def test_the_files_are_read_once_and_each_call_gets_its_own_list(corpus):
    nlp = spacy.blank("fr")
    reader = create_weighted_corpus(corpus, weights={"written": 2})
    first = reader(nlp)
    for file in corpus.glob("*.spacy"):
        file.unlink()
    second = reader(nlp)
    assert second is not first and [id(eg) for eg in second] == [id(eg) for eg in first]
    second.clear()
    assert len(reader(nlp)) == len(GENERATED) + 2 * len(WRITTEN)
    with pytest.raises(ValueError, match="no .spacy file"):
        reader(spacy.blank("fr"))
    with pytest.raises(ValueError, match="no file or folder"):
        create_weighted_corpus(corpus / "missing")(nlp)


def test_limit_and_max_length_apply_to_each_file(corpus):
    nlp = spacy.blank("fr")
    assert len(create_weighted_corpus(corpus, weights={"written": 2}, limit=1)(nlp)) == 3
    short = ["Brest Quimper demain", "Tours Blois svp"]
    assert [eg.reference.text for eg in create_weighted_corpus(corpus, max_length=4)(nlp)] == short


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"path": None}, "'path'"),
        ({"weights": {"written": 0}}, "weights.written"),
        ({"weights": {"written": 1.5}}, "weights.written"),
        ({"weights": ["written"]}, "'weights'"),
        ({"limit": -1}, "limit"),
        ({"max_length": "long"}, "max_length"),
    ],
)
def test_bad_settings_fail_early_naming_the_setting(corpus, settings, message):
    with pytest.raises(ValueError, match=message):
        create_weighted_corpus(**{"path": corpus, **settings})


def test_weights_naming_no_file_warn_naming_it_and_read_every_file_once(corpus):
    """A config's weights on a corpus without that part (a single file of one's own) train on it."""
    with pytest.warns(UserWarning, match=r"\['writen'\]"):
        examples = create_weighted_corpus(corpus, weights={"writen": 2})(spacy.blank("fr"))
    assert len(examples) == len(GENERATED) + len(WRITTEN)
    with pytest.warns(UserWarning, match=r"\['written'\]"):
        assert len(create_weighted_corpus(corpus / "generated.spacy", weights={"written": 2})(spacy.blank("fr"))) == 4


TRAIN_CONFIG = (
    NLP_CONFIG
    + """
[paths]
train = null
dev = null

[system]
seed = 0

[corpora]

[corpora.train]
@readers = "spacy.Corpus.v1"
path = ${paths.train}

[corpora.dev]
@readers = "spacy.Corpus.v1"
path = ${paths.dev}

[training]
seed = ${system.seed}
max_steps = 8
eval_frequency = 4
patience = 0

[training.batcher]
@batchers = "spacy.batch_by_sequence.v1"
size = 2

[initialize]
"""
)


def _train(tmp_path, corpus, name, reader):
    config = Config().from_str(TRAIN_CONFIG, interpolate=False)
    config["corpora"]["train"] = reader
    spacy.util.load_model_from_config(config, auto_fill=True).config.to_disk(tmp_path / f"{name}.cfg")
    overrides = {"paths.train": str(corpus), "paths.dev": str(corpus / "generated.spacy")}
    spacy_train(tmp_path / f"{name}.cfg", tmp_path / name, overrides=overrides)
    return spacy.load(tmp_path / name / "model-last")


def test_spacy_train_learns_the_same_weights_as_with_spacys_reader_and_copied_files(tmp_path, corpus):
    """Unweighted, the reader trains the model spaCy's own reader does, byte for byte; weighted,
    the model spaCy's reader trains on a folder holding the file that many times."""
    spacys_reader = {"@readers": "spacy.Corpus.v1", "path": "${paths.train}"}
    ours = _train(tmp_path, corpus, "ours", {"@readers": "spacy-seqkit.WeightedCorpus.v1", "path": "${paths.train}"})
    unweighted = _train(tmp_path, corpus, "spacys", spacys_reader).get_pipe("ner").to_bytes()
    assert ours.get_pipe("ner").to_bytes() == unweighted

    copied = tmp_path / "copied"
    copied.mkdir()
    _write(copied / "generated.spacy", GENERATED)
    _write(copied / "written.spacy", WRITTEN)
    _write(copied / "written_again.spacy", WRITTEN)
    weighted = {"@readers": "spacy-seqkit.WeightedCorpus.v1", "path": "${paths.train}", "weights": {"written": 2}}
    ours = _train(tmp_path, corpus, "weighted", weighted)
    spacys = _train(tmp_path, copied, "copied", spacys_reader)
    assert ours.get_pipe("ner").to_bytes() == spacys.get_pipe("ner").to_bytes() != unweighted
