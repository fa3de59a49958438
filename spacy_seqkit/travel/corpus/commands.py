"""The travel corpus's commands: `python -m spacy_seqkit generate`, `convert` and `split-writers`
(their work lives beside this module)."""

from pathlib import Path
from typing import List, Optional

import typer

from ...cli.app import app


@app.command("generate")
def generate_command(
    output_dir: Path = typer.Argument(..., help="Folder for train.jsonl and dev.jsonl"),
    seed: int = typer.Option(0, "--seed", help="Same seed, byte-identical files"),
    n_train: int = typer.Option(8000, "--n-train", help="Training sentences"),
    n_dev: int = typer.Option(1500, "--n-dev", help="Dev sentences (held-out phrasings and places)"),
    noise_rate: float = typer.Option(0.5, "--noise-rate", help="Share of sentences with typing noise"),
    exclude: list[Path] = typer.Option(
        [Path(f"corpus/{name}.jsonl") for name in ("test", "dev", "blind", "holdout", "stations")],
        "--exclude",
        help="JSONL files whose sentences must never be generated (missing files are skipped)",
    ),
    label_single_end: bool = typer.Option(
        True,
        "--label-single-end/--no-label-single-end",
        help="Give the one end of an INVALID one-ended request its DEPART/ARRIVEE span",
    ),
) -> None:
    """Generate the French travel corpus (templates × gazetteer × noise) as JSONL."""
    import time

    from .generate import generate_corpus, read_sentence_keys
    from .records import write_records

    start = time.perf_counter()
    try:
        train, dev = generate_corpus(
            seed=seed,
            n_train=n_train,
            n_dev=n_dev,
            noise_rate=noise_rate,
            exclude_texts=read_sentence_keys(exclude),
            label_single_end=label_single_end,
        )
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    write_records(train, output_dir / "train.jsonl")
    write_records(dev, output_dir / "dev.jsonl")
    typer.echo(f"{len(train)} train and {len(dev)} dev records in {output_dir} ({time.perf_counter() - start:.1f}s)")


@app.command("convert")
def convert_command(
    paths: List[Path] = typer.Argument(
        ...,
        metavar="INPUT OUTPUT [INPUT OUTPUT]...",
        help="Travel JSONL file and the .spacy file to write, pair by pair",
    ),
    lang: str = typer.Option("fr", "--lang", help="Language of the blank tokenizer"),
    rewrite: bool = typer.Option(
        True, "--rewrite/--no-rewrite", help="Store doc._.rewrite (a rewriter's target; slows reading)"
    ),
) -> None:
    """Convert travel JSONL to a DocBin: spans as doc.ents, target string as
    doc._.rewrite (--no-rewrite: a corpus for the recognizer alone, read 3 times faster).
    Several pairs are converted in one process (spaCy is started once)."""
    from .docbin import convert_file

    if len(paths) % 2:
        raise typer.BadParameter(
            f"give each INPUT its OUTPUT: {len(paths)} paths is not a number of pairs", param_hint="INPUT OUTPUT"
        )
    pairs = list(zip(paths[::2], paths[1::2]))
    for input_path, _ in pairs:
        if not input_path.is_file():
            raise typer.BadParameter(f"no such file: {input_path}", param_hint="INPUT")
    for input_path, output_path in pairs:
        try:
            n = convert_file(input_path, output_path, lang=lang, rewrite=rewrite)
        except ValueError as e:
            typer.echo(f"{input_path}: {e}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"{n} docs written to {output_path}")


@app.command("split-writers")
def split_writers_command(
    source: Path = typer.Argument(..., help="Written requests, one JSON record per line, each with its writer"),
    kept: Path = typer.Argument(..., help="Where to write the other writers' requests (JSONL)"),
    held_out: Path = typer.Argument(..., help="Where to write the held-out writers' requests (JSONL)"),
    writers: str = typer.Option(..., "--writers", help="The writers to hold out, comma-separated: w10,w11"),
) -> None:
    """Split written requests by writer: a pipeline trained without some writers, scored on them, is
    a proxy of writers it never learned from whose requests may be read (the project's `heldout`
    workflow). Each line goes to one file, as it was."""
    from .records import split_by_writer

    names = [w.strip() for w in writers.split(",") if w.strip()]
    if not names:
        raise typer.BadParameter("name at least one writer", param_hint="--writers")
    if not source.is_file():
        raise typer.BadParameter(f"no such file: {source}", param_hint="SOURCE")
    try:
        n_kept, n_held = split_by_writer(source, kept, held_out, set(names))
    except ValueError as e:
        typer.echo(f"{source}: {e}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{n_held} requests of {', '.join(names)} to {held_out}; {n_kept} of the other writers to {kept}")
