"""`resolve --dask`: partitions answered on a Dask cluster (`pip install
"spacy-seqkit[dask]"`).

Without an address, a local `distributed` cluster is started (one worker
process per core, one thread each) and closed at the end; with one, the client
joins that scheduler (`dask scheduler`, then `dask worker tcp://HOST:8786
--nthreads 1` on each machine). Each worker loads the pipeline once, by the
name or path given, so that must exist on every worker. The driver ships each
partition's orders (not a path: workers need no shared file system) and writes
the answers in input order. A worker that dies costs a retry of its
partitions on another worker, by the scheduler: each partition's answer is
collected once, from its own future, so no line is lost or written twice.
"""

import logging
import uuid
from typing import Iterable, Iterator, List, Optional, Tuple

from .backends import IN_FLIGHT_PER_WORKER, Partition, answer_partition, default_workers, ordered_results
from .format import Answer

# The local cluster's workers: glibc's own memory trimming, not Dask's default
# MALLOC_TRIM_THRESHOLD_=65536 (set explicitly, it also freezes glibc's mmap threshold, so
# every array over 128 KB was mapped and unmapped anew: 13x the page faults of a
# `--n-process` worker, 5 s of kernel time per worker and 20,000 orders); and no
# statistical profiler sampling the worker's stacks every 10 ms.
LOCAL_WORKER_CONFIG = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
}

# What a scheduler address starts with (Dask's communication protocols).
ADDRESS_SCHEMES = ("tcp://", "tls://", "ucx://", "inproc://", "ws://", "wss://")


def is_scheduler_address(text: str) -> bool:
    return text.startswith(ADDRESS_SCHEMES)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ImportError('--dask needs Dask\'s distributed scheduler: pip install "spacy-seqkit[dask]"') from None
    return distributed


class DaskBackend:
    """Answers partitions on the Dask cluster at `address`, or on a local
    cluster of `n_workers` processes (default: one per core)."""

    def __init__(
        self,
        model: str,
        batch_size: int = 64,
        address: Optional[str] = None,
        n_workers: Optional[int] = None,
        explain: bool = False,
    ) -> None:
        distributed = _import_distributed()
        import dask

        self.model, self.batch_size, self.explain = model, batch_size, explain
        self.cluster = None
        if address is None:
            with dask.config.set(LOCAL_WORKER_CONFIG):
                self.cluster = distributed.LocalCluster(
                    n_workers=n_workers or default_workers(),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    # Not even the errors a worker logs when the cluster closes under it ("Failed
                    # to communicate with scheduler during heartbeat", a race of the shutdown): a
                    # task's own error reaches the client and `resolve` reports it.
                    silence_logs=logging.CRITICAL,
                )
        try:
            self.client = distributed.Client(self.cluster or address, timeout="30s")
        except OSError as e:
            raise OSError(f"Cannot reach the Dask scheduler at {address}: {e}") from None
        self.run_id = uuid.uuid4().hex[:8]

    def slots(self) -> int:
        """Threads of the cluster's workers: the partitions it answers at once."""
        return max(1, sum(self.client.nthreads().values()))

    def answers(self, partitions: Iterable[Partition]) -> Iterator[Tuple[Partition, List[Answer]]]:
        def submit(partition: Partition):
            return self.client.submit(
                answer_partition,
                self.model,
                partition.orders,
                self.batch_size,
                self.explain,
                key=f"resolve-{self.run_id}-{partition.index}",
                pure=False,
            )

        return ordered_results(submit, partitions, IN_FLIGHT_PER_WORKER * self.slots())

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
