"""The pipeline of most tests here: a blank French pipeline with the reading pipes (its place
mentions, the qualifiers, `seqkit_trip`), whose entities each test sets by hand
(`trip_helpers.marked_doc`, read by `trip_helpers.read`). A test file that needs another pipeline
defines its own `nlp`."""

import pytest
import spacy

from spacy_seqkit.travel.pipeline.reading import add_reading


@pytest.fixture(scope="module")
def nlp():
    return add_reading(spacy.blank("fr"))
