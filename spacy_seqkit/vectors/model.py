"""Word2vec parameters and the two approximate losses as batched SGD steps.

Both losses reduce to the same step: a hidden vector h per example (a context
word's input vector for skip-gram, the mean of the context's input vectors for
CBOW) is scored against the center word's T output rows with binary labels,

    loss = -sum_t mask_t * log sigmoid(sign_t * h . out[rows_t])

- negative sampling: rows = [target, K noise words], labels = [1, 0, ..., 0];
- hierarchical softmax: rows = inner nodes on the target's Huffman path,
  labels = 1 - code (word2vec's convention), mask = the path's length.

The gradients are applied in place with `index_add_` on plain tensors (manual
SGD, like word2vec.c): only the touched rows are written, never a |V| x dim
gradient.
"""

from typing import TYPE_CHECKING, Dict, Type, Union

import numpy

from ..layers.approx_softmax import AliasSampler, huffman_codes, noise_distribution
from ..util import check_choice, check_positive_int

if TYPE_CHECKING:
    import torch

MAX_EXP = 6.0


class NegativeSamplingRows:
    """Negative sampling's output rows: one per word; an example is scored
    against its target's row (label 1) and K noise words drawn for it alone
    (label 0), from unigram^0.75 with the alias-table sampler."""

    per_word = False  # each example has its own rows (its noise words)

    def __init__(self, counts: numpy.ndarray, device):
        self.noise_probs = noise_distribution(counts, power=0.75)
        self.noise = AliasSampler(self.noise_probs).to(device)

    @staticmethod
    def n_rows(n_words: int) -> int:
        return n_words

    def widths(self, words: numpy.ndarray, negative: int) -> numpy.ndarray:
        """Output rows per example of each word: the target and K noise words."""
        return numpy.full(words.shape, negative + 1, dtype="int64")

    def rows(self, targets, generator, negative: int, width: int, full: bool):
        import torch

        noise = self.noise((targets.shape[0], negative), generator)
        rows = torch.cat([targets[:, None], noise], dim=1)
        # word2vec skips a noise draw equal to the target rather than pushing it away.
        mask = (rows != targets[:, None]).float()
        mask[:, 0] = 1.0
        labels = torch.zeros((1, negative + 1), device=targets.device)  # broadcast over the batch
        labels[0, 0] = 1.0
        return rows, labels, mask


class HuffmanPathRows:
    """Hierarchical softmax's output rows: one per inner node of the Huffman
    tree; a word's rows are the nodes on its path, labels 1 - code
    (word2vec's convention)."""

    per_word = True  # every example of a word has the same rows, its path

    def __init__(self, counts: numpy.ndarray, device):
        import torch

        codes, points, lengths = huffman_codes(counts)
        self.path_lengths = lengths
        self.codes = torch.as_tensor(codes, dtype=torch.int64, device=device)
        self.points = torch.as_tensor(points, dtype=torch.int64, device=device)
        self.lengths = torch.as_tensor(lengths, dtype=torch.int64, device=device)
        # Labels are 1 - code; padded tails get weight 0.
        steps = torch.arange(points.shape[1], device=device)
        self.path_mask = (steps[None, :] < self.lengths[:, None]).float()
        self.path_labels = (1 - self.codes).float()

    @staticmethod
    def n_rows(n_words: int) -> int:
        return n_words - 1

    def widths(self, words: numpy.ndarray, negative: int) -> numpy.ndarray:
        """Output rows per example of each word: its path length."""
        return self.path_lengths[words]

    def rows(self, targets, generator, negative: int, width: int, full: bool):
        # Trim the padding to the longest path in this batch.
        width = width or max(1, int(self.lengths[targets].max()))
        # index_select on the narrowed tables: much cheaper than advanced indexing.
        mask = None if full else self.path_mask[:, :width].index_select(0, targets)
        return (
            self.points[:, :width].index_select(0, targets),
            self.path_labels[:, :width].index_select(0, targets),
            mask,
        )

    def log_probs(self, output, h) -> "torch.Tensor":
        """log p(w | h) for every word w."""
        import torch

        scores = output[self.points] @ h  # (V, L)
        signs = 2 * self.path_labels - 1
        return (torch.nn.functional.logsigmoid(signs * scores) * self.path_mask).sum(dim=1)


# The output rows of each loss, by its name in Word2VecConfig.
OUTPUT_ROWS: Dict[str, Union[Type[NegativeSamplingRows], Type[HuffmanPathRows]]] = {
    "ns": NegativeSamplingRows,
    "hs": HuffmanPathRows,
}


class Word2VecModel:
    """Input vectors (the word vectors we keep) and output vectors (one per
    word for negative sampling, one per inner Huffman node for hierarchical
    softmax), plus the loss's output rows (`rows`, from OUTPUT_ROWS)."""

    def __init__(self, counts, dim: int = 100, loss: str = "ns", seed: int = 0, device: str = "cpu"):
        import torch

        counts = numpy.asarray(counts, dtype="int64")
        check_positive_int("dim", dim)
        check_choice("loss", loss, OUTPUT_ROWS)
        if counts.size < 2:
            raise ValueError(f"word2vec needs at least 2 words in the vocabulary, got {counts.size}")
        self.dim = dim
        self.loss = loss
        self.n_words = int(counts.size)
        gen = torch.Generator().manual_seed(seed)
        # gensim 4's initialisation: inputs uniform in [-1/dim, 1/dim) (word2vec.c
        # uses half that; the wider one learned slightly better in our benchmark),
        # outputs 0.
        self.input = ((2 * torch.rand(self.n_words, dim, generator=gen) - 1) / dim).to(device)
        self.output = torch.zeros(OUTPUT_ROWS[loss].n_rows(self.n_words), dim, device=device)
        self.rows: Union[NegativeSamplingRows, HuffmanPathRows] = OUTPUT_ROWS[loss](counts, device)

    @property
    def device(self):
        return self.input.device

    def sample_noise(self, shape, generator) -> "torch.Tensor":
        """Noise word ids drawn from unigram^0.75 (negative sampling)."""
        if not isinstance(self.rows, NegativeSamplingRows):
            raise ValueError("sample_noise needs a model with loss='ns'")
        return self.rows.noise(shape, generator)

    def output_rows(self, targets, generator, negative: int, width: int = 0, full: bool = False):
        """(rows, labels, mask) of shape (B, T) for the targets under this loss
        (labels may be (1, T), broadcast over the batch). For hierarchical
        softmax, `width` is the longest path among the targets (0: look it up)
        and `full` says every path has that length, so no mask is needed (None)."""
        return self.rows.rows(targets, generator, negative, width, full)

    def log_prob_hs(self, center: int) -> "torch.Tensor":
        """log p(w | center) for every word w under hierarchical softmax (skip-gram)."""
        if not isinstance(self.rows, HuffmanPathRows):
            raise ValueError("log_prob_hs needs a model with loss='hs'")
        return self.rows.log_probs(self.output, self.input[center])

    def vectors(self) -> numpy.ndarray:
        return self.input.detach().cpu().numpy().copy()


def window_step(model: Word2VecModel, parts, lr: float, cap: float):
    """One SGD step over parts of G groups of P input vectors sharing T output rows.

    Each part is (inputs (G, P, d), in_mask (G, P), rows, labels, out_mask
    (G, T), input_ids (G, P) or None); parts differ only in shape (the caller
    splits a step by path length and input count to avoid padding), and all
    are scored against the same parameters, so splitting does not change the
    step. Skip-gram groups are a center's contexts, or several pairs of one
    center word under hierarchical softmax (word2vec.c scores each context
    word against the center's output rows; with negative sampling a window
    shares its K noise words, as in Ji et al. 2016's HogBatch); CBOW groups
    hold context means. A mask of None means no padding on that side.
    Updates the output rows in place and returns (per part the lr-scaled
    gradient of its inputs, summed loss).

    An output row hit n > cap times in the step (the Huffman root, a frequent
    word) gets its summed update scaled by cap / n: sequential SGD would have
    saturated long before n identical-direction updates, and the plain sum
    diverges with large batches. Inputs with `input_ids` get the same cap
    (scaling g, G*P*T numbers, rather than the G*P*d gradient rows).
    """
    import torch
    from torch.nn.functional import embedding, logsigmoid

    out = model.output
    scored = []
    loss: Union[float, torch.Tensor] = 0.0
    for inputs, in_mask, rows, labels, out_mask, _ in parts:
        W = embedding(rows, out)  # (G, T, d)
        scores = torch.bmm(inputs, W.transpose(1, 2))  # (G, P, T)
        # word2vec.c / gensim leave a score outside (-MAX_EXP, MAX_EXP) untouched.
        weight = (scores.abs() < MAX_EXP).to(scores.dtype)
        if in_mask is not None:
            weight.mul_(in_mask.unsqueeze(2))
        if out_mask is not None:
            weight.mul_(out_mask.unsqueeze(1))
        # d loss / d score = sigmoid(score) - label; word2vec's g = (label - sigmoid) * lr
        g = (labels.unsqueeze(1) - torch.sigmoid(scores)).mul_(weight).mul_(lr)
        loss = loss - (logsigmoid((2 * labels.unsqueeze(1) - 1) * scores) * weight).sum()
        scored.append((W, g))
    out_scale = in_scale = None
    if cap:
        # Each output row of a group is hit once per valid input of the group.
        hit_rows, hit_weights = [], []
        for inputs, in_mask, rows, _, out_mask, _ in parts:
            if in_mask is not None:
                per_group = in_mask.sum(1, keepdim=True).expand(rows.shape)
            else:
                per_group = torch.full(rows.shape, float(inputs.shape[1]), dtype=inputs.dtype, device=out.device)
            weights = per_group if out_mask is None else out_mask * per_group
            hit_rows.append(rows.reshape(-1))
            hit_weights.append(weights.reshape(-1))
        hits = torch.bincount(_cat(hit_rows), weights=_cat(hit_weights), minlength=out.shape[0])
        out_scale = _cap_scale(hits, cap, out.dtype)
        with_ids = [part for part in parts if part[5] is not None]
        if with_ids:
            ids = _cat([part[5].reshape(-1) for part in with_ids])
            weights = None
            if any(part[1] is not None for part in with_ids):
                weights = _cat(
                    [
                        (
                            part[1]
                            if part[1] is not None
                            else torch.ones(part[5].shape, dtype=out.dtype, device=out.device)
                        ).reshape(-1)
                        for part in with_ids
                    ]
                )
            in_scale = _cap_scale(torch.bincount(ids, weights=weights, minlength=model.n_words), cap, out.dtype)
    grads = []
    for (W, g), (inputs, _, rows, _, _, input_ids) in zip(scored, parts):
        g_in = g if in_scale is None or input_ids is None else g * in_scale.take(input_ids).unsqueeze(2)
        grads.append(torch.bmm(g_in, W))  # (G, P, d)
        g_out = g.transpose(1, 2)  # (G, T, P)
        if out_scale is not None:
            g_out = g_out * out_scale.take(rows).unsqueeze(2)
        # One input per group (CBOW): the gradient is an outer product, cheaper
        # broadcast than as a K=1 matrix product.
        grad_out = g_out * inputs if inputs.shape[1] == 1 else torch.bmm(g_out, inputs)  # (G, T, d)
        out.index_add_(0, rows.reshape(-1), grad_out.reshape(-1, out.shape[1]))
    return grads, loss


def _cat(tensors):
    import torch

    return tensors[0] if len(tensors) == 1 else torch.cat(tensors)


def _cap_scale(hits, cap: float, dtype):
    """min(1, cap / hits) per row (1 for rows not hit)."""
    return cap / hits.to(dtype).clamp(min=cap)


def add_to_inputs(model: Word2VecModel, ids, grads, cap: float, weights=None) -> None:
    """Scatter-add gradient rows into the input vectors, with the same cap on
    rows that occur more than `cap` times in the step (occurrences counted
    with `weights`, so zero-gradient padding rows do not count)."""
    import torch

    if cap:
        hits = torch.bincount(ids, weights=weights, minlength=model.n_words)
        grads = grads * _cap_scale(hits, cap, grads.dtype).take(ids).unsqueeze(1)
    model.input.index_add_(0, ids, grads)
