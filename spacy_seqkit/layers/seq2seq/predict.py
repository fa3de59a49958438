"""Prediction: n-best rewrites of docs with a search and a length penalty from
the tables of `decoding.py`."""
from typing import Any, List, Sequence, Tuple, Union

import torch
from thinc.api import Model

from ...util import check_choice, check_positive_int
from ..decoding import SEARCHES, build_length_penalty
from .model import as_tensor, source_tensors, torch_module
from .units import BOS, EOS

Rewrites = List[List[Tuple[str, float]]]


def predict_rewrites(
    model: Model,
    docs: Sequence[Any],
    *,
    search: str = "beam",
    beam_size: int = 5,
    n_best: int = 1,
    length_penalty: Union[str, float] = "none",
    length_alpha: float = 0.0,
    max_length_ratio: float = 2.0,
    max_length_extra: int = 10,
) -> Rewrites:
    """n-best rewrites (string, score) of every doc, best first. A doc without
    source units rewrites to "" with score 0. `search` names one of SEARCHES
    ("beam": batched beam search, greedy for a beam of 1; "naive_beam": the
    reference beam search; "greedy"); `length_penalty` one of LENGTH_PENALTIES,
    with `length_alpha`, or is GNMT's alpha as a number. Outputs are at most
    `max_length_ratio` × source length + `max_length_extra` units."""
    run_search = SEARCHES[check_choice("search", search, SEARCHES)]
    check_positive_int("beam_size", beam_size)
    penalty = build_length_penalty(length_penalty, length_alpha)
    module = torch_module(model)
    results: Rewrites = [[("", 0.0)] for _ in docs]
    todo = [i for i, d in enumerate(docs) if module.units.source_units(d)]
    if not todo:
        return results
    sub = [docs[i] for i in todo]
    ids = module.units.encode(sub, None, model.attrs["config"].copy)
    src = model.get_ref("embed").predict(sub) if model.has_ref("embed") else ids.src
    device = model.get_ref("seq2seq").shims[0].device
    src, index = source_tensors(model.ops, src, ids.lengths, model.attrs["source_width"] or 0, device, False)
    max_lengths = [int(max_length_ratio * (n - 1)) + max_length_extra for n in ids.lengths]
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            state = module.encode(
                src, index, ids.lengths, as_tensor(ids.src_ext, device), ids.n_ext, as_tensor(ids.src_alt, device)
            )
            found = run_search(
                module.decode_step, module.reorder, state, max_lengths, bos=BOS, eos=EOS,
                beam_size=beam_size, n_best=min(n_best, beam_size), length_penalty=penalty,
            )
    finally:
        module.train(was_training)
    for i, hyps, oov in zip(todo, found, ids.oovs):
        results[i] = [(module.units.decode(h, oov), float(score)) for h, score in hyps]
    return results
