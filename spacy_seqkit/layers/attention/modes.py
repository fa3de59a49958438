"""The encoder attention modes, one table (`ATTENTION_MODES`) of functions with
one signature, `(q, k, v, valid, window, dropout_p, mask) -> output`:

- "full": `scaled_dot_product_attention` over the whole doc, O(n²).
- "local": each token attends to its ±window neighbours. The doc is cut into
  blocks; a block's queries attend to the keys of the block and its two
  neighbours under a band mask, so cost and memory are O(n · block).
- "linear": softmax replaced by the kernel φ(x) = elu(x) + 1 (Katharopoulos et
  al. 2020), attention computed as φ(Q) (φ(K)ᵀ V), O(n).

Each mode also writes its weights out as an explicit matrix, for pictures.
Padding never changes a result: masked keys get no weight in any mode, and a
padding query is allowed to see itself so that no softmax row is empty (an
empty row would give NaN, and NaN times a zero weight is still NaN).
"""

import math
from typing import Callable, Dict, NamedTuple, Optional

import torch
import torch.nn.functional as F

# Local attention works on blocks of at least this many tokens: tiny blocks
# make thousands of tiny matrix products, slower than a few wasted keys
# (the band mask still limits each token to ±window).
MIN_LOCAL_BLOCK = 16


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
        torch.arange(n_blocks, device=device)[:, None] * block - block + torch.arange(3 * block, device=device)[None, :]
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

    out = F.scaled_dot_product_attention(qb, neighbourhood(k), neighbourhood(v), attn_mask=mask, dropout_p=dropout_p)
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
