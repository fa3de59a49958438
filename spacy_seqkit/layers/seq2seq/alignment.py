"""What a rewriter attends to while it writes a rewrite, as matrices with the
target units on one axis and the source units on the other (the figures of
the Bahdanau and Transformer papers): the recurrent rewriter's alignment (its
decoder attention at every step), the Transformer's cross-attention per layer
and head. The rewrite is fed as the gold target (teacher forcing), so any
rewrite can be drawn, the model's own or another."""

from typing import Any, List, NamedTuple

import numpy
import torch
from thinc.api import Model

from .predict import start_search
from .transformer import TransformerModule
from .units import EOS, SPECIALS


class AttentionMap(NamedTuple):
    title: str
    weights: numpy.ndarray  # (len(rows), len(columns)), each row sums to 1
    rows: List[str]  # the units written (target, then the end marker)
    columns: List[str]  # the units read (source, then the end marker)


def rewrite_attention(model: Model, doc: Any, rewrite: str) -> List[AttentionMap]:
    """The attention maps of `model` writing `rewrite` for `doc` ([] for a doc
    without source units)."""
    module = start_search(model, [doc]).module
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            start = start_search(model, [doc])
            if not start.todo:
                return []
            units = module.units
            target_ids = units.encode([doc], [rewrite], model.attrs["config"].copy).tgt
            tgt = torch.as_tensor(target_ids, device=start.state["mask"].device)
            if isinstance(module, TransformerModule):
                layers = module.teacher_forcing(tgt, start.state, weights="all").weights
                matrices = [
                    (f"layer {i + 1}, head {h + 1}", w[0, h]) for i, w in enumerate(layers) for h in range(w.shape[1])
                ]
            else:
                steps = module.teacher_forcing(tgt, start.state, 0.0)
                matrices = [("alignment", torch.stack([s[1][0] for s in steps]))]
    finally:
        module.train(was_training)
    end = SPECIALS[EOS]
    rows = units.target_units(rewrite) + [end]
    columns = units.source_units(doc) + [end]
    return [AttentionMap(title, m.cpu().numpy(), rows, columns) for title, m in matrices]
