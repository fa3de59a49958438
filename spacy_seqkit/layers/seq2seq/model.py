"""The rewriter as a thinc Model around the torch module (the recurrent or the
Transformer one, as its config says): its initialisation (vocabularies from
data, then the module, built lazily), the converters between thinc inputs and
torch tensors, and the training forward.

The vocabularies (and the BPE model of "pieces" units) live in the model's
attrs as plain values (they travel with its bytes); the torch module built
from them holds their lookups.
"""

from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Union, cast

import numpy
import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2
from thinc.types import Floats1d, Ints1d
from thinc.util import torch2xp, xp2torch

from ..convert import padded_index, torch_device, unflatten
from .config import RewriterConfig, TransformerRewriterConfig, UnitsConfig
from .recurrent import RecurrentModule, RecurrentModuleConfig
from .transformer import TransformerModule
from .units import SOURCE_TYPES, Pieces, UnitIds, UnitVocabularies, build_vocab, split_units, uses_pieces

# The vocabularies, and the BPE model of "pieces" units (base64): what the
# module is rebuilt from before its weights are read; in the model's attrs and
# in the rewriter component's cfg.
VOCAB_KEYS = ("source_vocab", "target_vocab", "target_counts", "source_width", "pieces_model")


class RewriteBatch(NamedTuple):
    """The model's training input: docs and their gold rewrites."""

    docs: List[Any]
    targets: List[str]


class ModuleInputs(NamedTuple):
    """What the thinc model hands its torch layer."""

    ids: UnitIds
    src: Any  # ids.src, or the token vectors: a list of (n_i, width) arrays
    ss_prob: float
    label_smoothing: float


def Seq2SeqRewriter(config: UnitsConfig, embed: Optional[Model] = None) -> Model[RewriteBatch, Floats1d]:
    """The rewriter as a thinc Model; the torch module is built at initialize,
    once the vocabularies (set by `set_vocabularies`) are known."""
    config.check_embed(embed)
    return Model(
        config.model_name,
        forward,
        init=init,
        layers=[embed] if embed is not None else [],
        refs={"embed": embed} if embed is not None else {},
        attrs={"config": config, **{key: None for key in VOCAB_KEYS}},
    )


def vocabularies_from_data(model: Model, docs: Iterable[Any], targets: Iterable[str]) -> Dict:
    """Build the source (units the model embeds) and target vocabularies from
    data; first the BPE model, from the sources' and targets' texts, when the
    units are "pieces"."""
    config: UnitsConfig = model.attrs["config"]
    result: Dict[str, Any] = {"source_vocab": [], "pieces_model": None}
    pieces = None
    if uses_pieces(config.source, config.target):
        docs, targets = list(docs), list(targets)
        pieces = Pieces.learn([d.text for d in docs] + targets, config.n_pieces)
        result["pieces_model"] = pieces.model
    source = SOURCE_TYPES[config.source]
    if source.embedded:
        result["source_vocab"], _ = build_vocab((source.units(d, pieces) for d in docs), 1, 0)
    units, counts = build_vocab(
        (split_units(t, config.target, pieces) for t in targets), config.min_count, config.max_vocab
    )
    result["target_vocab"], result["target_counts"] = units, counts
    return result


def set_vocabularies(model: Model, vocabs: Dict) -> None:
    for key in ("source_vocab", "target_vocab", "target_counts"):
        model.attrs[key] = list(vocabs[key])
    if vocabs.get("source_width"):
        model.attrs["source_width"] = int(vocabs["source_width"])
    model.attrs["pieces_model"] = vocabs.get("pieces_model")


def init(model: Model, X=None, Y=None) -> None:
    if model.attrs["target_vocab"] is None:
        if X is None or Y is None:
            raise ValueError(
                "Seq2SeqRewriter needs its vocabularies before initialize: pass sample "
                "docs and targets (X, Y) or call set_vocabularies first"
            )
        set_vocabularies(model, vocabularies_from_data(model, X, Y))
    if model.has_ref("embed"):
        embed = model.get_ref("embed")
        embed.initialize(X=X) if X is not None else embed.initialize()
        if embed.has_dim("nO") and embed.get_dim("nO"):
            model.attrs["source_width"] = embed.get_dim("nO")
        elif X is not None:
            model.attrs["source_width"] = int(embed.predict(X[:1])[0].shape[1])
        else:
            raise ValueError("Seq2SeqRewriter: cannot infer the embedding width without sample docs")
    build_torch_layer(model)


def recurrent_module(config: RewriterConfig, units: UnitVocabularies, source_width: int) -> RecurrentModule:
    module_config = RecurrentModuleConfig(
        n_source=units.n_source,
        source_width=source_width,
        target_counts=units.target_counts,
        embed_width=config.embed_width,
        hidden_width=config.hidden_width,
        depth=config.depth,
        dropout=config.dropout,
        attention=config.attention,
        output_layer=config.output_layer,
        n_samples=config.n_samples,
        copy=config.copy,
        cell=config.cell,
    )
    return RecurrentModule(module_config, units)


RewriterModule = Union[RecurrentModule, TransformerModule]

# The torch module of each kind of rewriter, by its config's type.
MODULES: Dict[type, Callable[[Any, UnitVocabularies, int], RewriterModule]] = {
    RewriterConfig: recurrent_module,
    TransformerRewriterConfig: TransformerModule,
}


def build_torch_layer(model: Model) -> None:
    """Create (or re-create) the torch module from the vocabularies in attrs:
    the first stage of deserialization, before the weights are loaded."""
    a, config = model.attrs, model.attrs["config"]
    pieces = Pieces(a["pieces_model"]) if a.get("pieces_model") else None
    units = UnitVocabularies(
        config.source, config.target, a["source_vocab"], a["target_vocab"], a["target_counts"], pieces
    )
    module = MODULES[type(config)](config, units, a["source_width"] or 0)
    wrapper = PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_outputs)
    if is_built(model):
        model.layers[model.layers.index(model.get_ref("seq2seq"))] = wrapper
    else:
        model.layers.append(wrapper)
    model.set_ref("seq2seq", wrapper)


def is_built(model: Model) -> bool:
    return bool(model.has_ref("seq2seq")) and model.get_ref("seq2seq") is not None


def torch_module(model: Model) -> RewriterModule:
    """The torch module of a built rewriter (RecurrentModule or TransformerModule)."""
    return model.get_ref("seq2seq").shims[0]._model


def source_tensors(ops, src, lengths: List[int], width: int, device, requires_grad: bool):
    """Torch source: int ids (B, S) as they are, or token vectors flattened with
    their (token, end marker) rows in the (B, S) padded layout."""
    if not isinstance(src, list):
        return torch.as_tensor(src, device=device), None
    flat = ops.flatten(src) if sum(lengths) > len(lengths) else ops.alloc2f(0, width)
    full_index, _ = padded_index(lengths)
    ends = numpy.cumsum(lengths) - 1
    token_index = numpy.delete(full_index, ends)
    index = (xp2torch(cast(Ints1d, token_index), device=device), xp2torch(full_index[ends], device=device))
    return xp2torch(flat, requires_grad=requires_grad, device=device), index


def as_tensor(array: Optional[numpy.ndarray], device) -> Optional[torch.Tensor]:
    return None if array is None else torch.as_tensor(array, device=device)


def _convert_inputs(model: Model, X: ModuleInputs, is_train: bool):
    device = torch_device(model)
    ids = X.ids
    width = model.shims[0]._model.source_width
    src, index = source_tensors(model.ops, X.src, ids.lengths, width, device, is_train)
    args = ArgsKwargs(
        args=(
            src,
            index,
            ids.lengths,
            as_tensor(ids.tgt, device),
            as_tensor(ids.src_ext, device),
            ids.n_ext,
            X.ss_prob,
            X.label_smoothing,
            as_tensor(ids.src_alt, device),
        ),
        kwargs={},
    )

    def reverse(dX: ArgsKwargs):
        grad = dX.args[0]
        if grad is None or not grad.is_floating_point():
            return None
        return unflatten(model.ops, torch2xp(grad, ops=model.ops), [n - 1 for n in ids.lengths])

    return args, reverse


def _convert_outputs(model: Model, X_Ytorch, is_train: bool):
    _, Ytorch = X_Ytorch
    Y = torch2xp(Ytorch.detach(), ops=model.ops)

    def get_dYtorch(dY):
        return ArgsKwargs(args=(Ytorch,), kwargs={"grad_tensors": (xp2torch(dY, device=Ytorch.device),)})

    return Y, get_dYtorch


def forward(model: Model, batch: RewriteBatch, is_train: bool):
    """Mean loss per target unit (shape (1,)) and its backprop."""
    docs, targets = batch
    if len(docs) != len(targets):
        raise ValueError(f"Seq2SeqRewriter: {len(docs)} docs but {len(targets)} targets")
    if not docs:
        return model.ops.alloc1f(1), lambda d: []
    config: UnitsConfig = model.attrs["config"]
    ss_prob = config.sampling_rate(is_train)
    ids = torch_module(model).units.encode(docs, targets, config.copy)
    src, bp_embed = ids.src, None
    if model.has_ref("embed"):
        src, bp_embed = model.get_ref("embed")(docs, is_train)
    loss, bp_loss = model.get_ref("seq2seq")(ModuleInputs(ids, src, ss_prob, config.label_smoothing), is_train)

    def backprop(d_loss: Floats1d) -> List:
        dXs = bp_loss(d_loss)
        if bp_embed is not None and dXs is not None:
            bp_embed(dXs)
        return []

    return loss, backprop
