"""Output layers of the rewriter's decoder: full softmax, negative sampling and
hierarchical softmax, in one table (`OUTPUT_LAYERS`) of classes with one
constructor signature, `(width, n_units, counts, n_samples)`.

Each layer maps decoder outputs `o` (rows, width) to

- `log_probs(o)`: log-probabilities over the whole target vocabulary (inference);
- `probs(o)`: the same as probabilities;
- `target_log_prob(o, y)`: log p(y | o) of the gold units only (copy mechanism);
- `loss(o, y, label_smoothing)`: the per-row training loss;

and declares what it supports, so that callers read capabilities instead of
comparing names: `normalised_in_training` (its training computes normalised
probabilities, which the copy mechanism mixes), `label_smoothing`, and
`unit_vectors` (it scores with one (width,) vector per unit, which `tie`
can share with the target embedding, as the Transformer does).

`negative_sampling` trains with K noise units per gold unit, drawn from the
unigram^0.75 distribution, and predicts with the full softmax over the same
weights; `hierarchical` walks a Huffman tree (word2vec's approximate training):
a step costs O(log V) dot products per unit instead of O(V).
"""

from typing import ClassVar, Dict, Literal, Sequence, Type, Union

import numpy
import torch
import torch.nn.functional as F

from ..util import check_choice
from .approx_softmax import AliasSampler, huffman_codes

Counts = Sequence[float]


class FullSoftmax(torch.nn.Module):
    """A linear layer and a softmax over the whole vocabulary."""

    normalised_in_training = True
    label_smoothing = True
    unit_vectors: ClassVar[Literal[True]] = True

    def __init__(self, width: int, n_units: int, counts: Counts = (), n_samples: int = 0):
        super().__init__()
        self.proj = torch.nn.Linear(width, n_units)

    def tie(self, weight: torch.nn.Parameter) -> None:
        """Score with `weight` (n_units, width), shared with a target embedding."""
        self.proj.weight = weight

    def log_probs(self, o: torch.Tensor) -> torch.Tensor:
        return F.log_softmax(self.proj(o), dim=-1)

    def probs(self, o: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.proj(o), -1)

    def target_log_prob(self, o: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.log_probs(o).gather(1, y[:, None])[:, 0]

    def loss(self, o: torch.Tensor, y: torch.Tensor, label_smoothing: float = 0.0):
        return F.cross_entropy(self.proj(o), y, reduction="none", label_smoothing=label_smoothing)


class NegativeSampling(FullSoftmax):
    """Negative sampling: -log σ(s_y) - Σ_k log σ(-s_noise_k) in training; the
    full softmax over the same weights at inference."""

    normalised_in_training = False
    label_smoothing = False

    def __init__(self, width: int, n_units: int, counts: Counts = (), n_samples: int = 0):
        super().__init__(width, n_units)
        self.n_samples = n_samples
        self.noise = AliasSampler.from_counts(counts)

    def loss(self, o: torch.Tensor, y: torch.Tensor, label_smoothing: float = 0.0):
        W, b = self.proj.weight, self.proj.bias
        pos = (o * W[y]).sum(-1) + b[y]
        # One draw per gold unit, as word2vec does; the global torch RNG keeps
        # training seeded by thinc's fix_random_seed.
        noise = self.noise((o.shape[0], self.n_samples))
        neg = torch.bmm(W[noise], o[:, :, None])[:, :, 0] + b[noise]
        return -F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)


class HierarchicalSoftmax(torch.nn.Module):
    """p(w | o) = Π_j σ((1 - 2 code_j) (o · node_j + b_j)) along w's Huffman path."""

    normalised_in_training = True
    label_smoothing = False
    unit_vectors: ClassVar[Literal[False]] = False  # its vectors are the tree's inner nodes
    points: torch.Tensor
    signs: torch.Tensor

    def __init__(self, width: int, n_units: int, counts: Counts = (), n_samples: int = 0):
        super().__init__()
        codes, points, lengths = huffman_codes(counts)
        n_nodes = max(n_units - 1, 1)
        self.nodes = torch.nn.Parameter(torch.zeros(n_nodes, width))
        self.bias = torch.nn.Parameter(torch.zeros(n_nodes))
        torch.nn.init.normal_(self.nodes, std=width**-0.5)
        mask = numpy.arange(codes.shape[1])[None, :] < lengths[:, None]
        # Signs +1 for code 0, -1 for code 1; padded positions contribute log 1 = 0.
        self.register_buffer("points", torch.as_tensor(points), persistent=False)
        self.register_buffer(
            "signs", torch.as_tensor((1.0 - 2.0 * codes) * mask, dtype=torch.float32), persistent=False
        )

    def target_log_prob(self, o: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        points = self.points[y]
        scores = torch.bmm(self.nodes[points], o[:, :, None])[:, :, 0] + self.bias[points]
        signs = self.signs[y]
        return (F.logsigmoid(signs * scores) * (signs != 0)).sum(-1)

    def log_probs(self, o: torch.Tensor) -> torch.Tensor:
        scores = o @ self.nodes.T + self.bias  # (rows, n_nodes)
        path_scores = scores[:, self.points]  # (rows, V, max_len)
        return (F.logsigmoid(self.signs * path_scores) * (self.signs != 0)).sum(-1)

    def probs(self, o: torch.Tensor) -> torch.Tensor:
        return self.log_probs(o).exp()

    def loss(self, o: torch.Tensor, y: torch.Tensor, label_smoothing: float = 0.0):
        return -self.target_log_prob(o, y)


# NegativeSampling is a FullSoftmax.
OutputLayer = Union[FullSoftmax, HierarchicalSoftmax]

OUTPUT_LAYERS: Dict[str, Type[OutputLayer]] = {
    "softmax": FullSoftmax,
    "negative_sampling": NegativeSampling,
    "hierarchical": HierarchicalSoftmax,
}
# Older names still accepted in configs: `sampled` was negative sampling all along.
OUTPUT_LAYER_ALIASES = {"sampled": "negative_sampling"}


def output_layer_name(name: str) -> str:
    """The table's name for `name` (aliases resolved); a ValueError naming
    'output_layer' for an unknown one."""
    check_choice("output_layer", name, [*OUTPUT_LAYERS, *OUTPUT_LAYER_ALIASES])
    return OUTPUT_LAYER_ALIASES.get(name, name)


def output_layer_class(name: str) -> Type[OutputLayer]:
    return OUTPUT_LAYERS[output_layer_name(name)]


def build_output_layer(name: str, width: int, n_units: int, counts: Counts, n_samples: int) -> OutputLayer:
    """The output layer called `name` in `OUTPUT_LAYERS` (or an alias)."""
    return output_layer_class(name)(width, n_units, counts, n_samples)
