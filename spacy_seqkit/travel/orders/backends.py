"""What answers partitions of orders: the `Backend` protocol and two of its kinds, this
process (`InProcess`) and a pool of spawned processes (`ProcessPool`); the Dask cluster's
is `dask_backend.DaskBackend`. Every backend answers a partition with `answer_batch` over
the same `nlp.pipe` batches, so the answers are byte-identical whichever answers them."""

import multiprocessing
import os
import threading
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Protocol, Tuple

from ...util import limit_threads
from .answer import answer_batch, explaining, load_answering
from .format import Answer, Order

# Partitions in flight per process: one being answered, one waiting.
IN_FLIGHT_PER_WORKER = 2


class Partition(NamedTuple):
    index: int  # type: ignore[assignment]  # in input order, over all inputs (shadows tuple.index)
    source: str  # the input it comes from, for reports
    orders: List[Order]


class Backend(Protocol):
    """Answers partitions: `answers` yields each partition with its answers, in input
    order, keeping only a few in flight; `close` frees the workers."""

    def answers(self, partitions: Iterable[Partition]) -> Iterator[Tuple[Partition, List[Answer]]]: ...

    def close(self) -> None: ...


# Worker side: one pipeline per process, loaded by the first partition it answers.
_PIPELINES: Dict[str, object] = {}
_LOAD_LOCK = threading.Lock()
_RUN_LOCK = threading.Lock()


def load_pipeline(model: str, threads: Optional[int] = None, explain: bool = False):
    """The pipeline `model` (a folder or a package), ready to answer trips, loaded once per
    process. `threads`: the threads it computes with (`util.limit_threads`); `explain`: its
    qualifiers record the cues that fired (`answer.explaining`)."""
    with _LOAD_LOCK:
        if threads:
            limit_threads(threads)
        if model not in _PIPELINES:
            _PIPELINES[model] = load_answering(model)
        return explaining(_PIPELINES[model], explain)


def answer_partition(model: str, orders: List[Order], batch_size: int, explain: bool = False) -> List[Answer]:
    """A worker's task: the answers to one partition's orders."""
    nlp = load_pipeline(model, threads=1, explain=explain)
    with _RUN_LOCK:  # one pipeline per process, whatever threads the worker runs
        return answer_batch(nlp, orders, batch_size)


def ordered_results(
    submit: Callable[[Partition], object], partitions: Iterable[Partition], window: int
) -> Iterator[Tuple[Partition, List[Answer]]]:
    """Submit each partition (`submit` returns a future with `.result()`),
    keeping at most `window` in flight, and yield the answers in input order."""
    pending: deque = deque()
    for partition in partitions:
        pending.append((partition, submit(partition)))
        if len(pending) >= window:
            partition, future = pending.popleft()
            yield partition, future.result()
    while pending:
        partition, future = pending.popleft()
        yield partition, future.result()


class InProcess:
    """Answers partitions with a pipeline of this process."""

    def __init__(self, nlp, batch_size: int = 64) -> None:
        self.nlp, self.batch_size = nlp, batch_size

    def answers(self, partitions: Iterable[Partition]) -> Iterator[Tuple[Partition, List[Answer]]]:
        for partition in partitions:
            yield partition, answer_batch(self.nlp, partition.orders, self.batch_size)

    def close(self) -> None:
        pass


class ProcessPool:
    """Answers partitions in `n_process` spawned processes, each loading the
    pipeline once and keeping one torch thread. (Not `nlp.pipe(n_process=)`:
    that sends every Doc back to the parent to be deserialized, which on two
    cores made it slower than one process; here only the answers come back.)"""

    def __init__(self, model: str, n_process: int, batch_size: int = 64, explain: bool = False) -> None:
        self.model, self.n_process, self.batch_size, self.explain = model, n_process, batch_size, explain
        self.pool = ProcessPoolExecutor(n_process, mp_context=multiprocessing.get_context("spawn"))

    def answers(self, partitions: Iterable[Partition]) -> Iterator[Tuple[Partition, List[Answer]]]:
        def submit(partition: Partition):
            return self.pool.submit(answer_partition, self.model, partition.orders, self.batch_size, self.explain)

        return ordered_results(submit, partitions, IN_FLIGHT_PER_WORKER * self.n_process)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
