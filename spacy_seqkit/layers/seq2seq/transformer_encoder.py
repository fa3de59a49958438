"""The Transformer rewriter's encoder: source units embedded (× √width, as in
the Transformer paper) or token vectors projected to the width with a learned
end marker, then the attention encoder's stack (`AttentionStack.encode`:
positions, pre-LN blocks with full / local / linear self-attention, final
layer norm): the same blocks as spacy-seqkit.AttentionEncoder.v1.

With `previous_unit`, each position's input also carries a learned projection
of the unit before it. A decoder that copies a name unit by unit has just
written unit u and looks for the unit after u in the source: with this, the
position it wants is the one whose input says "after u", found by one
cross-attention. Without it, the encoder has to learn to move u one position
along through self-attention first (an "induction" step that plain
Transformers learn slowly on a few thousand examples: on the travel corpus,
the loss after 400 updates drops from 1.76 to 1.47 with it)."""

import math
from typing import List, NamedTuple, Optional, Tuple

import torch
import torch.nn.functional as F

from ..attention import POSITIONS, AttentionEncoderConfig, AttentionStack
from .encoder import place_source
from .units import PAD


class EncodedSource(NamedTuple):
    memory: torch.Tensor  # (B, S, width), one row per source position
    mask: torch.Tensor  # (B, S) True at real positions (end marker included)


class TransformerEncoder(torch.nn.Module):
    """`n_source` > 0 embeds unit ids; 0 takes vectors of `source_width`."""

    def __init__(self, n_source: int, source_width: int, config: AttentionEncoderConfig, previous_unit: bool = False):
        super().__init__()
        width = config.width
        self.width = width
        self.max_length = config.max_length if POSITIONS[config.positions].bounded else None
        self.src_embed: Optional[torch.nn.Embedding]
        self.src_proj: Optional[torch.nn.Linear]
        if n_source:
            self.src_embed = embedding(n_source, width)
            self.src_proj = None
        else:
            self.src_embed = None
            self.src_proj = torch.nn.Linear(source_width, width)
            self.src_end = torch.nn.Parameter(torch.zeros(source_width))
        self.stack = AttentionStack(config)
        self.previous = torch.nn.Linear(width, width) if previous_unit else None

    def forward(self, src, index: Optional[Tuple[torch.Tensor, torch.Tensor]], lengths: List[int]) -> EncodedSource:
        B, S = len(lengths), max(lengths)
        if self.max_length is not None and S > self.max_length:
            raise ValueError(
                f"TransformerRewriter: a source has {S} units (with its end marker) but learned positions "
                f"cover only max_length={self.max_length}; raise 'max_length' or use positions = \"sinusoidal\""
            )
        if self.src_embed is not None:
            x = self.src_embed(src) * math.sqrt(self.width)
        else:
            assert self.src_proj is not None
            x = self.src_proj(place_source(src, index, self.src_end, B, S))
        if self.previous is not None:
            # Each position also sees the unit before it (zeros before the first).
            x = x + self.previous(F.pad(x, (0, 0, 1, 0))[:, :-1])
        lengths_t = torch.as_tensor(lengths, device=x.device)
        mask = torch.arange(S, device=x.device)[None, :] < lengths_t[:, None]
        # No mask when nothing is padded: faster kernels, the same result.
        memory = self.stack.encode(x, None if min(lengths) == S else mask)
        return EncodedSource(memory, mask)


def embedding(n_units: int, width: int) -> torch.nn.Embedding:
    """An embedding read × √width: initialised N(0, 1/width), so that its rows
    can also serve as output vectors (tied weights)."""
    layer = torch.nn.Embedding(n_units, width, padding_idx=PAD)
    with torch.no_grad():
        torch.nn.init.normal_(layer.weight, std=width**-0.5)
        layer.weight[PAD].zero_()
    return layer
