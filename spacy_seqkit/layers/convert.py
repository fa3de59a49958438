"""The one place where lists of thinc arrays become torch tensors and back.

Encoders work on all docs of a batch at once. Converting doc by doc costs a
Python round trip per doc, so every helper here concatenates first and moves
one contiguous array across (zero-copy on CPU, DLPack on GPU).
"""

import functools
from typing import Any, Callable, Dict, List, Sequence, Tuple, Union, cast

import numpy
import torch
from thinc.api import ArgsKwargs, Model, Ops, PyTorchShim, PyTorchWrapper_v2
from thinc.types import ArrayXd, Floats2d, Ints1d
from thinc.util import torch2xp, xp2torch

# ((n_docs, bucket_len), ...): the shapes of `bucketed_index`'s buckets.
Buckets = Tuple[Tuple[int, int], ...]
# A layout: token lengths -> (row of every token, what else the module needs to
# rebuild the layout: tokens and rows (window_layout), max length (padded_index) or bucket
# shapes (bucketed_index)).
Layout = Callable[[Sequence[int]], Tuple[numpy.ndarray, Union[int, Tuple[int, int], Buckets]]]


def torch_device(model: Model) -> torch.device:
    """The device of a PyTorchWrapper's module."""
    return cast(PyTorchShim, model.shims[0]).device


def unflatten(ops: Ops, X: ArrayXd, lengths: List[int]) -> List[Floats2d]:
    """`ops.unflatten` with the lengths as a list."""
    # thinc reads any sequence of lengths (to_numpy); its stubs want Ints1d.
    return ops.unflatten(X, lengths)  # type: ignore[call-overload]


def doc_lengths(Xs: Sequence[Floats2d]) -> List[int]:
    return [int(X.shape[0]) for X in Xs]


def gapped_index(lengths: Sequence[int], gap: int) -> Tuple[numpy.ndarray, int]:
    """Row of every token when docs are laid end to end with `gap` zero rows
    between neighbours. Returns (index, n_rows)."""
    lengths_arr = numpy.asarray(lengths, dtype="int64")
    total = int(lengths_arr.sum())
    doc_ids = numpy.repeat(numpy.arange(len(lengths_arr), dtype="int64"), lengths_arr)
    # Empty docs take no rows, but still add a gap: harmless and keeps this simple.
    index = numpy.arange(total, dtype="int64") + gap * doc_ids
    n_rows = total + gap * max(len(lengths_arr) - 1, 0)
    return index, n_rows


def token_positions(lengths: Sequence[int]) -> Tuple[numpy.ndarray, int]:
    """Each token's position in its doc and how many tokens of its doc follow it,
    as a (2, n_tokens) array, docs end to end. Returns (positions, n_tokens)."""
    lengths_arr = numpy.asarray(lengths, dtype="int64")
    total = int(lengths_arr.sum())
    starts = numpy.cumsum(lengths_arr) - lengths_arr
    before = numpy.arange(total, dtype="int64") - numpy.repeat(starts, lengths_arr)
    after = numpy.repeat(lengths_arr, lengths_arr) - 1 - before
    return numpy.stack([before, after]), total


def padded_index(lengths: Sequence[int]) -> Tuple[numpy.ndarray, int]:
    """Flat position of every token in a (n_docs, max_len) padded batch.
    Returns (index, max_len)."""
    lengths_arr = numpy.asarray(lengths, dtype="int64")
    max_len = int(lengths_arr.max()) if len(lengths_arr) else 0
    doc_ids = numpy.repeat(numpy.arange(len(lengths_arr), dtype="int64"), lengths_arr)
    starts = numpy.cumsum(lengths_arr) - lengths_arr
    positions = numpy.arange(int(lengths_arr.sum()), dtype="int64") - numpy.repeat(starts, lengths_arr)
    return doc_ids * max_len + positions, max_len


def bucketed_index(lengths: Sequence[int]) -> Tuple[numpy.ndarray, Buckets]:
    """Like `padded_index`, but docs are grouped into buckets of similar length
    (lengths in (2^(k-1), 2^k]), each padded only to its own longest doc, so one
    long doc does not pad every short one to its length. Buckets are laid out
    one after another, longest first; empty docs take no rows.
    Returns (index, ((n_docs, bucket_len), ...))."""
    lengths_arr = numpy.asarray(lengths, dtype="int64")
    total = int(lengths_arr.sum())
    if total == 0:
        return numpy.zeros((0,), dtype="int64"), ()
    nonempty = numpy.flatnonzero(lengths_arr)
    keys = numpy.ceil(numpy.log2(lengths_arr[nonempty])).astype("int64")
    order = nonempty[numpy.argsort(-keys, kind="stable")]
    sorted_keys = numpy.ceil(numpy.log2(lengths_arr[order])).astype("int64")
    _, first, counts = numpy.unique(-sorted_keys, return_index=True, return_counts=True)
    bucket_lens = numpy.maximum.reduceat(lengths_arr[order], first)
    offsets = numpy.cumsum(counts * bucket_lens) - counts * bucket_lens
    # Per doc (in input order): its bucket's offset and length, and its slot in the bucket.
    bucket_of = numpy.repeat(numpy.arange(len(counts)), counts)
    slot = numpy.arange(len(order)) - numpy.repeat(first, counts)
    doc_start = numpy.zeros(len(lengths_arr), dtype="int64")
    doc_len = numpy.zeros(len(lengths_arr), dtype="int64")
    doc_start[order] = offsets[bucket_of] + slot * bucket_lens[bucket_of]
    doc_len[order] = bucket_lens[bucket_of]
    starts = numpy.cumsum(lengths_arr) - lengths_arr
    positions = numpy.arange(total, dtype="int64") - numpy.repeat(starts, lengths_arr)
    index = numpy.repeat(doc_start, lengths_arr) + positions
    buckets = tuple((int(n), int(size)) for n, size in zip(counts, bucket_lens))
    return index, buckets


def list2tensor_inputs(layout: Layout) -> Callable:
    """Input converter for PyTorchWrapper_v2: a list of (n_i, width) arrays
    becomes ArgsKwargs(tokens, index, size) where `tokens` is all docs
    concatenated, `index` places each token in the module's layout and `size`
    is what `layout` returned beside it (rows, max length, or bucket shapes).

    `layout` must be picklable (a module-level function or a partial of one)
    so that pipelines pickle."""
    return functools.partial(_convert_list_inputs, layout)


def _convert_list_inputs(layout: Layout, model: Model, Xs: List[Floats2d], is_train: bool):
    device = torch_device(model)
    lengths = doc_lengths(Xs)
    index, size = layout(lengths)
    tokens = xp2torch(model.ops.flatten(Xs), requires_grad=is_train, device=device)
    index_t = xp2torch(cast(Ints1d, index), device=device)
    args = ArgsKwargs(args=(tokens, index_t, size), kwargs={})

    def reverse(dX: ArgsKwargs) -> List[Floats2d]:
        return unflatten(model.ops, torch2xp(dX.args[0], ops=model.ops), lengths)

    return args, reverse


def tensor2list_outputs(model: Model, X_Ytorch, is_train: bool):
    """Output converter for PyTorchWrapper_v2: the module returns one
    (n_tokens, width) tensor in input order; split it back into docs."""
    Xs, Ytorch = X_Ytorch
    lengths = doc_lengths(Xs)
    Ys = unflatten(model.ops, torch2xp(Ytorch, ops=model.ops), lengths)

    def get_dYtorch(dYs: List[Floats2d]) -> ArgsKwargs:
        dY = xp2torch(model.ops.flatten(dYs), device=Ytorch.device)
        return ArgsKwargs(args=(Ytorch,), kwargs={"grad_tensors": (dY,)})

    return Ys, get_dYtorch


def check_widths(model: Model, Xs: Sequence[Floats2d], name: str) -> None:
    """A clear error, naming the setting to change, when inputs are not
    (n_tokens, nI) arrays, instead of a shape error from deep inside torch."""
    width = model.get_dim("nI")
    for X in Xs:
        if X.ndim != 2 or X.shape[1] != width:
            raise ValueError(
                f"{name} expects arrays of shape (n_tokens, {width}), got "
                f"{tuple(X.shape)}: the encoder's 'width' must equal the embedding width"
            )


def with_empty_guard(model: Model, Xs: List[Floats2d], is_train: bool, width: int):
    """Docs with no tokens at all need no torch call: zeros out, zeros back."""
    Ys = [model.ops.alloc2f(X.shape[0], width) for X in Xs]

    def backprop(dYs: List[Floats2d]) -> List[Floats2d]:
        return [model.ops.alloc2f(*X.shape) for X in Xs]

    return Ys, backprop


def ListEncoder(
    name: str,
    module: Any,
    layout: Layout,
    width: int,
    check: Callable[[Model, List[Floats2d]], None],
    attrs: Dict[str, Any],
) -> Model[List[Floats2d], List[Floats2d]]:
    """A thinc Model over lists of (n_tokens, width) arrays around a torch
    `module` that encodes every token of the batch at once, in `layout`.
    `check(model, Xs)` raises a clear error on bad inputs (both picklable:
    module-level functions or partials of them); docs with no tokens at all
    need no torch call."""
    torch_layer = PyTorchWrapper_v2(
        module, convert_inputs=list2tensor_inputs(layout), convert_outputs=tensor2list_outputs
    )
    return Model(
        name,
        functools.partial(_list_encoder_forward, check),
        init=functools.partial(_list_encoder_init, check),
        layers=[torch_layer],
        dims={"nI": width, "nO": width},
        attrs=attrs,
    )


def _list_encoder_forward(check: Callable, model: Model, Xs: List[Floats2d], is_train: bool):
    if not any(X.shape[0] for X in Xs):
        return with_empty_guard(model, Xs, is_train, model.get_dim("nO"))
    check(model, Xs)
    return model.layers[0](Xs, is_train)


def _list_encoder_init(check: Callable, model: Model, X=None, Y=None) -> None:
    if X is not None and len(X):
        check(model, X)
