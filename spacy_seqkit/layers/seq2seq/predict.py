"""Prediction: n-best rewrites of docs with a search and a length penalty from
the tables of `decoding.py`, the same for every rewriter module."""

from typing import Any, Callable, Dict, List, NamedTuple, Sequence, Tuple, Union

import torch
from thinc.api import Model

from ...util import check_choice, check_positive_int
from ..convert import torch_device
from ..decoding import SEARCHES, build_length_penalty
from .model import as_tensor, source_tensors, torch_module
from .transformer import TransformerModule
from .units import BOS, EOS

Rewrites = List[List[Tuple[str, float]]]


class SearchStart(NamedTuple):
    """What a search starts from: the module, its step function, the encoded
    state of the docs that have source units (`todo`, their indices), and
    their unit ids (for the copied units' names)."""

    module: Any
    step: Callable
    state: Dict
    todo: List[int]
    ids: Any


def start_search(model: Model, docs: Sequence[Any], use_cache: bool = True) -> SearchStart:
    """Encode the docs that have source units (call in eval mode, no_grad).
    `use_cache` = False makes a Transformer recompute the whole prefix at every
    step (the reference for its key/value cache); a recurrent rewriter has no
    other way than its state."""
    module = torch_module(model)
    step = module.decode_step
    if not use_cache:
        if not isinstance(module, TransformerModule):
            raise ValueError("'use_cache' = False is for the Transformer rewriter: a recurrent one has no cache")
        step = module.decode_step_uncached
    todo = [i for i, d in enumerate(docs) if module.units.source_units(d)]
    if not todo:
        return SearchStart(module, step, {}, [], None)
    sub = [docs[i] for i in todo]
    ids = module.units.encode(sub, None, model.attrs["config"].copy)
    src = model.get_ref("embed").predict(sub) if model.has_ref("embed") else ids.src
    device = torch_device(model.get_ref("seq2seq"))
    src, index = source_tensors(model.ops, src, ids.lengths, model.attrs["source_width"] or 0, device, False)
    state = module.encode(
        src, index, ids.lengths, as_tensor(ids.src_ext, device), ids.n_ext, as_tensor(ids.src_alt, device)
    )
    return SearchStart(module, step, state, todo, ids)


def max_target_lengths(start: SearchStart, ratio: float, extra: int) -> List[int]:
    """At most `ratio` × source length + `extra` units, within what the
    module's positions cover."""
    limit = getattr(start.module, "max_target_length", None)
    lengths = [int(ratio * (n - 1)) + extra for n in start.ids.lengths]
    return lengths if limit is None else [min(n, limit) for n in lengths]


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
    use_cache: bool = True,
) -> Rewrites:
    """n-best rewrites (string, score) of every doc, best first. A doc without
    source units rewrites to "" with score 0. `search` names one of SEARCHES
    ("beam": batched beam search, greedy for a beam of 1; "naive_beam": the
    reference beam search; "greedy"); `length_penalty` one of LENGTH_PENALTIES,
    with `length_alpha`, or is GNMT's alpha as a number. Outputs are at most
    `max_length_ratio` × source length + `max_length_extra` units. `use_cache`:
    see `start_search`."""
    run_search = SEARCHES[check_choice("search", search, SEARCHES)]
    check_positive_int("beam_size", beam_size)
    penalty = build_length_penalty(length_penalty, length_alpha)
    module = torch_module(model)
    results: Rewrites = [[("", 0.0)] for _ in docs]
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            start = start_search(model, docs, use_cache)
            if not start.todo:
                return results
            found = run_search(
                start.step,
                module.reorder,
                start.state,
                max_target_lengths(start, max_length_ratio, max_length_extra),
                bos=BOS,
                eos=EOS,
                beam_size=beam_size,
                n_best=min(n_best, beam_size),
                length_penalty=penalty,
            )
    finally:
        module.train(was_training)
    for i, hyps, oov in zip(start.todo, found, start.ids.oovs):
        results[i] = [(module.units.decode(h, oov), float(score)) for h, score in hyps]
    return results
