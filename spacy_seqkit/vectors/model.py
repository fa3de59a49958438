"""Word2vec parameters and the two approximate losses as batched SGD steps.

Both losses reduce to the same step: a hidden vector h per example (the center
word's input vector for skip-gram, the mean of the context's input vectors for
CBOW) is scored against T output rows with binary labels,

    loss = -sum_t mask_t * log sigmoid(sign_t * h . out[rows_t])

- negative sampling: rows = [target, K noise words], labels = [1, 0, ..., 0];
- hierarchical softmax: rows = inner nodes on the target's Huffman path,
  labels = 1 - code (word2vec's convention), mask = the path's length.

The gradients are applied in place with `index_add_` on plain tensors (manual
SGD, like word2vec.c): only the touched rows are written, never a |V| x dim
gradient.
"""
import numpy

from ..layers.approx_softmax import huffman_codes, noise_distribution
from ..util import check_choice, check_positive_int

MAX_EXP = 6.0
MODELS = ("skipgram", "cbow")
LOSSES = ("ns", "hs")


def alias_table(probs: numpy.ndarray):
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
        s, l = small.pop(), large.pop()
        accept[s], alias[s] = scaled[s], l
        scaled[l] -= 1.0 - scaled[s]
        (small if scaled[l] < 1.0 else large).append(l)
    # Leftovers are 1 up to rounding.
    return accept, alias


class Word2VecModel:
    """Input vectors (the word vectors we keep) and output vectors (one per
    word for negative sampling, one per inner Huffman node for hierarchical
    softmax), plus the loss's lookup structures."""

    def __init__(self, counts, dim: int = 100, loss: str = "ns", seed: int = 0, device: str = "cpu"):
        import torch

        counts = numpy.asarray(counts, dtype="int64")
        check_positive_int("dim", dim)
        check_choice("loss", loss, LOSSES)
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
        n_out = self.n_words if loss == "ns" else self.n_words - 1
        self.output = torch.zeros(n_out, dim, device=device)
        if loss == "ns":
            self.noise_probs = noise_distribution(counts, power=0.75)
            accept, alias = alias_table(self.noise_probs)
            self.noise_accept = torch.as_tensor(accept, dtype=torch.float32, device=device)
            self.noise_alias = torch.as_tensor(alias, dtype=torch.int64, device=device)
        else:
            codes, points, lengths = huffman_codes(counts)
            self.codes = torch.as_tensor(codes, dtype=torch.int64, device=device)
            self.points = torch.as_tensor(points, dtype=torch.int64, device=device)
            self.lengths = torch.as_tensor(lengths, dtype=torch.int64, device=device)
            # Labels are 1 - code; padded tails get weight 0.
            steps = torch.arange(points.shape[1], device=device)
            self.path_mask = (steps[None, :] < self.lengths[:, None]).float()
            self.path_labels = (1 - self.codes).float()

    @property
    def device(self):
        return self.input.device

    def sample_noise(self, shape, generator) -> "torch.Tensor":  # noqa: F821
        """Noise word ids drawn from unigram^0.75 (alias method: O(1) per draw,
        a few times faster than a binary search over the CDF)."""
        import torch

        slot = torch.randint(0, self.n_words, shape, generator=generator, device=self.device)
        u = torch.rand(shape, generator=generator, device=self.device)
        return torch.where(u < self.noise_accept[slot], slot, self.noise_alias[slot])

    def output_rows(self, targets, generator, negative: int):
        """(rows, labels, mask) of shape (B, T) for the targets under this loss
        (labels may be (1, T), broadcast over the batch)."""
        import torch

        if self.loss == "hs":
            # Trim the padding to the longest path in this batch.
            width = max(1, int(self.lengths[targets].max()))
            return (
                self.points[targets, :width],
                self.path_labels[targets, :width],
                self.path_mask[targets, :width],
            )
        noise = self.sample_noise((targets.shape[0], negative), generator)
        rows = torch.cat([targets[:, None], noise], dim=1)
        labels = torch.zeros((1, negative + 1), device=self.device)  # broadcast over the batch
        labels[0, 0] = 1.0
        # word2vec skips a noise draw equal to the target rather than pushing it away.
        mask = torch.cat([torch.ones_like(targets[:, None]), noise != targets[:, None]], dim=1).float()
        return rows, labels, mask

    def log_prob_hs(self, center: int) -> "torch.Tensor":  # noqa: F821
        """log p(w | center) for every word w under hierarchical softmax (skip-gram)."""
        import torch

        if self.loss != "hs":
            raise ValueError("log_prob_hs needs a model with loss='hs'")
        h = self.input[center]
        scores = self.output[self.points] @ h  # (V, L)
        signs = 2 * self.path_labels - 1
        return (torch.nn.functional.logsigmoid(signs * scores) * self.path_mask).sum(dim=1)

    def vectors(self) -> numpy.ndarray:
        return self.input.detach().cpu().numpy().copy()


def window_step(model: Word2VecModel, inputs, in_mask, rows, labels, out_mask, lr: float, cap: float, input_ids=None):
    """One SGD step for G groups of P input vectors sharing T output rows.

    inputs (G, P, d), in_mask (G, P); rows, labels, out_mask (G, T). Skip-gram
    groups are a center's context window (word2vec.c scores each context word
    against the center's output rows; with negative sampling the window shares
    its K noise words, as in Ji et al. 2016's HogBatch); CBOW groups hold one
    input, the mean of the context. Updates the output rows in place and
    returns (lr-scaled gradient of the inputs, summed loss).

    An output row hit n > cap times in the step (the Huffman root, a frequent
    word) gets its summed update scaled by cap / n: sequential SGD would have
    saturated long before n identical-direction updates, and the plain sum
    diverges with large batches. Given `input_ids` (G, P), the same cap is
    applied to the input gradient (scaling g, G*P*T numbers, rather than the
    G*P*d gradient rows).
    """
    import torch
    from torch.nn.functional import embedding, logsigmoid

    out = model.output
    O = embedding(rows, out)  # (G, T, d)
    scores = torch.bmm(inputs, O.transpose(1, 2))  # (G, P, T)
    weight = in_mask.unsqueeze(2) * out_mask.unsqueeze(1)
    if MAX_EXP:
        # word2vec.c / gensim leave a score outside (-MAX_EXP, MAX_EXP) untouched.
        weight = weight * (scores.abs() < MAX_EXP)
    # d loss / d score = sigmoid(score) - label; word2vec's g = (label - sigmoid) * lr
    g = (labels.unsqueeze(1) - torch.sigmoid(scores)) * weight * lr
    g_out = g.transpose(1, 2)  # (G, T, P)
    if cap and input_ids is not None:
        in_hits = torch.bincount(input_ids.reshape(-1), weights=in_mask.reshape(-1), minlength=model.n_words)
        g_in = g * (cap / in_hits.clamp(min=1.0)).clamp(max=1.0).to(g.dtype)[input_ids].unsqueeze(2)
    else:
        g_in = g
    grad_inputs = torch.bmm(g_in, O)  # (G, P, d)
    flat_rows = rows.reshape(-1)
    if cap:
        hits = torch.bincount(flat_rows, weights=(out_mask * in_mask.sum(1, keepdim=True)).reshape(-1), minlength=out.shape[0])
        scale = (cap / hits.clamp(min=1.0)).clamp(max=1.0).to(g.dtype)
        g_out = g_out * scale[rows].unsqueeze(2)
    grad_out = torch.bmm(g_out, inputs)  # (G, T, d)
    out.index_add_(0, flat_rows, grad_out.reshape(-1, out.shape[1]))
    loss = -(logsigmoid((2 * labels.unsqueeze(1) - 1) * scores) * weight).sum()
    return grad_inputs, loss


def add_to_inputs(model: Word2VecModel, ids, grads, cap: float, weights=None) -> None:
    """Scatter-add gradient rows into the input vectors, with the same cap on
    rows that occur more than `cap` times in the step (occurrences counted
    with `weights`, so zero-gradient padding rows do not count)."""
    import torch

    if cap:
        hits = torch.bincount(ids, weights=weights, minlength=model.n_words).to(grads.dtype)
        grads = grads * (cap / hits.clamp(min=1.0)).clamp(max=1.0)[ids].unsqueeze(1)
    model.input.index_add_(0, ids, grads)
