"""Helpers shared by the rewriter tests (recurrent and Transformer)."""

import pytest
import spacy
from thinc.api import Config, fix_random_seed

ONE_REWRITER = """
[nlp]
lang = "en"
pipeline = ["seqkit_rewriter"]

[components]

[components.seqkit_rewriter]
factory = "seqkit_rewriter"
"""


def assert_config_fails_naming(model, name, settings=None):
    """A pipeline of one seqkit_rewriter with `model` (and component `settings`)
    fails when its config is resolved, with a ValueError naming `name`."""
    config = Config().from_str(ONE_REWRITER)
    config["components"]["seqkit_rewriter"].update(settings or {})
    config["components"]["seqkit_rewriter"]["model"] = model
    with pytest.raises(ValueError, match=name):
        spacy.util.load_model_from_config(config, auto_fill=True, validate=True)


def train(nlp, examples, n_steps, learn_rate=0.01, seed=0):
    """Initialize `nlp` on `examples` and update it `n_steps` times on all of
    them; the last loss of its seqkit_rewriter."""
    fix_random_seed(seed)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = learn_rate
    losses = {}
    for _ in range(n_steps):
        losses = nlp.update(examples, sgd=optimizer)
    return losses["seqkit_rewriter"]


def nbest(nlp, texts):
    return [doc._.rewrite_nbest for doc in nlp.pipe(texts)]
