"""Maxout window encoder: spaCy's MaxoutWindowEncoder idea, in torch, with dilation.

Per layer: concatenate each token with its ±window neighbours (spaced by the
layer's dilation), project to width × pieces in one matrix multiply, take the
max over pieces, layer-normalise, add to the input (residual).

All tokens of a batch are one (n_tokens, width) matrix, docs end to end with
nothing between them, so every row multiplied is a token and no per-doc loop
runs. A neighbour outside the token's own doc is read as a zero row (each
layer gathers the rows at its dilation from the matrix with one zero row
added): each doc therefore sees exactly what it would see alone, zero-padded.
(Laying docs apart with `window × max(dilation)` zero rows between them, as
this encoder did first, multiplies those rows too: 8 per doc with exponential
dilation over 4 layers, as many again as a short request's tokens.)
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Sequence, Union

import torch
from thinc.api import Model
from thinc.types import Floats2d

from ..util import check_choice, check_positive_int, check_probability
from .convert import ListEncoder, check_widths, doc_positions

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

    forward(tokens, positions, n_tokens): `tokens` are all docs' vectors
    concatenated, `positions` (2, n_tokens): each token's position in its doc
    and how many tokens of the doc follow it (`doc_positions`).
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

    def neighbours(self, positions: torch.Tensor, n_tokens: int) -> Dict[int, torch.Tensor]:
        """Offset -> the row of each token's neighbour at that offset, or `n_tokens`
        (the zero row) where it falls outside the token's doc."""
        before, after = positions[0], positions[1]
        rows = torch.arange(n_tokens, device=positions.device)
        offsets = {k * d for d in self.dilations for k in range(-self.window_size, self.window_size + 1) if k}
        outside = rows.new_tensor(n_tokens)
        return {
            off: torch.where((after >= off) if off > 0 else (before >= -off), rows + off, outside) for off in offsets
        }

    def forward(self, tokens: torch.Tensor, positions: torch.Tensor, n_tokens: int) -> torch.Tensor:
        neighbours = self.neighbours(positions, n_tokens)
        H = tokens
        w = self.window_size
        for proj, norm, d in zip(self.projections, self.norms, self.dilations):
            with_zero = torch.cat([H, H.new_zeros(1, self.width)])
            # The window's rows side by side, left to right; one matrix multiply for
            # all window positions and maxout pieces.
            cols = torch.cat(
                [H if k == 0 else with_zero.index_select(0, neighbours[k * d]) for k in range(-w, w + 1)], dim=1
            )
            Z = proj(cols).view(n_tokens, self.width, self.pieces).amax(dim=-1)
            H = H + self.dropout(norm(Z))
        return H


def MaxoutWindowEncoder(config: MaxoutWindowConfig) -> Model[List[Floats2d], List[Floats2d]]:
    """Build the encoder as a thinc Model over lists of (n_tokens, width) arrays."""
    dilations = config.dilations
    module = MaxoutWindowStack(config.width, config.window_size, config.maxout_pieces, dilations, config.dropout)
    return ListEncoder(
        "seqkit_maxout_window",
        module,
        doc_positions,
        config.width,
        check_inputs,
        attrs={
            "receptive_field": receptive_field(config.window_size, dilations),
            "dilations": dilations,
        },
    )


def check_inputs(model: Model, Xs: List[Floats2d]) -> None:
    check_widths(model, Xs, "MaxoutWindowEncoder")
