"""The compiled word2vec kernel: word2vec.c's sequential SGD over one job (a
run of whole sentences), compiled with numba and run without the GIL, so that
several threads update the same arrays at once (Hogwild, as word2vec.c and
gensim do).

Per sentence, as word2vec.c: frequent words are dropped with their keep
probability, then each kept center draws a window in 1..window; skip-gram
scores each context word's input vector against the center's output rows,
CBOW the mean of the context's input vectors (gensim's cbow_mean=1, the whole
gradient going to every context word). Output rows are [center, K noise
words] (noise from an alias table over unigram^0.75, a draw equal to the
center skipped) or the center's Huffman path. A score outside (-MAX_EXP,
MAX_EXP) is left untouched, as gensim does; sigmoid and log-sigmoid come from
tables. The functions below are plain Python; compiled() compiles them.
"""

import types
from typing import Any, List, Literal, Tuple

import numpy

from .model import MAX_EXP

EXP_TABLE_SIZE = 1000
# Random bits are drawn as uint32 fractions of 2 ** 32; a threshold of ALWAYS never fails.
ALWAYS = 1 << 32
JOB_WORDS = 10_000  # raw words per job (gensim's and word2vec.c's 10k)


def sigmoid_tables():
    """(sigmoid, log sigmoid, log(1 - sigmoid)) at EXP_TABLE_SIZE points of [-MAX_EXP, MAX_EXP)."""
    x = (numpy.arange(EXP_TABLE_SIZE) / EXP_TABLE_SIZE * 2 - 1) * MAX_EXP
    sig = 1.0 / (1.0 + numpy.exp(-x))
    return sig.astype("float32"), numpy.log(sig).astype("float32"), numpy.log1p(-sig).astype("float32")


def thresholds(probs: numpy.ndarray) -> numpy.ndarray:
    """Probabilities as uint64 thresholds on a uniform uint32 (1.0 -> ALWAYS)."""
    return numpy.minimum(numpy.round(numpy.asarray(probs, dtype="float64") * ALWAYS), ALWAYS).astype("uint64")


def job_seed(seed: int, epoch: int, job: int) -> int:
    """A distinct non-zero xorshift state per (seed, epoch, job): a job's draws
    do not depend on which thread runs it or when."""
    return int(numpy.random.SeedSequence([seed, epoch, job]).generate_state(1, dtype="uint64")[0]) | 1


def _next(state):
    """xorshift64*: the next 64 random bits (state is a 1-element uint64 array)."""
    x = state[0]
    x ^= x >> numpy.uint64(12)
    x ^= x << numpy.uint64(25)
    x ^= x >> numpy.uint64(27)
    state[0] = x
    return x * numpy.uint64(2685821657736338717)


def _below(bits, n):
    """A uniform integer in [0, n) from the high 32 of 64 random bits (multiply-shift, no modulo)."""
    return numpy.int64(((bits >> numpy.uint64(32)) * numpy.uint64(n)) >> numpy.uint64(32))


def _output_rows(
    src,
    srow,
    center,
    syn1,
    lr,
    work,
    scores,
    rows,
    labels,
    state,
    hs,
    negative,
    accept,
    alias,
    points,
    codes,
    lengths,
    sig,
    logsig,
    log1msig,
):
    """Score src[srow] against the center's output rows (its Huffman path,
    or itself and `negative` noise words, a draw equal to the center
    skipped), adding src's gradient to work; returns the summed loss.

    src does not change while its rows are scored, so all the scores are
    taken first (independent dot products the CPU overlaps), then the
    updates: the same numbers as one row at a time, except that a noise word
    drawn twice for one example is scored twice against its row before either
    update."""
    if hs:
        n_rows = lengths[center]
        for d in range(n_rows):
            rows[d], labels[d] = points[center, d], 1 - codes[center, d]
    else:
        rows[0], labels[0], n_rows = center, 1, 1
        n = accept.shape[0]
        for _ in range(negative):
            bits = _next(state)
            slot = _below(bits, n)
            noise = slot if (bits & numpy.uint64(0xFFFFFFFF)) < accept[slot] else alias[slot]
            if noise != center:
                rows[n_rows], labels[n_rows] = noise, 0
                n_rows += 1
    dim = work.shape[0]
    for d in range(n_rows):
        f = numpy.float32(0.0)
        for k in range(dim):
            f += src[srow, k] * syn1[rows[d], k]
        scores[d] = f
    loss = 0.0
    for d in range(n_rows):
        f = scores[d]
        # gensim leaves a saturated score untouched (word2vec.c clips it).
        if f <= -MAX_EXP or f >= MAX_EXP:
            continue
        row, label = rows[d], labels[d]
        i = int((f + MAX_EXP) * (EXP_TABLE_SIZE / MAX_EXP / 2))
        g = numpy.float32((label - sig[i]) * lr)
        for k in range(dim):
            work[k] += g * syn1[row, k]
            syn1[row, k] += g * src[srow, k]
        loss -= logsig[i] if label > 0 else log1msig[i]
    return loss


def train_job(
    syn0,
    syn1,
    ids,
    bounds,
    sg,
    hs,
    window,
    negative,
    keep,
    accept,
    alias,
    points,
    codes,
    lengths,
    sig,
    logsig,
    log1msig,
    lr,
    min_lr,
    done,
    total,
    seed,
):
    """Train on the sentences ids[bounds[s]:bounds[s + 1]] of one job, with
    the learning rate decayed linearly from `lr` to `min_lr` over `total` raw
    words, `done` of them read before this job. Returns (summed loss, number
    of examples: (center, context) pairs for skip-gram, centers for CBOW)."""
    dim = syn0.shape[1]
    state = numpy.empty(1, dtype=numpy.uint64)
    state[0] = numpy.uint64(seed)
    kept = numpy.empty(ids.shape[0], dtype=numpy.int64)
    work = numpy.empty(dim, dtype=numpy.float32)
    width = max(points.shape[1], negative + 1)
    scores = numpy.empty(width, dtype=numpy.float32)
    rows = numpy.empty(width, dtype=numpy.int64)
    labels = numpy.empty(width, dtype=numpy.int64)
    hidden = numpy.empty((1, dim), dtype=numpy.float32)
    loss = 0.0
    examples = 0
    for s in range(bounds.shape[0] - 1):
        alpha = max(min_lr, lr - (lr - min_lr) * (done + bounds[s]) / total)
        n = 0
        for p in range(bounds[s], bounds[s + 1]):
            w = ids[p]
            if keep[w] >= ALWAYS or (_next(state) >> numpy.uint64(32)) < keep[w]:
                kept[n] = w
                n += 1
        for i in range(n):
            center = kept[i]
            # word2vec's window shrinking: this center's window is uniform in 1..window.
            reach = window - _below(_next(state), window)
            lo, hi = max(0, i - reach), min(n, i + reach + 1)
            if sg:
                for j in range(lo, hi):
                    if j == i:
                        continue
                    context = kept[j]
                    for k in range(dim):
                        work[k] = 0.0
                    loss += _output_rows(
                        syn0,
                        context,
                        center,
                        syn1,
                        alpha,
                        work,
                        scores,
                        rows,
                        labels,
                        state,
                        hs,
                        negative,
                        accept,
                        alias,
                        points,
                        codes,
                        lengths,
                        sig,
                        logsig,
                        log1msig,
                    )
                    for k in range(dim):
                        syn0[context, k] += work[k]
                    examples += 1
            elif hi - lo > 1:
                for k in range(dim):
                    hidden[0, k] = 0.0
                    work[k] = 0.0
                for j in range(lo, hi):
                    if j != i:
                        for k in range(dim):
                            hidden[0, k] += syn0[kept[j], k]
                inv = numpy.float32(1.0 / (hi - lo - 1))
                for k in range(dim):
                    hidden[0, k] *= inv
                loss += _output_rows(
                    hidden,
                    0,
                    center,
                    syn1,
                    alpha,
                    work,
                    scores,
                    rows,
                    labels,
                    state,
                    hs,
                    negative,
                    accept,
                    alias,
                    points,
                    codes,
                    lengths,
                    sig,
                    logsig,
                    log1msig,
                )
                for j in range(lo, hi):
                    if j != i:
                        for k in range(dim):
                            syn0[kept[j], k] += work[k]
                examples += 1
    return loss, examples


def job_bounds(sentence: numpy.ndarray, job_words: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(sentence bounds, job cuts): sentence s is positions bounds[s] ..
    bounds[s + 1] - 1, and job j its sentences cuts[j] .. cuts[j + 1] - 1,
    about job_words words a job, never splitting a sentence."""
    n = sentence.size
    bounds = numpy.r_[numpy.flatnonzero(numpy.r_[True, sentence[1:] != sentence[:-1]]), n].astype("int64")
    cuts = numpy.searchsorted(bounds, numpy.arange(job_words, n, job_words))
    cuts = numpy.unique(numpy.r_[0, cuts, bounds.size - 1])
    return bounds, cuts


class CompiledJobs:
    """Runs train_job over the jobs of each epoch, in order on one thread (so
    a seeded run is deterministic) or on a pool of `threads` threads."""

    def __init__(self, vocab, config, model):
        from ..layers.approx_softmax import alias_table

        self.config = config
        self.kernel = compiled()
        self.syn0, self.syn1 = model.input.numpy(), model.output.numpy()
        self.keep = thresholds(vocab.keep_probabilities(config.sample))
        self.tables = sigmoid_tables()
        one = numpy.zeros(1, dtype="int64")
        if config.loss == "hs":
            rows = model.rows
            self.accept, self.alias = numpy.zeros(1, dtype="uint64"), one
            self.paths = (rows.points.numpy(), rows.codes.numpy(), rows.lengths.numpy())
        else:
            accept, alias = alias_table(model.rows.noise_probs)
            self.accept, self.alias = thresholds(accept), alias.astype("int64")
            self.paths = (one.reshape(1, 1), one.reshape(1, 1), one)
        # Loads the kernel from numba's cache (or compiles it) before training is timed.
        self._run(numpy.zeros(0, dtype="int64"), numpy.zeros(1, dtype="int64"), 0, 1, 0)

    def _run(self, ids, bounds, done, total, seed):
        cfg = self.config
        return self.kernel(
            self.syn0,
            self.syn1,
            ids,
            bounds,
            cfg.model == "skipgram",
            cfg.loss == "hs",
            cfg.window,
            cfg.negative,
            self.keep,
            self.accept,
            self.alias,
            *self.paths,
            *self.tables,
            float(cfg.lr),
            float(cfg.min_lr),
            numpy.int64(done),
            numpy.int64(total),
            numpy.uint64(seed),
        )

    def train(self, corpus, result, bar, on_epoch) -> None:
        """Train, appending each epoch's mean loss to result.epoch_losses and
        counting examples in result.examples; `bar` is the progress bar."""
        from concurrent.futures import ThreadPoolExecutor

        cfg = self.config
        n = len(corpus)
        bounds, cuts = job_bounds(corpus.sentence, JOB_WORDS)
        pool = ThreadPoolExecutor(cfg.threads) if cfg.threads > 1 else None
        try:
            for epoch in range(cfg.epochs):
                jobs: List[Tuple[int, Any]] = []
                for j in range(cuts.size - 1):
                    lo, hi = bounds[cuts[j]], bounds[cuts[j + 1]]
                    args = (
                        corpus.ids[lo:hi],
                        bounds[cuts[j] : cuts[j + 1] + 1] - lo,
                        epoch * n + lo,
                        n * cfg.epochs,
                        job_seed(cfg.seed, epoch, j),
                    )
                    jobs.append((hi - lo, pool.submit(self._run, *args) if pool else args))
                loss_sum, examples = 0.0, 0
                for j, (words, job) in enumerate(jobs):
                    loss, count = job.result() if pool else self._run(*job)
                    loss_sum, examples = loss_sum + loss, examples + count
                    bar.update(words)
                    if not bar.disable and j % 20 == 0 and examples:
                        bar.set_postfix(epoch=epoch + 1, loss=f"{loss_sum / examples:.4f}")
                result.epoch_losses.append(loss_sum / max(1, examples))
                result.examples += examples
                if on_epoch is not None:
                    on_epoch(epoch, result.epoch_losses[-1])
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)


def compiled():
    """train_job compiled by numba (nogil, so threads run it in parallel, and
    cached on disk), or None when numba cannot be imported (e.g. a numpy
    release it does not support yet)."""
    global _COMPILED
    if _COMPILED is None:
        try:
            import numba
        except ImportError:
            return None
        # The same code objects, with globals in which each helper is its compiled
        # twin, inlined into train_job (so that the loss and engine branches are hoisted).
        namespace = dict(globals())
        for name in ("_next", "_below", "_output_rows", "train_job"):
            func = globals()[name]
            inline: Literal["never", "always"] = "never" if name == "train_job" else "always"
            compile = numba.njit(inline=inline, nogil=True, fastmath=True, cache=True, error_model="numpy")
            namespace[name] = compile(types.FunctionType(func.__code__, namespace, name, func.__defaults__))
        _COMPILED = namespace["train_job"]
    return _COMPILED


_COMPILED = None
