"""Fixtures of the resolver and service tests: a small rule-based travel
pipeline saved to disk (loadable by other processes), and a live service."""

import pytest
import spacy

from spacy_seqkit.travel.orders.answer import prepare_pipeline

from service_helpers import live_server

PATTERNS = [
    {"label": "DEPART", "pattern": [{"LOWER": {"IN": ["marseille", "marseile", "toulouse"]}}]},
    {"label": "ARRIVEE", "pattern": [{"LOWER": {"IN": ["paris", "lyon"]}}]},
    {"label": "VIA", "pattern": [{"LOWER": "dijon"}]},
]


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory):
    """entity_ruler (Marseille, Toulouse depart; Paris, Lyon arrive; Dijon is a
    stop) + seqkit_trip, on disk."""
    nlp = spacy.blank("fr")
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    nlp.add_pipe("seqkit_trip")
    path = tmp_path_factory.mktemp("model") / "pipeline"
    nlp.to_disk(path)
    return path


@pytest.fixture(scope="session")
def nlp(model_dir):
    return prepare_pipeline(spacy.load(model_dir))


@pytest.fixture(scope="session")
def service_url(nlp):
    """The service on the rule-based pipeline, with small limits for the tests:
    100,000-byte bodies, 50 orders a request."""
    pytest.importorskip("fastapi", reason="the service needs FastAPI: pip install '.[serve]'")
    from spacy_seqkit.travel.orders.service import create_app

    with live_server(create_app(nlp, max_body_bytes=100_000, max_orders=50)) as url:
        yield url
