"""Command line: `python -m spacy_seqkit COMMAND`, one module per group of commands; the
travel application's commands live with it (`travel/corpus/commands.py`, `travel/cli.py`,
`travel/benchmarks/commands.py`).

Heavy imports (torch, spaCy models) happen inside the commands, so `--help`
stays instant and benchmarks can pin thread counts before numpy loads.
"""

# The command modules register their commands on `app` and `benchmark_app` (in the order of --help).
from ..travel import cli as _travel  # noqa: F401
from ..travel.benchmarks import commands as _travel_benchmarks  # noqa: F401
from ..travel.corpus import commands as _travel_corpus  # noqa: F401
from . import benchmark, rewriter, transformer, vectors  # noqa: F401
from .app import app, benchmark_app

__all__ = ["app", "benchmark_app"]
