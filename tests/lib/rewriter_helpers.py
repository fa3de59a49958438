"""Helpers shared by the rewriter tests (recurrent and Transformer)."""
from thinc.api import fix_random_seed


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
