"""The pre-LayerNorm Transformer block and the stack of them, shared by the
attention encoder (`../attention_encoder.py`) and the seq2seq Transformer
(`../seq2seq/transformer_*.py`), with their config, validated once.

The stack works on docs grouped into buckets of similar length
(`convert.bucketed_index`), each bucket a padded (n_docs, bucket_len, width)
batch with a key padding mask, so one long doc does not pad every short doc to
its length.
"""

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, List, Optional

import torch
import torch.nn.functional as F

from ...util import check_choice, check_divisible, check_positive_int, check_probability
from .modes import ATTENTION_MODES
from .positions import POSITIONS


@dataclass(frozen=True)
class AttentionEncoderConfig:
    """The parameters of spacy-seqkit.AttentionEncoder.v1 (see architectures.py),
    validated here: a ValueError naming the argument for any bad setting."""

    width: int
    depth: int
    n_heads: int
    ffn_width: int
    attention: str
    window: int
    positions: str
    max_length: int
    dropout: float
    attention_dropout: float

    def __post_init__(self) -> None:
        for name in ("width", "depth", "n_heads", "ffn_width"):
            check_positive_int(name, getattr(self, name))
        check_choice("attention", self.attention, ATTENTION_MODES)
        check_choice("positions", self.positions, POSITIONS)
        check_divisible("width", self.width, "n_heads", self.n_heads)
        if ATTENTION_MODES[self.attention].uses_window:
            check_positive_int("window", self.window)
        if POSITIONS[self.positions].bounded:
            check_positive_int("max_length", self.max_length)
        check_probability("dropout", self.dropout)
        check_probability("attention_dropout", self.attention_dropout)


class EncoderBlock(torch.nn.Module):
    """One pre-LayerNorm block: x + attention(LN(x)), then x + FFN(LN(x)).
    The one implementation of the block: the attention encoder's, the
    Transformer rewriter's encoder's, and the base of its decoder block."""

    def __init__(self, config: AttentionEncoderConfig):
        super().__init__()
        width = config.width
        self.width = width
        self.n_heads = config.n_heads
        self.mode = ATTENTION_MODES[config.attention]
        self.window = config.window
        self.attention_dropout = config.attention_dropout
        self.norm_attn = torch.nn.LayerNorm(width)
        self.qkv = torch.nn.Linear(width, 3 * width)
        self.out = torch.nn.Linear(width, width)
        self.norm_ffn = torch.nn.LayerNorm(width)
        self.ffn_in = torch.nn.Linear(width, config.ffn_width)
        self.ffn_out = torch.nn.Linear(config.ffn_width, width)
        self.dropout = torch.nn.Dropout(config.dropout)

    def heads(self, X: torch.Tensor):
        """Queries, keys and values of normalised inputs X (batch, len, width),
        each (batch, heads, len, head_width)."""
        B, L, _ = X.shape
        qkv = self.qkv(X).view(B, L, 3, self.n_heads, self.width // self.n_heads).permute(2, 0, 3, 1, 4)
        return qkv[0], qkv[1], qkv[2]

    def merge_heads(self, Z: torch.Tensor, out: Optional[torch.nn.Linear] = None) -> torch.Tensor:
        """(batch, heads, len, head_width) -> the output projection (`out`, by
        default the self-attention's) of (batch, len, width)."""
        B, _, L, _ = Z.shape
        return (self.out if out is None else out)(Z.transpose(1, 2).reshape(B, L, self.width))

    def dropout_p(self) -> float:
        return self.attention_dropout if self.training else 0.0

    def attend(self, X: torch.Tensor, valid: Optional[torch.Tensor], mask) -> torch.Tensor:
        q, k, v = self.heads(X)
        return self.merge_heads(self.mode.attend(q, k, v, valid, self.window, self.dropout_p(), mask))

    def attention_weights(self, X: torch.Tensor, valid: Optional[torch.Tensor]) -> torch.Tensor:
        """The (batch, heads, len, len) self-attention weights of the block's
        inputs X, as an explicit matrix (for pictures)."""
        q, k, _ = self.heads(self.norm_attn(X))
        return self.mode.weights(q, k, valid, self.window)

    def feed_forward(self, X: torch.Tensor) -> torch.Tensor:
        """X + FFN(LN(X))."""
        hidden = self.dropout(F.gelu(self.ffn_in(self.norm_ffn(X))))
        return X + self.dropout(self.ffn_out(hidden))

    def forward(self, X: torch.Tensor, valid: Optional[torch.Tensor], mask=None) -> torch.Tensor:
        X = X + self.dropout(self.attend(self.norm_attn(X), valid, mask))
        return self.feed_forward(X)


class AttentionStack(torch.nn.Module):
    """The torch module behind the attention encoder; its `encode` also serves
    the Transformer rewriter's encoder.

    forward(tokens, index, buckets): `tokens` are all docs' vectors concatenated,
    `index` the row of each token in the bucketed layout (`bucketed_index`),
    `buckets` its ((n_docs, bucket_len), ...) shapes.
    """

    def __init__(self, config: AttentionEncoderConfig):
        super().__init__()
        self.width = config.width
        self.mode = ATTENTION_MODES[config.attention]
        self.window = config.window
        self.blocks = torch.nn.ModuleList(EncoderBlock(config) for _ in range(config.depth))
        self.final_norm = torch.nn.LayerNorm(config.width)
        self.positions = POSITIONS[config.positions](config.width, config.max_length)
        self.input_dropout = torch.nn.Dropout(config.dropout)

    def encode(self, X: torch.Tensor, valid: Optional[torch.Tensor]) -> torch.Tensor:
        """X: (n_docs, len, width); valid: (n_docs, len) bool, None if no padding."""
        X = self.input_dropout(self.positions(X))
        mask = self.mode.shared_mask(valid, X.shape[1], self.window, X.device)
        for block in self.blocks:
            X = block(X, valid, mask)
        return self.final_norm(X)

    def forward(self, tokens: torch.Tensor, index: torch.Tensor, buckets) -> torch.Tensor:
        width = self.width
        n_rows = sum(n * size for n, size in buckets)
        flat = tokens.new_zeros(n_rows, width).index_copy(0, index, tokens)
        is_token = torch.zeros(n_rows, dtype=torch.bool, device=tokens.device)
        is_token[index] = True
        outputs = []
        offset = 0
        for n, size in buckets:
            X = flat[offset : offset + n * size].view(n, size, width)
            valid = is_token[offset : offset + n * size].view(n, size)
            # All docs of the bucket are full length: no mask, faster kernels.
            outputs.append(self.encode(X, None if bool(valid.all()) else valid))
            offset += n * size
        return torch.cat([Y.reshape(-1, width) for Y in outputs]).index_select(0, index)


@contextmanager
def recorded_attention(stack: AttentionStack) -> Iterator[List[torch.Tensor]]:
    """While active, each call of one of `stack`'s blocks appends its
    self-attention weights, (n_docs, heads, len, len), to the list yielded:
    what the encoder attends to, for pictures."""
    records: List[torch.Tensor] = []

    def record(block: EncoderBlock, args, output) -> None:
        with torch.no_grad():
            records.append(block.attention_weights(args[0], args[1]))

    handles = [block.register_forward_hook(record) for block in stack.blocks]
    try:
        yield records
    finally:
        for handle in handles:
            handle.remove()
