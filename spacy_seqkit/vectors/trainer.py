"""Training word2vec: the compiled kernel (kernel.py) over jobs of whole
sentences, on `threads` threads, or torch's batched steps (batched.py)."""

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple, Union

import numpy

from .batched import BatchedTrainer, context_range, padded_groups, subsample, word_blocks  # noqa: F401
from .config import Word2VecConfig
from .model import Word2VecModel
from .vocab import Corpus, Vocabulary

if TYPE_CHECKING:
    from .kernel import CompiledJobs


@dataclass
class TrainResult:
    epoch_losses: List[float] = field(default_factory=list)  # mean loss per example
    words: int = 0  # in-vocabulary corpus words x epochs
    seconds: float = 0.0  # training, after the engine is loaded
    examples: int = 0  # (center, context) pairs for skip-gram, centers for CBOW, over all epochs
    engine: str = ""  # "compiled" or "torch"
    setup_seconds: float = 0.0  # loading the engine (importing numba, loading or compiling the kernel)

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds > 0 else float("nan")


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
        self.model = Word2VecModel(
            vocab.counts, dim=config.dim, loss=config.loss, seed=config.seed, device=config.device
        )

    def engine(self) -> str:
        """The engine this trainer runs ("compiled" or "torch"), see Word2VecConfig.engine."""
        from .kernel import compiled

        engine = self.config.engine
        if engine == "auto":
            return "compiled" if str(self.model.device) == "cpu" and compiled() is not None else "torch"
        if engine == "compiled" and compiled() is None:
            raise ValueError("'engine': 'compiled' needs numba, which cannot be imported here; use engine='torch'")
        return engine

    def batch_size(self, n_words: int) -> int:
        """Center words per SGD step of the torch engine for a corpus of n_words."""
        return BatchedTrainer(self.vocab, self.config, self.model).batch_size(n_words)

    def train(
        self,
        corpus: Corpus,
        progress: bool = False,
        on_epoch: Optional[Callable[[int, float], None]] = None,
    ) -> TrainResult:
        """Train on the corpus; shows a progress bar (words/s, loss) if `progress`."""
        from tqdm import tqdm

        if len(corpus) < 2 or not (corpus.sentence[1:] == corpus.sentence[:-1]).any():
            raise ValueError(
                "no sentence has two in-vocabulary words, so there is no (center, context) pair to learn from"
            )
        setup_start = time.perf_counter()
        result = TrainResult(words=len(corpus) * self.config.epochs, engine=self.engine())
        runner: Union["CompiledJobs", BatchedTrainer]
        if result.engine == "compiled":
            from .kernel import CompiledJobs

            runner = CompiledJobs(self.vocab, self.config, self.model)
        else:
            runner = BatchedTrainer(self.vocab, self.config, self.model)
        result.setup_seconds = time.perf_counter() - setup_start
        bar = tqdm(total=result.words, unit="w", unit_scale=True, disable=not progress, desc="pretrain-vectors")
        start = time.perf_counter()
        try:
            runner.train(corpus, result, bar, on_epoch)
        finally:
            bar.close()
        result.seconds = time.perf_counter() - start
        return result


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
        raise ValueError(
            f"no word occurs at least min_count ({config.min_count}) times; the text is empty or too small"
        )
    trainer = Word2VecTrainer(vocab, config)
    result = trainer.train(vocab.encode(sentences), progress=progress)
    return vocab, trainer.model.vectors(), result
