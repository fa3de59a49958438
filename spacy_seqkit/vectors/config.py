"""The settings of word2vec training."""

from dataclasses import dataclass
from typing import Optional

from ..util import check_choice, check_non_negative_int, check_number, check_positive_int, check_probability
from .model import OUTPUT_ROWS

# The models, with word2vec.c's initial learning rate of each.
DEFAULT_LR = {"skipgram": 0.025, "cbow": 0.05}
# How training runs: the compiled kernel (numba, CPU, word2vec.c's sequential
# SGD over threads), torch's batched steps (any device), or the first that can.
ENGINES = ("auto", "compiled", "torch")


@dataclass
class Word2VecConfig:
    """Hyper-parameters, named and defaulted as in word2vec.c / gensim
    (lr=None picks word2vec.c's 0.025 for skip-gram and 0.05 for CBOW).
    batch_size is the number of center words per SGD step (None: 2048 for
    CBOW with negative sampling, else 4096, but at most 1/MIN_STEPS of an
    epoch so that small corpora still get enough steps); cap bounds how many
    updates one row takes at full rate in a step (0 = none; 256 let
    4096-center steps diverge on a 264-word vocabulary); device is a torch
    device (only "cpu" has been measured). engine picks the trainer (ENGINES):
    "compiled" is word2vec.c's SGD compiled with numba, one word at a time,
    `threads` threads updating the vectors at once (CPU only); "torch" takes
    batched steps (batch_size and cap apply to it alone); "auto" is "compiled"
    on CPU when numba imports, else "torch"."""

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
    cap: float = 64.0
    device: str = "cpu"
    engine: str = "auto"

    def __post_init__(self) -> None:
        check_choice("model", self.model, DEFAULT_LR)
        check_choice("loss", self.loss, OUTPUT_ROWS)
        for name in ("dim", "window", "min_count", "epochs", "threads"):
            check_positive_int(name, getattr(self, name))
        if self.batch_size is not None:
            check_positive_int("batch_size", self.batch_size)
        check_non_negative_int("seed", self.seed)
        if self.loss == "ns":
            check_positive_int("negative", self.negative)
        check_probability("sample", self.sample)
        check_choice("engine", self.engine, ENGINES)
        if self.engine == "compiled" and str(self.device) != "cpu":
            raise ValueError(
                f"'engine': 'compiled' runs on the CPU only; use engine='torch' for device {self.device!r}"
            )
        if self.lr is None:
            self.lr = DEFAULT_LR[self.model]
        for name in ("lr", "min_lr"):
            check_number(name, getattr(self, name), 0.0, 10.0, include_low=False)
        check_number("cap", self.cap, 0.0)  # 0: no cap
        if self.min_lr > self.lr:
            raise ValueError(f"'min_lr' ({self.min_lr}) must not exceed 'lr' ({self.lr})")
