"""The command line's two Typer apps: `app` (every command) and `benchmark_app`
(`python -m spacy_seqkit benchmark ...`); the command modules register on them."""

from pathlib import Path

import typer

# Where benchmarks write their JSON and PNG unless told.
DEFAULT_BENCH_DIR = Path("benchmarks/results")

app = typer.Typer(
    name="spacy_seqkit",
    help="spacy_seqkit: encoders, travel pipeline, rewriting and word vectors for spaCy.",
    no_args_is_help=True,
    add_completion=False,
)
benchmark_app = typer.Typer(help="Speed and memory benchmarks (table, JSON and PNG).", no_args_is_help=True)
app.add_typer(benchmark_app, name="benchmark")
