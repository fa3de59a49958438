"""spacy-seqkit.Tokenizer.v1: spaCy's tokenizer, for texts with lone surrogates."""

import pickle

import pytest
import spacy
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, load_model_from_config
from thinc.api import Config

from spacy_seqkit.tokenizer import SurrogateSafeTokenizer, replace_surrogates

CONFIG = """
[nlp]
lang = "fr"
pipeline = []

[nlp.tokenizer]
@tokenizers = "spacy-seqkit.Tokenizer.v1"
"""

TEXTS = [
    "Je veux aller de Marseille à Paris.",
    "Paris->Lyon demain, l'après-midi ?",
    "https://www.sncf-connect.com et 3h45",
    "aujourd'hui: Saint-Étienne / Clermont-Ferrand",
    "",
]


@pytest.fixture(scope="module")
def nlp():
    return load_model_from_config(Config().from_str(CONFIG), auto_fill=True, validate=True)


def tokens(doc):
    return [(t.text, t.idx, t.whitespace_) for t in doc]


def test_tokenizer_resolves_from_config(nlp):
    assert type(nlp.tokenizer) is SurrogateSafeTokenizer
    assert nlp.config["nlp"]["tokenizer"]["@tokenizers"] == "spacy-seqkit.Tokenizer.v1"


@pytest.mark.parametrize("text", TEXTS)
def test_tokenizer_tokens_are_spacys(nlp, text):
    """Same rules, exceptions and affixes as spacy.Tokenizer.v1 for the language."""
    assert tokens(nlp(text)) == tokens(spacy.blank("fr")(text))


@pytest.mark.parametrize(
    "text",
    ["\ud83d", "de Marseille à Paris \ud83d", "\udc00\ud83d x", "a\ud83d\ude00b", "\ud83d Lyon"],
)
def test_tokenizer_reads_lone_surrogates_as_replacement_character(nlp, text):
    with pytest.raises(UnicodeEncodeError):  # what spaCy's own tokenizer does
        spacy.blank("fr")(text)
    doc = nlp(text)
    expected = text
    for surrogate in {c for c in text if "\ud800" <= c <= "\udfff"}:
        expected = expected.replace(surrogate, "\ufffd")
    assert doc.text == expected == replace_surrogates(text)
    assert len(doc.text) == len(text)  # character offsets into the text hold
    assert tokens(doc) == tokens(spacy.blank("fr")(expected))


def test_tokenizer_pipe_and_explain_go_through_it(nlp):
    texts = ["de Nantes \ud83d à Rennes", "\ud83d", "Lyon"]
    assert [d.text for d in nlp.pipe(texts, batch_size=2)] == [replace_surrogates(t) for t in texts]
    assert [d.text for d in nlp.tokenizer.pipe(texts)] == [replace_surrogates(t) for t in texts]
    assert nlp.tokenizer.explain("à Lyon \ud83d") == spacy.blank("fr").tokenizer.explain("à Lyon \ufffd")


@pytest.fixture
def nlp_with_arrows(nlp):
    """A pipeline whose tokenizer has a setting of its own (an infix at "->"),
    so that a round trip that dropped it would show."""
    nlp = load_model_from_config(nlp.config, auto_fill=True)
    infixes = list(nlp.Defaults.infixes) + [r"(?<=\w)->(?=\w)"]
    nlp.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    assert [t.text for t in nlp("Paris->Lyon \ud83d")] == ["Paris", "->", "Lyon", "\ufffd"]
    return nlp


def test_tokenizer_round_trips_bytes_disk_pickle(nlp_with_arrows, tmp_path):
    nlp = nlp_with_arrows
    expected = [tokens(nlp(t)) for t in TEXTS + ["Paris->Lyon \ud83d"]]

    def same(other):
        assert type(other.tokenizer) is SurrogateSafeTokenizer
        assert [tokens(other(t)) for t in TEXTS + ["Paris->Lyon \ud83d"]] == expected

    same(load_model_from_config(nlp.config).from_bytes(nlp.to_bytes()))
    nlp.to_disk(tmp_path / "nlp")
    same(spacy.load(tmp_path / "nlp"))
    same(pickle.loads(pickle.dumps(nlp)))
    for tokenizer in (
        pickle.loads(pickle.dumps(nlp.tokenizer)),
        SurrogateSafeTokenizer(nlp.vocab).from_bytes(nlp.tokenizer.to_bytes()),
    ):
        assert type(tokenizer) is SurrogateSafeTokenizer
        assert [tokens(tokenizer(t)) for t in TEXTS + ["Paris->Lyon \ud83d"]] == expected


def test_tokenizer_pipelines_saved_with_spacys_tokenizer_still_load(tmp_path):
    """A pipeline saved with spacy.Tokenizer.v1 loads as it was, or with ours
    in its place (the saved data is the same)."""
    old = spacy.blank("fr")
    old.to_disk(tmp_path / "old")
    loaded = spacy.load(tmp_path / "old")
    assert type(loaded.tokenizer) is Tokenizer
    assert [t.text for t in loaded("de Marseille à Paris")] == ["de", "Marseille", "à", "Paris"]
    ours = {"nlp": {"tokenizer": {"@tokenizers": "spacy-seqkit.Tokenizer.v1"}}}
    switched = spacy.load(tmp_path / "old", config=ours)
    assert type(switched.tokenizer) is SurrogateSafeTokenizer
    assert switched("de Marseille \ud83d").text == "de Marseille \ufffd"


V2 = CONFIG.replace("Tokenizer.v1", "Tokenizer.v2") + "max_run = 100\n"
LONG_RUNS = [
    "😀" * 20_000,
    "a" * 20_000,
    "1" * 20_000,
    "ab😀1" * 5_000,
    "je vais à " + "😀" * 20_000 + " Paris demain",
    "x" * 150 + " y " + "é" * 101 + "\n" + "z" * 100,
]


@pytest.fixture(scope="module")
def nlp_v2():
    return load_model_from_config(Config().from_str(V2), auto_fill=True, validate=True)


@pytest.mark.parametrize("text", TEXTS + ["\ud83d Lyon"])
def test_tokenizer_v2_reads_ordinary_texts_as_v1(nlp, nlp_v2, text):
    assert tokens(nlp_v2(text)) == tokens(nlp(text))


@pytest.mark.parametrize("text", LONG_RUNS, ids=lambda t: f"{len(t)} chars")
def test_tokenizer_v2_cuts_long_runs_in_linear_time(nlp_v2, text):
    """A 20,000-character word took spaCy's tokenizer 20 s (its affix search is quadratic in a
    word's length); cut into pieces of `max_run` characters, it is read at once."""
    import time

    start = time.perf_counter()
    doc = nlp_v2(text)
    assert time.perf_counter() - start < 1.0
    assert doc.text == text and all(len(t) <= 100 for t in doc)
    assert all(text[t.idx : t.idx + len(t)] == t.text for t in doc)


def test_tokenizer_v2_keeps_max_run_through_pickle_and_disk(nlp_v2, tmp_path):
    text = "de Lyon à " + "a" * 250
    copy = pickle.loads(pickle.dumps(nlp_v2))
    nlp_v2.to_disk(tmp_path / "p")
    for other in (copy, spacy.load(tmp_path / "p")):
        assert type(other.tokenizer).__name__ == "LongRunSafeTokenizer" and other.tokenizer.max_run == 100
        assert tokens(other(text)) == tokens(nlp_v2(text))


def test_tokenizer_v2_bad_max_run_fails_naming_it():
    with pytest.raises(ValueError, match="max_run must be a positive integer"):
        load_model_from_config(Config().from_str(V2.replace("max_run = 100", "max_run = 0")), auto_fill=True)
