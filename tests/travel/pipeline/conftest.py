"""The pipeline of most tests here: a blank French pipeline with `seqkit_trip` alone, whose
entities each test sets by hand (`trip_helpers.marked_doc`). A test file that needs another
pipeline defines its own `nlp`."""

import pytest
import spacy


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_trip")
    return nlp
