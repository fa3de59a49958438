"""Approximate softmax helpers shared by the rewriter's decoder and word2vec.

One implementation of the two structures word2vec's approximate training needs:

- a Huffman tree over the output units (hierarchical softmax): frequent units get
  short codes, so the expected cost of a training step is O(log V) dot products;
- the unigram^0.75 noise distribution (negative sampling) and the one sampler
  for it (an alias table: O(1) per draw).

Conventions (word2vec's): for unit w with path (points[w, :L], codes[w, :L]),
L = lengths[w], p(w | h) = prod_j sigmoid((1 - 2 * codes[w, j]) * h . node[points[w, j]]).
Inner nodes are numbered 0 .. V-2 in creation order, so the root is V-2. The
padded tails (j >= L) hold code 0 and point 0 and must be masked by the caller.
"""

import heapq
from typing import Optional, Sequence, Tuple, Union

import numpy
import torch

from ..util import check_number

Counts = Union[Sequence[float], numpy.ndarray]


def _as_counts(counts: Counts) -> numpy.ndarray:
    arr = numpy.asarray(counts, dtype="float64")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"'counts' must be a non-empty 1d sequence, got shape {arr.shape}")
    if not numpy.all(numpy.isfinite(arr)) or (arr < 0).any():
        raise ValueError("'counts' must be finite and >= 0")
    return arr


def huffman_codes(counts: Counts) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Build a Huffman tree over units with the given counts.

    Returns (codes, points, lengths): codes (V, max_len) int8 bits from the root
    down, points (V, max_len) int64 inner-node ids from the root down, lengths
    (V,) int64 path lengths. max_len is at least 1 so the arrays are never empty;
    a vocabulary of one unit has length 0 (probability 1). Ties are broken by
    unit index, so the tree is deterministic.
    """
    arr = _as_counts(counts)
    n = arr.size
    # Heap entries (count, order, node): leaves are 0..n-1, inner nodes n..2n-2;
    # `order` keeps the merge order independent of float ties.
    heap = [(float(c), i, i) for i, c in enumerate(arr)]
    heapq.heapify(heap)
    parent = numpy.zeros(2 * n - 1, dtype="int64")
    bit = numpy.zeros(2 * n - 1, dtype="int8")
    next_node = n
    while len(heap) > 1:
        c1, _, a = heapq.heappop(heap)
        c2, _, b = heapq.heappop(heap)
        parent[a], bit[a] = next_node, 0
        parent[b], bit[b] = next_node, 1
        heapq.heappush(heap, (c1 + c2, next_node, next_node))
        next_node += 1
    root = 2 * n - 2
    paths = []
    for leaf in range(n):
        node, code, point = leaf, [], []
        while node != root:
            code.append(int(bit[node]))
            node = int(parent[node])
            point.append(node - n)
        paths.append((code[::-1], point[::-1]))
    lengths = numpy.asarray([len(c) for c, _ in paths], dtype="int64")
    max_len = max(1, int(lengths.max()))
    codes = numpy.zeros((n, max_len), dtype="int8")
    points = numpy.zeros((n, max_len), dtype="int64")
    for i, (code, point) in enumerate(paths):
        codes[i, : len(code)] = code
        points[i, : len(point)] = point
    return codes, points, lengths


def noise_distribution(counts: Counts, power: float = 0.75) -> numpy.ndarray:
    """The unigram distribution raised to `power` and renormalised (float64).

    Units with count 0 get probability 0; if every count is 0 the distribution is
    uniform, so sampling stays defined.
    """
    arr = _as_counts(counts)
    check_number("power", power, 0.0)
    weights = numpy.where(arr > 0, arr**power, 0.0)
    total = weights.sum()
    if total <= 0:
        return numpy.full(arr.size, 1.0 / arr.size)
    return weights / total


def alias_table(probs: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Walker's alias table (Vose's construction): draw slot i uniformly, keep
    it with probability accept[i], else take alias[i]. Exact for any `probs`."""
    probs = numpy.asarray(probs, dtype="float64")
    n = probs.size
    scaled = probs / probs.sum() * n
    accept = numpy.ones(n)
    alias = numpy.arange(n)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, big = small.pop(), large.pop()
        accept[s], alias[s] = scaled[s], big
        scaled[big] -= 1.0 - scaled[s]
        (small if scaled[big] < 1.0 else large).append(big)
    # Leftovers are 1 up to rounding.
    return accept, alias


class AliasSampler(torch.nn.Module):
    """Draws unit ids from a fixed distribution with an alias table: O(1) per
    draw, a few times faster than a binary search over the CDF. The noise
    sampler of negative sampling, in word2vec and in the rewriter's output
    layer. Its tables are buffers (they follow the module to its device) but
    not state: they are rebuilt from the counts."""

    accept: torch.Tensor
    alias: torch.Tensor

    def __init__(self, probs: numpy.ndarray):
        super().__init__()
        probs = numpy.asarray(probs, dtype="float64")
        if probs.ndim != 1 or probs.size == 0 or (probs < 0).any() or probs.sum() <= 0:
            raise ValueError("'probs' must be a non-empty 1d array of non-negative weights")
        accept, alias = alias_table(probs)
        self.n = probs.size
        self.register_buffer("accept", torch.as_tensor(accept, dtype=torch.float32), persistent=False)
        self.register_buffer("alias", torch.as_tensor(alias, dtype=torch.int64), persistent=False)

    @classmethod
    def from_counts(cls, counts: Counts, power: float = 0.75) -> "AliasSampler":
        return cls(noise_distribution(counts, power))

    def forward(self, shape, generator: Optional[torch.Generator] = None) -> torch.Tensor:
        """int64 unit ids of the given shape, drawn with `generator` (None:
        torch's global generator, seeded by thinc's fix_random_seed)."""
        device = self.accept.device
        slot = torch.randint(0, self.n, shape, generator=generator, device=device)
        u = torch.rand(shape, generator=generator, device=device)
        return torch.where(u < self.accept.take(slot), slot, self.alias.take(slot))
