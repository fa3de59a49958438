"""`resolve --dask`: a local cluster of two workers answers like one process,
even when a worker is killed in the middle of a run."""

import io
import logging
import os
import signal
import subprocess
import sys

import pytest
from test_resolve_stream import orders_csv

from spacy_seqkit.travel.orders.backends import InProcess
from spacy_seqkit.travel.orders.dask_backend import DaskBackend, is_scheduler_address
from spacy_seqkit.travel.orders.stream import resolve_inputs

# dask_backend imports distributed only when a backend starts, so the imports above work without it.
distributed = pytest.importorskip(
    "distributed", reason="the Dask backend needs dask[distributed]: pip install '.[dask]'"
)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    ) as cluster:
        yield cluster


def resolve(backend, path, on_partition=None, steps=False):
    out, err = io.StringIO(), io.StringIO()
    try:
        counts = resolve_inputs(
            [str(path)], backend, out=out, err=err, partition_size=64, on_partition=on_partition, steps=steps
        )
    finally:
        backend.close()
    return out.getvalue(), err.getvalue(), counts


@pytest.mark.parametrize("steps", [False, True])
def test_dask_two_workers_equal_one_process(nlp, model_dir, cluster, tmp_path, steps):
    (tmp_path / "orders.csv").write_bytes(orders_csv(1500, seed=5))
    expected = resolve(InProcess(nlp), tmp_path / "orders.csv", steps=steps)
    assert ("Dijon" in expected[0]) is steps
    assert (
        resolve(DaskBackend(str(model_dir), address=cluster.scheduler_address), tmp_path / "orders.csv", steps=steps)
        == expected
    )


class Retries(distributed.diagnostics.plugin.SchedulerPlugin):
    """Counts the tasks sent back from a worker to be run again."""

    def __init__(self) -> None:
        self.retried = set()

    def transition(self, key, start, finish, *args, **kwargs) -> None:
        if start == "processing" and finish != "memory":
            self.retried.add(key)


def test_dask_killed_worker_costs_a_retry_not_lines(nlp, model_dir, cluster, tmp_path):
    (tmp_path / "orders.csv").write_bytes(orders_csv(3000, seed=6))
    expected = resolve(InProcess(nlp), tmp_path / "orders.csv")
    backend = DaskBackend(str(model_dir), address=cluster.scheduler_address)
    pids = backend.client.run(os.getpid)
    assert len(pids) == 2
    retries = Retries()
    cluster.scheduler.add_plugin(retries, name="test-retries")
    killed = []

    def kill_a_busy_worker(counts):
        # After the first partition is written, a worker answering another one.
        busy = [w.address for w in list(cluster.scheduler.workers.values()) if w.processing]
        if not killed and busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append((pids[busy[0]], counts["orders"]))

    try:
        answers = resolve(backend, tmp_path / "orders.csv", on_partition=kill_a_busy_worker)
    finally:
        cluster.scheduler.remove_plugin(name="test-retries")
    assert killed and killed[0][1] < 3000
    with pytest.raises(OSError):
        os.kill(killed[0][0], 0)  # that worker process is gone
    assert any(str(key).startswith("resolve-") for key in retries.retried)  # its partitions ran again
    got, want = answers[0].splitlines(), expected[0].splitlines()
    assert len(got) == len(want) == 3000
    assert [i for i, (g, w) in enumerate(zip(got, want)) if g != w] == []
    assert answers[1:] == expected[1:]


def test_resolve_cli_dask_local_cluster_and_scheduler_address(model_dir, cluster, tmp_path):
    """`--dask` alone starts a local cluster; `--dask ADDRESS` joins a running one."""
    (tmp_path / "orders.csv").write_bytes(orders_csv(300, seed=7))
    cmd = [sys.executable, "-m", "spacy_seqkit", "resolve", str(model_dir), str(tmp_path / "orders.csv"), "--quiet"]
    one = subprocess.run(cmd + ["-o", str(tmp_path / "one.csv")], capture_output=True)
    assert one.returncode == 0, one.stderr
    for name, args in (("local", ["--dask", "--n-process", "2"]), ("joined", ["--dask", cluster.scheduler_address])):
        dask = subprocess.run(cmd + args + ["-o", str(tmp_path / f"{name}.csv")], capture_output=True)
        assert dask.returncode == 0, dask.stderr
        assert (tmp_path / f"{name}.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
        assert dask.stderr.decode().splitlines() == one.stderr.decode().splitlines()


def test_scheduler_address_after_dask():
    assert is_scheduler_address("tcp://10.0.0.1:8786") and not is_scheduler_address("orders.csv")
