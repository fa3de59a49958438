"""Attention encoder: a pre-LayerNorm transformer encoder over token vectors
(the encoder's self-attention; the rewriter's decoder attention is another
thing, in seq2seq/attention.py).

Docs are grouped into buckets of similar length (`convert.bucketed_index`), each
bucket a padded (n_docs, bucket_len, width) batch with a key padding mask, so
one long doc does not pad every short doc to its length. Three attention modes,
in one table (`ATTENTION_MODES`) of functions with one signature,
`(q, k, v, valid, window, dropout_p, mask) -> output`:

- "full": `scaled_dot_product_attention` over the whole doc, O(n²).
- "local": each token attends to its ±window neighbours. The doc is cut into
  blocks; a block's queries attend to the keys of the block and its two
  neighbours under a band mask, so cost and memory are O(n · block).
- "linear": softmax replaced by the kernel φ(x) = elu(x) + 1 (Katharopoulos et
  al. 2020), attention computed as φ(Q) (φ(K)ᵀ V), O(n).

Positions are another table (`POSITIONS`): sinusoidal, learned or none.

Padding never changes a result: masked keys get no weight in any mode, and a
padding query is allowed to see itself so that no softmax row is empty (an
empty row would give NaN, and NaN times a zero weight is still NaN).
"""
import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Type

import torch
import torch.nn.functional as F
from thinc.api import Model, PyTorchWrapper_v2
from thinc.types import Floats2d

from ..util import check_choice, check_positive_int, check_probability
from .convert import (
    bucketed_index,
    check_widths,
    list2tensor_inputs,
    tensor2list_outputs,
    with_empty_guard,
)

# Local attention works on blocks of at least this many tokens: tiny blocks
# make thousands of tiny matrix products, slower than a few wasted keys
# (the band mask still limits each token to ±window).
MIN_LOCAL_BLOCK = 16


def sinusoidal_positions(length: int, width: int, device=None, dtype=None):
    """The Transformer paper's encoding: PE[pos, 2i] = sin(pos / 10000^(2i/width)),
    PE[pos, 2i+1] = cos(pos / 10000^(2i/width)). Returns a (length, width) tensor."""
    pos = torch.arange(length, dtype=torch.float64, device=device)[:, None]
    two_i = torch.arange(0, width, 2, dtype=torch.float64, device=device)
    angles = pos / torch.pow(10000.0, two_i / width)
    pe = torch.zeros(length, width, dtype=torch.float64, device=device)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles[:, : width // 2])
    return pe.to(dtype or torch.get_default_dtype())


def full_attention(q, k, v, valid, window: int = 0, dropout_p: float = 0.0, mask=None):
    """q, k, v: (batch, heads, len, head_width); valid: (batch, len) bool or None."""
    mask = None if valid is None else valid[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p)


def local_block_size(length: int, window: int) -> int:
    """Block size for local attention; 0 means "short doc, one band-masked
    L×L product", which is no larger than three blocks would be."""
    block = max(window, MIN_LOCAL_BLOCK)
    return 0 if length <= 3 * block else block


def local_attention_mask(valid, length: int, window: int, device=None):
    """The boolean mask `local_attention` needs, built once per batch and shared
    by every layer. valid: (batch, len) bool, or None if nothing is padded.
    A query may always see itself, so that no row of a padded query is empty."""
    if valid is None:
        valid = torch.ones(1, length, dtype=torch.bool, device=device)
    device = valid.device
    block = local_block_size(length, window)
    if block == 0:
        pos = torch.arange(length, device=device)
        band = (pos[:, None] - pos[None, :]).abs() <= window
        allowed = (band[None] & valid[:, None, :]) | torch.eye(length, dtype=torch.bool, device=device)
        return allowed[:, None]  # (batch, 1, len, len)
    n_blocks = -(-length // block)
    tail = n_blocks * block - length
    q_pos = torch.arange(n_blocks * block, device=device).view(n_blocks, block, 1)
    k_pos = (
        torch.arange(n_blocks, device=device)[:, None] * block
        - block
        + torch.arange(3 * block, device=device)[None, :]
    ).view(n_blocks, 1, 3 * block)
    vp = F.pad(valid, (block, tail + block), value=False).view(valid.shape[0], n_blocks + 2, block)
    k_valid = torch.cat([vp[:, :-2], vp[:, 1:-1], vp[:, 2:]], dim=2)  # (batch, n_blocks, 3·block)
    band = (k_pos - q_pos).abs() <= window
    allowed = (band[None] & k_valid[:, :, None, :]) | (k_pos == q_pos)[None]
    return allowed[:, None]  # (batch, 1, n_blocks, block, 3·block)


def local_attention(q, k, v, valid, window: int = 0, dropout_p: float = 0.0, mask=None):
    """Each query attends to keys within ±window positions, computed by blocks:
    block i's queries see blocks i-1, i, i+1 (band-masked), never an n×n matrix
    (short docs, up to three blocks long, take one small band-masked product)."""
    B, H, L, D = q.shape
    if mask is None:
        mask = local_attention_mask(valid, L, window, q.device)
    block = local_block_size(L, window)
    if block == 0:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p)
    n_blocks = -(-L // block)
    tail = n_blocks * block - L
    qb = F.pad(q, (0, 0, 0, tail)).view(B, H, n_blocks, block, D)

    def neighbourhood(x):
        # One zero block before and after, then [previous, own, next] per block.
        xp = F.pad(x, (0, 0, block, tail + block)).view(B, H, n_blocks + 2, block, D)
        return torch.cat([xp[:, :, :-2], xp[:, :, 1:-1], xp[:, :, 2:]], dim=3)

    out = F.scaled_dot_product_attention(
        qb, neighbourhood(k), neighbourhood(v), attn_mask=mask, dropout_p=dropout_p
    )
    return out.reshape(B, H, n_blocks * block, D)[:, :, :L]


def linear_attention(q, k, v, valid, window: int = 0, dropout_p: float = 0.0, mask=None, *, eps: float = 1e-6):
    """Non-causal linear attention with φ(x) = elu(x) + 1; masked keys add
    nothing to the sums. O(len · head_width²) instead of O(len²). No dropout:
    there are no attention weights to drop."""
    fq = F.elu(q) + 1.0
    fk = F.elu(k) + 1.0
    if valid is not None:
        fk = fk * valid[:, None, :, None].to(fk.dtype)
    kv = torch.einsum("bhld,bhle->bhde", fk, v)
    z = fk.sum(dim=2)
    numerator = torch.einsum("bhld,bhde->bhle", fq, kv)
    denominator = torch.einsum("bhld,bhd->bhl", fq, z).clamp_min(eps)
    return numerator / denominator[..., None]


def no_shared_mask(valid, length: int, window: int, device=None) -> None:
    return None


def softmax_weights(q, k, valid, window: int = 0):
    """The weights of full attention, written out: (batch, heads, len, len)."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if valid is not None:
        scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
    return torch.softmax(scores, -1)


def band_weights(q, k, valid, window: int = 0):
    """The weights of local attention, written out (±window, padding masked,
    a query always sees itself)."""
    length = q.shape[2]
    pos = torch.arange(length, device=q.device)
    allowed = (pos[:, None] - pos[None, :]).abs() <= window
    if valid is not None:
        allowed = allowed[None] & valid[:, None, :]
    allowed = allowed | torch.eye(length, dtype=torch.bool, device=q.device)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed.view(-1, 1, length, length), float("-inf")), -1)


def kernel_weights(q, k, valid, window: int = 0, *, eps: float = 1e-6):
    """The weights linear attention applies implicitly: φ(q)·φ(k) normalised."""
    scores = (F.elu(q) + 1.0) @ (F.elu(k) + 1.0).transpose(-1, -2)
    if valid is not None:
        scores = scores * valid[:, None, None, :].to(scores.dtype)
    return scores / scores.sum(-1, keepdim=True).clamp_min(eps)


class AttentionMode(NamedTuple):
    """An encoder attention mode: `attend(q, k, v, valid, window, dropout_p,
    mask)`; `weights(q, k, valid, window)`, the same attention as an explicit
    (batch, heads, len, len) matrix, for pictures (O(n²)); and
    `shared_mask(valid, length, window, device)`, a mask built once per batch
    and shared by every layer (or None)."""

    attend: Callable[..., torch.Tensor]
    weights: Callable[..., torch.Tensor]
    shared_mask: Callable[..., Optional[torch.Tensor]] = no_shared_mask
    uses_window: bool = False


ATTENTION_MODES: Dict[str, AttentionMode] = {
    "full": AttentionMode(full_attention, softmax_weights),
    "local": AttentionMode(local_attention, band_weights, local_attention_mask, uses_window=True),
    "linear": AttentionMode(linear_attention, kernel_weights),
}


class SinusoidalPositions(torch.nn.Module):
    """Adds the Transformer paper's fixed encoding: any length."""

    bounded = False

    def __init__(self, width: int, max_length: int):
        super().__init__()
        self.width = width

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """X (batch, len, width) at positions offset, offset + 1, ..."""
        pe = sinusoidal_positions(offset + X.shape[1], self.width, X.device, X.dtype)
        return X + pe[offset:]


class LearnedPositions(torch.nn.Embedding):
    """Adds a learned vector per position, up to `max_length` (an Embedding,
    so its weight keeps the name and the random draws it always had)."""

    bounded = True

    def __init__(self, width: int, max_length: int):
        super().__init__(max_length, width)
        torch.nn.init.normal_(self.weight, std=0.02)

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return X + self.weight[offset : offset + X.shape[1]]


class NoPositions(torch.nn.Module):
    """Adds nothing: the encoder sees a bag of tokens."""

    bounded = False

    def __init__(self, width: int, max_length: int):
        super().__init__()

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return X


POSITIONS: Dict[str, Type[torch.nn.Module]] = {
    "sinusoidal": SinusoidalPositions,
    "learned": LearnedPositions,
    "none": NoPositions,
}


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
        width, n_heads = self.width, self.n_heads
        if width % n_heads != 0:
            raise ValueError(
                f"'width' ({width}) must be divisible by 'n_heads' ({n_heads}); "
                f"allowed n_heads for this width: "
                f"{[h for h in range(1, min(width, 64) + 1) if width % h == 0]}"
            )
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
    """The torch module behind the encoder.

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


def AttentionEncoder(config: AttentionEncoderConfig) -> Model[List[Floats2d], List[Floats2d]]:
    """Build the encoder as a thinc Model over lists of (n_tokens, width) arrays."""
    torch_layer = PyTorchWrapper_v2(
        AttentionStack(config),
        convert_inputs=list2tensor_inputs(bucketed_index),
        convert_outputs=tensor2list_outputs,
    )
    return Model(
        "seqkit_attention_encoder",
        forward,
        init=init,
        layers=[torch_layer],
        dims={"nI": config.width, "nO": config.width},
        attrs={
            "attention": config.attention,
            "positions": config.positions,
            "window": config.window,
            "max_length": config.max_length if POSITIONS[config.positions].bounded else None,
        },
    )


def check_inputs(model: Model, Xs: List[Floats2d]) -> None:
    check_widths(model, Xs, "AttentionEncoder")
    max_length = model.attrs["max_length"]
    if max_length is not None:
        longest = max(X.shape[0] for X in Xs)
        if longest > max_length:
            raise ValueError(
                f"AttentionEncoder: a doc has {longest} tokens but learned positions "
                f"cover only max_length={max_length}; raise 'max_length' or use "
                "positions = \"sinusoidal\" (any length)"
            )


def forward(model: Model, Xs: List[Floats2d], is_train: bool):
    if not any(X.shape[0] for X in Xs):
        return with_empty_guard(model, Xs, is_train, model.get_dim("nO"))
    check_inputs(model, Xs)
    return model.layers[0](Xs, is_train)


def init(model: Model, X=None, Y=None) -> None:
    if X is not None and len(X):
        check_inputs(model, X)
