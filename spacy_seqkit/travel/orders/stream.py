"""`resolve` at scale: many inputs read as a stream of partitions, answered in
this process, in a pool of processes or on a Dask cluster (`backends.py`,
`dask_backend.py`),
and written in input order.

Backends answer with every place of a trip (`Answer.places`); the driver alone
writes them, in the spec's format or with the stops (`steps`), so the format is
the same whichever backend answered.

A partition is a run of consecutive orders of one input, a whole number of
`nlp.pipe` batches long: every backend pipes the same batches, so the answers
are byte-identical whichever answers them. The driver reads and parses the
input (about a microsecond an order) and keeps a few partitions in flight per
process, so memory stays flat whatever the input's size; the workers only need
the pipeline, not the input's file system.
"""

import glob
import sys
from pathlib import Path
from typing import IO, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from .backends import Backend, InProcess, Partition, ProcessPool, load_pipeline
from .format import Answer, Order, new_counts, read_orders, write_answers

STDIN = "-"


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
            what = (
                "no *.csv file in folder"
                if path.is_dir()
                else "no file matches"
                if glob.has_magic(arg)
                else "No such input file:"
            )
            raise ValueError(f"{what} {arg}")
        files.extend(found)
    return files


def read_partitions(
    sources: Sequence[Union[str, IO[bytes]]], size: int, first_size: Optional[int] = None
) -> Iterator[Partition]:
    """The orders of the inputs (paths, "-" for stdin, or binary streams already open),
    in runs of `size` (the very first of `first_size`, so that the first answers come
    early); a partition never spans two inputs."""
    index = 0
    for source in sources:
        if isinstance(source, str):
            stream = sys.stdin.buffer if source == STDIN else open(source, "rb")
            name = source
        else:
            stream, name = source, getattr(source, "name", "<stream>")
        try:
            orders: List[Order] = []
            for order in read_orders(stream):
                orders.append(order)
                if len(orders) == ((first_size or size) if index == 0 else size):
                    yield Partition(index, name, orders)
                    index, orders = index + 1, []
            if orders:
                yield Partition(index, name, orders)
                index += 1
        finally:
            if isinstance(source, str) and stream is not sys.stdin.buffer:
                stream.close()


# Orders of the first partition (at most one batch): the first answers come after a small one.
FIRST_PARTITION = 64


def partition_size_for(partition_size: int, batch_size: int) -> int:
    """`partition_size` rounded up to a whole number of batches."""
    return max(1, -(-partition_size // batch_size)) * batch_size


def make_backend(
    model: str,
    batch_size: int = 64,
    n_process: int = 1,
    dask: bool = False,
    address: Optional[str] = None,
    threads: Optional[int] = None,
    explain: bool = False,
) -> Backend:
    """What answers the partitions: this process (`n_process` 1, computing with `threads`
    threads), a pool of `n_process` processes, or with `dask` the cluster at `address` (None: a
    local one, of `n_process` workers if more than one, else one per core); each worker process
    computes with one thread. `explain`: each answer says why (`Answer.why`, with the cues)."""
    if dask:
        from .dask_backend import DaskBackend

        workers = n_process if n_process > 1 else None
        return DaskBackend(model, batch_size, address=address, n_workers=workers, explain=explain)
    if n_process > 1:
        return ProcessPool(model, n_process, batch_size, explain=explain)
    return InProcess(load_pipeline(model, threads=threads, explain=explain), batch_size)


def open_output(path: Path) -> IO[str]:
    """`path` opened for the answers, its folder created if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return open(path, "w", encoding="utf8", newline="")


def resolve_inputs(
    sources: Sequence[Union[str, IO[bytes]]],
    backend: Backend,
    out: Optional[IO[str]] = None,
    output_dir: Optional[Path] = None,
    err: IO[str] = sys.stderr,
    partition_size: int = 1024,
    first_partition_size: Optional[int] = None,
    progress: bool = False,
    on_partition: Optional[Callable[[Dict[str, int]], None]] = None,
    steps: bool = False,
    route: Optional[Callable[[Answer], Tuple[List[str], Optional[str]]]] = None,
    explain: Optional[IO[str]] = None,
) -> Dict[str, int]:
    """Answer every order of `sources` (see `expand_inputs`; or binary streams) with `backend`
    (`InProcess`, `ProcessPool` or `cluster.DaskBackend`), in input order: on
    `out`, or one file per partition in `output_dir` (part-00000.csv, ...).
    Unread orders are reported on `err` (preceded by their input's name when
    there are several inputs). Partitions hold `partition_size` orders, the
    first `first_partition_size` (e.g. one batch: the first answers come
    sooner). `progress`: a bar with orders/s on `err`. `steps`: each trip's stops between
    its ends (`id,departure,step...,arrival`), else the spec's `id,departure,arrival`;
    `route` (a `routing.RouteAnswers`): each trip's route instead, its stations
    `id,departure,station...,arrival`, INVALID where there is none (reported on `err`).
    `explain`: one JSON line per order there, what decided its answer (`Answer.explained`).
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
                    write_answers(answers, part, report, counts, prefix, steps, route)
            elif out is not None:
                write_answers(answers, out, report, counts, prefix, steps, route)
                out.flush()
            else:
                raise ValueError("resolve_inputs needs 'out' or 'output_dir'")
            if explain is not None:
                explain.writelines(answer.explained(steps) + "\n" for answer in answers)
            bar.update(len(answers))
            if on_partition is not None:
                on_partition(counts)
    finally:
        bar.close()
    return counts


def wants_progress(quiet: bool, err: IO[str] = sys.stderr) -> bool:
    """A progress bar unless asked for quiet or stderr is not a terminal."""
    return not quiet and hasattr(err, "isatty") and err.isatty()
