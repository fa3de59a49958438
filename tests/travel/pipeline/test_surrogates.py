"""`nlp(text)` of the travel pipelines takes lone surrogates (a fuzzed input that
spaCy's own tokenizer rejects with UnicodeEncodeError): the configs' tokenizer
reads them as U+FFFD, and the trip is read as without them."""

from pathlib import Path

import pytest
import spacy
from thinc.api import Config

from spacy_seqkit.tokenizer import SurrogateSafeTokenizer

CONFIGS = sorted((Path(__file__).resolve().parents[3] / "configs").glob("*.cfg"))
PATTERNS = [
    {"label": "DEPART", "pattern": [{"LOWER": "marseille"}]},
    {"label": "ARRIVEE", "pattern": [{"LOWER": "paris"}]},
]


def travel_nlp(config_path):
    """The config's language and tokenizer, with rules for the recognizer."""
    nlp_config = Config().from_disk(config_path, interpolate=False)["nlp"]
    tokenizer = {"nlp": {"tokenizer": nlp_config["tokenizer"]}}
    nlp = spacy.blank(nlp_config["lang"], config=tokenizer)
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    nlp.add_pipe("seqkit_trip")
    return nlp


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_surrogates_every_travel_config_uses_the_safe_tokenizer(path):
    """Lone surrogates read as U+FFFD, and long runs cut (`spacy-seqkit.Tokenizer.v2`)."""
    nlp_config = Config().from_disk(path, interpolate=False)["nlp"]
    assert nlp_config["tokenizer"] == {"@tokenizers": "spacy-seqkit.Tokenizer.v2", "max_run": 100}


@pytest.fixture(scope="module")
def nlp():
    return travel_nlp(Path(CONFIGS[0]).parent / "ner_maxout.cfg")


def test_surrogates_alone_give_an_empty_trip(nlp):
    assert isinstance(nlp.tokenizer, SurrogateSafeTokenizer)
    doc = nlp("\ud83d")
    assert doc.text == "\ufffd"
    assert doc._.trip["is_valid"] is False and doc._.trip["departure"] is None


@pytest.mark.parametrize(
    "text", ["de Marseille à Paris \ud83d", "\ud83dde Marseille à Paris", "de Marseille\udc00 à Paris"]
)
def test_surrogates_do_not_change_the_trip(nlp, text):
    doc = nlp(text)
    assert doc.text == text.replace("\ud83d", "\ufffd").replace("\udc00", "\ufffd")
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("Marseille", "Paris")
    assert doc._.trip["is_valid"]
    assert [d._.trip["arrival"] for d in nlp.pipe([text, "\ud83d"])] == ["Paris", None]
