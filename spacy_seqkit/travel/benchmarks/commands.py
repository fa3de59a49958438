"""The travel benchmarks' commands: `python -m spacy_seqkit benchmark pipelines`,
`benchmark training` and `benchmark resolve` (their work lives beside this module)."""

from pathlib import Path
from typing import List

import typer

from ...cli.app import DEFAULT_BENCH_DIR, benchmark_app


@benchmark_app.command("pipelines")
def benchmark_pipelines(
    training_dir: Path = typer.Argument(Path("training"), help="Folder of <config>/model-best pipelines"),
    data: Path = typer.Option(Path("corpus/test.jsonl"), "--data", help="JSONL whose texts are timed"),
    out_dir: Path = typer.Option(Path("metrics"), "--out", "-o", help="Where metrics JSON are read and results go"),
    threads: int = typer.Option(1, "--threads", "-t"),
    repeats: int = typer.Option(3, "--repeats"),
) -> None:
    """Words/s of every trained travel pipeline on the same texts, in one run,
    beside its entity F and trip accuracy."""
    from ...benchmarks.report import pin_threads

    pin_threads(threads)
    from .pipelines import run_pipeline_benchmark

    try:
        run_pipeline_benchmark(training_dir, data, out_dir, threads, repeats)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None


@benchmark_app.command("training")
def benchmark_training(
    configs: List[Path] = typer.Argument(
        ..., help="Training configs (e.g. configs/ner_maxout.cfg configs/ner_attention.cfg)"
    ),
    gpu_ids: str = typer.Option("-1,0", "--gpu-ids", help="Devices, comma-separated: -1 the CPU, N the GPU N"),
    train: Path = typer.Option(Path("corpus/train.spacy"), "--train"),
    dev: Path = typer.Option(Path("corpus/dev.spacy"), "--dev"),
    steps: int = typer.Option(600, "--steps", help="Training steps of every run"),
    vectors: str = typer.Option("", "--vectors", help="Override of paths.vectors (a package or folder)"),
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(2, "--threads", "-t", help="CPU threads of every run"),
) -> None:
    """`spacy train` of each config on the CPU and on the GPU(s), the same
    steps on the same corpus, each in a fresh process: seconds, steps/s,
    speed-up over the CPU, dev scores, and the trained pipeline's words/s."""
    try:
        devices = [int(part) for part in gpu_ids.split(",")]
    except ValueError:
        raise typer.BadParameter(f"comma-separated integers, got {gpu_ids!r}", param_hint="--gpu-ids") from None
    for hint, value in (("--steps", steps), ("--threads", threads)):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    from .training import run_training_benchmark

    try:
        run_training_benchmark(configs, devices, train, dev, steps, out_dir, threads, vectors or None)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None


@benchmark_app.command("resolve")
def benchmark_resolve(
    model: str = typer.Argument(..., help="Trained pipeline (e.g. training/ner_maxout/model-best)"),
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    n_orders: int = typer.Option(200_000, "--n-orders", help="Generated orders for the resolve runs"),
    n_process: int = typer.Option(2, "--n-process", help="Processes, and Dask local workers, of the parallel runs"),
    memory_orders: int = typer.Option(
        1_000_000, "--memory-orders", help="Orders of the one-process memory check (0: skip it)"
    ),
    n_requests: int = typer.Option(10_000, "--requests", help="Requests sent to the service (0: skip it)"),
    clients: int = typer.Option(8, "--clients", help="Concurrent clients of the service"),
    n_sentences: int = typer.Option(
        50_000, "--sentences", help="Distinct generated sentences the orders cycle through"
    ),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """`resolve` with 1 process, --n-process N and --dask (N local workers):
    orders/s, time to the first answer, peak memory, identical output; the
    memory check on a larger file; `serve` under concurrent clients: requests/s,
    p50 / p99 latency, errors. Run it on an idle machine."""
    for hint, value in (
        ("--n-orders", n_orders),
        ("--n-process", n_process),
        ("--clients", clients),
        ("--sentences", n_sentences),
    ):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    for hint, value in (("--memory-orders", memory_orders), ("--requests", n_requests)):
        if value < 0:
            raise typer.BadParameter(f"must be 0 or more, got {value}", param_hint=hint)
    missing = missing_for_resolve_benchmark(n_requests)
    if missing:
        typer.echo(
            f"benchmark resolve needs {', '.join(missing)} (its memory sampler, its Dask run and its "
            f'`serve` run): pip install -c constraints.txt ".[dask,serve]"',
            err=True,
        )
        raise typer.Exit(2)
    from .resolve import run_resolve_benchmark

    try:
        run_resolve_benchmark(
            model,
            out_dir,
            n_orders=n_orders,
            n_process=n_process,
            memory_orders=memory_orders,
            n_requests=n_requests,
            clients=clients,
            n_sentences=n_sentences,
            seed=seed,
        )
    except (ImportError, RuntimeError) as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None


def missing_for_resolve_benchmark(n_requests: int) -> List[str]:
    """The modules `benchmark resolve` needs that are not installed: psutil and Dask's
    distributed scheduler (the `dask` extra), FastAPI and uvicorn where it runs `serve`."""
    from importlib.util import find_spec

    needed = ["psutil", "dask", "distributed"] + (["fastapi", "uvicorn"] if n_requests else [])
    return [name for name in needed if find_spec(name) is None]
