"""Maxout window encoder: spaCy's MaxoutWindowEncoder idea, in torch, with dilation.

Per layer: concatenate each token with its ±window neighbours (spaced by the
layer's dilation), project to width × pieces in one matrix multiply, take the
max over pieces, layer-normalise, add to the input (residual).

All docs of a batch are laid end to end in one (rows, width) matrix, separated
by `window × max(dilation)` zero rows, so a window never reaches into another
doc and no per-doc loop runs. The separator rows are reset to zero after every
layer: each doc therefore sees exactly what it would see alone, zero-padded.
"""

import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Sequence, Union

import torch
import torch.nn.functional as F
from thinc.api import Model
from thinc.types import Floats2d

from ..util import check_choice, check_positive_int, check_probability
from .convert import ListEncoder, check_widths, gapped_index

Dilation = Union[int, Sequence[int], str]


def exponential_dilations(depth: int) -> List[int]:
    """1, 2, 4, ...: the receptive field doubles with each layer."""
    return [2**i for i in range(depth)]


# Named dilation schedules: name -> function of the depth.
DILATION_SCHEDULES: Dict[str, Callable[[int], List[int]]] = {"exponential": exponential_dilations}


def resolve_dilations(dilation: Dilation, depth: int) -> List[int]:
    """Turn the `dilation` argument into one dilation per layer.

    1 (spaCy's behaviour) or any int: the same for every layer; a list: one per
    layer; a name in DILATION_SCHEDULES.
    """
    if isinstance(dilation, str):
        return DILATION_SCHEDULES[check_choice("dilation", dilation, DILATION_SCHEDULES)](depth)
    if isinstance(dilation, int):
        check_positive_int("dilation", dilation)
        return [dilation] * depth
    dilations = list(dilation)
    if len(dilations) != depth:
        raise ValueError(
            f"'dilation' must have one value per layer (depth={depth}), got {len(dilations)} values: {dilations!r}"
        )
    for d in dilations:
        check_positive_int("dilation", d)
    return dilations


def receptive_field(window_size: int, dilations: Sequence[int]) -> int:
    """How many tokens to each side can change a token's output."""
    return window_size * sum(dilations)


@dataclass(frozen=True)
class MaxoutWindowConfig:
    """The parameters of spacy-seqkit.MaxoutWindowEncoder.v1 (see
    architectures.py), validated here; `dilations` is one per layer."""

    width: int
    depth: int
    window_size: int
    maxout_pieces: int
    dilation: Dilation
    dropout: float
    dilations: List[int] = field(init=False)

    def __post_init__(self) -> None:
        for name in ("width", "depth", "window_size", "maxout_pieces"):
            check_positive_int(name, getattr(self, name))
        check_probability("dropout", self.dropout)
        object.__setattr__(self, "dilations", resolve_dilations(self.dilation, self.depth))


class MaxoutWindowStack(torch.nn.Module):
    """The torch module behind the encoder.

    forward(tokens, index, n_rows): `tokens` are all docs' vectors concatenated,
    `index` the row of each token in the gapped layout of `n_rows` rows.
    """

    def __init__(self, width, window_size, maxout_pieces, dilations, dropout):
        super().__init__()
        self.width = width
        self.pieces = maxout_pieces
        self.window_size = window_size
        self.dilations = list(dilations)
        n_in = width * (2 * window_size + 1)
        projections = [torch.nn.Linear(n_in, width * maxout_pieces) for _ in dilations]
        self.projections = torch.nn.ModuleList(projections)
        self.norms = torch.nn.ModuleList(torch.nn.LayerNorm(width) for _ in dilations)
        self.dropout = torch.nn.Dropout(dropout)
        for proj in projections:
            torch.nn.init.xavier_uniform_(proj.weight)
            torch.nn.init.zeros_(proj.bias)

    def forward(self, tokens: torch.Tensor, index: torch.Tensor, n_rows: int) -> torch.Tensor:
        H = tokens.new_zeros(n_rows, self.width).index_copy(0, index, tokens)
        mask = None
        if n_rows != tokens.shape[0]:
            mask = tokens.new_zeros(n_rows, 1).index_fill_(0, index, 1.0)
        w = self.window_size
        for proj, norm, d in zip(self.projections, self.norms, self.dilations):
            padded = F.pad(H, (0, 0, d * w, d * w))
            # One matrix multiply for all window positions and maxout pieces.
            cols = torch.cat([padded[k * d : k * d + n_rows] for k in range(2 * w + 1)], dim=1)
            Z = proj(cols).view(n_rows, self.width, self.pieces).amax(dim=-1)
            Z = self.dropout(norm(Z))
            H = H + (Z * mask if mask is not None else Z)
        return H.index_select(0, index)


def MaxoutWindowEncoder(config: MaxoutWindowConfig) -> Model[List[Floats2d], List[Floats2d]]:
    """Build the encoder as a thinc Model over lists of (n_tokens, width) arrays."""
    dilations = config.dilations
    module = MaxoutWindowStack(config.width, config.window_size, config.maxout_pieces, dilations, config.dropout)
    gap = config.window_size * max(dilations)
    return ListEncoder(
        "seqkit_maxout_window",
        module,
        functools.partial(gapped_index, gap=gap),
        config.width,
        check_inputs,
        attrs={
            "receptive_field": receptive_field(config.window_size, dilations),
            "dilations": dilations,
        },
    )


def check_inputs(model: Model, Xs: List[Floats2d]) -> None:
    check_widths(model, Xs, "MaxoutWindowEncoder")
