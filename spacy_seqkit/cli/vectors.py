"""`python -m spacy_seqkit pretrain-vectors`: word2vec vectors for spaCy."""

from pathlib import Path
from typing import List

import typer

from .app import app


@app.command("pretrain-vectors")
def pretrain_vectors_command(
    text: Path = typer.Argument(..., help="UTF-8 text, one sentence or paragraph a line (or .jsonl with a text field)"),
    output: Path = typer.Argument(
        ..., help="word2vec text file to write (.txt or .txt.gz), or with --format spacy a pipeline folder"
    ),
    model: str = typer.Option("skipgram", "--model", help="skipgram or cbow"),
    loss: str = typer.Option("ns", "--loss", help="ns (negative sampling) or hs (hierarchical softmax)"),
    dim: int = typer.Option(100, "--dim", help="Vector width"),
    window: int = typer.Option(5, "--window", help="Max context distance (each center draws a window in 1..window)"),
    negative: int = typer.Option(5, "--negative", help="Noise words per example (ns)"),
    min_count: int = typer.Option(5, "--min-count", help="Drop words rarer than this"),
    sample: float = typer.Option(1e-3, "--sample", help="Subsampling threshold of frequent words (0 = off)"),
    epochs: int = typer.Option(5, "--epochs", help="Passes over the text"),
    lr: float = typer.Option(
        None, "--lr", help="Initial learning rate, decayed linearly (default: 0.025 skipgram, 0.05 cbow)"
    ),
    threads: int = typer.Option(None, "--threads", help="Training threads (default: all cores)"),
    seed: int = typer.Option(0, "--seed"),
    batch_size: int = typer.Option(
        None,
        "--batch-size",
        help="Center words per SGD step of the torch engine, used where numba is missing (default: 4096 skipgram, 2048 cbow, at most 1/100 of the text)",
    ),
    pipeline: str = typer.Option(
        None, "--pipeline", help="spaCy pipeline whose tokenizer to use (default: a blank LANG one)"
    ),
    lang: str = typer.Option("fr", "--lang", help="Language of the blank tokenizer"),
    extra: List[Path] = typer.Option(
        [], "--extra", help="More text: a file, or a folder of .txt / .jsonl files (repeatable)"
    ),
    output_format: str = typer.Option(
        "text",
        "--format",
        help="text: word2vec's text format (for `spacy init vectors`); spacy: the pipeline folder that command would write",
    ),
    timings: Path = typer.Option(None, "--timings", hidden=True, help="Write the seconds of each step as JSON"),
) -> None:
    """Train static word vectors (word2vec: skip-gram or CBOW, negative sampling
    or hierarchical softmax) for `spacy init vectors LANG OUTPUT DIR`."""
    import os

    from wasabi import msg

    from ..vectors import Word2VecConfig
    from ..vectors.pretrain import FORMATS, pretrain_vectors

    if output_format not in FORMATS:
        raise typer.BadParameter(f"must be one of {', '.join(FORMATS)}, got {output_format!r}", param_hint="--format")
    try:
        config = Word2VecConfig(
            model=model,
            loss=loss,
            dim=dim,
            window=window,
            negative=negative,
            min_count=min_count,
            sample=sample,
            epochs=epochs,
            lr=lr,
            threads=threads or os.cpu_count() or 1,
            seed=seed,
            batch_size=batch_size,
        )
        result = pretrain_vectors(
            text, output, config, pipeline=pipeline, lang=lang, extra=extra, output_format=output_format
        )
    except (ValueError, OSError) as e:
        msg.fail(str(e))
        raise typer.Exit(2) from None
    if timings is not None:
        import json

        steps = {
            "read s": result.read_seconds,
            "setup s": result.setup_seconds,
            "train s": result.seconds,
            "write s": result.write_seconds,
            "words": result.tokens,
            "vocab": result.vocab_size,
            "engine": result.engine,
        }
        timings.write_text(json.dumps(steps), encoding="utf8")
    msg.good(
        f"Wrote {output}: {result.words:,} words trained in {result.seconds:.1f}s "
        f"({result.words_per_second:,.0f} words/s), final loss {result.epoch_losses[-1]:.4f}; "
        f"reading and tokenising {result.read_seconds:.1f}s, loading the {result.engine} engine "
        f"{result.setup_seconds:.1f}s, writing {result.write_seconds:.1f}s"
    )
