"""The Transformer rewriter's decoder: pre-LN blocks of causal self-attention,
cross-attention over the encoder output (source padding masked) and a
feed-forward layer; the block extends the attention encoder's `EncoderBlock`
(same self-attention and FFN, one implementation).

Three ways to run it, with the same maths:

- training: the whole target at once, `scaled_dot_product_attention(
  is_causal=True)`, so that position t sees only positions <= t;
- incremental decoding: one position per step, its keys and values appended
  to a per-layer cache (`Cache`), the query attending to every cached one;
- recomputing: the whole prefix again at every step (the reference for the
  cache, and the benchmark's baseline).

Cross-attention keys and values are computed once per source
(`memory_heads`). The cross-attention weights are written out (explicit
softmax) where they are needed: the copy mechanism reads the last layer's,
averaged over heads; attention maps read every layer's.
"""

import math
from typing import Iterable, List, NamedTuple, Optional, Tuple, cast

import torch
import torch.nn.functional as F

from ..attention import POSITIONS, AttentionEncoderConfig, EncoderBlock
from ..attention.modes import softmax_weights
from .transformer_encoder import embedding

KeyValue = Tuple[torch.Tensor, torch.Tensor]  # each (rows, heads, len, head_width)


class DecoderBlock(EncoderBlock):
    """x + causal self-attention(LN(x)), x + cross-attention(LN(x), memory),
    then x + FFN(LN(x))."""

    def __init__(self, config: AttentionEncoderConfig):
        super().__init__(config)
        width = config.width
        self.norm_cross = torch.nn.LayerNorm(width)
        self.cross_q = torch.nn.Linear(width, width)
        self.cross_kv = torch.nn.Linear(width, 2 * width)
        self.cross_out = torch.nn.Linear(width, width)

    def split(self, X: torch.Tensor) -> torch.Tensor:
        """(rows, len, width) -> (rows, heads, len, head_width)."""
        B, L, _ = X.shape
        return X.view(B, L, self.n_heads, self.width // self.n_heads).transpose(1, 2)

    def memory_heads(self, memory: torch.Tensor) -> KeyValue:
        """Cross-attention keys and values of the encoder output, once per source."""
        k, v = self.cross_kv(memory).chunk(2, dim=-1)
        return self.split(k), self.split(v)

    def self_attend(self, Y: torch.Tensor, past: Optional[KeyValue]) -> Tuple[torch.Tensor, KeyValue]:
        """Causal self-attention over Y (rows, len, width). With `past` (the
        cached keys and values of the earlier positions), Y holds the new
        positions only and sees all of `past`. Returns (Y', keys and values)."""
        q, k, v = self.heads(self.norm_attn(Y))
        if past is None:
            Z = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=self.dropout_p())
        else:
            k, v = torch.cat([past[0], k], 2), torch.cat([past[1], v], 2)
            Z = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout_p())
        return Y + self.dropout(self.merge_heads(Z)), (k, v)

    def cross_attend(self, Y: torch.Tensor, memory_kv: KeyValue, mask: torch.Tensor, need_weights: bool):
        """Attention from Y to the encoder output; `mask` (rows, S) is True at
        real source positions. Returns (Y', weights (rows, heads, len, S) or None)."""
        q = self.split(self.cross_q(self.norm_cross(Y)))
        k, v = memory_kv
        weights = None
        if need_weights:
            weights = softmax_weights(q, k, mask)
            Z = F.dropout(weights, self.dropout_p(), self.training) @ v
        else:
            Z = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :], dropout_p=self.dropout_p())
        return Y + self.dropout(self.merge_heads(Z, self.cross_out)), weights

    # A decoder block is an encoder block (the same self-attention and FFN) called with more inputs.
    def forward(  # type: ignore[override]
        self, Y, memory_kv: KeyValue, mask, past: Optional[KeyValue] = None, need_weights: bool = False
    ):
        """(Y', this layer's keys and values, cross-attention weights or None)."""
        Y, kv = self.self_attend(Y, past)
        Y, weights = self.cross_attend(Y, memory_kv, mask, need_weights)
        return self.feed_forward(Y), kv, weights


class Decoded(NamedTuple):
    outputs: torch.Tensor  # (rows, len, width) after the final layer norm
    inputs: torch.Tensor  # (rows, len, width) the embedded target units with positions
    cache: List[KeyValue]  # per layer, the self-attention keys and values so far
    weights: List[Optional[torch.Tensor]]  # per layer, cross-attention weights (rows, heads, len, S)


class TransformerDecoder(torch.nn.Module):
    """Target embedding (× √width) with positions, `depth` DecoderBlocks, final
    layer norm. `embed.weight` may be shared with the output layer."""

    def __init__(self, n_target: int, config: AttentionEncoderConfig):
        super().__init__()
        self.width = config.width
        self.embed = embedding(n_target, config.width)
        self.positions = POSITIONS[config.positions](config.width, config.max_length)
        self.blocks = torch.nn.ModuleList(DecoderBlock(config) for _ in range(config.depth))
        self.final_norm = torch.nn.LayerNorm(config.width)
        self.drop = torch.nn.Dropout(config.dropout)
        self.max_length = config.max_length if self.positions.bounded else None

    def memory_heads(self, memory: torch.Tensor) -> List[KeyValue]:
        return [block.memory_heads(memory) for block in cast(Iterable[DecoderBlock], self.blocks)]

    def empty_cache(self, memory: torch.Tensor) -> List[KeyValue]:
        """A cache with no position yet: (rows, heads, 0, head_width) per layer."""
        block = cast(DecoderBlock, self.blocks[0])
        empty = memory.new_zeros(memory.shape[0], block.n_heads, 0, self.width // block.n_heads)
        return [(empty, empty) for _ in self.blocks]

    def forward(
        self,
        tokens: torch.Tensor,
        memory_kv: List[KeyValue],
        mask: torch.Tensor,
        cache: Optional[List[KeyValue]] = None,
        weights: str = "none",
        extra: Optional[torch.Tensor] = None,
    ) -> Decoded:
        """Decode target units `tokens` (rows, len): the whole target (no cache:
        causal attention) or the next positions after `cache`. `weights` says
        which layers' cross-attention weights to write out: "none", "last" or "all".
        `extra` (rows, len, width), if given, is added to the embedded units
        (the copy mechanism's selective read)."""
        offset = 0 if cache is None else cache[0][0].shape[2]
        if self.max_length is not None and offset + tokens.shape[1] > self.max_length:
            raise ValueError(
                f"TransformerRewriter: target position {offset + tokens.shape[1]} is beyond the learned "
                f"positions (max_length={self.max_length})"
            )
        X = self.embed(tokens) * math.sqrt(self.width)
        if extra is not None:
            X = X + extra
        X = self.drop(self.positions(X, offset))
        Y, new_cache, all_weights = X, [], []
        last = len(self.blocks) - 1
        for i, block in enumerate(self.blocks):
            need = weights == "all" or (weights == "last" and i == last)
            Y, kv, w = block(Y, memory_kv[i], mask, None if cache is None else cache[i], need)
            new_cache.append(kv)
            all_weights.append(w)
        return Decoded(self.final_norm(Y), X, new_cache, all_weights)
