"""Command line: `python -m spacy_seqkit COMMAND`, one module per group of commands.

Heavy imports (torch, spaCy models) happen inside the commands, so `--help`
stays instant and benchmarks can pin thread counts before numpy loads.
"""
import typer

app = typer.Typer(
    name="spacy_seqkit",
    help="spacy_seqkit: encoders, travel pipeline, rewriting and word vectors for spaCy.",
    no_args_is_help=True,
    add_completion=False,
)
benchmark_app = typer.Typer(help="Speed and memory benchmarks (table, JSON and PNG).", no_args_is_help=True)
app.add_typer(benchmark_app, name="benchmark")

# The command modules register their commands on `app` and `benchmark_app`.
from . import travel, vectors, transformer, benchmark  # noqa: E402,F401,I001  (order of --help)
from . import serve  # noqa: E402,F401
from . import rewriter  # noqa: E402,F401

__all__ = ["app", "benchmark_app"]
