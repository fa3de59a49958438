"""Training word2vec: per epoch, subsample frequent words, draw a reduced window
per center, build all (center, context) examples of a chunk of the corpus with
numpy, and apply one batched SGD step per chunk. No Python loop per word."""
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

import numpy

from ..util import check_choice, check_non_negative_int, check_positive_int, check_probability
from .model import LOSSES, MODELS, Word2VecModel, add_to_inputs, window_step
from .vocab import Corpus, Vocabulary

# Fewest centers worth a torch call of their own (measured: a step costs
# ~30 torch calls, ~10 µs each, however small): per window bucket, per HS part.
BUCKET_MIN = 1024
PART_MIN = 256
HS_PARTS = 2  # hierarchical softmax steps in up to 2 parts sorted by path length
# Default batches: at least MIN_STEPS steps an epoch, at least MIN_BATCH centers a step.
MIN_STEPS = 100
MIN_BATCH = 64


@dataclass
class Word2VecConfig:
    """Hyper-parameters, named and defaulted as in word2vec.c / gensim
    (lr=None picks word2vec.c's 0.025 for skip-gram and 0.05 for CBOW).
    batch_size is the number of center words per SGD step (None: 4096 for
    skip-gram, 2048 for CBOW, the fastest on a laptop-class CPU, but at most
    1/MIN_STEPS of an epoch so that small corpora still get enough steps); cap
    bounds how many updates one row takes at full rate in a step (0 = none);
    device is a torch device (only "cpu" has been measured)."""

    model: str = "skipgram"
    loss: str = "ns"
    dim: int = 100
    window: int = 5
    negative: int = 5
    min_count: int = 5
    sample: float = 1e-3
    epochs: int = 5
    lr: Optional[float] = None
    min_lr: float = 1e-4
    threads: int = 1
    seed: int = 0
    batch_size: Optional[int] = None
    cap: float = 256.0
    device: str = "cpu"

    def __post_init__(self) -> None:
        check_choice("model", self.model, MODELS)
        check_choice("loss", self.loss, LOSSES)
        for name in ("dim", "window", "min_count", "epochs", "threads"):
            check_positive_int(name, getattr(self, name))
        if self.batch_size is not None:
            check_positive_int("batch_size", self.batch_size)
        check_non_negative_int("seed", self.seed)
        if self.loss == "ns":
            check_positive_int("negative", self.negative)
        check_probability("sample", self.sample)
        if self.lr is None:
            self.lr = 0.025 if self.model == "skipgram" else 0.05
        for name in ("lr", "min_lr"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 10:
                raise ValueError(f"'{name}' must be a number in (0, 10), got {value!r}")
        if isinstance(self.cap, bool) or not isinstance(self.cap, (int, float)) or self.cap < 0:
            raise ValueError(f"'cap' must be a number >= 0 (0 = no cap), got {self.cap!r}")
        if self.min_lr > self.lr:
            raise ValueError(f"'min_lr' ({self.min_lr}) must not exceed 'lr' ({self.lr})")


@dataclass
class TrainResult:
    epoch_losses: List[float] = field(default_factory=list)  # mean loss per example
    words: int = 0  # in-vocabulary corpus words x epochs
    seconds: float = 0.0

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds > 0 else float("nan")


def subsample(corpus: Corpus, keep_probs: numpy.ndarray, rng: numpy.random.Generator) -> numpy.ndarray:
    """Positions of the tokens kept this epoch (each kept with its word's probability)."""
    if keep_probs.min() >= 1.0:
        return numpy.arange(len(corpus))
    return numpy.flatnonzero(rng.random(len(corpus)) < keep_probs[corpus.ids])


def window_buckets(window: int, n_centers: int):
    """Ranges (lo, hi) of reduced window sizes stepped together: one per size
    with many centers, fewer (padded to the range's largest window) with few."""
    n = max(1, min(window, n_centers // BUCKET_MIN))
    edges = numpy.linspace(0, window, n + 1).round().astype(int)
    return [(int(edges[i]) + 1, int(edges[i + 1])) for i in range(n)]


def _offsets(window: int) -> numpy.ndarray:
    return numpy.concatenate([numpy.arange(-window, 0), numpy.arange(1, window + 1)])


def context_matrix(ids: numpy.ndarray, sentence: numpy.ndarray, centers: numpy.ndarray, window: int):
    """Context ids (n, 2*window) of the given center positions and a boolean
    mask of the valid ones (inside the corpus and the center's sentence)."""
    offsets = _offsets(window)
    pos = centers[:, None] + offsets[None, :]
    inside = (pos >= 0) & (pos < ids.size)
    pos = numpy.where(inside, pos, centers[:, None])
    valid = inside & (sentence[pos] == sentence[centers][:, None])
    return ids[pos], valid


class Word2VecTrainer:
    """Trains skip-gram or CBOW with negative sampling or hierarchical softmax."""

    def __init__(self, vocab: Vocabulary, config: Word2VecConfig):
        if len(vocab) < 2:
            raise ValueError(
                f"word2vec needs at least 2 distinct words occurring >= min_count "
                f"({config.min_count}) times; this corpus has {len(vocab)}"
            )
        self.vocab = vocab
        self.config = config
        self.model = Word2VecModel(vocab.counts, dim=config.dim, loss=config.loss, seed=config.seed, device=config.device)
        if config.loss == "hs":
            self._path_lengths = self.model.lengths.cpu().numpy()

    def batch_size(self, n_words: int) -> int:
        """Center words per SGD step for a corpus of n_words."""
        if self.config.batch_size is not None:
            return self.config.batch_size
        fastest = 4096 if self.config.model == "skipgram" else 2048
        # Large batches are fast but few steps learn little: keep >= MIN_STEPS an epoch.
        return int(min(fastest, max(MIN_BATCH, n_words // MIN_STEPS)))

    def train(
        self,
        corpus: Corpus,
        progress: bool = False,
        on_epoch: Optional[Callable[[int, float], None]] = None,
    ) -> TrainResult:
        import torch

        cfg = self.config
        if len(corpus) < 2 or not (corpus.sentence[1:] == corpus.sentence[:-1]).any():
            raise ValueError(
                "no sentence has two in-vocabulary words, so there is no (center, context) pair to learn from"
            )
        old_threads = torch.get_num_threads()
        torch.set_num_threads(cfg.threads)
        try:
            return self._train(corpus, progress, on_epoch)
        finally:
            torch.set_num_threads(old_threads)

    def _train(self, corpus: Corpus, progress: bool, on_epoch) -> TrainResult:
        import torch
        from tqdm import tqdm

        cfg = self.config
        model = self.model
        rng = numpy.random.default_rng(cfg.seed)
        gen = torch.Generator(device=model.device).manual_seed(cfg.seed)
        keep_probs = self.vocab.keep_probabilities(cfg.sample)
        n = len(corpus)
        total = n * cfg.epochs
        chunk = self.batch_size(n)  # center words per SGD step
        result = TrainResult()
        bar = tqdm(total=total, unit="w", unit_scale=True, disable=not progress, desc="pretrain-vectors")
        start_time = time.perf_counter()
        try:
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
                    lr = max(cfg.min_lr, cfg.lr - (cfg.lr - cfg.min_lr) * raw_done / total)
                    if cfg.model == "skipgram":
                        step_loss, step_n = 0.0, 0
                        # Centers are bucketed by their reduced window so that a bucket's
                        # context matrix carries little padding; a bucket per window size
                        # only pays off with many centers (each bucket is a torch call).
                        for lo, hi in window_buckets(cfg.window, end - begin):
                            r = reduced[begin:end]
                            centers = begin + numpy.flatnonzero((r >= lo) & (r <= hi))
                            if centers.size:
                                ctx, valid = context_matrix(ids, sentence, centers, hi)
                                if lo < hi:
                                    valid &= numpy.abs(_offsets(hi))[None, :] <= reduced[centers, None]
                                bucket_loss, bucket_n = self._step(self._skipgram_update, ids[centers], ctx, valid, lr, gen)
                                step_loss += bucket_loss
                                step_n += bucket_n
                    else:
                        centers = numpy.arange(begin, end)
                        ctx, valid = context_matrix(ids, sentence, centers, cfg.window)
                        valid &= numpy.abs(_offsets(cfg.window))[None, :] <= reduced[begin:end, None]
                        step_loss, step_n = self._step(self._cbow_update, ids[centers], ctx, valid, lr, gen)
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
        finally:
            bar.close()
        result.seconds = time.perf_counter() - start_time
        result.words = total
        return result

    def _step(self, update, targets, ctx, valid, lr, gen):
        """One SGD step with `update` (skip-gram or CBOW) over the centers that
        have a context, in parts of similar path length (see _path_parts)."""
        keep = valid.any(axis=1)
        targets, ctx, valid = targets[keep], ctx[keep], valid[keep]
        total_loss, total_n = 0.0, 0
        for part in self._path_parts(targets):
            loss, n = update(targets[part], ctx[part], valid[part], lr, gen)
            total_loss += loss
            total_n += n
        return total_loss, total_n

    def _skipgram_update(self, targets, ctx, valid, lr, gen):
        import torch

        model, cfg = self.model, self.config
        if not targets.size:
            return 0.0, 0
        device = model.device
        ctx_t = torch.as_tensor(ctx, device=device)
        in_mask = torch.as_tensor(valid, dtype=model.input.dtype, device=device)
        inputs = torch.nn.functional.embedding(ctx_t, model.input)  # (G, 2b, d)
        rows, labels, mask = model.output_rows(torch.as_tensor(targets, device=device), gen, cfg.negative)
        grad_in, loss = window_step(model, inputs, in_mask, rows, labels, mask, lr, cfg.cap, input_ids=ctx_t)
        # Padding positions have an exactly zero gradient: adding them is cheaper
        # than selecting the valid ones. The cap is already in grad_in.
        model.input.index_add_(0, ctx_t.reshape(-1), grad_in.reshape(-1, grad_in.shape[2]))
        return loss, int(valid.sum())

    def _path_parts(self, targets: numpy.ndarray) -> List[numpy.ndarray]:
        """Hierarchical softmax pads each path to the longest in the batch; sorting
        the centers by path length and stepping in HS_PARTS parts trims most of it."""
        parts = min(HS_PARTS, targets.size // PART_MIN)
        if self.config.loss != "hs" or parts <= 1:
            return [numpy.arange(targets.size)]
        order = numpy.argsort(self._path_lengths[targets], kind="stable")
        return numpy.array_split(order, parts)

    def _cbow_update(self, targets, ctx, valid, lr, gen):
        import torch

        model, cfg = self.model, self.config
        count = valid.sum(axis=1)
        keep = count > 0
        if not keep.any():
            return 0.0, 0
        targets, count = targets[keep], count[keep]
        device = model.device
        flat_ctx = torch.as_tensor(ctx[keep][valid[keep]], device=device)
        count_t = torch.as_tensor(count, device=device)
        offsets = torch.as_tensor(numpy.concatenate([[0], numpy.cumsum(count[:-1])]), device=device)
        # gensim's cbow_mean=1: the hidden vector is the mean of the context vectors
        # (embedding_bag sums the ragged windows without padding).
        hidden = torch.nn.functional.embedding_bag(flat_ctx, model.input, offsets, mode="mean").unsqueeze(1)
        rows, labels, mask = model.output_rows(torch.as_tensor(targets, device=device), gen, cfg.negative)
        ones = torch.ones(hidden.shape[:2], dtype=hidden.dtype, device=device)
        grad_hidden, loss = window_step(model, hidden, ones, rows, labels, mask, lr, cfg.cap)
        # word2vec.c adds the whole hidden gradient to every context word.
        grad_ctx = torch.repeat_interleave(grad_hidden.squeeze(1), count_t, dim=0)
        add_to_inputs(model, flat_ctx, grad_ctx, cfg.cap)
        return loss, int(targets.size)


def train_vectors(
    sentences: Sequence[Sequence[str]],
    config: Optional[Word2VecConfig] = None,
    progress: bool = False,
) -> Tuple[Vocabulary, numpy.ndarray, TrainResult]:
    """Build the vocabulary of tokenised sentences and train vectors on them.
    Returns (vocab, vectors of shape (len(vocab), dim), result)."""
    config = config or Word2VecConfig()
    vocab = Vocabulary.from_sentences(sentences, min_count=config.min_count)
    if len(vocab) == 0:
        raise ValueError(f"no word occurs at least min_count ({config.min_count}) times; the text is empty or too small")
    trainer = Word2VecTrainer(vocab, config)
    result = trainer.train(vocab.encode(sentences), progress=progress)
    return vocab, trainer.model.vectors(), result
