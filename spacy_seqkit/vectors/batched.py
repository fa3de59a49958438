"""The torch engine of word2vec (engine="torch"): per epoch, subsample
frequent words, draw a reduced window per center, build all (center, context)
examples of a chunk of the corpus with numpy, and apply one batched SGD step
per chunk with torch. No Python loop per word; it runs on any torch device and
where numba is missing, but on CPU the compiled kernel (kernel.py) is faster."""

from typing import List

import numpy

from .config import DEFAULT_LR, Word2VecConfig
from .model import Word2VecModel, add_to_inputs, window_step
from .vocab import Corpus, Vocabulary

# What one more group (a torch call per operation, ~40 of them) costs, in
# padded (input, output row) products: measured ~0.25 ms against ~60 ns a
# product. Steps are split into groups of similar shape (see padded_groups).
GROUP_COST = 4096
# Hierarchical softmax items (pairs, centers) of one center word packed per unit
# (see word_blocks).
WORD_BLOCK = 16
# Default batches: at least MIN_STEPS steps an epoch, at least MIN_BATCH centers a
# step, at most DEFAULT_BATCH[(model, loss)]. Larger steps are faster, but with
# the default cap a CBOW negative-sampling step of 4096 centers (lr 0.05)
# diverged on the benchmark corpus for one seed in three; the others were
# stable there at 4096 for three seeds.
DEFAULT_BATCH = {("skipgram", "ns"): 4096, ("skipgram", "hs"): 4096, ("cbow", "ns"): 2048, ("cbow", "hs"): 4096}
MIN_STEPS = 100
MIN_BATCH = 64


def subsample(corpus: Corpus, keep_probs: numpy.ndarray, rng: numpy.random.Generator) -> numpy.ndarray:
    """Positions of the tokens kept this epoch (each kept with its word's probability)."""
    if keep_probs.min() >= 1.0:
        return numpy.arange(len(corpus))
    return numpy.flatnonzero(rng.random(len(corpus)) < keep_probs[corpus.ids])


def padded_groups(
    positions: numpy.ndarray, key: numpy.ndarray, weight: numpy.ndarray, overhead: float
) -> List[numpy.ndarray]:
    """Split `positions` into groups of consecutive `key` values, each padded
    to its largest key, minimising sum(overhead + largest key * summed
    `weight`) over the groups (exact, by dynamic programming over the
    distinct keys: few, as they are path lengths or input counts)."""
    order = positions[numpy.argsort(key[positions], kind="stable")]
    keys = key[order]
    starts = numpy.flatnonzero(numpy.r_[True, keys[1:] != keys[:-1]])
    values = keys[starts].tolist()
    cum = numpy.concatenate([[0.0], numpy.cumsum(numpy.add.reduceat(weight[order].astype("float64"), starts))]).tolist()
    m = len(values)
    best, cut = [0.0] + [float("inf")] * m, [0] * (m + 1)
    for j in range(1, m + 1):
        for i in range(j):
            cost = best[i] + overhead + values[j - 1] * (cum[j] - cum[i])
            if cost < best[j]:
                best[j], cut[j] = cost, i
    bounds = list(starts) + [order.size]
    groups, j = [], m
    while j > 0:
        groups.append(order[bounds[cut[j]] : bounds[j]])
        j = cut[j]
    return groups[::-1]


def word_blocks(words: numpy.ndarray, block: int):
    """Pack the items of each word into units of at most `block`: returns
    (word of each unit, members (U, block) item positions with -1 padding,
    fill (U,) items per unit), units in increasing word order."""
    order = numpy.argsort(words, kind="stable")
    sorted_words = words[order]
    starts = numpy.flatnonzero(numpy.r_[True, sorted_words[1:] != sorted_words[:-1]])
    run = numpy.diff(numpy.r_[starts, words.size])
    rank = numpy.arange(words.size) - numpy.repeat(starts, run)
    n_blocks = (run + block - 1) // block
    first_block = numpy.concatenate([[0], numpy.cumsum(n_blocks)[:-1]])
    unit = numpy.repeat(first_block, run) + rank // block
    members = numpy.full((int(n_blocks.sum()), block), -1, dtype="int64")
    members[unit, rank % block] = order
    fill = numpy.bincount(unit, minlength=members.shape[0])
    return numpy.repeat(sorted_words[starts], n_blocks), members, fill


def _offsets(window: int) -> numpy.ndarray:
    return numpy.concatenate([numpy.arange(-window, 0), numpy.arange(1, window + 1)])


def context_range(ids: numpy.ndarray, sentence: numpy.ndarray, begin: int, end: int, window: int):
    """Context ids (n, 2 * window) of the centers begin .. end - 1 (offsets
    -window .. -1, 1 .. window) and a boolean mask of the valid ones (inside the
    corpus and the center's sentence). Built from 2 * window shifted slices
    rather than an (n, 2 * window) gather, which is several times slower."""
    offsets = _offsets(window)
    n = end - begin
    own_ids, own_sentence = ids[begin:end], sentence[begin:end]
    # One row per offset, so that each is written contiguously; returned transposed.
    ctx = numpy.empty((offsets.size, n), dtype=ids.dtype)
    valid = numpy.zeros((offsets.size, n), dtype=bool)
    for k, offset in enumerate(offsets.tolist()):
        lo, hi = begin + offset, end + offset
        a, b = max(lo, 0), min(hi, ids.size)
        if a - lo > 0 or hi - b > 0:
            # Positions outside the corpus are invalid (and hold the center's own id).
            ctx[k] = own_ids
        if a < b:
            ctx[k, a - lo : b - lo] = ids[a:b]
            valid[k, a - lo : b - lo] = sentence[a:b] == own_sentence[a - lo : b - lo]
    return ctx.T, valid.T


class BatchedTrainer:
    """Batched SGD steps over chunks of the corpus, with torch."""

    def __init__(self, vocab: Vocabulary, config: Word2VecConfig, model: Word2VecModel):
        self.vocab = vocab
        self.config = config
        self.model = model
        self._distance = numpy.abs(_offsets(config.window))

    def batch_size(self, n_words: int) -> int:
        """Center words per SGD step for a corpus of n_words."""
        if self.config.batch_size is not None:
            return self.config.batch_size
        fastest = DEFAULT_BATCH[self.config.model, self.config.loss]
        # Large batches are fast but few steps learn little: keep >= MIN_STEPS an epoch.
        return int(min(fastest, max(MIN_BATCH, n_words // MIN_STEPS)))

    def train(self, corpus: Corpus, result, bar, on_epoch) -> None:
        """Train, appending each epoch's mean loss to result.epoch_losses and
        counting examples in result.examples; `bar` is the progress bar."""
        import torch

        old_threads = torch.get_num_threads()
        torch.set_num_threads(self.config.threads)
        try:
            self._train(corpus, result, bar, on_epoch)
        finally:
            torch.set_num_threads(old_threads)

    def _train(self, corpus: Corpus, result, bar, on_epoch) -> None:
        import torch

        cfg = self.config
        model = self.model
        rng = numpy.random.default_rng(cfg.seed)
        gen = torch.Generator(device=model.device).manual_seed(cfg.seed)
        keep_probs = self.vocab.keep_probabilities(cfg.sample)
        n = len(corpus)
        total = n * cfg.epochs
        start_lr = float(cfg.lr or DEFAULT_LR[cfg.model])
        chunk = self.batch_size(n)  # center words per SGD step
        update = {"skipgram": self._skipgram_update, "cbow": self._cbow_update}[cfg.model]
        progress = not bar.disable
        for epoch in range(cfg.epochs):
            kept = subsample(corpus, keep_probs, rng)
            ids, sentence = corpus.ids[kept], corpus.sentence[kept]
            # word2vec's random window shrinking: each center's window is uniform in 1..window.
            reduced = rng.integers(1, cfg.window + 1, size=ids.size)
            loss_sum = torch.zeros((), dtype=torch.float64)
            n_examples = 0
            done_words = 0
            for begin in range(0, ids.size, chunk):
                end = min(begin + chunk, ids.size)
                # Linear decay over raw words read (subsampled ones included), as word2vec.c.
                raw_done = epoch * n + (int(kept[begin]) if kept.size else 0)
                lr = max(cfg.min_lr, start_lr - (start_lr - cfg.min_lr) * raw_done / total)
                ctx, valid = context_range(ids, sentence, begin, end, cfg.window)
                valid &= self._distance[None, :] <= reduced[begin:end, None]
                step_loss, step_n = self._step(update, ids[begin:end], ctx, valid, lr, gen)
                loss_sum += step_loss
                n_examples += step_n
                new_done = int(kept[end - 1]) + 1 if end < ids.size else n
                bar.update(new_done - done_words)
                done_words = new_done
                if progress and (begin // chunk) % 20 == 0 and n_examples:
                    bar.set_postfix(epoch=epoch + 1, loss=f"{float(loss_sum) / n_examples:.4f}", lr=f"{lr:.5f}")
            bar.update(n - done_words)
            mean_loss = float(loss_sum) / max(1, n_examples)
            result.epoch_losses.append(mean_loss)
            if on_epoch is not None:
                on_epoch(epoch, mean_loss)
            result.examples += n_examples

    def _step(self, update, targets, ctx, valid, lr, gen):
        """One SGD step with `update` (skip-gram or CBOW) over the centers of a
        chunk: ctx, valid (n, 2 * window) are their context matrix and mask."""
        count = valid.sum(axis=1)
        keep = count > 0
        if not keep.any():
            return 0.0, 0
        return update(targets[keep], ctx[keep], valid[keep], count[keep], lr, gen)

    def _groups(self, words: numpy.ndarray, fill: numpy.ndarray) -> List[numpy.ndarray]:
        """Units grouped by their number of output rows (path lengths under
        hierarchical softmax; one group under negative sampling), then by how
        many inputs they hold, so that the padded (inputs x output rows) box of
        a group is mostly real work, without more groups than pay off."""
        units = numpy.arange(words.size)
        lengths = self.model.rows.widths(words, self.config.negative)
        groups = padded_groups(units, lengths, fill, GROUP_COST)
        widths = [int(lengths[group].max()) for group in groups]
        if fill.max() == fill.min():
            return groups
        ones = numpy.ones_like(fill)
        return [
            part
            for group, width in zip(groups, widths)
            for part in padded_groups(group, fill, ones * width, GROUP_COST)
        ]

    def _output_rows(self, words, gen):
        """The output rows, labels and mask of the words (see Word2VecModel.output_rows)."""
        import torch

        model = self.model
        lengths = model.rows.widths(words, self.config.negative)
        width, full = max(1, int(lengths.max())), bool(lengths.min() == lengths.max())
        words_t = torch.as_tensor(words, device=model.device)
        return model.output_rows(words_t, gen, self.config.negative, width=width, full=full)

    def _group_inputs(self, members, fill):
        """(member ids (U, P) as a tensor with padding pointing at item 0, the
        input mask or None) of a group of units, P its largest fill."""
        import torch

        width = int(fill.max())
        members = members[:, :width]
        mask = None
        if fill.min() < width:
            members = numpy.maximum(members, 0)
            mask = torch.as_tensor(
                numpy.arange(width)[None, :] < fill[:, None], dtype=self.model.input.dtype, device=self.model.device
            )
        return torch.as_tensor(members, device=self.model.device), mask

    def _skipgram_update(self, targets, ctx, valid, count, lr, gen):
        """Skip-gram: each context word's input vector is scored against the
        center's output rows."""
        import torch

        model, cfg = self.model, self.config
        if model.rows.per_word:
            # One item per (center, context) pair; the pairs of one center word
            # share its rows, so they are packed WORD_BLOCK to a unit: a bigger
            # matrix per product, which is what makes small products cheap.
            pair_ctx = ctx[valid]
            words, members, fill = word_blocks(numpy.repeat(targets, count), WORD_BLOCK)
            items = numpy.where(members >= 0, pair_ctx[members], 0)
        else:
            # One unit per center (it has its own noise words): its contexts,
            # packed to the front of the row.
            items = numpy.zeros_like(ctx)
            rows, cols = numpy.nonzero(valid)
            items[rows, numpy.cumsum(valid, axis=1)[rows, cols] - 1] = ctx[rows, cols]
            words, fill = targets, count
        # Rows of their own per example (noise words): drawn for the whole step in one call.
        shared = None if model.rows.per_word else self._output_rows(words, gen)
        parts = []
        for group in self._groups(words, fill):
            ids_t, in_mask = self._group_inputs(items[group], fill[group])
            inputs = torch.nn.functional.embedding(ids_t, model.input)  # (U, P, d)
            if shared is None:
                rows, labels, mask = self._output_rows(words[group], gen)
            else:
                group_t = torch.as_tensor(group, device=model.device)
                rows, labels, mask = shared[0][group_t], shared[1], shared[2][group_t]
            parts.append((inputs, in_mask, rows, labels, mask, ids_t))
        grads, loss = window_step(model, parts, lr, cfg.cap)
        for grad_in, part in zip(grads, parts):
            # Padding positions have an exactly zero gradient: adding them is cheaper
            # than selecting the valid ones. The cap is already in grad_in.
            model.input.index_add_(0, part[5].reshape(-1), grad_in.reshape(-1, grad_in.shape[2]))
        return loss, int(count.sum())

    def _cbow_update(self, targets, ctx, valid, count, lr, gen):
        """CBOW: the mean of the context's input vectors is scored against the
        center's output rows; its gradient goes to every context word."""
        import torch

        model, cfg = self.model, self.config
        device = model.device
        flat_ctx = torch.as_tensor(ctx[valid], device=device)
        offsets = torch.as_tensor(numpy.concatenate([[0], numpy.cumsum(count[:-1])]), device=device)
        # gensim's cbow_mean=1: the hidden vector is the mean of the context vectors
        # (embedding_bag sums the ragged windows without padding).
        hidden = torch.nn.functional.embedding_bag(flat_ctx, model.input, offsets, mode="mean")
        if not model.rows.per_word:
            # One unit per center, in order: no packing to undo.
            rows, labels, mask = self._output_rows(targets, gen)
            grads, loss = window_step(model, [(hidden.unsqueeze(1), None, rows, labels, mask, None)], lr, cfg.cap)
            grad_hidden = grads[0].squeeze(1)
        else:
            # Centers of one word share its path: WORD_BLOCK of them to a unit.
            words, members, fill = word_blocks(targets, WORD_BLOCK)
            parts, part_ids = [], []
            for group in self._groups(words, fill):
                ids_t, in_mask = self._group_inputs(members[group], fill[group])
                rows, labels, mask = self._output_rows(words[group], gen)
                parts.append((torch.nn.functional.embedding(ids_t, hidden), in_mask, rows, labels, mask, None))
                part_ids.append(ids_t)
            grads, loss = window_step(model, parts, lr, cfg.cap)
            grad_hidden = torch.zeros_like(hidden)
            for grad, ids_t in zip(grads, part_ids):
                # Every center is in exactly one slot; padding slots carry a zero gradient.
                grad_hidden.index_add_(0, ids_t.reshape(-1), grad.reshape(-1, grad.shape[2]))
        # word2vec.c adds the whole hidden gradient to every context word.
        grad_ctx = torch.repeat_interleave(grad_hidden, torch.as_tensor(count, device=device), dim=0)
        add_to_inputs(model, flat_ctx, grad_ctx, cfg.cap)
        return loss, int(targets.size)
