"""`resolve` at scale: many inputs read as a stream of partitions, answered in
this process, in a pool of processes or on a Dask cluster (`travel.cluster`),
and written in input order.

A partition is a run of consecutive orders of one input, a whole number of
`nlp.pipe` batches long: every backend pipes the same batches, so the answers
are byte-identical whichever answers them. The driver reads and parses the
input (about a microsecond an order) and keeps a few partitions in flight per
process, so memory stays flat whatever the input's size; the workers only need
the pipeline, not the input's file system.
"""
import glob
import multiprocessing
import os
import sys
import threading
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .tor import Answer, Order, answer_batch, new_counts, prepare_pipeline, read_orders, write_answers

STDIN = "-"
# Partitions in flight per process: one being answered, one waiting.
IN_FLIGHT_PER_WORKER = 2


class Partition(NamedTuple):
    index: int  # in input order, over all inputs
    source: str  # the input it comes from, for reports
    orders: List[Order]


def expand_inputs(inputs: Sequence[str]) -> List[str]:
    """The input files, in order: each argument is a file, a glob (quoted:
    'orders/*.csv', matches sorted by name) or a folder (its *.csv files, sorted
    by name); "-" (or no argument) is stdin. ValueError naming an argument
    that names no file."""
    if not inputs or list(inputs) == [STDIN]:
        return [STDIN]
    files: List[str] = []
    for arg in inputs:
        if arg == STDIN:
            raise ValueError("'-' (stdin) cannot be mixed with input files")
        path = Path(arg)
        if path.is_dir():
            found = sorted(str(p) for p in path.glob("*.csv") if p.is_file())
        elif glob.has_magic(arg):
            found = sorted(p for p in glob.glob(arg, recursive=True) if Path(p).is_file())
        else:
            found = [arg] if path.is_file() else []
        if not found:
            what = "no *.csv file in folder" if path.is_dir() else "no file matches" if glob.has_magic(arg) else "No such input file:"
            raise ValueError(f"{what} {arg}")
        files.extend(found)
    return files


def read_partitions(sources: Sequence[str], size: int, first_size: Optional[int] = None) -> Iterator[Partition]:
    """The orders of the inputs (paths, or "-" for stdin), in runs of `size`
    (the very first of `first_size`, so that the first answers come early); a
    partition never spans two inputs."""
    index = 0
    for source in sources:
        stream = sys.stdin.buffer if source == STDIN else open(source, "rb")
        try:
            orders: List[Order] = []
            for order in read_orders(stream):
                orders.append(order)
                if len(orders) == ((first_size or size) if index == 0 else size):
                    yield Partition(index, source, orders)
                    index, orders = index + 1, []
            if orders:
                yield Partition(index, source, orders)
                index += 1
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()


def partition_size_for(partition_size: int, batch_size: int) -> int:
    """`partition_size` rounded up to a whole number of batches."""
    return max(1, -(-partition_size // batch_size)) * batch_size


# Worker side: one pipeline per process, loaded by the first partition it answers.
_PIPELINES: Dict[str, object] = {}
_LOAD_LOCK = threading.Lock()
_RUN_LOCK = threading.Lock()


def load_pipeline(model: str, threads: Optional[int] = None):
    """The pipeline `model` (a folder or a package), ready to answer trips,
    loaded once per process. `threads`: torch threads (a worker uses one)."""
    with _LOAD_LOCK:
        if model not in _PIPELINES:
            from ..regex_cache import load

            if threads:
                import torch

                torch.set_num_threads(threads)
            _PIPELINES[model] = prepare_pipeline(load(model))
        return _PIPELINES[model]


def answer_partition(model: str, orders: List[Order], batch_size: int) -> List[Answer]:
    """A worker's task: the answers to one partition's orders."""
    nlp = load_pipeline(model, threads=1)
    with _RUN_LOCK:  # one pipeline per process, whatever threads the worker runs
        return answer_batch(nlp, orders, batch_size)


def ordered_results(submit: Callable[[Partition], object], partitions: Iterable[Partition], window: int) -> Iterator[Tuple[Partition, List[Answer]]]:
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

    def __init__(self, model: str, n_process: int, batch_size: int = 64) -> None:
        self.model, self.n_process, self.batch_size = model, n_process, batch_size
        self.pool = ProcessPoolExecutor(n_process, mp_context=multiprocessing.get_context("spawn"))

    def answers(self, partitions: Iterable[Partition]) -> Iterator[Tuple[Partition, List[Answer]]]:
        def submit(partition: Partition):
            return self.pool.submit(answer_partition, self.model, partition.orders, self.batch_size)

        return ordered_results(submit, partitions, IN_FLIGHT_PER_WORKER * self.n_process)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def make_backend(model: str, batch_size: int = 64, n_process: int = 1, dask: bool = False, address: Optional[str] = None):
    """What answers the partitions: this process (`n_process` 1), a pool of
    `n_process` processes, or with `dask` the cluster at `address` (None: a
    local one, of `n_process` workers if more than one, else one per core)."""
    if dask:
        from .cluster import DaskBackend

        return DaskBackend(model, batch_size, address=address, n_workers=n_process if n_process > 1 else None)
    if n_process > 1:
        return ProcessPool(model, n_process, batch_size)
    return InProcess(load_pipeline(model), batch_size)


def open_output(path: Path) -> IO[str]:
    """`path` opened for the answers, its folder created if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return open(path, "w", encoding="utf8", newline="")


def resolve_inputs(
    sources: Sequence[str],
    backend,
    out: Optional[IO[str]] = None,
    output_dir: Optional[Path] = None,
    err: IO[str] = sys.stderr,
    partition_size: int = 1024,
    first_partition_size: Optional[int] = None,
    progress: bool = False,
    on_partition: Optional[Callable[[Dict[str, int]], None]] = None,
) -> Dict[str, int]:
    """Answer every order of `sources` (see `expand_inputs`) with `backend`
    (`InProcess`, `ProcessPool` or `cluster.DaskBackend`), in input order: on
    `out`, or one file per partition in `output_dir` (part-00000.csv, ...).
    Unread orders are reported on `err` (preceded by their input's name when
    there are several inputs). Partitions hold `partition_size` orders, the
    first `first_partition_size` (e.g. one batch: the first answers come
    sooner). `progress`: a bar with orders/s on `err`.
    `on_partition(counts)` is called after each partition. Returns counts."""
    from tqdm import tqdm

    counts = new_counts()
    bar = tqdm(unit=" orders", file=err, disable=not progress, mininterval=0.5, smoothing=0.1)

    def report(message: str) -> None:
        bar.write(message, file=err) if progress else print(message, file=err)

    try:
        partitions = read_partitions(sources, partition_size, first_partition_size)
        for partition, answers in backend.answers(partitions):
            prefix = f"{partition.source}: " if len(sources) > 1 else ""
            if output_dir is not None:
                with open_output(output_dir / f"part-{partition.index:05d}.csv") as part:
                    write_answers(answers, part, report, counts, prefix)
            else:
                write_answers(answers, out, report, counts, prefix)
                out.flush()
            bar.update(len(answers))
            if on_partition is not None:
                on_partition(counts)
    finally:
        bar.close()
    return counts


def wants_progress(quiet: bool, err: IO[str] = sys.stderr) -> bool:
    """A progress bar unless asked for quiet or stderr is not a terminal."""
    return not quiet and hasattr(err, "isatty") and err.isatty()


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
