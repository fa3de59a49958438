"""The travel application's commands: generate, convert, resolve, evaluate-trips."""
from pathlib import Path

import typer

from . import app

@app.command("generate")
def generate_command(
    output_dir: Path = typer.Argument(..., help="Folder for train.jsonl and dev.jsonl"),
    seed: int = typer.Option(0, "--seed", help="Same seed, byte-identical files"),
    n_train: int = typer.Option(8000, "--n-train", help="Training sentences"),
    n_dev: int = typer.Option(1500, "--n-dev", help="Dev sentences (held-out phrasings and places)"),
    noise_rate: float = typer.Option(0.5, "--noise-rate", help="Share of sentences with typing noise"),
    exclude: list[Path] = typer.Option(
        [Path("corpus/test.jsonl"), Path("corpus/dev.jsonl"), Path("corpus/blind.jsonl")], "--exclude",
        help="JSONL files whose sentences must never be generated (missing files are skipped)",
    ),
    label_single_end: bool = typer.Option(
        True, "--label-single-end/--no-label-single-end",
        help="Give the one end of an INVALID one-ended request its DEPART/ARRIVEE span",
    ),
) -> None:
    """Generate the French travel corpus (templates × gazetteer × noise) as JSONL."""
    import time

    from ..travel.generate import generate_corpus, read_sentence_keys
    from ..travel.records import write_records

    start = time.perf_counter()
    try:
        train, dev = generate_corpus(
            seed=seed, n_train=n_train, n_dev=n_dev, noise_rate=noise_rate,
            exclude_texts=read_sentence_keys(exclude), label_single_end=label_single_end,
        )
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    write_records(train, output_dir / "train.jsonl")
    write_records(dev, output_dir / "dev.jsonl")
    typer.echo(
        f"{len(train)} train and {len(dev)} dev records in {output_dir} "
        f"({time.perf_counter() - start:.1f}s)"
    )


@app.command("convert")
def convert_command(
    input_path: Path = typer.Argument(..., help="Travel JSONL file", exists=True, dir_okay=False),
    output_path: Path = typer.Argument(..., help=".spacy file to write"),
    lang: str = typer.Option("fr", "--lang", help="Language of the blank tokenizer"),
) -> None:
    """Convert travel JSONL to a DocBin: spans as doc.ents, target string as doc._.rewrite."""
    from ..travel.docbin import convert_file

    try:
        n = convert_file(input_path, output_path, lang=lang)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    typer.echo(f"{n} docs written to {output_path}")


@app.command("resolve")
def resolve_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    input_path: str = typer.Argument("-", metavar="INPUT", help="sentenceID,sentence CSV; '-' for stdin"),
    output: Path = typer.Option(None, "--output", "-o", help="Answers CSV (default: stdout)"),
    batch_size: int = typer.Option(64, "--batch-size", "-b", help="Sentences per nlp.pipe batch"),
) -> None:
    """Travel Order Resolver: answer `sentenceID,departure,arrival[,step...]` or
    `sentenceID,INVALID` for every order, in order. Malformed lines are reported on
    stderr with their line number and answered INVALID."""
    import sys

    import spacy

    from ..travel.tor import prepare_pipeline, resolve_orders

    try:
        nlp = prepare_pipeline(spacy.load(model))
    except (OSError, ValueError) as e:
        typer.echo(f"Cannot use model '{model}': {e}", err=True)
        raise typer.Exit(2)
    if input_path != "-" and not Path(input_path).is_file():
        typer.echo(f"No such input file: {input_path}", err=True)
        raise typer.Exit(2)
    stream = sys.stdin.buffer if input_path == "-" else open(input_path, "rb")
    out = sys.stdout if output is None else open(output, "w", encoding="utf8", newline="")
    try:
        counts = resolve_orders(nlp, stream, out, batch_size=batch_size)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
        if out is not sys.stdout:
            out.close()
    typer.echo(
        f"{counts['orders']} orders: {counts['valid']} trips, {counts['invalid']} INVALID "
        f"({counts['malformed']} malformed lines)",
        err=True,
    )


@app.command("evaluate-trips")
def evaluate_trips_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    data: Path = typer.Argument(..., help="JSONL with text, spans and trip (e.g. corpus/test.jsonl)"),
    output: Path = typer.Option(None, "--output", "-o", help="Write the figures as JSON"),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="Also score fr_core_news_md + rules"),
    errors: Path = typer.Option(None, "--errors", help="Write the wrong trips as JSONL"),
) -> None:
    """Per-label entity P/R/F, validity accuracy and trip accuracy (both ends
    right, or correctly INVALID), beside a fr_core_news_md + rules baseline."""
    from ..travel.evaluate import evaluate_trips

    if not data.is_file():
        typer.echo(f"No such data file: {data}", err=True)
        raise typer.Exit(2)
    try:
        evaluate_trips(model, data, output=output, baseline=baseline, errors_path=errors)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
