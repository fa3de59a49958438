"""Maxout window encoder: spaCy's MaxoutWindowEncoder idea, in torch, with dilation.

Per layer: concatenate each token with its ±window neighbours (spaced by the
layer's dilation), project to width × pieces in one matrix multiply, take the
max over pieces, layer-normalise, add to the input (residual).

All docs of a batch are encoded at once, no per-doc loop; each doc sees exactly
what it would see alone, zero-padded. Two layouts, the same function:

- predicting (no gradient): the tokens as one (n_tokens, width) matrix, docs end
  to end; each layer gathers a token's neighbours from the matrix with one zero
  row added, the zero row standing for any neighbour outside the token's doc.
  Every row multiplied is a token.
- training: docs laid end to end with `window × max(dilation)` zero rows between
  them (reset to zero after every layer), the layout this encoder always trained
  with. The gathered layout's backward pass sums the same gradients in another
  order, and float rounding alone sends a 2,000-step training elsewhere (the main
  job's dev trip accuracy went from 95.95 to 91.90 with it): training keeps the
  gapped layout, so the same config and seed give the same pipeline byte for byte
  as before. Its gap rows cost as much as a short request's tokens (8 per doc with
  exponential dilation over 4 layers), which is why predicting does without them.

Predicting, the layers' matrix products may run in bfloat16 (`inference_dtype`): the
windows and weights rounded to bfloat16, their products summed in float32 by the CPU's
bfloat16 instructions (AVX512-BF16, AMX), each sum rounded to bfloat16 (torch's CPU
product has no float32 output for bfloat16 inputs) and turned back to float32 before the
maxout, the layer norm and the residual. On the AMD EPYC (Zen 4) core this project runs on, a
(3,000 × 288) by (288 × 288) product takes 1.0 ms in bfloat16 against 4.2 ms in float32,
at the CPU's float32 peak already. "auto" takes bfloat16 only on a CPU with those
instructions (elsewhere torch emulates them, slower than float32) and float32 on a GPU.
Training never does: its products, gradients and weights stay float32.
"""

import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy
import torch
import torch.nn.functional as F
from thinc.api import Model
from thinc.types import Floats2d

from ..util import check_choice, check_positive_int, check_probability
from .convert import ListEncoder, check_widths, gapped_index, token_positions
from .maxout import maxout

Dilation = Union[int, Sequence[int], str]
# The dtypes the layers' matrix products may predict in (`inference_dtype`).
INFERENCE_DTYPES = ("float32", "bfloat16", "auto")
# A bfloat16 product's rows are padded to a multiple of BFLOAT16_ROWS (of SMALL_ROWS up to
# BFLOAT16_ROWS: a doc predicted alone) (`padded_rows`).
BFLOAT16_ROWS = 64
SMALL_ROWS = 16


@functools.lru_cache(maxsize=None)
def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 matrices in hardware (AVX512-BF16 or AMX tiles),
    as torch reports it."""
    cpu = getattr(torch, "cpu", None)
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    try:
        return any(getattr(cpu, name)() for name in checks if hasattr(cpu, name))
    except RuntimeError:  # pragma: no cover (a torch built without the CPU checks)
        return False


def predicts_in_bfloat16(inference_dtype: str, device: torch.device) -> bool:
    """Whether the products of a prediction on `device` run in bfloat16 (see the module's
    docstring)."""
    if inference_dtype == "auto":
        return device.type == "cpu" and native_bfloat16()
    return inference_dtype == "bfloat16"


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
    inference_dtype: str = "float32"
    dilations: List[int] = field(init=False)

    def __post_init__(self) -> None:
        for name in ("width", "depth", "window_size", "maxout_pieces"):
            check_positive_int(name, getattr(self, name))
        check_probability("dropout", self.dropout)
        check_choice("inference_dtype", self.inference_dtype, INFERENCE_DTYPES)
        object.__setattr__(self, "dilations", resolve_dilations(self.dilation, self.depth))


class MaxoutWindowStack(torch.nn.Module):
    """The torch module behind the encoder.

    forward(tokens, layout, sizes): `tokens` are all docs' vectors concatenated;
    `layout` (3, n_tokens): each token's position in its doc, how many tokens of
    its doc follow it, and its row in the gapped layout; `sizes`: (n_tokens, rows
    of the gapped layout) (`window_layout`).
    """

    def __init__(self, width, window_size, maxout_pieces, dilations, dropout, inference_dtype="float32"):
        super().__init__()
        self.width = width
        self.inference_dtype = inference_dtype
        # The projections' weights and biases in bfloat16, with what they were cast from
        # (`bfloat16_weights`); not a buffer: never saved.
        self._bfloat16: Optional[Tuple[tuple, List[Tuple[torch.Tensor, torch.Tensor]]]] = None
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

    def window_rows(self, positions: torch.Tensor, n_tokens: int, n_rows: int) -> Dict[int, torch.Tensor]:
        """Dilation -> (n_rows × (2·window + 1),) the rows of each token's window, left to
        right, token after token, `n_tokens` (a zero row) for a neighbour outside the doc and
        for every row of the `n_rows - n_tokens` past the tokens (`padded_rows`)."""
        before, after = positions[0], positions[1]
        rows = torch.arange(n_tokens, device=positions.device)
        outside = rows.new_tensor(n_tokens)
        windows = {}
        for d in set(self.dilations):
            offsets = [k * d for k in range(-self.window_size, self.window_size + 1)]
            window = [
                rows if not off else torch.where((after >= off) if off > 0 else (before >= -off), rows + off, outside)
                for off in offsets
            ]
            windows[d] = torch.stack(window, dim=1).view(-1)
            if n_rows > n_tokens:
                padding = outside.expand((n_rows - n_tokens) * len(offsets))
                windows[d] = torch.cat([windows[d], padding])
        return windows

    def forward(self, tokens: torch.Tensor, layout: torch.Tensor, sizes: Tuple[int, int]) -> torch.Tensor:
        n_tokens, n_rows = sizes
        if torch.is_grad_enabled():
            return self.forward_gapped(tokens, layout[2], n_rows)
        return self.forward_tokens(tokens, layout[:2], n_tokens)

    def forward_tokens(self, tokens: torch.Tensor, positions: torch.Tensor, n_tokens: int) -> torch.Tensor:
        """Tokens only, each layer gathering its windows (predicting). The tokens live in
        a buffer with one zero row after them; one gather of (2·window + 1) rows per token
        is the (n_tokens, width × (2·window + 1)) matrix of windows, side by side (in
        bfloat16, with zero rows after them up to `padded_rows`)."""
        weights = self.bfloat16_weights() if predicts_in_bfloat16(self.inference_dtype, tokens.device) else None
        n_rows = n_tokens if weights is None else padded_rows(n_tokens)
        windows = self.window_rows(positions, n_tokens, n_rows)
        H = torch.cat([tokens, tokens.new_zeros(1, self.width)])
        for k, (proj, norm, d) in enumerate(zip(self.projections, self.norms, self.dilations)):
            cols = H.index_select(0, windows[d]).view(n_rows, -1)
            if weights is None:
                product = proj(cols)
            else:
                product = F.linear(cols.bfloat16(), *weights[k])[:n_tokens].float()
            Z = maxout(product, self.pieces)
            # In place, below the zero row: the next layer gathers from it.
            torch.add(H[:n_tokens], self.dropout(norm(Z)), out=H[:n_tokens])
        return H[:n_tokens]

    def bfloat16_weights(self) -> List[Tuple[torch.Tensor, torch.Tensor]]:
        """Each projection's weight and bias in bfloat16, cast again only when they change: a
        training step (`forward_gapped`: thinc's optimizer replaces a parameter's data, maybe in
        the same storage), or any other write, load (`load_state_dict`: thinc's `from_bytes`,
        `use_params`) or move (`to`): a new storage or version of a parameter."""
        params = list(self.projections.parameters())
        key = tuple((p.data_ptr(), p._version) for p in params)
        if self._bfloat16 is None or self._bfloat16[0] != key:
            linears = cast(List[torch.nn.Linear], list(self.projections))
            self._bfloat16 = (key, [(p.weight.detach().bfloat16(), p.bias.detach().bfloat16()) for p in linears])
        return self._bfloat16[1]

    def forward_gapped(self, tokens: torch.Tensor, index: torch.Tensor, n_rows: int) -> torch.Tensor:
        """Docs `window × max(dilation)` zero rows apart, `index` the row of each token (training)."""
        self._bfloat16 = None  # the weights are about to change
        H = tokens.new_zeros(n_rows, self.width).index_copy(0, index, tokens)
        mask = None
        if n_rows != tokens.shape[0]:
            mask = tokens.new_zeros(n_rows, 1).index_fill_(0, index, 1.0)
        w = self.window_size
        for proj, norm, d in zip(self.projections, self.norms, self.dilations):
            padded = F.pad(H, (0, 0, d * w, d * w))
            cols = torch.cat([padded[k * d : k * d + n_rows] for k in range(2 * w + 1)], dim=1)
            Z = maxout(proj(cols), self.pieces)
            Z = self.dropout(norm(Z))
            H = H + (Z * mask if mask is not None else Z)
        return H.index_select(0, index)


def padded_rows(n_tokens: int) -> int:
    """The rows a bfloat16 product of `n_tokens` windows multiplies: a multiple of BFLOAT16_ROWS
    (of SMALL_ROWS for a doc's few), zero windows past the tokens. Torch's CPU backend (oneDNN)
    keeps a compiled kernel for each shape it meets, and a batch's count of tokens is seldom the
    same twice (a resolve of 100,000 orders grew by 180 MiB with them); a row's result does not
    depend on the rows beside it."""
    block = SMALL_ROWS if n_tokens <= BFLOAT16_ROWS else BFLOAT16_ROWS
    return -(-n_tokens // block) * block


def window_layout(lengths: Sequence[int], gap: int) -> Tuple[numpy.ndarray, Tuple[int, int]]:
    """Both layouts of the docs of `lengths` (see `MaxoutWindowStack.forward`)."""
    positions, n_tokens = token_positions(lengths)
    rows, n_rows = gapped_index(lengths, gap)
    return numpy.concatenate([positions, rows[None]]), (n_tokens, n_rows)


def MaxoutWindowEncoder(config: MaxoutWindowConfig) -> Model[List[Floats2d], List[Floats2d]]:
    """Build the encoder as a thinc Model over lists of (n_tokens, width) arrays."""
    dilations = config.dilations
    module = MaxoutWindowStack(
        config.width, config.window_size, config.maxout_pieces, dilations, config.dropout, config.inference_dtype
    )
    gap = config.window_size * max(dilations)
    return ListEncoder(
        "seqkit_maxout_window",
        module,
        functools.partial(window_layout, gap=gap),
        config.width,
        check_inputs,
        attrs={
            "receptive_field": receptive_field(config.window_size, dilations),
            "dilations": dilations,
        },
    )


def check_inputs(model: Model, Xs: List[Floats2d]) -> None:
    check_widths(model, Xs, "MaxoutWindowEncoder")
