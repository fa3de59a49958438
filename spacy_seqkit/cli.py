"""Command line: `python -m spacy_seqkit COMMAND`.

Heavy imports (torch, spaCy models) happen inside the commands, so `--help`
stays instant and benchmarks can pin thread counts before numpy loads.
"""
from pathlib import Path

import typer

app = typer.Typer(
    name="spacy_seqkit",
    help="spacy_seqkit: encoders, travel pipeline, rewriting and word vectors for spaCy.",
    no_args_is_help=True,
    add_completion=False,
)
benchmark_app = typer.Typer(help="Speed and memory benchmarks (table, JSON and PNG).", no_args_is_help=True)
app.add_typer(benchmark_app, name="benchmark")

DEFAULT_BENCH_DIR = Path("benchmarks/results")


@benchmark_app.command("encoders")
def benchmark_encoders(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_docs: int = typer.Option(2000, "--n-docs", help="Docs per batch"),
    batch_size: int = typer.Option(1000, "--batch-size", help="Docs per predict / update call"),
    repeats: int = typer.Option(3, "--repeats", help="Timed repeats (best is kept)"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Our MaxoutWindowEncoder vs spacy.MaxoutWindowEncoder.v2: words/s for
    predict and for a training step, peak memory, and a whole tok2vec row."""
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.encoders import run_encoder_benchmark

    run_encoder_benchmark(
        out_dir=out_dir,
        threads=threads,
        n_docs=n_docs,
        batch_size=batch_size,
        repeats=repeats,
        seed=seed,
    )
