"""`benchmark resolve`: the Travel Order Resolver at scale, as users run it.

- `resolve` on the same generated orders with one process, `--n-process N`
  and `--dask` with N local workers (each a separate command, one torch
  thread per process): orders/s over the whole run (start-up included) and
  once answering (after the first answer), time to the first answer, peak
  resident memory of the command's processes together, and whether each
  output is byte-identical to the one-process output;
- start-up: time to the first answer of a one-order file, without the start-up cache of
  large regular expressions (`spacy_seqkit.regex_cache`), at the first start (which
  writes it) and at a later start, beside a bare `import spacy` (the floor); the resolve
  runs then start with the cache, as users' do;
- the memory check: one process on a much larger file (peak resident memory);
- `serve` under `n_requests` requests from `clients` concurrent clients on
  localhost (a bounded count: it stops by itself): requests/s, p50 / p99
  latency, errors, the server's peak memory.

Needs psutil (it comes with the `dask` extra), FastAPI and uvicorn (`serve`).
"""

import hashlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

SAMPLE_SECONDS = 0.1


class Sampler:
    """Peak resident memory of a process and its descendants, summed, sampled
    every SAMPLE_SECONDS in a thread; and when `watch` (a file) first has data."""

    def __init__(self, pid: int, watch: Optional[Path] = None) -> None:
        import psutil

        self.process = psutil.Process(pid)
        self.watch, self.peak = watch, 0
        self.first_output: Optional[float] = None
        self.start = time.perf_counter()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import psutil

        while not self.done.is_set():
            try:
                rss = sum(p.memory_info().rss for p in [self.process, *self.process.children(recursive=True)])
            except psutil.Error:  # a process ended between the listing and the reading
                rss = 0
            self.peak = max(self.peak, rss)
            if (
                self.first_output is None
                and self.watch is not None
                and self.watch.exists()
                and self.watch.stat().st_size
            ):
                self.first_output = time.perf_counter() - self.start
            self.done.wait(SAMPLE_SECONDS)

    def stop(self) -> float:
        """Peak in MiB."""
        self.done.set()
        self.thread.join()
        return self.peak / 2**20


def thread_env(threads: int = 1, cache_dir: Optional[str] = None) -> Dict[str, str]:
    """The environment of a timed command: `threads` threads for every library, and
    the start-up cache in `cache_dir` ("": none; None: as inherited)."""
    from ...benchmarks.report import THREAD_VARS
    from ...regex_cache import CACHE_ENV

    env = {**os.environ, **{var: str(threads) for var in THREAD_VARS}}
    if cache_dir is not None:
        env[CACHE_ENV] = cache_dir
    return env


def write_orders(path: Path, sentences: Sequence[str], n: int) -> None:
    """`n` orders, cycling through the sentences, ids 1..n, as `resolve` reads them."""
    import csv

    with open(path, "w", encoding="utf8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["sentenceID", "sentence"])
        writer.writerows([str(i + 1), sentences[i % len(sentences)]] for i in range(n))


def generated_sentences(n: int, seed: int) -> List[str]:
    from ..corpus.generate import generate_corpus

    train, _ = generate_corpus(seed=seed, n_train=n, n_dev=0)
    return [r["text"] for r in train]


def time_resolve(
    model: str, orders: Path, output: Path, n_orders: int, args: Sequence[str], cache_dir: Optional[str] = None
) -> Dict[str, Any]:
    """One `resolve` command: timings, peak memory, digest of its output."""
    cmd = [sys.executable, "-m", "spacy_seqkit", "resolve", model, str(orders), "-o", str(output), "--quiet", *args]
    output.unlink(missing_ok=True)  # its first bytes are the first answer
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=thread_env(1, cache_dir), stderr=subprocess.PIPE)
    sampler = Sampler(process.pid, watch=output)
    _, err = process.communicate()
    seconds = time.perf_counter() - start
    peak = sampler.stop()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{err.decode()[-2000:]}")
    first = sampler.first_output or seconds
    return {
        "orders": n_orders,
        "seconds": seconds,
        "orders/s": n_orders / seconds,
        "orders/s answering": n_orders / max(seconds - first, 1e-9),
        "first answer (s)": first,
        "peak RSS (MiB)": peak,
        "sha256": hashlib.sha256(output.read_bytes()).hexdigest(),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def load_service(url_port: int, texts: Sequence[str], n_requests: int, clients: int) -> Dict[str, Any]:
    """`n_requests` POST /resolve {"text"} from `clients` threads, each on its
    own keep-alive connection: latencies and errors."""
    latencies: List[float] = []
    errors = [0]
    next_request = iter(range(n_requests))
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", url_port, timeout=60)
        while True:
            with lock:
                i = next(next_request, None)
            if i is None:
                break
            body = json.dumps({"text": texts[i % len(texts)]}).encode("utf8")
            start = time.perf_counter()
            try:
                conn.request("POST", "/resolve", body=body, headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", url_port, timeout=60)
            elapsed = time.perf_counter() - start
            with lock:
                latencies.append(elapsed)
                errors[0] += not ok
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    ordered = sorted(latencies)

    def percentile(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "requests": len(latencies),
        "clients": clients,
        "seconds": seconds,
        "requests/s": len(latencies) / seconds,
        "p50 (ms)": percentile(0.50),
        "p99 (ms)": percentile(0.99),
        "max (ms)": ordered[-1] * 1000,
        "errors": errors[0],
        "latencies_ms": [round(x * 1000, 3) for x in latencies],
    }


def time_startup(model: str, work: Path, sentence: str, cache_dir: Path) -> List[Dict[str, Any]]:
    """Time to the first answer of a one-order `resolve`: with the start-up cache off,
    at the first start with it (an empty cache folder: it is written) and at a later one;
    beside them, the time a bare `python -c "import spacy"` takes on the same machine."""
    one = work / "one-order.csv"
    write_orders(one, [sentence], 1)
    # The floor no start-up work of ours can go under: importing spaCy (and with it thinc and torch).
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import spacy"], env=thread_env(1), check=True)
    floor = time.perf_counter() - start
    rows = [{"start": "`import spacy` alone (the floor)", "first answer (s)": floor, "whole run (s)": floor}]
    for name, folder in (
        ("no start-up cache", ""),
        ("first start (writes the cache)", str(cache_dir)),
        ("later start", str(cache_dir)),
    ):
        row = time_resolve(model, one, work / "one-answer.csv", 1, [], cache_dir=folder)
        rows.append(
            {
                "start": name,
                "first answer (s)": row["first answer (s)"],
                "whole run (s)": row["seconds"],
                "peak RSS (MiB)": row["peak RSS (MiB)"],
            }
        )
    return rows


def time_service(
    model: str, texts: Sequence[str], n_requests: int, clients: int, cache_dir: Optional[str] = None
) -> Dict[str, Any]:
    port = free_port()
    cmd = [sys.executable, "-m", "spacy_seqkit", "serve", model, "--port", str(port), "--log-level", "warning"]
    server = subprocess.Popen(cmd, env=thread_env(1, cache_dir), stderr=subprocess.PIPE)
    assert server.stderr is not None
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"serve did not start:\n{server.stderr.read().decode()[-2000:]}") from None
                time.sleep(0.2)
        sampler = Sampler(server.pid)
        result = load_service(port, texts, n_requests, clients)
        result["server peak RSS (MiB)"] = sampler.stop()
        return result
    finally:
        server.terminate()
        server.wait(30)


def run_resolve_benchmark(
    model: str,
    out_dir: Path,
    n_orders: int = 200_000,
    n_process: int = 2,
    memory_orders: int = 1_000_000,
    n_requests: int = 10_000,
    clients: int = 8,
    n_sentences: int = 50_000,
    seed: int = 0,
) -> Dict[str, Any]:
    from wasabi import msg

    from ...benchmarks.report import environment, print_table, save_plot, write_results, wrote

    with tempfile.TemporaryDirectory(prefix="resolve-bench-") as tmp:
        work = Path(tmp)
        msg.info(f"Generating {min(n_sentences, n_orders):,} sentences")
        sentences = generated_sentences(min(n_sentences, n_orders), seed)
        cache_dir = work / "startup-cache"
        msg.info("resolve, one order: time to the first answer")
        startup = time_startup(model, work, sentences[0], cache_dir)
        print_table(
            "resolve start-up: one order, time to its answer",
            startup,
            ["start", "first answer (s)", "whole run (s)", "peak RSS (MiB)"],
        )
        orders = work / "orders.csv"
        write_orders(orders, sentences, n_orders)
        configs = [
            ("1 process", []),
            (f"--n-process {n_process}", ["--n-process", str(n_process)]),
            (f"--dask, {n_process} local workers", ["--dask", "--n-process", str(n_process)]),
        ]
        rows = []
        for i, (name, args) in enumerate(configs):
            msg.info(f"resolve, {name}, {n_orders:,} orders")
            rows.append(
                {
                    "run": name,
                    **time_resolve(model, orders, work / f"answers-{i}.csv", n_orders, args, cache_dir=str(cache_dir)),
                }
            )
        for row in rows:
            row["speed-up"] = row["orders/s"] / rows[0]["orders/s"]
            row["identical"] = row["sha256"] == rows[0]["sha256"]
        if memory_orders:
            msg.info(f"resolve, 1 process, {memory_orders:,} orders (memory check)")
            big = work / "orders-big.csv"
            write_orders(big, sentences, memory_orders)
            orders.unlink()
            row = {
                "run": "1 process, memory check",
                **time_resolve(model, big, work / "answers-big.csv", memory_orders, [], cache_dir=str(cache_dir)),
            }
            rows.append(row)
        service = None
        if n_requests:
            msg.info(f"serve, {n_requests:,} requests from {clients} clients")
            service = time_service(model, sentences, n_requests, clients, cache_dir=str(cache_dir))
    columns = [
        "run",
        "orders",
        "orders/s",
        "orders/s answering",
        "speed-up",
        "first answer (s)",
        "peak RSS (MiB)",
        "identical",
    ]
    print_table(f"resolve on generated orders ({os.cpu_count()} cores, one torch thread a process)", rows, columns)
    if service:
        print_table(
            'serve: POST /resolve {"text"} on localhost',
            [service],
            [
                "requests",
                "clients",
                "requests/s",
                "p50 (ms)",
                "p99 (ms)",
                "max (ms)",
                "errors",
                "server peak RSS (MiB)",
            ],
        )
    env = environment(1)
    extra = {
        "model": model,
        "startup": startup,
        "service": {k: v for k, v in (service or {}).items() if k != "latencies_ms"},
    }
    json_path = write_results(out_dir, "resolve", rows, env, extra=extra)

    def draw(speed_ax, memory_ax, latency_ax=None) -> None:
        runs = [r for r in rows if "memory" not in r["run"]]
        ys = range(len(runs))
        speed_ax.barh([y - 0.2 for y in ys], [r["orders/s"] for r in runs], height=0.4, label="whole run")
        speed_ax.barh(
            [y + 0.2 for y in ys], [r["orders/s answering"] for r in runs], height=0.4, label="once answering"
        )
        speed_ax.set_yticks(list(ys), [r["run"] for r in runs])
        speed_ax.set_xlabel("orders / second (higher is better)")
        speed_ax.invert_yaxis()
        speed_ax.legend(loc="upper right")
        memory_ax.barh([f"{r['run']} ({r['orders']:,})" for r in rows], [r["peak RSS (MiB)"] for r in rows])
        memory_ax.axvline(1024, color="red", linestyle="--", label="1 GiB")
        memory_ax.set_xlabel("peak resident memory, MiB (all processes)")
        memory_ax.invert_yaxis()
        memory_ax.legend(loc="lower right")
        if service and latency_ax is not None:
            latency_ax.hist(service["latencies_ms"], bins=60)
            for q in ("p50 (ms)", "p99 (ms)"):
                latency_ax.axvline(
                    service[q],
                    color="red" if "99" in q else "black",
                    linestyle="--",
                    label=f"{q[:3]} {service[q]:.1f} ms",
                )
            latency_ax.set_yscale("log")
            latency_ax.set_xlabel(f"serve latency, ms ({service['requests']:,} requests, {clients} clients)")
            latency_ax.legend()

    # The latency panel only where `serve` ran (`--requests 0` skips it).
    msg.good(wrote(json_path, save_plot(out_dir, "resolve", draw, n_axes=3 if service else 2, width=5.5)))
    return {"rows": rows, "service": service}
